//===--- LambdaThisCaptureCheck.cpp - cuda-lambda-tidy ------------------===//

#include "LambdaThisCaptureCheck.h"
#include "utils/AncestorWalk.h"
#include "utils/BoolOption.h"
#include "utils/ClosureCopy.h"
#include "utils/EnclosingVariableUses.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// The expressions in a lambda's body that use the enclosing object's
/// `this`: explicit or implicit `this`, and implicit member accesses that a
/// template pattern leaves unresolved. Nested lambdas are searched (their
/// uses make the outer lambda capture `this` too); local classes are not
/// (their `this` is their own), nor are unevaluated operands.
class ThisUseFinder : public RecursiveASTVisitor<ThisUseFinder> {
public:
  llvm::SmallVector<const Expr *, 4> Uses;

  bool TraverseCXXRecordDecl(CXXRecordDecl *Record) {
    return Record->isLambda()
               ? RecursiveASTVisitor::TraverseCXXRecordDecl(Record)
               : true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }

  bool VisitCXXThisExpr(CXXThisExpr *This) {
    Uses.push_back(This);
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *Member) {
    if (Member->isImplicitAccess())
      Uses.push_back(Member);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *Member) {
    if (Member->isImplicitAccess())
      Uses.push_back(Member);
    return true;
  }
};

/// How a use of `this` reaches the object: which member, and whether it
/// only reads it (so that a const copy captured by `*this` behaves alike).
struct ThisUse {
  const Expr *Where = nullptr;
  const NamedDecl *Member = nullptr;
  bool IsCall = false;
  bool ReadOnly = false;
};

class ThisUseAnalysis {
public:
  /// \p Above: the nodes above \p Use, up to the lambda.
  ThisUse analyze(const Expr *Use, const utils::Ancestry &Above) {
    this->Above = &Above;
    ThisUse Result;
    Result.Where = Use;
    if (const auto *Unresolved = dyn_cast<UnresolvedMemberExpr>(Use)) {
      describeOverloads(*Unresolved, Result);
      return Result;
    }
    if (isa<CXXDependentScopeMemberExpr>(Use))
      return Result; // a member of a dependent base: nothing is known
    const Expr *Object = Use;
    const Stmt *Parent = parentOf(Object);
    // `this` converted to a base class for a member of that base.
    while (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent)) {
      if (Cast->getCastKind() != CK_UncheckedDerivedToBase &&
          Cast->getCastKind() != CK_DerivedToBase &&
          Cast->getCastKind() != CK_NoOp)
        break;
      Object = Cast;
      Parent = parentOf(Object);
    }
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent)) {
      Result.Where = Member;
      Result.Member = Member->getMemberDecl();
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Result.Member)) {
        Result.IsCall = true;
        Result.ReadOnly = Method->isConst() || Method->isStatic();
      } else {
        Result.ReadOnly = isa<FieldDecl>(Result.Member)
                              ? isReadOnlyObject(Member)
                              : true;
      }
    } else if (const auto *Unresolved =
                   dyn_cast_or_null<UnresolvedMemberExpr>(Parent)) {
      describeOverloads(*Unresolved, Result);
    }
    return Result;
  }

private:
  const utils::Ancestry *Above = nullptr;

  /// The parent of \p E, skipping parentheses; null at the top or when the
  /// parent is a declaration.
  const Stmt *parentOf(const Stmt *E) {
    for (;;) {
      const auto *Parent = Above->parentOf(*E).get<Stmt>();
      if (!isa_and_nonnull<ParenExpr>(Parent))
        return Parent;
      E = Parent;
    }
  }

  /// An implicit call in a template pattern: read-only when every candidate
  /// is a const or static member function.
  static void describeOverloads(const UnresolvedMemberExpr &Member,
                                ThisUse &Result) {
    Result.Where = &Member;
    Result.IsCall = true;
    Result.ReadOnly = true;
    for (const NamedDecl *Candidate : Member.decls()) {
      const auto *Method =
          dyn_cast<CXXMethodDecl>(Candidate->getUnderlyingDecl()->getAsFunction());
      if (!Method || !(Method->isConst() || Method->isStatic()))
        Result.ReadOnly = false;
      if (!Result.Member)
        Result.Member = Candidate->getUnderlyingDecl();
    }
  }

  /// Whether the lvalue \p Object (a member of `*this`, or part of one) is
  /// only read where it appears: copied out, or read through as a pointer.
  bool isReadOnlyObject(const Expr *Object) {
    const Stmt *Parent = parentOf(Object);
    if (!Parent) {
      // `T copy = member;` in a template pattern, where no cast is written.
      if (const auto *Var = Above->parentOf(*Object).get<VarDecl>())
        return !Var->getType()->isReferenceType() ||
               Var->getType().getNonReferenceType().isConstQualified();
      return false;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
        return true;
      case CK_ArrayToPointerDecay:
        return isReadOnlyElement(Cast);
      case CK_NoOp:
        return Cast->getType().isConstQualified();
      default:
        return false;
      }
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
      if (Member->getBase()->IgnoreParenImpCasts() != Object->IgnoreParens())
        return false;
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl()))
        return Method->isConst() || Method->isStatic();
      return isReadOnlyObject(Member);
    }
    // What follows only appears in template patterns, where operands of
    // dependent type carry no implicit conversions.
    if (!Object->isTypeDependent())
      return false;
    if (const auto *Binary = dyn_cast<BinaryOperator>(Parent))
      return !(Binary->isAssignmentOp() &&
               Binary->getLHS()->IgnoreParens() == Object->IgnoreParens());
    if (const auto *Unary = dyn_cast<UnaryOperator>(Parent))
      return !Unary->isIncrementDecrementOp() && Unary->getOpcode() != UO_AddrOf;
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Parent))
      return Subscript->getBase()->IgnoreParens() == Object->IgnoreParens() &&
             (Object->getType()->isPointerType() ||
              isReadOnlyObject(Subscript));
    return false;
  }

  /// \p Decayed points into an array member: read-only when the element
  /// it designates is.
  bool isReadOnlyElement(const Expr *Decayed) {
    const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(parentOf(Decayed));
    return Subscript && Subscript->getBase() == Decayed &&
           isReadOnlyObject(Subscript);
  }
};

/// Why the `*this` fix-it is withheld, in the order of the diagnostic's
/// %select.
enum class NoFixReason {
  None,
  BeforeCpp17,
  NotTriviallyCopyable,
  ReferenceMember,
  TooLarge,
  Writes,
  Dependent,
  Incomplete,
  Macro,
  ByReferenceDefault,
};

NoFixReason reasonFor(utils::ClosureCopyBlocker Blocker) {
  switch (Blocker) {
  case utils::ClosureCopyBlocker::None:
    return NoFixReason::None;
  case utils::ClosureCopyBlocker::NotTriviallyCopyable:
    return NoFixReason::NotTriviallyCopyable;
  case utils::ClosureCopyBlocker::ReferenceMember:
    return NoFixReason::ReferenceMember;
  case utils::ClosureCopyBlocker::TooLarge:
    return NoFixReason::TooLarge;
  case utils::ClosureCopyBlocker::Dependent:
    return NoFixReason::Dependent;
  case utils::ClosureCopyBlocker::Incomplete:
    return NoFixReason::Incomplete;
  }
  llvm_unreachable("unknown blocker");
}

/// Whether the `[&]` default of \p Lambda is rewritten to `[=]` by
/// cuda-lambda-reference-capture (no explicit by-copy or `this` capture).
bool defaultBecomesByCopy(const LambdaExpr &Lambda) {
  for (const LambdaCapture &Capture : Lambda.explicit_captures())
    if (!Lambda.isInitCapture(&Capture) &&
        (Capture.getCaptureKind() == LCK_This ||
         (Capture.capturesVariable() &&
          Capture.getCaptureKind() == LCK_ByCopy)))
      return false;
  return true;
}

} // namespace

LambdaThisCaptureCheck::LambdaThisCaptureCheck(StringRef Name,
                                               ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      StrictHostDevice(utils::getBoolOption(Options, "StrictHostDevice", true)) {}

void LambdaThisCaptureCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  utils::storeBoolOption(Options, Opts, "StrictHostDevice", StrictHostDevice);
}

void LambdaThisCaptureCheck::registerMatchers(MatchFinder *Finder) {
  // In a class template the pattern already records the capture of `this`
  // wherever a member is named (clang captures it eagerly, even for calls it
  // resolves only at instantiation); matching the pattern reports each
  // lambda once.
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

void LambdaThisCaptureCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const LambdaCapture *ThisCapture = nullptr;
  for (const LambdaCapture &Capture : Lambda->captures())
    if (Capture.capturesThis() && Capture.getCaptureKind() == LCK_This)
      ThisCapture = &Capture;
  if (!ThisCapture)
    return; // no `this`, or `[*this]`

  // `this` is a host pointer when the enclosing member function runs on the
  // host; in a __host__ __device__ one it is a host pointer only on calls
  // from the host.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(
      utils::enclosingFunctionOf(*Lambda).Function);
  if (!Method || Method->isStatic())
    return;
  const utils::ExecutionSpace Space = utils::executionSpaceOf(*Method);
  if (Space != utils::ExecutionSpace::Host &&
      !(StrictHostDevice && Space == utils::ExecutionSpace::HostDevice))
    return;
  const CXXRecordDecl *Record = Method->getParent();

  ASTContext &Context = *Result.Context;
  ThisUseFinder Finder;
  Finder.TraverseStmt(Lambda->getBody());
  llvm::sort(Finder.Uses, [&](const Expr *A, const Expr *B) {
    return Context.getSourceManager().isBeforeInTranslationUnit(
        A->getBeginLoc(), B->getBeginLoc());
  });
  llvm::SmallVector<DynTypedNode, 4> UseNodes;
  for (const Expr *Use : Finder.Uses)
    UseNodes.push_back(DynTypedNode::create(*Use));
  const llvm::DenseMap<DynTypedNode, utils::Ancestry> Ancestries =
      utils::ancestriesBelow(DynTypedNode::create(*Lambda), UseNodes);
  ThisUseAnalysis Analysis;
  llvm::SmallVector<ThisUse, 4> Uses;
  for (const Expr *Use : Finder.Uses)
    Uses.push_back(
        Analysis.analyze(Use, Ancestries.lookup(DynTypedNode::create(*Use))));

  const bool Explicit = ThisCapture->isExplicit();
  const SourceLocation Loc =
      Explicit ? ThisCapture->getLocation() : Lambda->getCaptureDefaultLoc();
  const bool ByRefDefault = Lambda->getCaptureDefault() == LCD_ByRef;

  NoFixReason Reason = NoFixReason::None;
  if (!Result.Context->getLangOpts().CPlusPlus17)
    Reason = NoFixReason::BeforeCpp17;
  else if (NoFixReason Blocker =
               reasonFor(utils::closureCopyBlockerOf(*Record, Context));
           Blocker != NoFixReason::None)
    Reason = Blocker;
  else if (llvm::any_of(Uses, [](const ThisUse &U) { return !U.ReadOnly; }))
    Reason = NoFixReason::Writes;
  else if (!Loc.isFileID())
    Reason = NoFixReason::Macro;
  else if (ByRefDefault && (Explicit || !defaultBecomesByCopy(*Lambda)))
    Reason = NoFixReason::ByReferenceDefault;

  // With a fix-it, the message names it; without one, it says why not,
  // except where the fix is withheld for reasons of our own (a macro, or a
  // '[&]' that cuda-lambda-reference-capture will not rewrite).
  const bool Fixable = Reason == NoFixReason::None ||
                       Reason == NoFixReason::Macro ||
                       Reason == NoFixReason::ByReferenceDefault;
  // Where the '[=]' also first-captures something inside an 'if constexpr',
  // cuda-lambda-if-constexpr-capture needs the whole default spelled out and
  // leaves 'this' to this check: the list, with '*this', is the one fix.
  std::string Suggested = Explicit ? "*this" : "[=, *this]";
  bool ReplaceDefault = false;
  if (!Explicit && Lambda->getCaptureDefault() == LCD_ByCopy) {
    const utils::DefaultCaptures Captures = utils::defaultCapturesOf(*Lambda);
    if (!Captures.UsesPack && Captures.anyFirstInIfConstexpr()) {
      ReplaceDefault = true;
      Suggested = "[" + Captures.spelled(/*CopyThis=*/true) + "]";
    }
  }
  {
    auto Diag =
        diag(Loc, "extended %0 lambda captures 'this'%select{| through its "
                  "'[=]' default| through its '[&]' default}1, a host pointer "
                  "to '%2' that the device cannot dereference; %select{"
                  "capture a copy with '%4'|copy the members it uses into "
                  "local variables and capture those instead}3%select{| "
                  "('*this' captures need C++17)| ('%2' is not trivially "
                  "copyable)| ('%2' has reference members)| ('%2' is larger "
                  "than 4 KiB)| (the lambda modifies '%2' or takes its "
                  "address)| ('%2' depends on template parameters)| ('%2' is "
                  "incomplete)}5")
        << utils::spelling(utils::extendedLambdaKindOf(*Lambda))
        << (Explicit ? 0 : ByRefDefault ? 2 : 1) << Record->getName()
        << (Fixable ? 0 : 1) << Suggested
        << (Fixable ? 0 : static_cast<int>(Reason) + 0);
    if (Reason == NoFixReason::None) {
      if (ReplaceDefault)
        Diag << FixItHint::CreateReplacement(
            CharSourceRange::getTokenRange(Loc, Loc),
            Suggested.substr(1, Suggested.size() - 2));
      else if (Explicit)
        Diag << FixItHint::CreateInsertion(Loc, "*");
      else
        Diag << FixItHint::CreateInsertion(Loc.getLocWithOffset(1),
                                           ", *this");
    }
  }

  if (Uses.empty())
    return;
  const ThisUse &First = Uses.front();
  if (First.Member)
    diag(First.Where->getExprLoc(),
         "'this' is captured for this %select{use of member|call to member "
         "function}0 '%1'",
         DiagnosticIDs::Note)
        << (First.IsCall ? 1 : 0) << First.Member->getName();
  else
    diag(First.Where->getExprLoc(), "'this' is captured for this use",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::cuda

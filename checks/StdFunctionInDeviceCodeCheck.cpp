//===--- StdFunctionInDeviceCodeCheck.cpp - cuda-lambda-tidy ------------===//

#include "StdFunctionInDeviceCodeCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

static constexpr llvm::StringLiteral UseTemplateInstead =
    "take the callable as a template parameter, or create an "
    "'nvstd::function' on the device";

/// The device function whose body is being looked at, for diagnostics.
struct StdFunctionInDeviceCodeCheck::DeviceContext {
  StringRef Space; // "__global__", "__device__" or "__host__ __device__"
  bool IsLambda = false;
  std::string Name;
};

namespace {

/// The declaration an object expression is rooted at: `g` in `g(1)`,
/// `op` in `op.fn(1)`, `this` in `hook(1)`; and the innermost named entity,
/// the one whose type is the std::function (`fn`, `hook`).
struct Root {
  const ValueDecl *Base = nullptr;
  bool ViaThis = false;
  const ValueDecl *Named = nullptr;
};

Root rootOf(const Expr *E) {
  Root R;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (!R.Named)
        R.Named = Member->getMemberDecl();
      E = Member->getBase();
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase();
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(E);
               Unary && Unary->getOpcode() == UO_Deref) {
      E = Unary->getSubExpr();
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      R.Base = Ref->getDecl();
      if (!R.Named)
        R.Named = R.Base;
      break;
    } else {
      R.ViaThis = isa<CXXThisExpr>(E);
      break;
    }
  }
  return R;
}

/// The implicit object of a call to a member of std::function, or null.
const Expr *stdFunctionObjectOf(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    if (Method && utils::isStdFunctionClass(*Method->getParent()))
      return Op->getArg(0);
    return nullptr;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && utils::isStdFunctionClass(*Method->getParent()))
      return Member->getImplicitObjectArgument();
  }
  return nullptr;
}

bool isExtendedHostDeviceLambdaOperator(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  return Method && isLambdaCallOperator(Method) &&
         utils::hasExplicitDeviceAttr(*Method) &&
         utils::hasExplicitHostAttr(*Method);
}

QualType spelled(QualType Type) {
  if (std::optional<utils::StdFunctionInType> Found =
          utils::findStdFunctionIn(Type))
    return Found->FunctionType;
  return Type;
}

/// Whether the std::function sits in a lambda's closure: its capture is
/// reported at the lambda, not again where the closure is passed on.
bool isInsideClosure(const utils::StdFunctionInType &Found) {
  return llvm::any_of(Found.Members, [](const FieldDecl *Member) {
    return Member->getParent()->isLambda();
  });
}

/// One finding in a device body, in the order met.
struct Finding {
  enum KindT { Local, Use, Temporary, HostDeviceCall } Kind;
  SourceLocation Loc;
  const NamedDecl *Decl = nullptr;       // Local, Use
  utils::StdFunctionInType Found;        // the std::function reached
  bool Copied = false;                   // Use: copied rather than called
  const FunctionDecl *Callee = nullptr;  // HostDeviceCall
  SourceLocation CalleeUse;              // HostDeviceCall: where it uses one
  const FunctionDecl *Through = nullptr; // HostDeviceCall: by calling this
};

using HostDeviceMemo =
    llvm::DenseMap<const FunctionDecl *,
                   std::optional<StdFunctionInDeviceCodeCheck::HostDeviceUse>>;

std::optional<StdFunctionInDeviceCodeCheck::HostDeviceUse>
firstUseInHostDevice(const FunctionDecl &Function, HostDeviceMemo &Memo);

/// Walks one function body (not the lambdas or classes inside it, which are
/// functions of their own) and collects every place a std::function enters.
/// Uses of a declaration already reported (a parameter, a local, a capture)
/// are not entries of their own.
class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
  using Base = RecursiveASTVisitor<BodyVisitor>;

public:
  BodyVisitor(HostDeviceMemo &Memo, bool StopAtFirst)
      : Memo(Memo), StopAtFirst(StopAtFirst) {}

  llvm::SmallPtrSet<const Decl *, 8> Reported;
  bool ThisReported = false;
  std::vector<Finding> Findings;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

  bool TraverseVarDecl(VarDecl *Var) {
    const bool Saved = InReportedInit;
    const bool Result = Base::TraverseVarDecl(Var);
    InReportedInit = Saved;
    return Result;
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var) || !Var->isLocalVarDeclOrParm())
      return true;
    if (std::optional<utils::StdFunctionInType> Found =
            utils::findStdFunctionIn(Var->getType())) {
      if (isInsideClosure(*Found))
        return true;
      Reported.insert(Var);
      InReportedInit = true;
      return add({Finding::Local, Var->getLocation(), Var, *Found});
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (const Expr *Object = stdFunctionObjectOf(*Call))
      return use(Object, Call->getBeginLoc(), /*Copied=*/false);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee) &&
                       isLambdaCallOperator(cast<CXXMethodDecl>(Callee)))
      return true;
    if (utils::executionSpaceOf(*Callee) != utils::ExecutionSpace::HostDevice)
      return true;
    if (!CalledHostDevice.insert(Callee->getCanonicalDecl()).second)
      return true;
    if (std::optional<StdFunctionInDeviceCodeCheck::HostDeviceUse> Use =
            firstUseInHostDevice(*Callee, Memo)) {
      Finding F{Finding::HostDeviceCall, Call->getBeginLoc()};
      F.Found.FunctionType = Use->Type;
      F.Callee = Callee;
      F.CalleeUse = Use->Loc;
      F.Through = Use->Through;
      return add(F);
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    if (InReportedInit || !utils::isStdFunction(Construct->getType()))
      return true;
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && (Ctor->isCopyOrMoveConstructor()) &&
        Construct->getNumArgs() >= 1)
      return use(Construct->getArg(0), Construct->getBeginLoc(),
                 /*Copied=*/true);
    Finding F{Finding::Temporary, Construct->getBeginLoc()};
    F.Found.FunctionType = spelled(Construct->getType());
    return add(F);
  }

  // In a __device__ or __global__ function clang resolves no call to, and no
  // construction through, std::function's host members: what is left is a
  // RecoveryExpr around the std::function operand.
  bool VisitRecoveryExpr(RecoveryExpr *Recovery) {
    if (InReportedInit)
      return true;
    const bool Creates = utils::isStdFunction(Recovery->getType());
    for (const Expr *Sub : Recovery->subExpressions()) {
      if (!Sub || !utils::isStdFunction(Sub->getType()))
        continue;
      if (Creates && !rootOf(Sub).Named)
        continue;
      return use(Sub, Recovery->getBeginLoc(), /*Copied=*/Creates);
    }
    if (!Creates)
      return true;
    Finding F{Finding::Temporary, Recovery->getBeginLoc()};
    F.Found.FunctionType = spelled(Recovery->getType());
    return add(F);
  }

private:
  HostDeviceMemo &Memo;
  bool StopAtFirst;
  bool InReportedInit = false;
  llvm::SmallPtrSet<const Decl *, 8> UsedDecls;
  llvm::SmallPtrSet<const Decl *, 4> CalledHostDevice;

  bool add(Finding F) {
    Findings.push_back(std::move(F));
    return !StopAtFirst;
  }

  bool use(const Expr *Object, SourceLocation Loc, bool Copied) {
    Root R = rootOf(Object);
    if ((R.Base && Reported.count(R.Base)) || (R.ViaThis && ThisReported))
      return true;
    // An unnamed object is a temporary, reported where it is created.
    if (!R.Named || !UsedDecls.insert(R.Named).second)
      return true;
    Finding F{Finding::Use, Loc, R.Named};
    F.Found.FunctionType = spelled(Object->getType());
    F.Copied = Copied;
    return add(F);
  }
};

std::optional<StdFunctionInDeviceCodeCheck::HostDeviceUse>
firstUseInHostDevice(const FunctionDecl &Function, HostDeviceMemo &Memo) {
  const FunctionDecl *Pattern = Function.getTemplateInstantiationPattern();
  if (!Pattern)
    Pattern = &Function;
  const FunctionDecl *Definition = nullptr;
  if (!Pattern->hasBody(Definition) || !Definition)
    return std::nullopt;
  const SourceManager &SM = Definition->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(Definition->getLocation()))
    return std::nullopt;
  auto [It, Inserted] = Memo.try_emplace(Definition, std::nullopt);
  if (!Inserted)
    return It->second; // known, or being computed (a cycle): nothing new
  BodyVisitor Visitor(Memo, /*StopAtFirst=*/true);
  // What comes in through the parameters was created by the caller, and is
  // reported there.
  for (const ParmVarDecl *Param : Definition->parameters())
    Visitor.Reported.insert(Param);
  Visitor.TraverseStmt(Definition->getBody());
  if (Visitor.Findings.empty())
    return std::nullopt;
  const Finding &First = Visitor.Findings.front();
  StdFunctionInDeviceCodeCheck::HostDeviceUse Use{
      First.Loc, First.Found.FunctionType, First.Callee};
  Memo[Definition] = Use;
  return Use;
}

/// A function definition as written (a template's pattern) outside system
/// headers, not a lambda's call operator: a std::function in a template is
/// there for every instantiation, and lambdas are matched themselves.
bool isFunctionDefinitionAsWritten(const FunctionDecl &Function,
                                   ASTContext &Context) {
  if (!Function.isThisDeclarationADefinition() ||
      utils::isTemplateInstantiation(Function) ||
      utils::isInstantiated(Function))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
      Method && isLambdaCallOperator(Method))
    return false;
  return !utils::isExpansionInSystemHeader(Function.getBeginLoc(),
                                           Context.getSourceManager());
}

/// An extended lambda outside system headers in a template instantiation.
bool isInstantiatedExtendedLambda(const LambdaExpr &Lambda,
                                  ASTContext &Context) {
  return utils::isExtendedLambda(Lambda) &&
         !utils::isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                           Context.getSourceManager()) &&
         utils::isInTemplateInstantiation(Lambda);
}

/// A launch outside system headers.
bool isLaunchOutsideSystemHeader(const CUDAKernelCallExpr &Launch,
                                 ASTContext &Context) {
  return !utils::isExpansionInSystemHeader(Launch.getBeginLoc(),
                                           Context.getSourceManager());
}

} // namespace

void StdFunctionInDeviceCodeCheck::registerMatchers(MatchFinder *Finder) {
  // Functions and lambdas are matched as written (their patterns): a
  // std::function in a template is there for every instantiation.
  NodeMatches.push_back(utils::matchNodes<FunctionDecl>(
      *Finder, this, isFunctionDefinitionAsWritten, "function"));
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::AsWritten);
  // A lambda in a function template captures a std::function only in the
  // instantiation that makes a captured variable one.
  NodeMatches.push_back(utils::matchNodes<LambdaExpr>(
      *Finder, this, isInstantiatedExtendedLambda, "instantiated-lambda"));
  NodeMatches.push_back(utils::matchNodes<CUDAKernelCallExpr>(
      *Finder, this, isLaunchOutsideSystemHeader, "launch"));
}

void StdFunctionInDeviceCodeCheck::check(
    const MatchFinder::MatchResult &Result) {
  if (const auto *Launch =
          Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch")) {
    checkLaunch(*Launch);
    return;
  }
  if (const auto *Lambda =
          Result.Nodes.getNodeAs<LambdaExpr>("instantiated-lambda")) {
    checkCaptures(*Lambda);
    return;
  }
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda")) {
    const CXXMethodDecl *CallOperator = Lambda->getCallOperator();
    const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(*Lambda);
    if (Kind != utils::ExtendedLambdaKind::None)
      checkCaptures(*Lambda);
    const utils::ExecutionSpace Space = utils::executionSpaceOf(*CallOperator);
    // An extended __host__ __device__ lambda exists to be sent to the
    // device, so its body counts as device code; a plain host-device
    // function only through the device code that calls it.
    if (Kind == utils::ExtendedLambdaKind::None &&
        (!utils::runsOnDevice(Space) ||
         Space == utils::ExecutionSpace::HostDevice))
      return;
    DeviceContext Ctx{utils::spelling(Space), /*IsLambda=*/true, ""};
    checkDeviceBody(*CallOperator, Ctx, Lambda);
    return;
  }
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  const utils::ExecutionSpace Space = utils::executionSpaceOf(*Function);
  if (Space != utils::ExecutionSpace::Device &&
      Space != utils::ExecutionSpace::Global)
    return;
  DeviceContext Ctx{utils::spelling(Space), /*IsLambda=*/false,
                    Function->getNameAsString()};
  checkDeviceBody(*Function, Ctx, nullptr);
}

/// The capture of \p Lambda whose closure member has type \p Field, when it
/// holds a std::function by value (a by-reference capture is the business of
/// cuda-lambda-reference-capture).
static std::optional<utils::StdFunctionInType>
capturedStdFunction(const FieldDecl *Field) {
  if (!Field || Field->getType()->isReferenceType())
    return std::nullopt;
  return utils::findStdFunctionIn(Field->getType());
}

void StdFunctionInDeviceCodeCheck::checkCaptures(const LambdaExpr &Lambda) {
  const CXXRecordDecl *Closure = Lambda.getLambdaClass();
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  Closure->getCaptureFields(Fields, ThisField);
  const StringRef KindName =
      utils::spelling(utils::extendedLambdaKindOf(Lambda));
  for (const LambdaCapture &Capture : Lambda.captures()) {
    const FieldDecl *Field = nullptr;
    std::string Name;
    if (Capture.capturesThis() && Capture.getCaptureKind() == LCK_StarThis) {
      Field = ThisField;
      Name = "*this";
    } else if (Capture.capturesVariable()) {
      Field = Fields.lookup(Capture.getCapturedVar());
      Name = Capture.getCapturedVar()->getName().str();
    }
    std::optional<utils::StdFunctionInType> Found = capturedStdFunction(Field);
    // Inside another closure (a library's device lambda wrapping the
    // user's): reported once, at the capture of the lambda that holds it,
    // which the user can change; a host lambda's would not compile anyway.
    if (!Found || isInsideClosure(*Found))
      continue;
    diag(Capture.getLocation(),
         "extended %0 lambda captures '%1', which %select{is|points to|holds}2 "
         "a "
         "%3%select{|| in member '%4'}2, whose host-only code cannot run on "
         "the device; capture the callable itself, or create an "
         "'nvstd::function' on the device")
        << KindName << Name << Found->How << Found->FunctionType
        << Found->memberPath();
  }
}

void StdFunctionInDeviceCodeCheck::checkDeviceBody(const FunctionDecl &Function,
                                                   const DeviceContext &Ctx,
                                                   const LambdaExpr *Lambda) {
  HostDeviceMemo &Memo = HostDeviceUses;
  BodyVisitor Visitor(Memo, /*StopAtFirst=*/false);

  for (const ParmVarDecl *Param : Function.parameters()) {
    std::optional<utils::StdFunctionInType> Found =
        utils::findStdFunctionIn(Param->getType());
    if (!Found || isInsideClosure(*Found))
      continue;
    Visitor.Reported.insert(Param);
    diag(Param->getLocation(),
         "parameter '%0' of %1 %select{function '%3'|lambda}2 "
         "%select{is|points to|holds}4 a %5%select{|| in member '%6'}4, whose "
         "host-only "
         "code cannot run on the device; %7")
        << Param->getName() << Ctx.Space << Ctx.IsLambda << Ctx.Name
        << Found->How << Found->FunctionType << Found->memberPath()
        << UseTemplateInstead;
  }
  if (Lambda) {
    // Captures reported at the capture are not reported again where used.
    const CXXRecordDecl *Closure = Lambda->getLambdaClass();
    llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
    FieldDecl *ThisField = nullptr;
    Closure->getCaptureFields(Fields, ThisField);
    if (utils::isExtendedLambda(*Lambda)) {
      for (const auto &[Var, Field] : Fields)
        if (capturedStdFunction(Field))
          Visitor.Reported.insert(Var);
      Visitor.ThisReported =
          ThisField && capturedStdFunction(ThisField).has_value();
    }
  }
  if (!Function.getBody())
    return;
  Visitor.TraverseStmt(Function.getBody());

  for (const Finding &F : Visitor.Findings) {
    switch (F.Kind) {
    case Finding::Local:
      diag(
          F.Loc,
          "local variable '%0' in %1 %select{function '%3'|lambda}2 "
          "%select{is|points to|holds}4 a %5%select{|| in member '%6'}4, whose "
          "host-only code cannot run on the device; use the "
          "callable's own type ('auto' or a template parameter), or "
          "an 'nvstd::function'")
          << F.Decl->getName() << Ctx.Space << Ctx.IsLambda << Ctx.Name
          << F.Found.How << F.Found.FunctionType << F.Found.memberPath();
      break;
    case Finding::Use:
      diag(F.Loc, "%select{variable|member}0 '%1' is a %2 %select{called|"
                  "copied}3 in %4 %select{function '%6'|lambda}5, but its "
                  "host-only code cannot run on the device; %7")
          << isa<FieldDecl>(F.Decl) << F.Decl->getName() << F.Found.FunctionType
          << F.Copied << Ctx.Space << Ctx.IsLambda << Ctx.Name
          << UseTemplateInstead;
      break;
    case Finding::Temporary:
      diag(F.Loc, "%0 created in %1 %select{function '%3'|lambda}2, but its "
                  "host-only code cannot run on the device; %4")
          << F.Found.FunctionType << Ctx.Space << Ctx.IsLambda << Ctx.Name
          << UseTemplateInstead;
      break;
    case Finding::HostDeviceCall:
      diag(F.Loc, "%0 %select{function '%2'|lambda}1 calls __host__ "
                  "__device__ function '%3', which uses a %4 whose host-only "
                  "code cannot run on the device; %5")
          << Ctx.Space << Ctx.IsLambda << Ctx.Name
          << F.Callee->getNameAsString() << F.Found.FunctionType
          << UseTemplateInstead;
      diag(F.CalleeUse, "%select{%0 used here|call to '%2' reaches %0 here}1",
           DiagnosticIDs::Note)
          << F.Found.FunctionType << (F.Through != nullptr)
          << (F.Through ? F.Through->getNameAsString() : std::string());
      break;
    }
  }
}

void StdFunctionInDeviceCodeCheck::checkLaunch(
    const CUDAKernelCallExpr &Launch) {
  const FunctionDecl *Kernel = Launch.getDirectCallee();
  if (!Kernel)
    return;
  const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
  // A kernel that is not a template is reported at its own parameter.
  if (!Pattern || Pattern == Kernel)
    return;
  const unsigned Count = std::min<unsigned>(
      {Launch.getNumArgs(), Kernel->getNumParams(), Pattern->getNumParams()});
  for (unsigned I = 0; I < Count; ++I) {
    if (!Pattern->getParamDecl(I)->getType()->isDependentType())
      continue; // reported at the pattern's parameter
    std::optional<utils::StdFunctionInType> Found =
        utils::findStdFunctionIn(Kernel->getParamDecl(I)->getType());
    if (!Found || isInsideClosure(*Found))
      continue;
    diag(Launch.getArg(I)->getBeginLoc(),
         "argument to kernel '%0' %select{is|points to|holds}1 a %2%select{|| "
         "in "
         "member '%3'}1, whose host-only code cannot run on the device; pass "
         "the "
         "callable itself (a lambda or functor) instead")
        << Kernel->getNameAsString() << Found->How << Found->FunctionType
        << Found->memberPath();
  }
}

} // namespace clang::tidy::cuda

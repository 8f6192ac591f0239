//===--- LambdaClosureTraitCheck.cpp - cuda-lambda-tidy -----------------===//

#include "LambdaClosureTraitCheck.h"
#include "utils/ClangVersions.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/InstantiationChain.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/TypeTraits.h"
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

const CXXRecordDecl *closureIn(QualType T) {
  if (T.isNull())
    return nullptr;
  const auto *Record =
      T.getCanonicalType().getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->isLambda() ? Record : nullptr;
}

/// Whether \p Name (without `std::`/`cuda::std::` and `_v`) is a trait whose
/// answer on a closure type nvcc's two compilers may disagree on.
bool isLayoutTrait(StringRef Name) {
  Name.consume_back("_v");
  return Name.starts_with("is_trivial") || Name == "is_standard_layout" ||
         Name == "is_pod";
}

/// The library trait `std::X<Closure>` named by \p Spec, as written.
std::string libraryTrait(const NamedDecl &Template, ArrayRef<TemplateArgument> Args,
                         const CXXRecordDecl *&Closure) {
  std::string Name = utils::qualifiedNameWithoutInline(Template);
  StringRef Short = Name;
  if (!Short.consume_front("std::") && !Short.consume_front("cuda::std::"))
    return "";
  if (!isLayoutTrait(Short) || Args.empty() ||
      Args[0].getKind() != TemplateArgument::Type)
    return "";
  Closure = closureIn(Args[0].getAsType());
  return Closure ? Name : "";
}

struct TraitUse {
  const Expr *Where = nullptr;
  const CXXRecordDecl *Closure = nullptr;
  std::string What;
};

/// The first layout trait on a closure type in \p S; follows `constexpr`
/// variables of user code one level deep.
TraitUse findTrait(const Stmt *S, int Depth = 0) {
  if (!S)
    return {};
  if (const auto *Trait = dyn_cast<TypeTraitExpr>(S)) {
    StringRef Spelling = getTraitSpelling(Trait->getTrait());
    if (Trait->getNumArgs() > 0 && isLayoutTrait(Spelling.drop_front(2)))
      if (const CXXRecordDecl *Closure =
              closureIn(Trait->getArg(0)->getType()))
        return {Trait, Closure, "'" + Spelling.str() + "'"};
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const CXXRecordDecl *Closure = nullptr;
    if (const auto *Spec =
            dyn_cast<VarTemplateSpecializationDecl>(Ref->getDecl())) {
      std::string Name = libraryTrait(*Spec->getSpecializedTemplate(),
                                      Spec->getTemplateArgs().asArray(), Closure);
      if (!Name.empty())
        return {Ref, Closure, "'" + Name + "'"};
    }
    // `std::is_trivially_copyable<C>::value`: `value` may live in a base
    // (`integral_constant`), so look at the qualifier as written.
    const Type *QualifierType = utils::qualifierType(Ref->getQualifier());
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            QualifierType ? QualifierType->getAsCXXRecordDecl() : nullptr)) {
      std::string Name = libraryTrait(*Spec->getSpecializedTemplate(),
                                      Spec->getTemplateArgs().asArray(), Closure);
      if (!Name.empty())
        return {Ref, Closure, "'" + Name + "'"};
    }
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Depth < 2 && Var->isConstexpr() && Var->getInit() &&
          !Var->getASTContext().getSourceManager().isInSystemHeader(
              Var->getLocation()))
        if (TraitUse Use = findTrait(Var->getInit(), Depth + 1); Use.Where)
          return {Ref, Use.Closure, Use.What};
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    // `std::is_trivially_copyable<C>{}` converted to bool.
    const CXXRecordDecl *Closure = nullptr;
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            E->getType()->getAsCXXRecordDecl())) {
      std::string Name = libraryTrait(*Spec->getSpecializedTemplate(),
                                      Spec->getTemplateArgs().asArray(), Closure);
      if (!Name.empty())
        return {E, Closure, "'" + Name + "'"};
    }
  }
  for (const Stmt *Child : S->children())
    if (TraitUse Use = findTrait(Child, Depth); Use.Where)
      return Use;
  return {};
}

/// In the default argument of a template parameter, a layout trait asked
/// about another parameter of the same template (`std::is_trivially_copyable
/// <F>::value`, `std::is_trivially_copyable_v<F>`): which one, and the trait.
class DefaultArgumentTrait
    : public RecursiveASTVisitor<DefaultArgumentTrait> {
public:
  explicit DefaultArgumentTrait(unsigned Depth) : Depth(Depth) {}
  int Parameter = -1;
  std::string What;

  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc Loc) {
    const TemplateSpecializationType *Spec = Loc.getTypePtr();
    if (const TemplateDecl *Template =
            Spec->getTemplateName().getAsTemplateDecl())
      consider(utils::qualifiedNameWithoutInline(*Template),
               Spec->template_arguments());
    return Parameter < 0;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    if (E->hasExplicitTemplateArgs() && E->getNumDecls() > 0)
      considerLocs(utils::qualifiedNameWithoutInline(**E->decls_begin()),
                   E->template_arguments());
    return Parameter < 0;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->hasExplicitTemplateArgs())
      considerLocs(utils::qualifiedNameWithoutInline(*E->getDecl()),
                   E->template_arguments());
    return Parameter < 0;
  }

private:
  void considerLocs(const std::string &Name,
                    ArrayRef<TemplateArgumentLoc> Args) {
    llvm::SmallVector<TemplateArgument, 2> Plain;
    for (const TemplateArgumentLoc &Arg : Args)
      Plain.push_back(Arg.getArgument());
    consider(Name, Plain);
  }
  void consider(const std::string &Name, ArrayRef<TemplateArgument> Args) {
    StringRef Short = Name;
    if (Parameter >= 0 ||
        (!Short.consume_front("std::") && !Short.consume_front("cuda::std::")) ||
        !isLayoutTrait(Short) || Args.empty() ||
        Args[0].getKind() != TemplateArgument::Type)
      return;
    const auto *Param = Args[0].getAsType()->getAs<TemplateTypeParmType>();
    if (!Param || Param->getDepth() != Depth)
      return;
    Parameter = static_cast<int>(Param->getIndex());
    What = "'" + Name + "'";
  }
  unsigned Depth;
};

/// The default argument of \p Param, when it has one, as something to walk.
template <typename Visitor>
void traverseDefault(Visitor &V, const NamedDecl &Param) {
  if (const auto *NonType = dyn_cast<NonTypeTemplateParmDecl>(&Param)) {
    if (Expr *E = utils::defaultArgumentOf(*NonType))
      V.TraverseStmt(E);
  } else if (const auto *TypeParam = dyn_cast<TemplateTypeParmDecl>(&Param)) {
    if (const TypeSourceInfo *TSI = utils::defaultArgumentOf(*TypeParam))
      V.TraverseTypeLoc(TSI->getTypeLoc());
  }
}

} // namespace

namespace {

/// A reference to a kernel outside system headers. Every reference of the
/// unit is tested: the system header last.
bool namesKernelOutsideSystemHeader(const DeclRefExpr &Ref,
                                    ASTContext &Context) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Ref.getDecl());
  return Function && utils::isKernel(*Function) &&
         !utils::isExpansionInSystemHeader(Ref.getBeginLoc(),
                                           Context.getSourceManager());
}

} // namespace

void LambdaClosureTraitCheck::registerMatchers(MatchFinder *Finder) {
  NodeMatches.push_back(utils::matchNodes<LambdaExpr>(
      *Finder, this, utils::anyNode<LambdaExpr>, "lambda"));
  Callables = utils::matchCallables(*Finder, this);
  Instantiations = utils::matchInstantiations(*Finder, this);
  NodeMatches.push_back(utils::matchNodes<DeclRefExpr>(
      *Finder, this, namesKernelOutsideSystemHeader, "kernel"));
  // The `if`s and `?:`s that decide whether a kernel is launched are found
  // above the launches in each callable's code, which check() walks.
}

namespace {

/// The condition of \p Node when it is an `if` or a `?:` and \p Below, the
/// node under it on the way down to a kernel launch, is one of its branches.
const Expr *conditionOfBranch(const DynTypedNode &Node,
                              const DynTypedNode &Below) {
  const Stmt *Child = Below.get<Stmt>();
  if (!Child)
    return nullptr;
  if (const auto *If = Node.get<IfStmt>())
    return Child == If->getThen() || Child == If->getElse() ? If->getCond()
                                                            : nullptr;
  if (const auto *Ternary = Node.get<ConditionalOperator>())
    return Child == Ternary->getTrueExpr() || Child == Ternary->getFalseExpr()
               ? Ternary->getCond()
               : nullptr;
  return nullptr;
}

} // namespace

void LambdaClosureTraitCheck::findLaunchingBranches(
    const utils::Callable &Code, const SourceManager &SM) {
  if (!Code.contains(Stmt::CUDAKernelCallExprClass))
    return;
  Code.forEachStmt([&](const Stmt &S, const DynTypedNode &Node,
                       utils::AncestorList Above) {
    if (!isa<CUDAKernelCallExpr>(S))
      return;
    DynTypedNode Below = Node;
    for (size_t I = Above.size(); I-- > 0; Below = Above[I]) {
      const Expr *Condition = conditionOfBranch(Above[I], Below);
      if (!Condition)
        continue;
      const Stmt *Branch = Above[I].get<Stmt>();
      if (!Branches.insert(Branch).second ||
          utils::isExpansionInSystemHeader(Branch->getBeginLoc(), SM))
        continue;
      TraitUse Use = findTrait(Condition);
      if (Use.Where)
        Queries.push_back({Use.Where->getBeginLoc(), Use.Closure, Use.What,
                           "", Above[I]});
    }
  });
}

void LambdaClosureTraitCheck::check(const MatchFinder::MatchResult &Result) {
  Context = Result.Context;
  if (const std::optional<utils::Callable> Code =
          utils::matchedCallable(Result)) {
    DeviceCode.add(*Code);
    const utils::ExecutionSpace Space =
        utils::executionSpaceOf(Code->function());
    if (Space == utils::ExecutionSpace::Device ||
        Space == utils::ExecutionSpace::Global)
      DeviceRanges.add(Code->function().getSourceRange(),
                       *Result.SourceManager);
    findLaunchingBranches(*Code, *Result.SourceManager);
    return;
  }
  if (const Decl *Instantiation = utils::matchedInstantiation(Result)) {
    Index.add(*Instantiation, *Result.SourceManager);
    return;
  }
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda")) {
    Lambdas[Lambda->getLambdaClass()] = Lambda;
    return;
  }
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("kernel")) {
    for (const TemplateArgumentLoc &Arg : Ref->template_arguments()) {
      if (Arg.getArgument().getKind() != TemplateArgument::Expression)
        continue;
      TraitUse Use = findTrait(Arg.getSourceExpression());
      if (Use.Where)
        Queries.push_back({Use.Where->getBeginLoc(), Use.Closure, Use.What,
                           Ref->getDecl()->getNameAsString(),
                           DynTypedNode::create(*Ref)});
    }
    return;
  }
}

void LambdaClosureTraitCheck::onEndOfTranslationUnit() {
  std::set<std::pair<unsigned, const CXXRecordDecl *>> Reported;
  llvm::SmallVector<DynTypedNode, 8> Places;
  for (const Query &Q : Queries)
    Places.push_back(Q.Where);
  // Device code decides nothing on the host.
  const llvm::DenseSet<DynTypedNode> InDeviceCode =
      DeviceCode.containing(Places);
  for (const Query &Q : Queries) {
    const LambdaExpr *Lambda = Lambdas.lookup(Q.Closure);
    if (!Lambda || InDeviceCode.contains(Q.Where))
      continue;
    const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(*Lambda);
    if (Kind == utils::ExtendedLambdaKind::None)
      continue;
    if (!Reported.insert({Q.Loc.getRawEncoding(), Q.Closure}).second)
      continue;
    diag(Q.Loc, "%0 on the closure type of an extended %1 lambda decides "
                "%select{the template argument of kernel '%3'|whether a kernel "
                "is launched}2, but nvcc's host compiler and its device pass "
                "may answer differently, and the host may launch a kernel that "
                "was never built; decide from the captured types instead")
        << Q.What << utils::spelling(Kind) << (Q.Kernel.empty() ? 1 : 0)
        << Q.Kernel;
    diag(Lambda->getBeginLoc(), "extended %0 lambda defined here",
         DiagnosticIDs::Note)
        << utils::spelling(Kind);
  }

  // A trait in a default template argument, on the closure type that host
  // code instantiated a class template with: it picks the specialization.
  if (!Context) {
    Index.clear();
    DeviceRanges.clear();
    Branches.clear();
    return;
  }
  const SourceManager &SM = Context->getSourceManager();
  llvm::DenseSet<const CXXRecordDecl *> ReportedClosures;
  for (const Query &Q : Queries)
    ReportedClosures.insert(Q.Closure);
  std::set<std::pair<unsigned, const CXXRecordDecl *>> ReportedOrigins;
  Index.forEachClass([&](const CXXRecordDecl &Record,
                         ArrayRef<const CXXRecordDecl *> Closures) {
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Record);
    if (!Spec)
      return;
    const ClassTemplateDecl *Template = Spec->getSpecializedTemplate();
    const TemplateParameterList *Params = Template->getTemplateParameters();
    const ArrayRef<TemplateArgument> Args = Spec->getTemplateArgs().asArray();
    for (const NamedDecl *Param : *Params) {
      DefaultArgumentTrait Trait(Params->getDepth());
      traverseDefault(Trait, *Param);
      if (Trait.Parameter < 0 ||
          static_cast<size_t>(Trait.Parameter) >= Args.size() ||
          Args[Trait.Parameter].getKind() != TemplateArgument::Type)
        continue;
      const CXXRecordDecl *Closure =
          closureIn(Args[Trait.Parameter].getAsType());
      if (!Closure || llvm::find(Closures, Closure) == Closures.end() ||
          ReportedClosures.contains(Closure))
        continue;
      const LambdaExpr *Lambda = Lambdas.lookup(Closure);
      if (!Lambda)
        continue;
      const utils::ExtendedLambdaKind Kind =
          utils::extendedLambdaKindOf(*Lambda);
      if (Kind == utils::ExtendedLambdaKind::None)
        continue;
      const SourceLocation Requested = Spec->getPointOfInstantiation();
      const utils::InstantiationChain Chain =
          Index.climb(Requested, *Closure, SM);
      if (Chain.ThroughDeviceCode || Chain.Origin.isInvalid() ||
          SM.isInSystemHeader(SM.getExpansionLoc(Chain.Origin)) ||
          DeviceRanges.contains(Chain.Origin, SM))
        continue;
      if (!ReportedOrigins
               .insert({SM.getExpansionLoc(Chain.Origin).getRawEncoding(),
                        Closure})
               .second)
        continue;
      const std::string Name = utils::qualifiedNameWithoutInline(*Template);
      diag(Lambda->getBeginLoc(),
           "%0 on the closure type of extended %1 lambda picks the "
           "specialization of '%2' that host code uses, but nvcc's host "
           "compiler and its device pass may answer differently and use "
           "different specializations; decide from the captured types "
           "instead")
          << Trait.What << utils::spelling(Kind) << Name;
      diag(Param->getLocation(),
           "%0 is the default argument of this template parameter",
           DiagnosticIDs::Note)
          << Trait.What;
      diag(Requested, "'%0' instantiated here", DiagnosticIDs::Note) << Name;
      for (const utils::InstantiationStep &Step : Chain.Steps)
        if (!SM.isInSystemHeader(SM.getExpansionLoc(Step.RequestedAt)))
          diag(Step.RequestedAt, "in instantiation of '%0' requested here",
               DiagnosticIDs::Note)
              << utils::instantiatedName(*Step.Instantiated);
      break;
    }
  });
  Index.clear();
  DeviceRanges.clear();
  Queries.clear();
  Lambdas.clear();
  DeviceCode.clear();
  Branches.clear();
}

} // namespace clang::tidy::cuda

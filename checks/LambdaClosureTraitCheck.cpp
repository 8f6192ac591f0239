//===--- LambdaClosureTraitCheck.cpp - cuda-lambda-tidy -----------------===//

#include "LambdaClosureTraitCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
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
    const NestedNameSpecifier Qualifier = Ref->getQualifier();
    const Type *QualifierType =
        Qualifier.getKind() == NestedNameSpecifier::Kind::Type
            ? Qualifier.getAsType()
            : nullptr;
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

} // namespace

void LambdaClosureTraitCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(lambdaExpr().bind("lambda"), this);
  utils::matchCallables(*Finder, this);
  Finder->addMatcher(
      declRefExpr(to(functionDecl(hasAttr(attr::CUDAGlobal))),
                  unless(isExpansionInSystemHeader()))
          .bind("kernel"),
      this);
  auto Launches = stmt(anyOf(cudaKernelCallExpr(),
                             hasDescendant(cudaKernelCallExpr())));
  Finder->addMatcher(
      ifStmt(anyOf(hasThen(Launches), hasElse(Launches)),
             unless(isExpansionInSystemHeader()))
          .bind("branch"),
      this);
  Finder->addMatcher(
      conditionalOperator(anyOf(hasTrueExpression(Launches),
                                hasFalseExpression(Launches)),
                          unless(isExpansionInSystemHeader()))
          .bind("branch"),
      this);
}

void LambdaClosureTraitCheck::check(const MatchFinder::MatchResult &Result) {
  Context = Result.Context;
  if (const std::optional<utils::Callable> Code =
          utils::matchedCallable(Result)) {
    DeviceCode.add(*Code);
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
  const Stmt *Condition = nullptr;
  const Stmt *Branch = Result.Nodes.getNodeAs<Stmt>("branch");
  if (const auto *If = dyn_cast_or_null<IfStmt>(Branch))
    Condition = If->getCond();
  else if (const auto *Ternary = dyn_cast_or_null<ConditionalOperator>(Branch))
    Condition = Ternary->getCond();
  TraitUse Use = findTrait(Condition);
  if (Use.Where)
    Queries.push_back({Use.Where->getBeginLoc(), Use.Closure, Use.What, "",
                       DynTypedNode::create(*Branch)});
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
  Queries.clear();
  Lambdas.clear();
  DeviceCode.clear();
}

} // namespace clang::tidy::cuda

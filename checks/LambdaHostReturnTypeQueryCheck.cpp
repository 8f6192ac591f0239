//===--- LambdaHostReturnTypeQueryCheck.cpp - cuda-lambda-tidy ----------===//

#include "LambdaHostReturnTypeQueryCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// The closure class named by \p T: the type itself after references and
/// qualifiers, or the callee of a `result_of<F(Args...)>` function type.
const CXXRecordDecl *queriedClosure(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getCanonicalType().getNonReferenceType();
  if (const auto *Fn = T->getAs<FunctionProtoType>())
    T = Fn->getReturnType().getCanonicalType().getNonReferenceType();
  const auto *Record = T->getAsCXXRecordDecl();
  return Record && Record->isLambda() ? Record : nullptr;
}

/// The closure whose call operator is called somewhere in \p E.
const CXXRecordDecl *calledClosureIn(const Stmt *S) {
  if (!S)
    return nullptr;
  // `l(x)` calls the closure's operator() where it is callable; where it is
  // not (a __device__ lambda seen from host code) clang calls through the
  // conversion to a function pointer instead.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      if (const CXXRecordDecl *Closure = queriedClosure(Op->getArg(0)->getType()))
        return Closure;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const auto *Conversion = dyn_cast<CXXMemberCallExpr>(
            Call->getCallee()->IgnoreImplicit()))
      if (const auto *Method = Conversion->getMethodDecl())
        if (isa<CXXConversionDecl>(Method) && Method->getParent()->isLambda())
          return Method->getParent();
  for (const Stmt *Child : S->children())
    if (const CXXRecordDecl *Found = calledClosureIn(Child))
      return Found;
  return nullptr;
}

/// Whether a trailing return type mentions a parameter of the lambda
/// (`-> decltype(x * 2)`): the host pass cannot evaluate it either.
class ParameterMention : public RecursiveASTVisitor<ParameterMention> {
public:
  explicit ParameterMention(const FunctionDecl &Op) : Op(Op) {}
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *P = dyn_cast<ParmVarDecl>(E->getDecl()))
      if (P->getDeclContext() == &Op)
        Found = true;
    return !Found;
  }

private:
  const FunctionDecl &Op;
};

bool returnTypeHidden(const LambdaExpr &Lambda) {
  if (!Lambda.hasExplicitResultType())
    return true;
  const CXXMethodDecl *Op = Lambda.getCallOperator();
  const TypeSourceInfo *TSI = Op->getTypeSourceInfo();
  if (!TSI)
    return false;
  auto FnLoc = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>();
  if (!FnLoc)
    return false;
  ParameterMention Visitor(*Op);
  Visitor.TraverseTypeLoc(FnLoc.getReturnLoc());
  return Visitor.Found;
}

/// Whether \p T can be written in the lambda's place as is: no closure,
/// local or unnamed class anywhere in it.
bool spellable(QualType T) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isUndeducedType())
    return false;
  if (T->isBuiltinType())
    return true;
  if (const auto *P = T->getAs<PointerType>())
    return spellable(P->getPointeeType());
  if (T->isReferenceType())
    return spellable(T.getNonReferenceType());
  if (const auto *Record = T->getAsCXXRecordDecl()) {
    if (Record->isLambda() || Record->isLocalClass() ||
        !Record->getIdentifier())
      return false;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type && !spellable(Arg.getAsType()))
          return false;
    return true;
  }
  if (const auto *Enum = T->getAs<EnumType>())
    return Enum->getDecl()->getIdentifier() &&
           !Enum->getDecl()->getParentFunctionOrMethod();
  return false;
}

} // namespace

void LambdaHostReturnTypeQueryCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(lambdaExpr().bind("lambda"), this);
  utils::matchCallables(*Finder, this);
  Finder->addMatcher(
      typeLoc(loc(decltypeType()), unless(isExpansionInSystemHeader()))
          .bind("decltype"),
      this);
  Finder->addMatcher(
      templateSpecializationTypeLoc(unless(isExpansionInSystemHeader()))
          .bind("specialization"),
      this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(
                   hasAnyName("::thrust::make_transform_iterator",
                              "::cuda::make_transform_iterator"))),
               unless(isExpansionInSystemHeader()))
          .bind("library"),
      this);
}

void LambdaHostReturnTypeQueryCheck::check(
    const MatchFinder::MatchResult &Result) {
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
  if (const auto *Loc = Result.Nodes.getNodeAs<TypeLoc>("decltype")) {
    const auto *Decltype = Loc->getTypePtr()->getAs<DecltypeType>();
    if (!Decltype)
      return;
    const CXXRecordDecl *Closure =
        calledClosureIn(Decltype->getUnderlyingExpr());
    if (Closure)
      Queries.push_back({Loc->getBeginLoc(), Closure, "'decltype'",
                         DynTypedNode::create(*Loc)});
    return;
  }
  if (const auto *Loc =
          Result.Nodes.getNodeAs<TemplateSpecializationTypeLoc>(
              "specialization")) {
    const auto *Spec = Loc->getTypePtr();
    const TemplateDecl *Template = Spec->getTemplateName().getAsTemplateDecl();
    if (!Template)
      return;
    const std::string Name = utils::qualifiedNameWithoutInline(*Template);
    static const llvm::StringRef Queried[] = {
        "std::invoke_result",        "std::invoke_result_t",
        "std::result_of",            "std::result_of_t",
        "cuda::std::invoke_result",  "cuda::std::invoke_result_t",
        "cuda::std::result_of",      "cuda::std::result_of_t",
        "thrust::transform_iterator", "cuda::transform_iterator"};
    if (llvm::find(Queried, Name) == std::end(Queried))
      return;
    for (const TemplateArgument &Arg : Spec->template_arguments()) {
      if (Arg.getKind() != TemplateArgument::Type)
        continue;
      if (const CXXRecordDecl *Closure = queriedClosure(Arg.getAsType())) {
        Queries.push_back({Loc->getTemplateNameLoc(), Closure,
                           "'" + Name + "'", DynTypedNode::create(*Loc)});
        return;
      }
    }
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library")) {
    for (const Expr *Arg : Call->arguments()) {
      const CXXRecordDecl *Closure = queriedClosure(Arg->getType());
      if (!Closure)
        continue;
      Queries.push_back(
          {Call->getBeginLoc(), Closure,
           "'" + utils::qualifiedNameWithoutInline(*Call->getDirectCallee()) +
               "'",
           DynTypedNode::create(*Call)});
      return;
    }
  }
}

void LambdaHostReturnTypeQueryCheck::onEndOfTranslationUnit() {
  llvm::DenseSet<const LambdaExpr *> Fixed;
  std::set<std::pair<unsigned, const CXXRecordDecl *>> Reported;
  llvm::SmallVector<DynTypedNode, 8> Places;
  for (const Query &Q : Queries)
    Places.push_back(Q.Where);
  // Device code may ask: the device pass knows the type.
  const llvm::DenseSet<DynTypedNode> InDeviceCode =
      DeviceCode.containing(Places);
  for (const Query &Q : Queries) {
    const LambdaExpr *Lambda = Lambdas.lookup(Q.Closure);
    if (!Lambda || InDeviceCode.contains(Q.Where) ||
        utils::extendedLambdaKindOf(*Lambda) != utils::ExtendedLambdaKind::Device ||
        !returnTypeHidden(*Lambda))
      continue;
    if (!Reported.insert({Q.Loc.getRawEncoding(), Q.Closure}).second)
      continue;

    // The deduced return type, when one type holds for every call.
    const CXXMethodDecl *Op = Lambda->getCallOperator();
    QualType Deduced;
    if (!Lambda->hasExplicitResultType() && !Lambda->isGenericLambda() &&
        !Op->getReturnType()->isUndeducedType() &&
        spellable(Op->getReturnType()))
      Deduced = Op->getReturnType();
    std::string Spelled;
    if (!Deduced.isNull()) {
      PrintingPolicy Policy(Context->getLangOpts());
      Policy.SuppressScope = false;
      Spelled = TypeName::getFullyQualifiedName(Deduced, *Context, Policy);
    }

    std::string Name;
    if (const auto *Var = utils::findLambda(*Q.Closure)
                              .Ancestors.parentOf(*Lambda)
                              .get<VarDecl>())
      Name = " '" + Var->getNameAsString() + "'";

    {
      auto Diag =
          diag(Q.Loc, "host code asks %0 for the return type of extended "
                      "__device__ lambda%1, which nvcc's host pass does not "
                      "know (it sees 'int'); give the lambda a trailing "
                      "return type%select{| '-> %3'}2")
          << Q.What << Name << (Spelled.empty() ? 0 : 1) << Spelled;
      const CompoundStmt *Body = Lambda->getCompoundStmtBody();
      if (!Spelled.empty() && Body && Lambda->hasExplicitParameters() &&
          Lambda->getBeginLoc().isFileID() && Body->getLBracLoc().isFileID() &&
          Fixed.insert(Lambda).second)
        Diag << FixItHint::CreateInsertion(Body->getLBracLoc(),
                                           "-> " + Spelled + " ");
    }
    diag(Lambda->getBeginLoc(),
         "extended __device__ lambda%0 defined here; its return type is "
         "deduced from the body, which only the device pass sees",
         DiagnosticIDs::Note)
        << Name;
  }
  Queries.clear();
  Lambdas.clear();
  DeviceCode.clear();
}

} // namespace clang::tidy::cuda

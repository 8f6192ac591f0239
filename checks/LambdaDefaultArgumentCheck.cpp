//===--- LambdaDefaultArgumentCheck.cpp - cuda-lambda-tidy --------------===//

#include "LambdaDefaultArgumentCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

/// A parameter with a default argument, as written outside system headers:
/// an instantiation's default arguments are its pattern's.
static bool hasWrittenDefaultArgument(const ParmVarDecl &Param,
                                      ASTContext &Context) {
  return Param.hasDefaultArg() &&
         !utils::isExpansionInSystemHeader(Param.getBeginLoc(),
                                           Context.getSourceManager()) &&
         !utils::isInstantiated(Param);
}

void LambdaDefaultArgumentCheck::registerMatchers(MatchFinder *Finder) {
  NodeMatches.push_back(utils::matchNodes<ParmVarDecl>(
      *Finder, this, hasWrittenDefaultArgument, "param"));
}

/// The first lambda expression in \p E, looking through the conversion to a
/// function pointer and any other wrapping, but not into a lambda's body.
static const LambdaExpr *findLambda(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
    return Lambda;
  for (const Stmt *Child : S->children())
    if (const LambdaExpr *Found = findLambda(Child))
      return Found;
  return nullptr;
}

/// Whether \p Type is, or refers to, a function: a function pointer or a
/// function reference, which is what a captureless lambda converts to.
static bool isFunctionPointerOrReference(QualType Type) {
  Type = Type.getNonReferenceType();
  if (Type->isFunctionType())
    return true;
  if (const auto *Pointer = Type->getAs<PointerType>())
    return Pointer->getPointeeType()->isFunctionType();
  return false;
}

void LambdaDefaultArgumentCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Param = Result.Nodes.getNodeAs<ParmVarDecl>("param");
  const auto *Function = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!Function)
    return;
  const utils::ExecutionSpace Space = utils::executionSpaceOf(*Function);
  if (Space != utils::ExecutionSpace::Device &&
      Space != utils::ExecutionSpace::HostDevice)
    return;
  if (!isFunctionPointerOrReference(Param->getType()))
    return;
  const Expr *Default = Param->hasUninstantiatedDefaultArg()
                            ? Param->getUninstantiatedDefaultArg()
                            : Param->getInit();
  const LambdaExpr *Lambda = findLambda(Default);
  if (!Lambda)
    return;
  diag(Lambda->getBeginLoc(),
       "lambda expression as the default argument of parameter %0 of %1 "
       "function %2: nvcc passes a null function pointer for it on the "
       "device, so a call that relies on the default never runs the lambda; "
       "name a %1 function as the default, or add an overload without the "
       "parameter that passes the lambda from its body")
      << Param << utils::spelling(Space) << Function;
}

} // namespace clang::tidy::cuda

//===--- StaticInHostDeviceFunctionCheck.cpp - cuda-lambda-tidy ---------===//

#include "StaticInHostDeviceFunctionCheck.h"
#include "utils/PassDependence.h"
#include "utils/ExecutionSpace.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void StaticInHostDeviceFunctionCheck::registerPPCallbacks(
    const SourceManager &SM, Preprocessor *PP, Preprocessor *) {
  Conditionals = &utils::passDependenceOf(*PP).conditionals();
}

/// A static local variable as written outside system headers: a template's
/// pattern only, as every instantiation has the same static.
static bool isWrittenStaticLocal(const VarDecl &Var, ASTContext &Context) {
  return Var.isStaticLocal() &&
         !utils::isExpansionInSystemHeader(Var.getBeginLoc(),
                                           Context.getSourceManager()) &&
         !utils::isInstantiated(Var);
}

void StaticInHostDeviceFunctionCheck::registerMatchers(MatchFinder *Finder) {
  NodeMatches.push_back(utils::matchNodes<VarDecl>(
      *Finder, this, isWrittenStaticLocal, "static"));
}

/// Whether \p Var is left alone: a constant holds the same value on both
/// sides (nvcc accepts only constant initializers there), and a static with
/// a dynamic initializer is rejected by nvcc and clang with their own error.
static bool isExempt(const VarDecl &Var) {
  if (Var.isConstexpr() || Var.getType().isConstQualified())
    return true;
  const Expr *Init = Var.getInit();
  if (!Init || Var.getType()->isDependentType() ||
      Init->isInstantiationDependent())
    return false;
  return !Var.hasConstantInitialization();
}

void StaticInHostDeviceFunctionCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("static");
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Function ||
      utils::executionSpaceOf(*Function) != utils::ExecutionSpace::HostDevice)
    return;
  // Written in device memory on purpose (`static __shared__`).
  if (utils::variableSpaceOf(*Var, utils::AttributePolicy::AsWritten) !=
      utils::VariableSpace::Host)
    return;
  if (isExempt(*Var))
    return;
  // Inside an `#if` on `__CUDA_ARCH__`, or `NV_IF_TARGET(NV_IS_HOST, ...)`:
  // only one side has it.
  if ((Conditionals &&
       Conditionals->takenBranchAt(Var->getLocation(), *Result.SourceManager)) ||
      utils::isInTargetDispatchMacro(Var->getLocation(), *Result.SourceManager,
                                     getLangOpts()))
    return;

  const auto *Method = dyn_cast<CXXMethodDecl>(Function);
  const bool InLambda = Method && Method->getParent()->isLambda();
  diag(Var->getLocation(),
       "static local %0 of __host__ __device__ %select{function %2|lambda}1 "
       "has one copy on the host and another on each device, so a value "
       "stored on one side is never seen on the other; pass the state in as "
       "a parameter, keep it in a __device__ or __managed__ variable, or "
       "split the function with '#ifdef __CUDA_ARCH__'")
      << Var << InLambda << Function;
}

} // namespace clang::tidy::cuda

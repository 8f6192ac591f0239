//===--- LambdaFunctionPointerConversionCheck.cpp - cuda-lambda-tidy ----===//

#include "LambdaFunctionPointerConversionCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaFunctionPointerConversionCheck::registerMatchers(
    MatchFinder *Finder) {
  // Instantiations too: `template <class F> void f(F g) { fp p = g; }` only
  // converts once F is a closure type.
  Finder->addMatcher(
      cxxMemberCallExpr(
          callee(cxxConversionDecl(ofClass(cxxRecordDecl(isLambda())))
                     .bind("conversion")),
          unless(isExpansionInSystemHeader()),
          forCallable(functionDecl().bind("function")))
          .bind("call"),
      this);
}

/// The lambda expression whose closure type is \p Closure.
static const LambdaExpr *lambdaOf(const CXXRecordDecl &Closure,
                                  ASTContext &Context) {
  for (const DynTypedNode &Parent : Context.getParents(Closure))
    if (const auto *Lambda = Parent.get<LambdaExpr>())
      return Lambda;
  return nullptr;
}

void LambdaFunctionPointerConversionCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *Conversion =
      Result.Nodes.getNodeAs<CXXConversionDecl>("conversion");
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!utils::runsOnHost(utils::executionSpaceOf(*Function)))
    return;
  // `l(0)` on a __device__ lambda from host code (as in `decltype(l(0))`)
  // is a surrogate call: clang converts the closure to a function pointer
  // only to call it. That is a return-type query or a wrong-side call
  // (cuda-lambda-host-return-type-query), not a pointer the user keeps.
  for (const DynTypedNode &Parent : Result.Context->getParents(*Call))
    if (const auto *Cast = Parent.get<ImplicitCastExpr>())
      for (const DynTypedNode &Grand : Result.Context->getParents(*Cast))
        if (const auto *Outer = Grand.get<CallExpr>())
          if (Outer->getCallee() == Cast)
            return;
  const LambdaExpr *Lambda =
      lambdaOf(*Conversion->getParent(), *Result.Context);
  if (!Lambda ||
      utils::extendedLambdaKindOf(*Lambda) != utils::ExtendedLambdaKind::Device)
    return;
  diag(Call->getExprLoc(),
       "extended __device__ lambda converted to function pointer type %0 in "
       "host code, which nvcc rejects: on the host the lambda is a "
       "placeholder with no function to point to; pass the lambda object "
       "itself, or make the lambda '__host__ __device__'")
      << Conversion->getConversionType();
  diag(Lambda->getBeginLoc(), "extended __device__ lambda defined here",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::cuda

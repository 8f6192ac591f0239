//===--- LambdaFunctionPointerConversionCheck.cpp - cuda-lambda-tidy ----===//

#include "LambdaFunctionPointerConversionCheck.h"
#include "utils/CallableCode.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaFunctionPointerConversionCheck::registerMatchers(
    MatchFinder *Finder) {
  // The conversions are found in the code of each function and lambda that
  // runs on the host, which check() walks; instantiations too:
  // `template <class F> void f(F g) { fp p = g; }` only converts once F is a
  // closure type.
  Callables = utils::matchCallables(*Finder, this);
}

/// The call of a lambda's conversion to a function pointer that \p Node is.
static const CXXMemberCallExpr *conversionOfLambda(const Stmt &S) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
  const auto *Conversion =
      Call ? dyn_cast_or_null<CXXConversionDecl>(Call->getMethodDecl())
           : nullptr;
  return Conversion && Conversion->getParent()->isLambda() ? Call : nullptr;
}

void LambdaFunctionPointerConversionCheck::check(
    const MatchFinder::MatchResult &Result) {
  const std::optional<utils::Callable> Code = utils::matchedCallable(Result);
  if (!Code || !utils::runsOnHost(utils::executionSpaceOf(Code->function())))
    return;
  // The conversion is a member call of the closure's conversion function.
  if (!Code->contains(Stmt::CXXMemberCallExprClass))
    return;
  const SourceManager &SM = *Result.SourceManager;
  Code->forEachStmt([&](const Stmt &S, const DynTypedNode &Node,
                        utils::AncestorList Above) {
    const CXXMemberCallExpr *Call = conversionOfLambda(S);
    if (!Call)
      return;
    if (utils::isExpansionInSystemHeader(Call->getBeginLoc(), SM))
      return;
    checkConversion(*Call, utils::Ancestry(Node, Above));
  });
}

void LambdaFunctionPointerConversionCheck::checkConversion(
    const CXXMemberCallExpr &Call, const utils::Ancestry &Above) {
  const auto *Conversion = cast<CXXConversionDecl>(Call.getMethodDecl());
  // `l(0)` on a __device__ lambda from host code (as in `decltype(l(0))`)
  // is a surrogate call: clang converts the closure to a function pointer
  // only to call it. That is a return-type query or a wrong-side call
  // (cuda-lambda-host-return-type-query), not a pointer the user keeps.
  if (const auto *Cast = Above.parentOf(Call).get<ImplicitCastExpr>())
    if (const auto *Outer = Above.parentOf(*Cast).get<CallExpr>())
      if (Outer->getCallee() == Cast)
        return;
  const LambdaExpr *Lambda = utils::findLambda(*Conversion->getParent()).Lambda;
  if (!Lambda ||
      utils::extendedLambdaKindOf(*Lambda) != utils::ExtendedLambdaKind::Device)
    return;
  diag(Call.getExprLoc(),
       "extended __device__ lambda converted to function pointer type %0 in "
       "host code, which nvcc rejects: on the host the lambda is a "
       "placeholder with no function to point to; pass the lambda object "
       "itself, or make the lambda '__host__ __device__'")
      << Conversion->getConversionType();
  diag(Lambda->getBeginLoc(), "extended __device__ lambda defined here",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::cuda

//===--- LambdaFunctionPointerConversionCheck.h - cuda-lambda-tidy ------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAFUNCTIONPOINTERCONVERSIONCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAFUNCTIONPOINTERCONVERSIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/CallableCode.h"
#include "utils/AncestorWalk.h"

namespace clang::tidy::cuda {

/// Flags host code that converts a `__device__` extended lambda to a
/// function pointer (H14): `fp p = l;`, `+l`, `static_cast<fp>(l)`, passing
/// `l` for a function-pointer parameter. On the host nvcc replaces the
/// closure with a wrapper that has no such conversion, and the host compiler
/// rejects its generated code.
class LambdaFunctionPointerConversionCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  void checkConversion(const CXXMemberCallExpr &Call,
                       const utils::Ancestry &Above);
};

} // namespace clang::tidy::cuda

#endif

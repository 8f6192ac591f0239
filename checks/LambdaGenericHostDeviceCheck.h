//===--- LambdaGenericHostDeviceCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAGENERICHOSTDEVICECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAGENERICHOSTDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags generic `__host__ __device__` extended lambdas (H10): an `auto`
/// parameter, an `auto...` parameter pack, or a template parameter list
/// (`[] __host__ __device__ <typename T> (T x)`). nvcc rejects them; generic
/// `__device__` lambdas are fine.
class LambdaGenericHostDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
private:
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

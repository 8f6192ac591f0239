//===--- LambdaInitCaptureCheck.h - cuda-lambda-tidy --------------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAINITCAPTURECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAINITCAPTURECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags init-captures (`[y = x]`, `[&y = x]`, `[y{x}]`) in `__host__
/// __device__` extended lambdas (H03), which nvcc rejects. `__device__`
/// extended lambdas may have them.
class LambdaInitCaptureCheck : public ClangTidyCheck {
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

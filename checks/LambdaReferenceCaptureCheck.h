//===--- LambdaReferenceCaptureCheck.h - cuda-lambda-tidy ---------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAREFERENCECAPTURECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAREFERENCECAPTURECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags by-reference captures in extended lambdas (H01): `[&x]`,
/// `[&x = e]` and a `[&]` capture default. The device cannot dereference a
/// reference into the host's stack, and nvcc rejects all of them.
class LambdaReferenceCaptureCheck : public ClangTidyCheck {
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

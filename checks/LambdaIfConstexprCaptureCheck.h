//===--- LambdaIfConstexprCaptureCheck.h - cuda-lambda-tidy -------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAIFCONSTEXPRCAPTURECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAIFCONSTEXPRCAPTURECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags an extended lambda whose capture default captures a variable (or
/// `this`) for the first time inside an `if constexpr` (H05), which nvcc
/// rejects. Fine when the variable is captured explicitly or named earlier
/// outside any `if constexpr`.
class LambdaIfConstexprCaptureCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA && LangOpts.CPlusPlus17;
  }
private:
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

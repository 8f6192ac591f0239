//===--- LambdaInDeducedReturnFunctionCheck.h - cuda-lambda-tidy --------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAINDEDUCEDRETURNFUNCTIONCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAINDEDUCEDRETURNFUNCTIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags extended lambdas whose enclosing function (nvcc's: the innermost
/// function around them that is not a lambda) has a deduced return type
/// (H07): `auto f()`, `decltype(auto) f()`, `auto &f()`, `auto f() -> auto`.
/// nvcc names the enclosing function's type in the code it generates for the
/// lambda, and rejects a type that is only known after deduction.
class LambdaInDeducedReturnFunctionCheck : public ClangTidyCheck {
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

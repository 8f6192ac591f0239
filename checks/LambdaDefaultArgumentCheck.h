//===--- LambdaDefaultArgumentCheck.h - cuda-lambda-tidy ----------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDADEFAULTARGUMENTCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDADEFAULTARGUMENTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>

namespace clang::tidy::cuda {

/// Flags a lambda expression written as the default argument of a
/// function-pointer parameter of a `__device__` or `__host__ __device__`
/// function (H38): nvcc passes a null pointer on the device, and calling it
/// is undefined (the optimizer drops the call and what depends on it).
class LambdaDefaultArgumentCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
};

} // namespace clang::tidy::cuda

#endif

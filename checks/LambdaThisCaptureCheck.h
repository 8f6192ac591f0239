//===--- LambdaThisCaptureCheck.h - cuda-lambda-tidy --------------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDATHISCAPTURECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDATHISCAPTURECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags extended lambdas in member functions that can run on the host and
/// capture `this` (H02): explicitly, or through `[=]`/`[&]` and a use of a
/// member. The closure then carries a host pointer that the device
/// dereferences. Suggests `[=, *this]` where copying the object is cheap and
/// exact, and copying the used members into locals otherwise.
class LambdaThisCaptureCheck : public ClangTidyCheck {
public:
  LambdaThisCaptureCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Also report lambdas whose enclosing member function is
  /// `__host__ __device__`: it may be called on the host, where `this` is a
  /// host pointer.
  const bool StrictHostDevice;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

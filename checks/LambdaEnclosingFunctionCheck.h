//===--- LambdaEnclosingFunctionCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAENCLOSINGFUNCTIONCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAENCLOSINGFUNCTIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags extended lambdas whose enclosing function nvcc cannot name or take
/// the address of (H08): nested in an extended __host__ __device__ lambda or
/// in a generic lambda, nested in a lambda outside any function, defined in a
/// constructor or destructor, in a private or protected member function, or in
/// a member function of a private, protected, unnamed or local class. With
/// the option WindowsLinkage, also an enclosing function with internal or no
/// linkage, which nvcc rejects on Windows only.
class LambdaEnclosingFunctionCheck : public ClangTidyCheck {
public:
  LambdaEnclosingFunctionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Report what nvcc rejects when the host is Windows (off by default: the
  /// same code compiles on Linux).
  const bool WindowsLinkage;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

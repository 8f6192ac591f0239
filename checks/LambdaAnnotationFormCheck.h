//===--- LambdaAnnotationFormCheck.h - cuda-lambda-tidy -----------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAANNOTATIONFORMCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAANNOTATIONFORMCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Flags lambda annotations that nvcc does not accept as written (H11): an
/// execution space annotation after the parameter list, and a `constexpr` or
/// `consteval` extended lambda. An annotated lambda outside any function is
/// not extended, but its annotation applies (nvcc compiles its operator() for
/// the device too): only its closure type as a `__global__` template
/// argument fails, which cuda-lambda-missing-annotation reports.
class LambdaAnnotationFormCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  void checkPlacement(const LambdaExpr &Lambda, const SourceManager &SM,
                      const LangOptions &LangOpts);
  void checkConstexpr(const LambdaExpr &Lambda, const SourceManager &SM,
                      const LangOptions &LangOpts);
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

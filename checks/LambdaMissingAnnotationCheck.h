//===--- LambdaMissingAnnotationCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAMISSINGANNOTATIONCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAMISSINGANNOTATIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Flags lambdas that reach device code without being extended lambdas
/// (H12): a plain or `__host__`-only lambda defined in host code, or any
/// lambda outside a function, whose closure type becomes a template argument
/// of a `__global__` function, directly or through host templates (a wrapper
/// that launches a kernel, a thrust algorithm with a device policy). nvcc
/// rejects them; clang accepts them.
class LambdaMissingAnnotationCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  ASTContext *Context = nullptr;
  /// Lambdas that would be rejected if they reached device code.
  llvm::SmallVector<const LambdaExpr *, 8> Candidates;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

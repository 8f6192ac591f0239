//===--- LambdaAnnotationFormCheck.h - cuda-lambda-tidy -----------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAANNOTATIONFORMCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAANNOTATIONFORMCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Flags lambda annotations that nvcc does not accept as written (H11): an
/// execution space annotation after the parameter list, a `constexpr` or
/// `consteval` extended lambda, and an annotated lambda outside any function
/// (never extended; reported here only when it does not reach device code,
/// cuda-lambda-missing-annotation reports it when it does).
class LambdaAnnotationFormCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  void checkPlacement(const LambdaExpr &Lambda, const SourceManager &SM,
                      const LangOptions &LangOpts);
  void checkConstexpr(const LambdaExpr &Lambda, const SourceManager &SM,
                      const LangOptions &LangOpts);

  ASTContext *Context = nullptr;
  /// Annotated lambdas outside any function, reported at the end of the
  /// translation unit unless they reach device code.
  llvm::SmallVector<const LambdaExpr *, 4> OutsideFunction;
};

} // namespace clang::tidy::cuda

#endif

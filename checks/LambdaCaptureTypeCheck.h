//===--- LambdaCaptureTypeCheck.h - cuda-lambda-tidy --------------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDACAPTURETYPECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDACAPTURETYPECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags captures of an extended lambda whose type nvcc cannot write into
/// its generated code (H04): a type local to a function (a plain lambda's
/// closure type included) anywhere in the captured variable's type, an
/// init-capture of type `std::initializer_list`, and an element of a
/// function parameter pack.
class LambdaCaptureTypeCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  enum class Problem { LocalType, InitializerList, PackElement };
  /// Whether \p Problem at \p Loc is reported for the first time: a template
  /// and its instantiations may show the same capture many times.
  bool firstReport(SourceLocation Loc, Problem Problem);

  llvm::DenseSet<std::pair<SourceLocation, unsigned>> Reported;
};

} // namespace clang::tidy::cuda

#endif

//===--- ExtendedLambdaFlagCheck.h - cuda-lambda-tidy -------------------===//

#ifndef CUDA_LAMBDA_TIDY_EXTENDEDLAMBDAFLAGCHECK_H
#define CUDA_LAMBDA_TIDY_EXTENDEDLAMBDAFLAGCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/MapVector.h"

namespace clang::tidy::cuda {

/// Flags a file with extended lambdas whose nvcc command lacks
/// `--extended-lambda` (H20), once per file, at its first extended lambda.
///
/// The check never sees nvcc's command: cuda-lambda-tidy, translating a
/// compile database, defines `__CUDA_LAMBDA_TIDY_FROM_NVCC__` on every nvcc
/// entry and `__CUDACC_EXTENDED_LAMBDA__` where the flag was given (as nvcc
/// itself does). The check fires when the command line defines the first and
/// not the second; with hand-written clang flags it is silent.
class ExtendedLambdaFlagCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  /// What the command line defined, as the preprocessor saw it.
  struct CommandLineMacros {
    bool FromNvcc = false;
    bool ExtendedLambda = false;
  };

private:
  CommandLineMacros Macros;
  /// The first extended lambda of each file, in order of first sight.
  llvm::MapVector<FileID, SourceLocation> FirstLambda;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

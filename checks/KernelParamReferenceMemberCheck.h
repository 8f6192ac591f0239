//===--- KernelParamReferenceMemberCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMREFERENCEMEMBERCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMREFERENCEMEMBERCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/KernelBoundary.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags objects with reference members that cross to the device (H34): a
/// functor holding `const float &` passed to a kernel, captured by an
/// extended lambda, or handed to a thrust/cub algorithm on the device. The
/// reference is copied as the host's address.
class KernelParamReferenceMemberCheck : public ClangTidyCheck {
public:
  KernelParamReferenceMemberCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  const std::string AllowedTypesOption;
  const utils::AllowedTypeNames AllowedTypes;
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::cuda

#endif

//===--- KernelParamVirtualCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/KernelBoundary.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags objects of polymorphic classes that cross to the device (H32): by
/// value (also as a member held by value) passed to a kernel, captured by an
/// extended lambda or handed to a device algorithm, or a pointer to one that
/// was provably constructed on the host. The vtable pointer is the host's.
class KernelParamVirtualCheck : public ClangTidyCheck {
public:
  KernelParamVirtualCheck(StringRef Name, ClangTidyContext *Context);
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

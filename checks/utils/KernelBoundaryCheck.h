//===--- KernelBoundaryCheck.h - cuda-lambda-tidy -----------------------===//
//
// The frame of the checks that judge what crosses to the device (H31, H32,
// H34): the crossing sites matched once (utils/KernelBoundary.h), the
// project's `AllowedTypes` option, and each crossing reported once. A check
// derives from it and says in `check` why a crossing is a hazard.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARYCHECK_H
#define CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARYCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/KernelBoundary.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda::utils {

class KernelBoundaryCheck : public ClangTidyCheck {
public:
  KernelBoundaryCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) final;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) final;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const final {
    return LangOpts.CUDA;
  }

protected:
  /// Types the project lets cross whatever the check thinks of them.
  bool allowed(const CXXRecordDecl &Record) const {
    return AllowedTypes.allows(Record);
  }
  /// One finding a crossing site, whichever part of it is the hazard.
  bool alreadyReported(const BoundaryCrossing &Crossing) const {
    return Reported.contains(Crossing.Loc);
  }
  void markReported(const BoundaryCrossing &Crossing) {
    Reported.insert(Crossing.Loc);
  }

private:
  const std::string AllowedTypesOption;
  const AllowedTypeNames AllowedTypes;
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::cuda::utils

#endif

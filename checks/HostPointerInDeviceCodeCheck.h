//===--- HostPointerInDeviceCodeCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_HOSTPOINTERINDEVICECODECHECK_H
#define CUDA_LAMBDA_TIDY_HOSTPOINTERINDEVICECODECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/DeviceReach.h"
#include "utils/PointerProvenance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Flags a pointer to host memory that crosses to the device and is
/// dereferenced there (H33): captured by an extended lambda, passed to a
/// kernel, or passed to a thrust/cub algorithm run on the device. Where a
/// pointer points is decided by a flow analysis of the host function
/// (utils/PointerProvenance.h): only a pointer that is host memory on every
/// path to the crossing is reported; unknown provenance stays silent.
///
/// Option HostMemoryIsDeviceAccessible (default false): on systems where
/// the GPU reads pageable host memory (HMM, or ATS on Grace Hopper), such a
/// pointer works, and the check reports nothing.
class HostPointerInDeviceCodeCheck : public ClangTidyCheck {
public:
  HostPointerInDeviceCodeCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  /// Objects (functors, parameter structs) crossing with a pointer member
  /// that holds host memory and that device code dereferences.
  void checkPointerMembers(const FunctionDecl &Function,
                           const utils::HostCodeSites &Sites,
                           utils::DeviceReach &Reach,
                           utils::ProvenanceSummaries &Summaries);
  /// The note at where the host memory comes from.
  void noteSource(const utils::HostSource &Source, const Expr *Value);

  const bool HostMemoryIsDeviceAccessible;
  /// Crossings already reported (a template's instantiations share them).
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif

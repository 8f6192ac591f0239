//===--- StaticInHostDeviceFunctionCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_STATICINHOSTDEVICEFUNCTIONCHECK_H
#define CUDA_LAMBDA_TIDY_STATICINHOSTDEVICEFUNCTIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/ArchConditionals.h"

namespace clang::tidy::cuda {

/// Flags a mutable function-scope `static` variable in a `__host__
/// __device__` function or lambda (H30): the host and each device keep a
/// copy of their own, so state stored on one side is never seen on the
/// other. Statics inside `#if`s on `__CUDA_ARCH__` exist on one side only and
/// are left alone.
class StaticInHostDeviceFunctionCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  /// This translation unit's pass-dependent branches (its preprocessor's
  /// PassDependence recorder owns them).
  const utils::ArchConditionals *Conditionals = nullptr;
};

} // namespace clang::tidy::cuda

#endif

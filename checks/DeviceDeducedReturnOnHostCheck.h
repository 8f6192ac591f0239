//===--- DeviceDeducedReturnOnHostCheck.h - cuda-lambda-tidy ------------===//

#ifndef CUDA_LAMBDA_TIDY_DEVICEDEDUCEDRETURNONHOSTCHECK_H
#define CUDA_LAMBDA_TIDY_DEVICEDEDUCEDRETURNONHOSTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include "utils/ArchConditionals.h"
#include "utils/CallableCode.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace clang::tidy::cuda {

/// Flags references to a non-constexpr `__device__` function with a deduced
/// return type (`auto`, `decltype(auto)`) outside the bodies of device
/// functions (H37): in host or `__host__ __device__` code (`sizeof(f())`,
/// `decltype(f())`, `&f`), at namespace or class scope, in a default
/// argument, or in a device function's signature. nvcc rejects them (its
/// host side never deduces the type); in a template instantiation it misses
/// them and the host compiler sees `void`.
class DeviceDeducedReturnOnHostCheck : public ClangTidyCheck {
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

private:
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  struct Reference {
    DynTypedNode Node;
    SourceLocation Loc;
    const FunctionDecl *Callee;
  };
  /// This translation unit's pass-dependent branches (its preprocessor's
  /// PassDependence recorder owns them).
  const utils::ArchConditionals *Conditionals = nullptr;
  utils::DeviceOnlyCode DeviceCode;
  std::vector<Reference> References;
  const SourceManager *SM = nullptr;
  LangOptions LangOpts;
  bool DevicePass = false;
};

} // namespace clang::tidy::cuda

#endif

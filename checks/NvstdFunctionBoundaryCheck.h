//===--- NvstdFunctionBoundaryCheck.h - cuda-lambda-tidy ----------------===//

#ifndef CUDA_LAMBDA_TIDY_NVSTDFUNCTIONBOUNDARYCHECK_H
#define CUDA_LAMBDA_TIDY_NVSTDFUNCTIONBOUNDARYCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/CallableCode.h"
#include "llvm/ADT/DenseSet.h"
#include "utils/LambdaMatches.h"
#include <optional>

namespace clang::tidy::cuda {

/// Flags an `nvstd::function` (`<nvfunctional>`) that crosses the host/device
/// line (H18): one initialized in host code with a `__device__` function or
/// lambda, one initialized in device code with a `__host__` function or a
/// functor whose `operator()` is `__host__`, and one passed from host code to
/// a kernel (as an argument, in a by-value argument, or in an extended
/// `__device__` lambda's captures). The CUDA Programming Guide says nvcc
/// rejects all of them.
class NvstdFunctionBoundaryCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    Reported.clear();
    NvstdDeclared.reset();
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  void checkInitialization(const Expr &Callable, QualType FunctionType,
                           const FunctionDecl &Context);
  void checkCaptures(const LambdaExpr &Lambda);
  void checkLaunch(const CUDAKernelCallExpr &Launch,
                   const FunctionDecl &Context);

  /// Locations already reported: a template's instantiations report once.
  llvm::DenseSet<SourceLocation> Reported;
  /// Whether this translation unit declares namespace nvstd: without it,
  /// there is no nvstd::function to look for (asked once per unit).
  std::optional<bool> NvstdDeclared;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

//===--- StdFunctionInDeviceCodeCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_STDFUNCTIONINDEVICECODECHECK_H
#define CUDA_LAMBDA_TIDY_STDFUNCTIONINDEVICECODECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/LambdaMatches.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::tidy::cuda {

/// Flags the place where a `std::function` enters device code (H17): a
/// parameter of a `__global__` or `__device__` function, a local, a call, a
/// copy or a temporary in device code, a capture of an extended lambda, a
/// by-value kernel argument whose type holds one, and a call from device code
/// into a `__host__ __device__` function that uses one. `std::function`'s
/// members are host functions; the device can neither copy nor call it.
class StdFunctionInDeviceCodeCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { HostDeviceUses.clear(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  /// Where a `__host__ __device__` function first uses a `std::function`
  /// that does not come in through its parameters.
  struct HostDeviceUse {
    SourceLocation Loc;
    QualType Type;
    /// Set when the use is a call to another such function.
    const FunctionDecl *Through = nullptr;
  };

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  struct DeviceContext;
  void checkDeviceBody(const FunctionDecl &Function, const DeviceContext &Ctx,
                       const LambdaExpr *Lambda);
  void checkCaptures(const LambdaExpr &Lambda);
  void checkLaunch(const CUDAKernelCallExpr &Launch);

  llvm::DenseMap<const FunctionDecl *, std::optional<HostDeviceUse>>
      HostDeviceUses;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

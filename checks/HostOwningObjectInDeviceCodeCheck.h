//===--- HostOwningObjectInDeviceCodeCheck.h - cuda-lambda-tidy ---------===//

#ifndef CUDA_LAMBDA_TIDY_HOSTOWNINGOBJECTINDEVICECODECHECK_H
#define CUDA_LAMBDA_TIDY_HOSTOWNINGOBJECTINDEVICECODECHECK_H

#include "utils/KernelBoundaryCheck.h"
#include "utils/TypeFacts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::cuda {

/// Flags an object that owns host heap memory (a standard container or
/// string, `std::unique_ptr`, `std::shared_ptr`, a container built on
/// `std::allocator`, or a class holding one as a base or member) that
/// crosses to the device by value and that device code uses there (H39):
/// captured by an extended `__device__` lambda (or a `__host__ __device__`
/// one handed to a kernel or device algorithm), passed to a kernel, or
/// handed to a thrust/cub algorithm run on the device. The device's copy
/// holds the host's heap pointers.
///
/// Reported in the device pass only: that pass sees what the device
/// compiles, without the host's `#ifndef __CUDA_ARCH__` branches.
class HostOwningObjectInDeviceCodeCheck : public utils::KernelBoundaryCheck {
public:
  using KernelBoundaryCheck::KernelBoundaryCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    KernelBoundaryCheck::onStartOfTranslationUnit();
    UseCache.clear();
    JudgedClosures.clear();
  }

  /// Where \p Body first uses the host memory of \p Var (of \p Method's
  /// object when \p Var is null), \p Depth calls below the crossing.
  std::optional<SourceLocation> firstUse(const Stmt *Body,
                                         const ValueDecl *Var,
                                         unsigned Depth);

private:
  void judgeCapture(const utils::BoundaryCrossing &Capture,
                    const ASTContext &Ctx);
  void judgeArgument(const utils::BoundaryCrossing &Argument,
                     const ASTContext &Ctx);
  void report(const utils::BoundaryCrossing &C,
              const utils::HostOwningPart &Part, SourceLocation Use,
              const ASTContext &Ctx);

  llvm::DenseMap<std::pair<const Stmt *, const ValueDecl *>,
                 std::optional<SourceLocation>>
      UseCache;
  /// The __host__ __device__ closures whose captures were judged when
  /// handed to the device (a closure reaches many launches).
  llvm::DenseSet<const CXXRecordDecl *> JudgedClosures;
};

} // namespace clang::tidy::cuda

#endif

//===--- KernelParamVirtualCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H

#include "utils/KernelBoundaryCheck.h"

namespace clang::tidy::cuda {

/// Flags objects of polymorphic classes that cross to the device (H32): by
/// value (also as a member held by value) passed to a kernel, captured by an
/// extended lambda or handed to a device algorithm, or a pointer to one that
/// was provably constructed on the host. The vtable pointer is the host's.
class KernelParamVirtualCheck : public utils::KernelBoundaryCheck {
public:
  using KernelBoundaryCheck::KernelBoundaryCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::cuda

#endif

//===--- KernelParamReferenceMemberCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMREFERENCEMEMBERCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMREFERENCEMEMBERCHECK_H

#include "utils/KernelBoundaryCheck.h"

namespace clang::tidy::cuda {

/// Flags objects with reference members that cross to the device (H34): a
/// functor holding `const float &` passed to a kernel, captured by an
/// extended lambda, or handed to a thrust/cub algorithm on the device. The
/// reference is copied as the host's address.
class KernelParamReferenceMemberCheck : public utils::KernelBoundaryCheck {
public:
  using KernelBoundaryCheck::KernelBoundaryCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::cuda

#endif

//===--- KernelParamNontrivialCopyCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMNONTRIVIALCOPYCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMNONTRIVIALCOPYCHECK_H

#include "utils/KernelBoundaryCheck.h"

namespace clang::tidy::cuda {

/// Flags objects crossing to the device whose copy constructor or
/// destructor visibly matters (H31): the device's copy is made byte for
/// byte, and the host-side copy is destroyed on the host. Reported: a copy
/// constructor that stores the address of the object or its members; a
/// destructor that frees memory, or writes through a pointer member, while
/// the copy constructor is the implicit shallow one. Handles designed to be
/// byte-copied (reference-counted views, iterators) are not reported.
class KernelParamNontrivialCopyCheck : public utils::KernelBoundaryCheck {
public:
  using KernelBoundaryCheck::KernelBoundaryCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::cuda

#endif

//===--- CudaModuleAnchor.h - cuda-lambda-tidy --------------------------===//
//
// Include once in a binary that links the checks' static library: the
// reference keeps the module's registration from being dropped by the linker
// (the same idiom as clang-tidy's ClangTidyForceLinker.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_CUDAMODULEANCHOR_H
#define CUDA_LAMBDA_TIDY_CUDAMODULEANCHOR_H

namespace clang::tidy {
extern volatile int CudaModuleAnchorSource;
[[maybe_unused]] static int CudaModuleAnchorDestination =
    CudaModuleAnchorSource;
} // namespace clang::tidy

#endif

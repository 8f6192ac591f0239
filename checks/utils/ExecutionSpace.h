//===--- ExecutionSpace.h - cuda-lambda-tidy ----------------------------===//
//
// Where a function runs, as nvcc sees it: host, device, both, or a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_EXECUTIONSPACE_H
#define CUDA_LAMBDA_TIDY_UTILS_EXECUTIONSPACE_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda::utils {

enum class ExecutionSpace { Host, Device, HostDevice, Global };

/// The execution space of \p Function, from its explicit or implicit CUDA
/// attributes. A lambda's call operator without an explicit annotation takes
/// the space of the code around it, as nvcc decides: clang's implicit
/// `__host__ __device__` on every unannotated lambda does not count.
ExecutionSpace executionSpaceOf(const FunctionDecl &Function);

/// Whether code in \p Space can run on the device (device, host-device, global).
bool runsOnDevice(ExecutionSpace Space);
/// Whether code in \p Space can run on the host (host, host-device).
bool runsOnHost(ExecutionSpace Space);

/// "__host__", "__device__", "__host__ __device__" or "__global__".
llvm::StringRef spelling(ExecutionSpace Space);

/// Whether \p Function carries a `__device__`/`__host__` attribute written
/// in the source (as opposed to one clang added implicitly).
bool hasExplicitDeviceAttr(const FunctionDecl &Function);
bool hasExplicitHostAttr(const FunctionDecl &Function);

} // namespace clang::tidy::cuda::utils

#endif

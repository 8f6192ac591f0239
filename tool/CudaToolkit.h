//===--- CudaToolkit.h - cuda-lambda-tidy -------------------------------===//
//
// Finding the CUDA toolkit the user builds with, without parsing any C++.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_CUDATOOLKIT_H
#define CUDA_LAMBDA_TIDY_TOOL_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

struct CudaToolkit {
  std::string Path; ///< the toolkit's root, holding bin/ and include/
  int Major = 0;    ///< from CUDA_VERSION in include/cuda.h; 0 if unknown
  int Minor = 0;
};

/// Where the lookup reads from; tests substitute their own.
struct ToolkitEnvironment {
  std::function<std::optional<std::string>(llvm::StringRef)> GetEnv;
  std::function<std::optional<std::string>(llvm::StringRef)> FindProgram;
  std::function<bool(llvm::StringRef)> IsToolkitRoot;
  std::function<std::optional<std::string>(llvm::StringRef)> ReadFile;
  /// The names of the entries of a directory; none when it cannot be read.
  std::function<std::vector<std::string>(llvm::StringRef)> ListDir;
  static ToolkitEnvironment real();
};

/// CUDA_PATH, else the toolkit of the `nvcc` on PATH, else /usr/local/cuda,
/// else the newest /usr/local/cuda-X.Y, else /usr/lib/cuda (Debian's), as
/// clang's own search goes. A CUDA_PATH that holds no toolkit (no
/// include/cuda_runtime.h) is passed over, as a stale setting, for the next
/// place.
std::optional<CudaToolkit> findCudaToolkit(const ToolkitEnvironment &Env);

/// Where findCudaToolkit looks, in order, as messages name it.
constexpr const char *ToolkitSearchOrder =
    "CUDA_PATH, nvcc on PATH, /usr/local/cuda, /usr/local/cuda-X.Y, "
    "/usr/lib/cuda";

/// The toolkit of the nvcc named \p Nvcc (as a compile command names it):
/// <root>/bin/nvcc gives <root>; a bare `nvcc`, or one outside a toolkit,
/// gives findCudaToolkit's.
std::optional<CudaToolkit> toolkitOfNvcc(llvm::StringRef Nvcc,
                                         const ToolkitEnvironment &Env);

/// The version in the `#define CUDA_VERSION 13000` line of cuda.h.
std::optional<std::pair<int, int>> parseCudaVersion(llvm::StringRef CudaH);

} // namespace cuda_lambda_tidy

#endif

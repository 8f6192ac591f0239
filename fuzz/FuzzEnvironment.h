//===--- FuzzEnvironment.h - cuda-lambda-tidy ---------------------------===//
//
// The nvcc environment both fuzz targets translate under: a CUDA 13.0 toolkit
// at the usual place, and a file system in which every file, an
// `--options-file` included, reads back as the fuzz input itself. One
// definition keeps the two targets exercising the translator alike.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_FUZZ_FUZZENVIRONMENT_H
#define CUDA_LAMBDA_TIDY_FUZZ_FUZZENVIRONMENT_H

#include "NvccTranslation.h"
#include <optional>
#include <string>

namespace cuda_lambda_tidy {

/// An environment whose every file reads as \p Input (which must outlive it).
inline NvccEnvironment fuzzEnvironment(const std::string &Input) {
  NvccEnvironment Env;
  // A file naming itself k times once expanded k^8 times (a hang the nvcc
  // fuzzer found); the translator now caps the options files read per command.
  Env.ReadFile = [&Input](llvm::StringRef) -> std::optional<std::string> {
    return Input;
  };
  Env.ToolkitOf = [](llvm::StringRef) -> std::optional<CudaToolkit> {
    return CudaToolkit{"/usr/local/cuda", 13, 0};
  };
  Env.ClangDriver = "clang++";
  return Env;
}

} // namespace cuda_lambda_tidy

#endif // CUDA_LAMBDA_TIDY_FUZZ_FUZZENVIRONMENT_H

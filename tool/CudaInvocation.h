//===--- CudaInvocation.h - cuda-lambda-tidy ----------------------------===//
//
// From the command line a user typed to the one clang-tidy runs: plain data
// in, plain data out, no AST. Adds what clang 22 needs to parse CUDA with the
// user's toolkit when the user gave no compile flags of their own.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_CUDAINVOCATION_H
#define CUDA_LAMBDA_TIDY_TOOL_CUDAINVOCATION_H

#include "CudaToolkit.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The newest CUDA version clang 22 knows; a newer toolkit needs the
/// `-target-sdk-version` workaround on the device side.
constexpr int NewestKnownCudaMajor = 12;
constexpr int NewestKnownCudaMinor = 9;

/// The GPU architecture used when the user names none.
constexpr const char *DefaultGpuArch = "sm_80";

/// A clang-tidy command line split the way clang-tidy reads it.
struct ToolCommandLine {
  std::vector<std::string> ToolArgs;    ///< options and paths before `--`
  std::vector<std::string> SourcePaths; ///< the positional arguments
  bool HasCompilerArgs = false;         ///< whether `--` was given
  std::vector<std::string> CompilerArgs; ///< everything after `--`
  bool HasBuildPath = false;             ///< whether `-p` was given
};

ToolCommandLine parseToolCommandLine(llvm::ArrayRef<std::string> Args);

/// `.cu` and `.cuh` files.
bool isCudaSourcePath(llvm::StringRef Path);

/// The language named by the last `-x` in \p CompilerArgs, or "".
std::string explicitLanguage(llvm::ArrayRef<std::string> CompilerArgs);

/// The flags clang 22 needs to parse CUDA with \p Toolkit, leaving out any
/// the user already chose in \p UserArgs. Prepended, so the user's flags
/// also win on anything both set.
std::vector<std::string> cudaParseFlags(const CudaToolkit &Toolkit,
                                        llvm::ArrayRef<std::string> UserArgs);

/// The argument vector (without argv[0]) to hand to clang-tidy's main.
/// \p CompileDatabaseFound says whether clang-tidy would find a
/// compile_commands.json for the sources by itself; then, as with `-p`, the
/// command line is left alone.
std::vector<std::string>
rewriteCommandLine(llvm::ArrayRef<std::string> Args,
                   const std::optional<CudaToolkit> &Toolkit,
                   bool CompileDatabaseFound);

/// \p Args with clang's resource directory (builtin headers and the CUDA
/// wrapper headers) set to \p ResourceDir for every compile command, unless
/// the user set one. Our binary does not live next to clang's resources, so
/// clang's guess from the executable's path would be wrong.
std::vector<std::string> withResourceDir(llvm::ArrayRef<std::string> Args,
                                         llvm::StringRef ResourceDir);

} // namespace cuda_lambda_tidy

#endif

//===--- NvccTranslation.h - cuda-lambda-tidy ---------------------------===//
//
// From an nvcc command line (as a compilation database holds it) to the clang
// driver command line that parses the same file the same way: plain data in,
// plain data out, no AST. Which flag becomes which is listed in
// docs/integration.md; the table is in NvccTranslation.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_NVCCTRANSLATION_H
#define CUDA_LAMBDA_TIDY_TOOL_NVCCTRANSLATION_H

#include "CudaToolkit.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// Defined on every command translated from nvcc, so that a check can tell
/// that the file is built by nvcc without knowing nvcc.
constexpr const char *FromNvccMacro = "__CUDA_LAMBDA_TIDY_FROM_NVCC__";

/// Whether \p Program names nvcc (`nvcc`, `/path/nvcc`, `nvcc.exe`) or
/// Kokkos's `nvcc_wrapper`.
bool isNvccProgram(llvm::StringRef Program);

/// Whether \p Command runs nvcc (`nvcc`, `/path/nvcc`, `nvcc.exe`), or
/// Kokkos's `nvcc_wrapper`, directly or through a compiler launcher
/// (`ccache`, `sccache`).
bool isNvccCommand(llvm::ArrayRef<std::string> Command);

/// The nvcc command that Kokkos's `nvcc_wrapper` runs for its arguments
/// \p Args (argv[0] left out): sources compiled with `-x cu`, nvcc's flags
/// to nvcc, the host compiler's in one `-Xcompiler` list. argv[0] of the
/// result is "nvcc" (the wrapper runs the nvcc on PATH).
std::vector<std::string>
nvccCommandOfWrapper(llvm::ArrayRef<std::string> Args);

/// Where a translation reads from; tests substitute their own.
struct NvccEnvironment {
  /// Contents of an `--options-file`, given an absolute path.
  std::function<std::optional<std::string>(llvm::StringRef)> ReadFile;
  /// The toolkit an nvcc binary belongs to, given argv[0] as written.
  std::function<std::optional<CudaToolkit>(llvm::StringRef)> ToolkitOf;
  /// The clang driver to name as argv[0] of the result.
  std::string ClangDriver = "clang++";
  /// Where the bundled fallback headers are (FallbackHeaders.h): a CUDA
  /// command whose nvcc has no toolkit is parsed against them. Empty: such a
  /// command gets no CUDA flags, and a problem says so.
  std::string FallbackDir;
  /// The nvcc-compatibility layer written for this run (FallbackHeaders.h),
  /// force-included into every CUDA command translated. Empty: none.
  std::string NvccCompatHeader;
};

struct TranslatedCommand {
  std::vector<std::string> Arguments; ///< argv of the clang driver
  /// Flags dropped because neither nvcc's table nor clang knows them, in
  /// order of appearance, each once.
  std::vector<std::string> UnknownFlags;
  /// Problems that did not stop the translation (an unreadable options
  /// file), one line each.
  std::vector<std::string> Problems;
  /// The GPU architecture chosen, e.g. "sm_80" (empty: clang's default from
  /// cudaParseFlags).
  std::string GpuArch;
  bool ExtendedLambda = false; ///< `--extended-lambda` was given
  bool IsCuda = false; ///< nvcc compiles the input as CUDA (`.cu`, `-x cu`)
  /// Parsed against the fallback headers: no toolkit for this nvcc.
  bool UsesFallback = false;
  /// The command's input files (its words that are not options or option
  /// values), as written.
  std::vector<std::string> Inputs;
};

/// Translates the nvcc command \p Command, run in \p Directory. The command
/// may start with a launcher (ccache); it is dropped.
///
/// Of several GPU architectures (`-gencode` per architecture, as CMake's
/// CUDA_ARCHITECTURES writes) the lowest is chosen: clang-tidy parses one
/// device side, and the lowest is the one every `#if __CUDA_ARCH__ >= N`
/// path of the build must also compile for. A virtual architecture
/// (`arch=compute_XX`) decides `__CUDA_ARCH__`, so it wins over `code=`.
TranslatedCommand translateNvccCommand(llvm::ArrayRef<std::string> Command,
                                       llvm::StringRef Directory,
                                       const NvccEnvironment &Env);

/// The architecture nvcc's `-arch`/`-gencode` value \p Value compiles device
/// code for (`compute_80` and `sm_80` give "sm_80"), or "" if it names none
/// (`native`, a malformed value).
std::string gpuArchOf(llvm::StringRef Value);

/// Removes the flags that would load code into the tool: `-fplugin=`,
/// `-fpass-plugin=`, `-Xclang -load <x>`, `-Xclang -plugin <x>` (and
/// `-Xclang -add-plugin`, `-Xclang -plugin-arg-*`). Returns the removed
/// flags, as written.
std::vector<std::string> stripPluginFlags(std::vector<std::string> &Args);

} // namespace cuda_lambda_tidy

#endif

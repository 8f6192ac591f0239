//===--- ResultsCache.h - cuda-lambda-tidy ------------------------------===//
//
// The results cache: what one pass over one file of a compile database
// printed (findings, fixes, the pass probe's verdict, the exit status),
// stored under a key made of the pass's preprocessed input (every file the
// preprocessor entered, by path and content, found by preprocessing in
// process with the same translated flags), the flags, the check
// configuration's inputs and the tool's identity. An unchanged file then
// costs a preprocess, not a lint. Entries are written to a temporary file
// and renamed into place, so concurrent runs never see half an entry.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_RESULTSCACHE_H
#define CUDA_LAMBDA_TIDY_TOOL_RESULTSCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The environment variable that turns both caches off when set to anything
/// but "" or "0" (as --no-cache does).
constexpr const char *NoCacheEnvironmentVariable = "CUDA_LAMBDA_TIDY_NO_CACHE";

/// The cache directory: \p Chosen (--cache-dir) when given, else
/// $XDG_CACHE_HOME/cuda-lambda-tidy, else $HOME/.cache/cuda-lambda-tidy,
/// made absolute; "" when none can be named.
std::string cacheDirectory(llvm::StringRef Chosen);

/// Whether the environment turns the caches off.
bool cacheDisabledByEnvironment();

/// What identifies this build of the tool: its version and the GNU build
/// ids of the program and the shared objects it loaded (a rebuild, or new
/// LLVM libraries, is a new tool); where there are none, the size and
/// modification time of the executable \p SelfPath.
std::string toolIdentity(llvm::StringRef Version, llvm::StringRef SelfPath);

/// The inputs of the check configuration of \p Source that are not on the
/// command line: every `.clang-tidy` file from its directory up to the root
/// (path and content), and the `--config-file` named in \p ToolArgs.
std::string configurationInputs(llvm::StringRef Source,
                                llvm::ArrayRef<std::string> ToolArgs);

/// Preprocesses \p CommandLine (a compiler command, argv[0] first, as
/// clang-tidy would run it for one file: extra arguments already in) in
/// \p Directory, in process, and returns a digest of every file the
/// preprocessor entered: its path and content, in the order of path. Paths
/// starting with one of \p Volatile (this run's temporary directories) are
/// written with the prefix cut off. An error when no compiler job results.
llvm::Expected<std::string>
preprocessedInputDigest(const std::vector<std::string> &CommandLine,
                        llvm::StringRef Directory,
                        llvm::ArrayRef<std::string> Volatile);

/// The hex SHA-256 of \p Parts, each length-prefixed.
std::string digestOf(llvm::ArrayRef<std::string> Parts);

/// One cached pass over one file.
struct CachedResult {
  int Status = 0;
  std::string Stdout, Stderr, Fixes, Probe;
  std::string FallbackReason; ///< the pass's ChildReply::FallbackReason
};

/// The entry for \p Key in \p CacheDir, if there is a readable one.
std::optional<CachedResult> readCachedResult(llvm::StringRef CacheDir,
                                             llvm::StringRef Key);

/// Stores \p Result for \p Key in \p CacheDir (temporary file, then rename).
/// Writes \p Text to \p Path through a temporary file and a rename, so
/// that a concurrent reader sees the old file or the whole new one (both
/// caches store their entries this way).
llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Text);

llvm::Error writeCachedResult(llvm::StringRef CacheDir, llvm::StringRef Key,
                              const CachedResult &Result);

} // namespace cuda_lambda_tidy

#endif

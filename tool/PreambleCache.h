//===--- PreambleCache.h - cuda-lambda-tidy -----------------------------===//
//
// The preamble cache: for one pass over one file, the main file's leading
// `#include` lines of system headers precompiled into a PCH kept in
// <cache>/preambles/, so that an editor re-linting a file whose body changed
// parses only the body. clang-tidy then loads it the way clangd loads its
// preambles (`-include-pch F -preamble-bytes=N,EOL -fno-validate-pch`).
//
// Validation is off in clang (the main file changed), so the entry carries
// its own: its key is made of the preamble's bytes, the pass's full cc1
// command line, the clang version and the tool's identity (ResultsCache.h),
// and it lists every file the preamble read with its size and modification
// time, checked again before each use; any difference rebuilds it.
//
// The preamble stops before the first line of the main file that is not a
// comment, a blank line or an `#include`, and before the first `#include`
// that enters a file outside the system headers: the preprocessor callbacks
// of the checks and of the pass probe see nothing inside a PCH, and what
// they record about the user's own files must still be seen. What the pass
// probe records about system headers (the macros that differ between the
// passes) is stored with the entry and handed back to it on reuse. A
// preamble that expands `__managed__` (cuda-host-variable-in-device-code
// finds managed variables by that macro's expansions) is not used.
//
// An entry is built at the second sight of its preamble (the same key): the
// first lint only leaves a `.seen` mark. Building costs about a quarter of a
// parse more than the lint itself, which a file linted once (every file of a
// fresh CI runner, a pre-commit hook's first run) would pay for nothing; an
// editor's second save builds it and the saves after it load it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_PREAMBLECACHE_H
#define CUDA_LAMBDA_TIDY_TOOL_PREAMBLECACHE_H

#include "FallbackHeaders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// One pass over one file, as clang-tidy will run it.
struct PreambleRequest {
  /// The compiler command clang-tidy runs for the file (argv[0] first,
  /// every argument adjuster applied).
  std::vector<std::string> CommandLine;
  std::string Directory; ///< where it runs
  std::string CacheDir;  ///< the cache directory (ResultsCache.h)
  std::string ToolIdentity;
  /// Paths of this run's temporary directories: a command naming one
  /// cannot be reused by the next run, so it gets no preamble.
  std::vector<std::string> Volatile;
  /// Build the entry at the first sight of its preamble, not the second
  /// (`--preamble-at-first-lint`: an editor that will lint the file again).
  bool BuildAtFirstSight = false;
};

/// What the lint needs to use a cached preamble.
struct PreambleUse {
  /// clang-tidy options (`--extra-arg=...`) that load the preamble.
  std::vector<std::string> ToolArgs;
  /// The macros the pass probe found pass-dependent inside the preamble.
  std::vector<std::string> DependentMacros;
  /// A private link to the PCH that the caller removes after the lint (a
  /// concurrent run may replace the entry meanwhile).
  std::string Link;
};

/// What became of a request: "hit", "built" or "miss" (with the reason).
struct PreambleOutcome {
  std::string Verdict;
  std::string Reason;
};

/// Finds the preamble of \p Request in its cache, or builds and stores it;
/// std::nullopt when the file has none that can be used (\p Outcome says
/// why).
std::optional<PreambleUse> usePreamble(const PreambleRequest &Request,
                                       PreambleOutcome &Outcome);

/// The length of the leading part of \p Text made of blank lines, comments
/// and `#include` lines only, ending at the start of a line (0 when none).
size_t includeLinesPrefix(llvm::StringRef Text);

/// A directory under \p CacheDir/preambles/support, named by \p Key,
/// holding \p Headers, for headers that a cached preamble names by path
/// (which must outlive the run): written once (a temporary directory, then
/// renamed) and found there by later runs with the same key while each
/// header has its size; its path, or an error. \p Key must say what the
/// headers are: their text, or the binary that carries them.
llvm::Expected<std::string>
stableSupportDirectory(llvm::StringRef CacheDir, llvm::StringRef Key,
                       llvm::ArrayRef<FallbackHeader> Headers);

/// stableSupportDirectory for one header \p Name with \p Text, keyed by
/// both; the header's path, or an error.
llvm::Expected<std::string> stableSupportFile(llvm::StringRef CacheDir,
                                              llvm::StringRef Name,
                                              llvm::StringRef Text);

} // namespace cuda_lambda_tidy

#endif

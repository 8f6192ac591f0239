//===--- DropInRun.h - cuda-lambda-tidy ---------------------------------===//
//
// What one run of the drop-in holds from main to its end: its own path, the
// private temporary directories it made, the choices a parent hands its
// children (which pass, the preamble cache), and the support files written
// for the parse (clang's resource headers in the self-contained binary, the
// nvcc-compatibility layer, the fallback headers). main owns the one object;
// the functions that need it take it as an argument.
//
// The messages the drop-in prints itself, and their exit statuses, are here
// too, so that every part of it says things the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_DROPINRUN_H
#define CUDA_LAMBDA_TIDY_TOOL_DROPINRUN_H

#include "ChildRequest.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// Exit status for unusable input: a file that is missing, a directory, or
/// unreadable; no toolkit where one is needed.
constexpr int InputErrorExitCode = 2;

/// Exit status when the only errors were clang's on syntax that nvcc accepts
/// (foldNvccOnlySyntax): the findings are printed, but may be incomplete.
constexpr int NvccOnlySyntaxExitCode = 3;

/// Prints `cuda-lambda-tidy: error: MESSAGE` and returns InputErrorExitCode.
int inputError(const llvm::Twine &Message);

/// Prints `cuda-lambda-tidy: warning: MESSAGE`.
void warning(const llvm::Twine &Message);

/// Whether the environment asks the drop-in to say what it decided about
/// \p Topic: CUDA_LAMBDA_TIDY_EXPLAIN_CACHE (the preamble and results
/// caches), CUDA_LAMBDA_TIDY_EXPLAIN_PASSES (which host passes run).
bool explains(llvm::StringRef Topic);

/// This binary's path, symlinks resolved (\p Argv0 when it cannot be
/// found).
std::string selfPath(const char *Argv0);

/// The run of this process. Its destructor removes the temporary
/// directories, also when clang-tidy's main calls exit() on a malformed
/// option (main keeps the object in a function-local static).
class DropInRun {
public:
  explicit DropInRun(const char *Argv0);
  ~DropInRun();
  DropInRun(const DropInRun &) = delete;
  DropInRun &operator=(const DropInRun &) = delete;

  const char *argv0() const { return Argv0; }
  /// This binary, as the children are started.
  const std::string &self() const { return Self; }

  /// A new directory that only this user can read, named after \p Prefix,
  /// removed when the run ends.
  llvm::Expected<std::string> createTemporaryDirectory(llvm::StringRef Prefix);
  /// The directories made so far, and those of the parent this child
  /// lints in: paths no cached result may depend on.
  const std::vector<std::string> &temporaryDirectories() const {
    return VolatileDirs;
  }
  /// A temporary directory of the parent's run that this child uses (the
  /// database the parent translated): volatile as its own are, and left
  /// for the parent to remove.
  void useParentDirectory(llvm::StringRef Dir) {
    VolatileDirs.push_back(Dir.str());
  }

  /// Removes \p Path should a signal end this process
  /// (llvm::sys::RemoveFileOnSignal), and remembers it: a child forked from
  /// this process must not remove the parent's files when it dies.
  void removeOnSignal(llvm::StringRef Path);

  /// Called first in a child forked from this run (ChildProcess.h): the
  /// parent's temporary directories stay usable and volatile but are the
  /// parent's to remove, its files are no longer removed on a signal here,
  /// and what a parent sets for its children (the request, the pass, the
  /// preamble cache) starts as in a child started afresh.
  void becomeForkedChild();

  /// clang's resource directory (builtin headers, CUDA wrappers) for a run
  /// that parses: LLVM's, or in the self-contained binary its own copy,
  /// written once into the preamble cache when it is on (a cached preamble
  /// names the headers by path), else once per run to a private temporary
  /// directory.
  llvm::Expected<std::string> resourceDir();

  /// Writes the nvcc-compatibility layer into \p Dir and returns its path;
  /// with the preamble cache, into the cache (a preamble that force-includes
  /// it names it by path, which must outlive this run).
  llvm::Expected<std::string> useNvccCompatHeader(llvm::StringRef Dir);

  /// The check documentation for SARIF's rule help: the installed copy
  /// (<prefix>/share/doc/cuda-lambda-tidy/docs/checks, found from this
  /// binary's place, <prefix>/bin), else the source tree's.
  std::string docsDir() const;

  /// What the parent asked, when this process is one of its children
  /// (PassChildren.h); the reply is written to Request->ReplyFile at the end.
  std::optional<ChildRequest> Request;
  /// What this child answers: filled as the lint goes (the preamble's
  /// outcome).
  ChildReply Reply;

  /// The pass this process lints ("" for one pass over plain C++ or both
  /// sides at once), for what it says.
  std::string Pass;
  /// The preamble cache of this process's one lint (PreambleCache.h): its
  /// directory, "" when off.
  std::string PreambleCacheDir;
  /// `--preamble-at-first-lint`.
  bool PreambleAtFirstLint = false;

private:
  const char *Argv0;
  std::string Self;
  std::vector<std::string> TemporaryDirs; ///< made here, removed at the end
  std::vector<std::string> VolatileDirs;  ///< TemporaryDirs and the parent's
  std::vector<std::string> RemovedOnSignal; ///< removeOnSignal's paths
  std::optional<std::string> WrittenResourceDir;
};

/// Writes the fallback headers into \p Dir (removed should a signal end
/// \p Run) and says, first on stderr, that
/// they are used because of \p Reason (fallbackReason).
llvm::Error useFallbackHeaders(DropInRun &Run, llvm::StringRef Dir,
                               llvm::StringRef Reason);

} // namespace cuda_lambda_tidy

#endif

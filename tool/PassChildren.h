//===--- PassChildren.h - cuda-lambda-tidy ------------------------------===//
//
// The parent of a lint: a CUDA file is linted in two passes (device and
// host; the host pass only where the device pass's probe says it sees
// something else, PassProbe.h), over groups of files (all at once, one per
// file with -j or the results cache, a shard's), each pass over a group in a
// child process of this binary (OnePass.h) with clang-tidy's own output.
// The parent merges what the children print into one report, each finding
// once, in the format asked for.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_PASSCHILDREN_H
#define CUDA_LAMBDA_TIDY_TOOL_PASSCHILDREN_H

#include "CudaInvocation.h"
#include "DropInRun.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// How a lint is split into child processes.
struct ChildPlan {
  /// The passes of each group: {"device", "host"}, one of them, or {""} (a
  /// plain C++ lint in child processes, for -j or an output format).
  std::vector<std::string> Passes;
  /// The files of each group of children; one empty group: the files of the
  /// command line (or of the database) as they are.
  std::vector<std::vector<std::string>> Groups;
  unsigned Parallel = 1; ///< children at a time (-j)
  /// Each host pass runs only where its device pass's probe asks for it
  /// (the default); without, both run (`--cuda-pass=both`).
  bool ProbeHostPass = false;
  /// The results cache's directory, "" when off: each pass over a group of
  /// one file is looked up there, and stored on a miss.
  std::string CacheDir;
  /// The directory of the compile database, "" for none: the parent
  /// translates it once, and the children lint the translation.
  std::string DatabaseDir;
};

/// The children for a lint of \p CommandLine (with the database in
/// \p DatabaseDir, "" for none), or std::nullopt when this process lints
/// one pass itself: that pass (or "" for both at once) goes to
/// \p Own.CudaPass. Fails with the one-line reason on a request it cannot
/// meet (-j without files or database).
llvm::Expected<std::optional<ChildPlan>>
planChildren(const ToolCommandLine &CommandLine, OwnOptions &Own,
             llvm::StringRef DatabaseDir);

/// Runs \p Plan's children on \p CommandLine, at most
/// Plan.Parallel at a time (one with --fix, in order: the device pass fixes
/// first; probed host passes after every group's device pass), and prints
/// their merged findings in \p Own.Format; returns the exit status.
int runChildren(DropInRun &DropIn, ToolCommandLine CommandLine,
                const OwnOptions &Own, const ChildPlan &Plan);

} // namespace cuda_lambda_tidy

#endif

//===--- OnePass.h - cuda-lambda-tidy -----------------------------------===//
//
// One lint in this process: clang-tidy's main over one pass (device, host,
// or plain C++), with the compile database's nvcc entries translated, or,
// without a database, with the toolkit's flags (or the fallback headers)
// added to the files named; a lint of one file may load a cached preamble.
// The results cache's key of a pass over one file of a database is here too
// (resultsKeyOf), for the parent that looks it up. The parent that splits a
// lint into such passes is in PassChildren.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_ONEPASS_H
#define CUDA_LAMBDA_TIDY_TOOL_ONEPASS_H

#include "CudaInvocation.h"
#include "DropInRun.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The results cache's key of the pass \p Request asks of a child over one
/// file of the database its parent translated, \p ChildCommandLine being
/// the child's (`-p` the translated database, the file, `--export-fixes`):
/// the tool, what the child is asked (this run's
/// temporary paths left out), the file's compile command and configuration,
/// and its preprocessed input. std::nullopt where the pass cannot be keyed
/// (no compile command, an input that does not preprocess): it is linted.
/// The parent looks each such pass up before it starts its child
/// (PassChildren.h), and a hit starts none.
std::optional<std::string>
resultsKeyOf(DropInRun &Run, const ToolCommandLine &ChildCommandLine,
             const ChildRequest &Request);

/// Runs clang-tidy's main on \p CommandLine with clang's resource
/// directory and, with the preamble cache on, the cached preamble of its
/// one source: the one place a lint's argument vector is made.
int runClangTidy(DropInRun &Run, const ToolCommandLine &CommandLine);

/// A compile database translated for clang (translateDatabase).
struct TranslatedDatabase {
  std::string Dir; ///< a private temporary directory with compile_commands.json
  /// The database's CUDA files, to lint when no source was named.
  std::vector<std::string> CudaFiles;
};

/// Translates the nvcc entries of the database in \p DatabaseDir into a
/// private temporary database of \p Run (with the fallback headers and the
/// nvcc-compatibility layer it needs), and says on stderr, once, what the
/// translation did for the files \p Sources (as named; none: the whole
/// database): borrowed commands, dropped flags, the fallback headers. A
/// parent does it once for all its children (--cuda-lambda-tidy-translated).
/// Fails with the one-line message.
llvm::Expected<TranslatedDatabase>
translateDatabase(DropInRun &Run, llvm::ArrayRef<std::string> Sources,
                  llvm::StringRef DatabaseDir, const OwnOptions &Own);

/// Lints with the database in \p DatabaseDir: translated first
/// (translateDatabase), unless the child request of \p Run says the parent
/// did.
int runWithDatabase(DropInRun &Run, const ToolCommandLine &CommandLine,
                    llvm::StringRef DatabaseDir, const OwnOptions &Own);

/// Lints without a compile database: CUDA sources given without compile
/// flags get the toolkit's, or, without one, the fallback headers'; every
/// CUDA parse gets the nvcc-compatibility layer.
int runWithFlags(DropInRun &Run, const ToolCommandLine &CommandLine,
                 const OwnOptions &Own);

/// One pass in this process (\p Own.CudaPass; "" or "both": both sides at
/// once) over \p CommandLine, with the child request of
/// \p Run when a parent asked for it: with the database of `-p` (or one
/// found above the first source), else with flags (runWithFlags).
int lintOnePass(DropInRun &Run, ToolCommandLine CommandLine,
                OwnOptions &Own);

/// What a child of a parent run (PassChildren.h) does, started afresh or
/// forked: reads the request \p Own.RequestFile names, lints the one pass
/// it asks for over \p CommandLine, and writes its reply.
int lintAsChild(DropInRun &Run, ToolCommandLine CommandLine,
                OwnOptions Own);

} // namespace cuda_lambda_tidy

#endif

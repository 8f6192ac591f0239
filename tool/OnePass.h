//===--- OnePass.h - cuda-lambda-tidy -----------------------------------===//
//
// One lint in this process: clang-tidy's main over one pass (device, host,
// or plain C++), with the compile database's nvcc entries translated, or,
// without a database, with the toolkit's flags (or the fallback headers)
// added to the files named; a pass over one file of a database is first
// looked up in the results cache, a lint of one file may load a cached
// preamble. The parent that splits a lint into such passes is in
// PassChildren.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_ONEPASS_H
#define CUDA_LAMBDA_TIDY_TOOL_ONEPASS_H

#include "CudaInvocation.h"
#include "DropInRun.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// What a child pass needs to look itself up in the results cache.
struct ResultsLookup {
  std::string CacheDir;
  std::string KeyArgs; ///< the child's options, this run's paths left out
  std::string ExportFixes, ProbeFile; ///< where a hit's outputs go
};

/// The lookup of a child that \p Request asks to use the results cache,
/// for the pass \p Own.CudaPass with the arguments \p Args.
ResultsLookup resultsLookupOf(llvm::ArrayRef<std::string> Args,
                              const OwnOptions &Own,
                              const ChildRequest &Request);

/// Runs clang-tidy's main on \p Args (arguments without argv[0]) with
/// clang's resource directory and, with the preamble cache on, the cached
/// preamble of its one source.
int runClangTidy(DropInRun &Run, llvm::ArrayRef<std::string> Args);

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
/// did; with
/// \p Lookup, a pass over one file is first looked up in the results
/// cache.
int runWithDatabase(DropInRun &Run, llvm::ArrayRef<std::string> Args,
                    const ToolCommandLine &CommandLine,
                    llvm::StringRef DatabaseDir, const OwnOptions &Own,
                    const ResultsLookup *Lookup = nullptr);

/// Lints without a compile database: CUDA sources given without compile
/// flags get the toolkit's, or, without one, the fallback headers'; every
/// CUDA parse gets the nvcc-compatibility layer.
int runWithFlags(DropInRun &Run, llvm::ArrayRef<std::string> Args,
                 const OwnOptions &Own);

} // namespace cuda_lambda_tidy

#endif

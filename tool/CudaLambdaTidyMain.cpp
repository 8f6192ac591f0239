//===--- CudaLambdaTidyMain.cpp - cuda-lambda-tidy ----------------------===//
//
// The drop-in clang-tidy: upstream's main with every upstream module and the
// `cuda` module linked in. main reads the command line and hands over:
//
//  - to the compiler launcher (Launcher.h), under its own name or with
//    --launcher first;
//  - to the parent (PassChildren.h), which splits a lint of CUDA files into
//    a device and a host pass, -j, shards and the results cache into child
//    processes of this binary and merges what they print;
//  - to one pass in this process (OnePass.h): clang-tidy's main, with the
//    compile database's nvcc entries translated into a private temporary
//    database (-p, or one found above the first source), or, for CUDA
//    sources given without compile flags, with what clang needs to parse
//    them with the user's toolkit or, without one, the bundled fallback
//    header.
//
// Before that it checks that the files exist, enables the cuda-* checks
// where nothing chose checks (DefaultChecks.h), and picks the preamble
// cache for a lint of one file. What the run holds is in DropInRun.h.
//
//===----------------------------------------------------------------------===//

#include "ChildRequest.h"
#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "CudaLambdaTidyVersion.h"
#include "CudaModuleAnchor.h"
#include "DefaultChecks.h"
#include "DropInRun.h"
#include "FallbackHeaders.h"
#include "HugePageHeap.h"
#include "Launcher.h"
#include "OnePass.h"
#include "PassChildren.h"
#include "probe/PassProbe.h"
#include "ResultsCache.h"
#include "Shard.h"
#include "clang-tidy/ClangTidyForceLinker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace cuda_lambda_tidy;

namespace {

/// `--merge-sarif OUT IN...`: writes the SARIF logs IN as one log to OUT
/// ("-": stdout).
int mergeSarifMain(llvm::ArrayRef<std::string> Args) {
  if (Args.size() < 2)
    return inputError("--merge-sarif takes an output file and one or more "
                      "SARIF logs: --merge-sarif OUT IN...");
  std::vector<std::string> Logs;
  for (const std::string &In : Args.drop_front()) {
    auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(In);
    if (!Buffer)
      return inputError("'" + In + "' cannot be read");
    Logs.push_back((*Buffer)->getBuffer().str());
  }
  llvm::Expected<std::string> Merged = mergeSarifLogs(Logs);
  if (!Merged)
    return inputError("--merge-sarif: " + llvm::toString(Merged.takeError()));
  if (Args.front() == "-") {
    llvm::outs() << *Merged;
    return 0;
  }
  std::error_code EC;
  llvm::raw_fd_ostream Out(Args.front(), EC);
  if (!EC)
    Out << *Merged;
  if (EC || Out.has_error()) {
    Out.clear_error();
    return inputError("cannot write '" + Args.front() + "'");
  }
  return 0;
}

/// `--print-parse-flags`: the flags the drop-in adds to parse a CUDA file
/// with the toolkit it finds (cudaParseFlags), one per line: what the
/// plugin's users pass after `--`, and what the test scripts parse with.
int printParseFlags() {
  std::optional<CudaToolkit> Toolkit =
      findCudaToolkit(ToolkitEnvironment::real());
  if (!Toolkit)
    return inputError(fallbackReason(/*NoToolkit=*/false));
  for (const std::string &Flag : cudaParseFlags(*Toolkit, {}))
    llvm::outs() << Flag << "\n";
  return 0;
}

} // namespace

int main(int argc, const char **argv) {
  // Before anything allocates much: the forked children inherit it.
  adviseHugePagesForHeap();
  std::vector<std::string> Args(argv + 1, argv + argc);
  // Removes its temporary directories at the end, exit() included.
  static DropInRun Run(argv[0]);
  // The compiler launcher: under its own name (a symlink to this binary),
  // or with --launcher first.
  if (llvm::sys::path::stem(argv[0]) == LauncherName)
    return launcherMain(argv[0], Args);
  if (!Args.empty() && Args.front() == "--launcher")
    return launcherMain(argv[0], llvm::ArrayRef(Args).drop_front());
  if (!Args.empty() && Args.front() == "--print-parse-flags")
    return printParseFlags();
  // --merge-sarif OUT IN...: the shards' SARIF logs as one.
  if (!Args.empty() && Args.front() == "--merge-sarif")
    return mergeSarifMain(llvm::ArrayRef(Args).drop_front());
  // --version: clang-tidy's lines (LLVM's version), then ours.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "cuda-lambda-tidy version " CUDA_LAMBDA_TIDY_VERSION "\n"
       << "  built with LLVM " CUDA_LAMBDA_TIDY_LLVM_VERSION
       << (embeddedResourceHeaders().empty()
               ? " (shared libraries)\n"
               : " (linked statically, clang's headers built in)\n");
  });
  OwnOptions Own = takeOwnOptions(Args);
  if (!Own.Error.empty())
    return inputError(Own.Error);
  // A child of a parent run (PassChildren.h): what it asks is in its
  // request; the rest of the command line is clang-tidy's.
  // The rest is clang-tidy's command line, read here once.
  ToolCommandLine CommandLine = ToolCommandLine::parse(Args);
  if (!Own.RequestFile.empty())
    return lintAsChild(Run, std::move(CommandLine), Own);
  // No checks chosen anywhere: the cuda-* checks, not clang-tidy's "no
  // checks enabled" (DefaultChecks.h).
  CommandLine = withDefaultChecks(CommandLine, databaseSourcesOf(CommandLine));
  // The preamble cache: for one file named on the command line (an editor
  // linting what it saves), never when fixes are applied.
  Run.PreambleAtFirstLint = Own.PreambleAtFirstLint;
  if (CommandLine.SourcePaths.size() == 1 && !Own.NoCache &&
      !Own.NoPreambleCache && !cacheDisabledByEnvironment() &&
      !asksForFixes(CommandLine.Options) &&
      !asksForInformation(CommandLine.Options))
    Run.PreambleCacheDir = cacheDirectory(Own.CacheDir);

  // --list-checks, --dump-config & co. read no source: clang-tidy accepts
  // any path there, run-clang-tidy's probe `--list-checks -` among them.
  for (const std::string &Source : CommandLine.SourcePaths) {
    if (asksForInformation(CommandLine.Options))
      break;
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Source, Status) ||
        !llvm::sys::fs::exists(Status))
      return inputError("'" + Source + "': no such file");
    if (llvm::sys::fs::is_directory(Status))
      return inputError("'" + Source +
                        "' is a directory; name the source files, or use -p "
                        "with a compile_commands.json");
    llvm::Expected<llvm::sys::fs::file_t> Handle =
        llvm::sys::fs::openNativeFileForRead(Source);
    if (!Handle) {
      llvm::consumeError(Handle.takeError());
      return inputError("'" + Source + "' cannot be read");
    }
    llvm::sys::fs::closeFile(*Handle);
  }

  // Flags after `--` win over any database, as in clang-tidy. Without a
  // compile_commands.json (a compile_flags.txt, say) clang-tidy decides
  // alone.
  std::string DatabaseDir = databaseDirOf(CommandLine);

  // The parent: passes, formats and -j run as child processes of this
  // binary, each one pass over some files with clang-tidy's own output.
  bool Lints = !asksForInformation(CommandLine.Options) &&
               (!CommandLine.SourcePaths.empty() || CommandLine.hasBuildPath());
  if (Lints) {
    llvm::Expected<std::optional<ChildPlan>> Plan =
        planChildren(CommandLine, Own, DatabaseDir);
    if (!Plan)
      return inputError(llvm::toString(Plan.takeError()));
    if (*Plan)
      return runChildren(Run, std::move(CommandLine), Own, **Plan);
  }
  return lintOnePass(Run, std::move(CommandLine), Own);
}

//===--- PassChildren.cpp - cuda-lambda-tidy ----------------------------===//

#include "PassChildren.h"
#include "ChildProcess.h"
#include "ChildRequest.h"
#include "CompileDatabase.h"
#include "CudaLambdaTidyVersion.h"
#include "FallbackHeaders.h"
#include "OnePass.h"
#include "probe/PassProbe.h"
#include "ResultsCache.h"
#include "Shard.h"
#include "TidyOutput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

namespace cuda_lambda_tidy {

llvm::Expected<std::optional<ChildPlan>>
planChildren(const ToolCommandLine &CommandLine, OwnOptions &Own,
             llvm::StringRef DatabaseDir) {
  ChildPlan Plan;
  std::string Language = explicitLanguage(CommandLine.CompilerArgs);
  bool Cuda = CommandLine.SourcePaths.empty() || Language == "cuda" ||
              Language == "cu" ||
              llvm::any_of(CommandLine.SourcePaths, isCudaSourcePath);
  if (!Own.CudaPass.empty() && Own.CudaPass != "both")
    Plan.Passes = {Own.CudaPass};
  else if (Cuda)
    Plan.Passes = {"device", "host"};
  else
    Plan.Passes = {""};
  // By default the host pass runs only where it can see something the
  // device pass did not; --cuda-pass=both forces it.
  Plan.ProbeHostPass = Plan.Passes.size() > 1 && Own.CudaPass.empty();
  // The results cache: passes over the files of a compile database, one
  // file per child, never when fixes are applied.
  if (!DatabaseDir.empty() && !Own.NoCache && !cacheDisabledByEnvironment() &&
      !asksForFixes(CommandLine.Options))
    Plan.CacheDir = cacheDirectory(Own.CacheDir);
  if (Plan.Passes.size() == 1 && Own.Format == "text" && Own.Jobs == 0 &&
      Own.ShardCount == 0 && Plan.CacheDir.empty()) {
    Own.CudaPass = Plan.Passes.front();
    return std::nullopt;
  }
  Plan.DatabaseDir = DatabaseDir.str();
  Plan.Parallel = std::max(1u, Own.Jobs);
  const bool PerFile = Own.Jobs > 0 || !Plan.CacheDir.empty();
  if (!PerFile && Own.ShardCount == 0) {
    Plan.Groups = {{}};
    return Plan;
  }
  std::vector<std::string> Files = CommandLine.SourcePaths;
  if (Files.empty()) {
    if (DatabaseDir.empty())
      return llvm::createStringError(
          std::string(Own.Jobs > 0 ? "-j" : "--shard") +
          " without files needs -p with a compile_commands.json");
    std::string Error;
    Files = databaseCudaFiles(DatabaseDir, Own.NoToolkit, Own.AllowPlugins,
                              Error);
    if (!Error.empty())
      return llvm::createStringError(Error);
  }
  if (Own.ShardCount > 0) {
    // Split by the path relative to the database (Shard.h).
    std::string Base = DatabaseDir.empty() ? "." : DatabaseDir.str();
    Shard S{Own.ShardIndex, Own.ShardCount};
    llvm::erase_if(Files, [&](const std::string &File) {
      return !inShard(S, File, Base);
    });
  }
  if (!PerFile) {
    if (!Files.empty())
      Plan.Groups = {Files};
    return Plan;
  }
  // Without -j, one file at a time, in the order of their paths (as one
  // clang-tidy over all of them would print them).
  if (Own.Jobs == 0)
    llvm::sort(Files);
  for (const std::string &File : Files)
    Plan.Groups.push_back({File});
  return Plan;
}

/// One child process: one pass over some files.
struct ChildRun {
  ChildRequest Request;          ///< what it is asked (its pass, files to write)
  std::string RequestFile;       ///< where the request is written
  ToolCommandLine CommandLine;   ///< clang-tidy's: its files, `-p`, fixes
  size_t Group = 0;              ///< which output group it belongs to
  std::string StdoutFile, StderrFile, FixesFile;
  ChildReply Reply;              ///< what it answered, once done
  /// A pass over one file of a database, looked up in the results cache
  /// before its child is started.
  bool UsesResultsCache = false;
  /// "hit" (replayed, no child started), "miss" (its output is stored
  /// under CacheKey), "none" (it could not be keyed).
  std::string CacheOutcome = "none";
  std::string CacheKey;
  /// A host pass that runs only when the probe of run \c ProbedBy says so.
  std::optional<size_t> ProbedBy;
  bool Skipped = false; ///< a probed host pass that was not needed
  bool Done = false;
  llvm::sys::ProcessInfo Process;
  int Status = 0;
};

/// The line \p Line of \p File and the lines it continues onto (a macro
/// definition), or "" when the file cannot be read.
static std::string definitionText(llvm::StringRef File, unsigned Line) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer || Line == 0)
    return "";
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  for (unsigned I = 1; I < Line && !Rest.empty(); ++I)
    Rest = Rest.split('\n').second;
  std::string Text;
  while (!Rest.empty()) {
    auto [Current, Next] = Rest.split('\n');
    Text += Current.str() + "\n";
    if (!Current.rtrim().ends_with("\\"))
      break;
    Rest = Next;
  }
  return Text;
}

static std::string temporaryFile(DropInRun &DropIn, llvm::StringRef Suffix) {
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createTemporaryFile("cuda-lambda-tidy", Suffix, Path))
    return "";
  DropIn.removeOnSignal(Path);
  return Path.str().str();
}

static std::string readWhole(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

static void writeWhole(llvm::StringRef Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (!EC)
    Out << Text;
}

/// Looks \p Run up in the results cache at \p CacheDir before its child is
/// started: on a hit, writes what the pass printed and wrote then where its
/// child would have (its stdout, stderr, fixes and probe files), takes its
/// exit status, and returns true: no child runs.
static bool replayCachedResult(DropInRun &DropIn, ChildRun &Run,
                               llvm::StringRef CacheDir) {
  std::optional<std::string> Key =
      resultsKeyOf(DropIn, Run.CommandLine, Run.Request);
  if (!Key)
    return false;
  std::optional<CachedResult> Hit = readCachedResult(CacheDir, *Key);
  if (!Hit) {
    Run.CacheOutcome = "miss";
    Run.CacheKey = *Key;
    return false;
  }
  Run.CacheOutcome = "hit";
  writeWhole(Run.StdoutFile, Hit->Stdout);
  writeWhole(Run.StderrFile, Hit->Stderr);
  if (!Run.FixesFile.empty())
    writeWhole(Run.FixesFile, Hit->Fixes);
  if (!Run.Request.ProbeFile.empty())
    writeWhole(Run.Request.ProbeFile, Hit->Probe);
  Run.Reply.FallbackReason = Hit->FallbackReason;
  Run.Status = Hit->Status;
  Run.Done = true;
  return true;
}

/// Stores in the results cache at \p CacheDir what each pass of \p Runs
/// that missed it printed and wrote, and says (CUDA_LAMBDA_TIDY_EXPLAIN_CACHE)
/// which passes hit.
static void storeMissedResults(std::vector<ChildRun> &Runs,
                               llvm::ArrayRef<std::vector<std::string>> Groups,
                               llvm::StringRef CacheDir) {
  for (ChildRun &Run : Runs) {
    if (!Run.UsesResultsCache)
      continue;
    const std::string &Pass = Run.Request.Pass;
    // CUDA_LAMBDA_TIDY_EXPLAIN_CACHE=1: say which passes hit the cache.
    if (explains("CACHE") && !Run.Skipped)
      llvm::errs() << "cuda-lambda-tidy: results cache " << Run.CacheOutcome
                   << ": " << Groups[Run.Group].front() << " ("
                   << (Pass.empty() ? llvm::StringRef("one pass")
                                    : llvm::StringRef(Pass))
                   << ")\n";
    if (Run.Skipped || !Run.Done || Run.Status < 0 ||
        Run.CacheOutcome != "miss")
      continue;
    CachedResult Result;
    Result.Status = Run.Status;
    Result.Stdout = readWhole(Run.StdoutFile);
    Result.Stderr = readWhole(Run.StderrFile);
    if (!Run.FixesFile.empty())
      Result.Fixes = readWhole(Run.FixesFile);
    if (!Run.Request.ProbeFile.empty())
      Result.Probe = readWhole(Run.Request.ProbeFile);
    Result.FallbackReason = Run.Reply.FallbackReason;
    // A cache that cannot be written (a read-only home) only costs time.
    if (llvm::Error Failed =
            writeCachedResult(CacheDir, Run.CacheKey, Result)) {
      if (explains("CACHE"))
        warning("results cache: " + llvm::toString(std::move(Failed)));
      else
        llvm::consumeError(std::move(Failed));
    }
  }
}

int runChildren(DropInRun &DropIn, ToolCommandLine CommandLine,
                const OwnOptions &Own, const ChildPlan &Plan) {
  llvm::ArrayRef<std::string> Passes = Plan.Passes;
  llvm::ArrayRef<std::vector<std::string>> Groups = Plan.Groups;
  unsigned Parallel = std::max(1u, Plan.Parallel);
  const bool ProbeHostPass = Plan.ProbeHostPass;
  llvm::StringRef CacheDir = Plan.CacheDir;
  llvm::StringRef PreambleDir = DropIn.PreambleCacheDir;
  std::string ExportFixes = takeExportFixes(CommandLine);
  bool WantFixes = !ExportFixes.empty() || Own.Format == "sarif";
  if (asksForFixes(CommandLine.Options))
    Parallel = 1;

  // The database is translated once, here, for the files of every group
  // (none named: the whole database's CUDA entries); what the translation
  // says is said once, and each child lints the translation as it is.
  bool Translated = false;
  if (!Plan.DatabaseDir.empty() && !Groups.empty()) {
    std::vector<std::string> Linted = CommandLine.SourcePaths;
    if (Linted.empty())
      for (const std::vector<std::string> &Group : Groups)
        Linted.insert(Linted.end(), Group.begin(), Group.end());
    llvm::Expected<TranslatedDatabase> Database =
        translateDatabase(DropIn, Linted, Plan.DatabaseDir, Own);
    if (!Database)
      return inputError(llvm::toString(Database.takeError()));
    CommandLine = withBuildPath(std::move(CommandLine), Database->Dir,
                                Linted.empty() ? Database->CudaFiles
                                               : std::vector<std::string>());
    Translated = true;
  }

  std::vector<ChildRun> Runs;
  // Probed: every group's device pass, then the host passes.
  std::vector<std::pair<size_t, size_t>> Order; // (pass, group)
  for (size_t G = 0; G < Groups.size(); ++G)
    for (size_t P = 0; P < Passes.size(); ++P)
      Order.push_back({P, G});
  if (ProbeHostPass)
    std::stable_sort(Order.begin(), Order.end(),
                     [](auto &A, auto &B) { return A.first < B.first; });
  std::vector<size_t> DeviceRunOf(Groups.size());
  for (auto [P, G] : Order) {
    ChildRun Run;
    Run.Group = G;
    ChildRequest &Request = Run.Request;
    Request.Pass = Passes[P];
    Request.AllowPlugins = Own.AllowPlugins;
    Request.NoToolkit = Own.NoToolkit;
    Request.Translated = Translated;
    if (ProbeHostPass && Request.Pass == "device") {
      Request.ProbeFile = temporaryFile(DropIn, "probe");
      if (Request.ProbeFile.empty())
        return inputError("cannot create a temporary file");
      DeviceRunOf[G] = Runs.size();
    }
    if (ProbeHostPass && Request.Pass == "host")
      Run.ProbedBy = DeviceRunOf[G];
    Run.UsesResultsCache = !CacheDir.empty() && Groups[G].size() == 1;
    Request.PreambleCacheDir = PreambleDir.str();
    Request.PreambleAtFirstLint =
        !PreambleDir.empty() && Own.PreambleAtFirstLint;
    Request.ReplyFile = temporaryFile(DropIn, "reply");
    Run.RequestFile = temporaryFile(DropIn, "request");
    Run.StdoutFile = temporaryFile(DropIn, "out");
    Run.StderrFile = temporaryFile(DropIn, "err");
    Run.CommandLine = CommandLine;
    if (!Groups[G].empty())
      Run.CommandLine.SourcePaths = Groups[G];
    if (WantFixes) {
      Run.FixesFile = temporaryFile(DropIn, "yaml");
      Run.CommandLine.Options.push_back("--export-fixes=" + Run.FixesFile);
    }
    if (Request.ReplyFile.empty() || Run.RequestFile.empty() ||
        Run.StdoutFile.empty() || Run.StderrFile.empty() ||
        (WantFixes && Run.FixesFile.empty()))
      return inputError("cannot create a temporary file");
    {
      std::error_code EC;
      llvm::raw_fd_ostream Out(Run.RequestFile, EC);
      if (!EC)
        Out << writeChildRequest(Request);
      if (EC || Out.has_error()) {
        Out.clear_error();
        return inputError("cannot write '" + Run.RequestFile + "'");
      }
    }
    Runs.push_back(std::move(Run));
  }

  // Start in order; when all slots are taken, wait for whichever running
  // child ends first, so that one long pass (a thrust-heavy file) does not
  // hold a free slot behind it. With one slot (--fix) that is the one
  // started last: strictly in order.
  std::vector<size_t> Running;
  auto Finished = [&](size_t Slot, const llvm::sys::ProcessInfo &Done,
                      const std::string &Message) {
    ChildRun &Run = Runs[Running[Slot]];
    Running.erase(Running.begin() + Slot);
    Run.Status = Done.ReturnCode;
    Run.Done = true;
    if (Run.Status < 0)
      llvm::errs() << "cuda-lambda-tidy: error: a child pass failed: "
                   << Message << "\n";
  };
  auto WaitAny = [&] {
    if (Running.size() == 1) {
      std::string Message;
      Finished(0, llvm::sys::Wait(Runs[Running[0]].Process, std::nullopt,
                                  &Message),
               Message);
      return;
    }
    for (;;) {
      for (size_t Slot = 0; Slot < Running.size(); ++Slot) {
        std::string Message;
        // Zero seconds: a non-blocking look; a child still running reads
        // as process id 0.
        llvm::sys::ProcessInfo Done =
            llvm::sys::Wait(Runs[Running[Slot]].Process, /*SecondsToWait=*/0,
                            &Message, nullptr, /*Polling=*/true);
        if (Done.Pid != 0) {
          Finished(Slot, Done, Message);
          return;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  };
  for (size_t I = 0; I < Runs.size(); ++I) {
    if (Runs[I].ProbedBy) {
      ChildRun &Device = Runs[*Runs[I].ProbedBy];
      while (!Device.Done && !Running.empty())
        WaitAny();
      // A device pass that failed (clang's errors, or findings made errors)
      // gets the host pass too: errors are worth both sides' view.
      std::optional<std::string> Why =
          Device.Status != 0
              ? std::optional<std::string>("the device pass failed")
              : hostPassNeeded(readWhole(Device.Request.ProbeFile));
      // CUDA_LAMBDA_TIDY_EXPLAIN_PASSES=1: say which host passes run and why.
      if (explains("PASSES"))
        llvm::errs() << "cuda-lambda-tidy: host pass "
                     << (Why ? "needed: " + *Why : std::string("skipped"))
                     << "\n";
      if (!Why) {
        Runs[I].Skipped = true;
        continue;
      }
    }
    // A slot first: the lookup preprocesses the file, work that -j counts.
    if (Running.size() >= std::max(1u, Parallel))
      WaitAny();
    ChildRun &Run = Runs[I];
    if (Run.UsesResultsCache && replayCachedResult(DropIn, Run, CacheDir))
      continue;
    // Forked, the child skips loading this binary again (ChildProcess.h)
    // and takes its command line as it is; a child started afresh reads
    // the same from its arguments.
    auto LintAsChild = [&DropIn, &Run] {
      OwnOptions ChildOwn;
      ChildOwn.RequestFile = Run.RequestFile;
      return lintAsChild(DropIn, Run.CommandLine, ChildOwn);
    };
    if (std::optional<llvm::sys::ProcessInfo> Forked =
            forkChild(DropIn, LintAsChild, Run.StdoutFile, Run.StderrFile)) {
      Run.Process = *Forked;
      Running.push_back(I);
      continue;
    }
    const std::string &Self = DropIn.self();
    std::vector<std::string> Args = Run.CommandLine.args();
    Args.insert(Args.begin(), (ChildRequestOption + Run.RequestFile).str());
    std::vector<llvm::StringRef> ArgRefs = {Self};
    ArgRefs.insert(ArgRefs.end(), Args.begin(), Args.end());
    std::optional<llvm::StringRef> Redirects[] = {
        std::nullopt, llvm::StringRef(Run.StdoutFile),
        llvm::StringRef(Run.StderrFile)};
    std::string Message;
    bool Failed = false;
    Run.Process = llvm::sys::ExecuteNoWait(Self, ArgRefs, std::nullopt,
                                           Redirects, 0, &Message, &Failed);
    if (Failed) {
      Run.Status = -1;
      llvm::errs() << "cuda-lambda-tidy: error: cannot run '" << Self
                   << "': " << Message << "\n";
      continue;
    }
    Running.push_back(I);
  }
  while (!Running.empty())
    WaitAny();
  // CUDA_LAMBDA_TIDY_EXPLAIN_PASSES=1: how many passes needed a process of
  // their own (the others were skipped host passes or results cache hits).
  if (explains("PASSES")) {
    const size_t Started = llvm::count_if(Runs, [](const ChildRun &Run) {
      return !Run.Skipped && Run.CacheOutcome != "hit";
    });
    llvm::errs() << "cuda-lambda-tidy: " << Started << " of " << Runs.size()
                 << " passes linted in a child process\n";
  }
  for (ChildRun &Run : Runs) {
    if (!Run.Skipped && Run.CacheOutcome != "hit")
      Run.Reply = readChildReply(readWhole(Run.Request.ReplyFile));
    llvm::sys::fs::remove(Run.Request.ReplyFile);
    llvm::sys::fs::remove(Run.RequestFile);
  }

  // The results cache: store what each missed pass printed.
  if (!CacheDir.empty())
    storeMissedResults(Runs, Groups, CacheDir);

  // Collect: findings per group, each finding once overall; stderr lines
  // once, in the order the children ran.
  int Status = 0;
  std::vector<std::string> Notices, ErrorLines, PreambleLines;
  std::set<std::string> SeenError, SeenPreamble, Printed;
  std::vector<PrintedDiagnostic> All;
  std::vector<clang::tooling::TranslationUnitDiagnostics> FixParts;
  for (size_t G = 0; G < Groups.size(); ++G) {
    std::vector<std::vector<PrintedDiagnostic>> Passes;
    for (ChildRun &Run : Runs) {
      if (!Run.Request.ProbeFile.empty())
        llvm::sys::fs::remove(Run.Request.ProbeFile);
      if (Run.Group != G)
        continue;
      if (Run.Skipped) { // its files were made, never written
        llvm::sys::fs::remove(Run.StdoutFile);
        llvm::sys::fs::remove(Run.StderrFile);
        if (!Run.FixesFile.empty())
          llvm::sys::fs::remove(Run.FixesFile);
        continue;
      }
      Status = std::max(Status, Run.Status < 0 ? 1 : Run.Status);
      // The fallback notice, once whichever children parsed that way.
      if (!Run.Reply.FallbackReason.empty()) {
        std::string Notice = fallbackNotice(Run.Reply.FallbackReason);
        if (SeenError.insert(Notice).second)
          Notices.push_back(std::move(Notice));
      }
      // CUDA_LAMBDA_TIDY_EXPLAIN_CACHE=1: what became of the preamble, as
      // the child found it.
      if (explains("CACHE") && !Run.Reply.Preamble.empty() &&
          SeenError.insert(Run.Reply.Preamble).second)
        ErrorLines.push_back(Run.Reply.Preamble);
      std::vector<std::string> Preamble;
      Passes.push_back(parseDiagnostics(readWhole(Run.StdoutFile), &Preamble));
      for (const std::string &Line : Preamble)
        if (SeenPreamble.insert(Line).second)
          PreambleLines.push_back(Line);
      llvm::SmallVector<llvm::StringRef, 16> Lines;
      std::string Err = readWhole(Run.StderrFile);
      llvm::StringRef(Err).split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef Line : Lines)
        if (SeenError.insert(Line.str()).second)
          ErrorLines.push_back(Line.str());
      if (!Run.FixesFile.empty()) {
        llvm::Expected<clang::tooling::TranslationUnitDiagnostics> Fixes =
            readExportedFixes(readWhole(Run.FixesFile));
        if (Fixes)
          FixParts.push_back(std::move(*Fixes));
        else
          warning(llvm::toString(Fixes.takeError()));
      }
      llvm::sys::fs::remove(Run.StdoutFile);
      llvm::sys::fs::remove(Run.StderrFile);
      if (!Run.FixesFile.empty())
        llvm::sys::fs::remove(Run.FixesFile);
    }
    for (PrintedDiagnostic &D : mergeDiagnostics(Passes))
      if (Printed.insert(D.key()).second)
        All.push_back(std::move(D));
  }

  // Errors on syntax that nvcc accepts and clang cannot parse: one line per
  // cause, and an exit status of their own when they are the only errors.
  const unsigned NvccOnly = foldNvccOnlySyntax(All, definitionText);
  if (NvccOnly > 0 && Status == 1 && !hasErrors(All))
    Status = NvccOnlySyntaxExitCode;

  // The fallback notice comes first, from the children's replies, not
  // recognised in their stderr by its text.
  for (const std::string &Line : Notices)
    llvm::errs() << Line << "\n";
  for (const std::string &Line : ErrorLines)
    llvm::errs() << Line << "\n";
  clang::tooling::TranslationUnitDiagnostics Fixes =
      mergeExportedFixes(FixParts);
  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream Out(ExportFixes, EC);
    if (EC)
      return inputError("cannot write '" + ExportFixes + "'");
    Out << writeExportedFixes(Fixes);
  }
  if (Own.Format == "sarif") {
    llvm::outs() << renderSarif(All, Fixes, CUDA_LAMBDA_TIDY_VERSION,
                                artifactUri(DropIn.docsDir() + "/"));
  } else if (Own.Format == "github") {
    llvm::outs() << renderGithub(All);
  } else {
    for (const std::string &Line : PreambleLines)
      llvm::outs() << Line << "\n";
    llvm::outs() << renderText(All);
  }
  llvm::outs().flush();
  return Status;
}

} // namespace cuda_lambda_tidy

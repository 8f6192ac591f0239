//===--- CudaLambdaTidyMain.cpp - cuda-lambda-tidy ----------------------===//
//
// The drop-in clang-tidy: upstream's main with every upstream module and the
// `cuda` module linked in. Before handing over, it checks that the files
// exist and, for CUDA sources given without compile flags, adds what clang
// needs to parse them with the user's toolkit, or, without one, with the
// bundled fallback header. With a compile database (-p, or one found above
// the first source) it translates the nvcc entries into a private temporary
// database and points clang-tidy at that.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "CudaLambdaTidyVersion.h"
#include "CudaModuleAnchor.h"
#include "CudaToolkit.h"
#include "DefaultChecks.h"
#include "FallbackHeaders.h"
#include "Launcher.h"
#include "PassProbe.h"
#include "PreambleCache.h"
#include "ResultsCache.h"
#include "Shard.h"
#include "TidyOutput.h"
#include "clang-tidy/ClangTidyForceLinker.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <deque>
#include <set>

using namespace cuda_lambda_tidy;

namespace {

/// Exit status for unusable input: a file that is missing, a directory, or
/// unreadable; no toolkit where one is needed.
constexpr int InputErrorExitCode = 2;

/// Exit status when the only errors were clang's on syntax that nvcc accepts
/// (foldNvccOnlySyntax): the findings are printed, but may be incomplete.
constexpr int NvccOnlySyntaxExitCode = 3;

int inputError(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: error: " << Message << "\n";
  return InputErrorExitCode;
}

void warning(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: warning: " << Message << "\n";
}

/// The private temporary directories of this process. They are removed when
/// it ends, also through exit(), which clang-tidy's main calls on a malformed
/// option.
class TemporaryDirectories {
public:
  ~TemporaryDirectories() {
    for (const std::string &Dir : Dirs)
      llvm::sys::fs::remove_directories(Dir);
  }
  /// A new directory that only this user can read, named after \p Prefix.
  llvm::Expected<std::string> create(llvm::StringRef Prefix) {
    llvm::SmallString<256> Dir;
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
      return llvm::createStringError(
          EC, "cannot create a temporary directory: " + EC.message());
    llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::owner_all);
    Dirs.push_back(Dir.str().str());
    return Dirs.back();
  }
  const std::vector<std::string> &all() const { return Dirs; }

private:
  std::vector<std::string> Dirs;
};

TemporaryDirectories &temporaryDirectories() {
  static TemporaryDirectories Dirs;
  return Dirs;
}

/// Writes the fallback headers into \p Dir and says, first on stderr, that
/// they are used because of \p Reason.
llvm::Error useFallbackHeaders(llvm::StringRef Dir, llvm::StringRef Reason) {
  if (llvm::Error Failed = writeFallbackHeaders(Dir))
    return Failed;
  for (const FallbackHeader &Header : fallbackHeaders()) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Header.Path);
    llvm::sys::RemoveFileOnSignal(Path);
  }
  llvm::errs() << fallbackNotice(Reason) << "\n";
  return llvm::Error::success();
}

/// The preamble cache of this process's one lint (PreambleCache.h).
struct PreambleCacheChoice {
  std::string Dir;          ///< the cache directory, "" when off
  bool AtFirstLint = false; ///< `--preamble-at-first-lint`
};
PreambleCacheChoice &preambleCache() {
  static PreambleCacheChoice Choice;
  return Choice;
}
std::string &preambleCacheDir() { return preambleCache().Dir; }

/// Writes the nvcc-compatibility layer into \p Dir and returns its path;
/// with the preamble cache, into the cache (a preamble that force-includes
/// it names it by path, which must outlive this run).
llvm::Expected<std::string> useNvccCompatHeader(llvm::StringRef Dir) {
  if (!preambleCacheDir().empty()) {
    llvm::Expected<std::string> Stable =
        stableSupportFile(preambleCacheDir(), nvccCompatHeader().Path,
                          nvccCompatHeader().Text);
    if (Stable)
      return Stable;
    llvm::consumeError(Stable.takeError());
  }
  llvm::Expected<std::string> Path = writeNvccCompatHeader(Dir);
  if (Path)
    llvm::sys::RemoveFileOnSignal(*Path);
  return Path;
}

/// Why a run without --cuda-toolkit=none found no toolkit.
std::string noToolkitFound() {
  return std::string("no CUDA toolkit found (") + ToolkitSearchOrder + ")";
}

constexpr const char *ToolkitDisabled = "--cuda-toolkit=none";

/// How nvcc commands of a compile database are translated in this run.
NvccEnvironment nvccEnvironment(const OwnOptions &Own) {
  NvccEnvironment Env;
  ToolkitEnvironment ToolkitEnv = ToolkitEnvironment::real();
  Env.ReadFile = ToolkitEnv.ReadFile;
  Env.ToolkitOf = [ToolkitEnv,
                   NoToolkit = Own.NoToolkit](llvm::StringRef Nvcc) {
    return NoToolkit ? std::nullopt : toolkitOfNvcc(Nvcc, ToolkitEnv);
  };
  return Env;
}

/// The directory above \p Source holding the compile_commands.json that
/// clang-tidy would find by itself, or "".
std::string compileDatabaseAbove(llvm::StringRef Source) {
  llvm::SmallString<256> Dir(Source);
  if (llvm::sys::fs::make_absolute(Dir))
    return "";
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Candidate(Current);
    llvm::sys::path::append(Candidate, "compile_commands.json");
    if (llvm::sys::fs::exists(Candidate))
      return Current.str();
  }
  return "";
}

/// This binary's path, symlinks resolved.
std::string selfPath(const char *Argv0) {
  static int Anchor;
  std::string Self = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  return Self.empty() ? std::string(Argv0) : Self;
}

/// clang's resource directory (builtin headers, CUDA wrappers) for a run
/// that parses: LLVM's, or in the self-contained binary its own copy,
/// written once per process to a private temporary directory.
llvm::Expected<std::string> resourceDir() {
  llvm::ArrayRef<FallbackHeader> Embedded = embeddedResourceHeaders();
  if (Embedded.empty())
    return std::string(CLANG_RESOURCE_DIR);
  static std::optional<std::string> Written;
  if (Written)
    return *Written;
  llvm::Expected<std::string> Dir =
      temporaryDirectories().create("cuda-lambda-tidy-resource");
  if (!Dir)
    return Dir.takeError();
  if (llvm::Error Failed = writeBundledHeaders(*Dir, Embedded))
    return std::move(Failed);
  for (const FallbackHeader &Header : Embedded) {
    llvm::SmallString<256> Path(*Dir);
    llvm::sys::path::append(Path, Header.Path);
    llvm::sys::RemoveFileOnSignal(Path);
  }
  Written = *Dir;
  return *Written;
}

/// The check documentation for SARIF's rule help: the installed copy
/// (<prefix>/share/doc/cuda-lambda-tidy/docs/checks, found from this binary's
/// place, <prefix>/bin), else the source tree's.
std::string docsDir(const char *Argv0) {
  llvm::SmallString<256> Installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(selfPath(Argv0))));
  llvm::sys::path::append(Installed, CUDA_LAMBDA_TIDY_INSTALLED_DOCS_DIR);
  if (llvm::sys::fs::is_directory(Installed))
    return Installed.str().str();
  return CUDA_LAMBDA_TIDY_DOCS_DIR;
}

/// The compiler command clang-tidy runs for the one source of \p Final
/// (arguments for clang-tidy's main): from the compile database of `-p`,
/// or from the flags after `--`; with --extra-arg-before after the
/// compiler, --extra-arg at the end, then what ClangTool adjusts. The
/// source's absolute path goes to \p Source.
std::optional<clang::tooling::CompileCommand>
lintCommandOf(llvm::ArrayRef<std::string> Final, std::string &Source) {
  ToolCommandLine CommandLine = parseToolCommandLine(Final);
  if (CommandLine.SourcePaths.size() != 1)
    return std::nullopt;
  llvm::SmallString<256> Absolute(CommandLine.SourcePaths.front());
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, true);
  Source = Absolute.str().str();
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::string Error;
  if (CommandLine.HasCompilerArgs) {
    std::vector<const char *> Argv = {"cuda-lambda-tidy", "--"};
    for (const std::string &Arg : CommandLine.CompilerArgs)
      Argv.push_back(Arg.c_str());
    int Argc = static_cast<int>(Argv.size());
    Database = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(
        Argc, Argv.data(), Error);
  } else if (std::optional<std::string> BuildPath =
                 buildPathOf(CommandLine.ToolArgs)) {
    llvm::SmallString<256> DatabaseFile(*BuildPath);
    if (llvm::sys::path::filename(DatabaseFile) != "compile_commands.json")
      llvm::sys::path::append(DatabaseFile, "compile_commands.json");
    Database = clang::tooling::JSONCompilationDatabase::loadFromFile(
        DatabaseFile, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  }
  if (!Database)
    return std::nullopt;
  std::vector<clang::tooling::CompileCommand> Commands =
      Database->getCompileCommands(Source);
  if (Commands.empty() || Commands.front().CommandLine.empty())
    return std::nullopt;
  clang::tooling::CompileCommand Command = Commands.front();
  std::vector<std::string> Before, After;
  for (size_t I = 0; I < CommandLine.ToolArgs.size(); ++I) {
    llvm::StringRef Arg = CommandLine.ToolArgs[I];
    llvm::StringRef Name = Arg.ltrim('-');
    for (auto [Option, Into] :
         {std::pair<llvm::StringRef, std::vector<std::string> *>{
              "extra-arg-before", &Before},
          {"extra-arg", &After}}) {
      if (Name == Option && I + 1 < CommandLine.ToolArgs.size()) {
        Into->push_back(CommandLine.ToolArgs[++I]);
        break;
      }
      if (Name.starts_with((Option + "=").str())) {
        Into->push_back(Name.drop_front(Option.size() + 1).str());
        break;
      }
    }
  }
  clang::tooling::CommandLineArguments &Line = Command.CommandLine;
  Line.insert(Line.begin() + 1, Before.begin(), Before.end());
  Line.insert(Line.end(), After.begin(), After.end());
  for (const clang::tooling::ArgumentsAdjuster &Adjust :
       {clang::tooling::getClangStripOutputAdjuster(),
        clang::tooling::getClangSyntaxOnlyAdjuster(),
        clang::tooling::getClangStripDependencyFileAdjuster()})
    Line = Adjust(Line, Command.Filename);
  return Command;
}

/// Whether the check configuration of \p Source adds compiler arguments
/// (ExtraArgs, ExtraArgsBefore): clang-tidy applies them out of our sight.
bool configurationAddsArgs(llvm::StringRef Source,
                           llvm::ArrayRef<std::string> ToolArgs) {
  if (llvm::StringRef(configurationInputs(Source, ToolArgs))
          .contains("ExtraArgs"))
    return true;
  return llvm::any_of(ToolArgs, [](llvm::StringRef Arg) {
    return Arg.contains("ExtraArgs");
  });
}

/// With the preamble cache on: \p Final (arguments for clang-tidy) with the
/// arguments that load the cached preamble of its one source; the link to
/// remove afterwards goes to \p Link.
std::vector<std::string> withCachedPreamble(const char *Argv0,
                                            std::vector<std::string> Final,
                                            llvm::StringRef Pass,
                                            std::string &Link) {
  std::string Source;
  std::optional<clang::tooling::CompileCommand> Command =
      lintCommandOf(Final, Source);
  PreambleOutcome Outcome{"miss", "no compile command"};
  std::optional<PreambleUse> Use;
  if (Command && configurationAddsArgs(
                     Source, parseToolCommandLine(Final).ToolArgs)) {
    Outcome.Reason = "the configuration adds compiler arguments";
  } else if (Command) {
    PreambleRequest Request;
    // clang-tidy also strips plugins from the command it runs.
    Request.CommandLine = clang::tooling::getStripPluginsAdjuster()(
        Command->CommandLine, Command->Filename);
    Request.Directory = Command->Directory;
    Request.CacheDir = preambleCacheDir();
    Request.BuildAtFirstSight = preambleCache().AtFirstLint;
    Request.ToolIdentity =
        toolIdentity(CUDA_LAMBDA_TIDY_VERSION, selfPath(Argv0));
    Request.Volatile = temporaryDirectories().all();
    Use = usePreamble(Request, Outcome);
  }
  // CUDA_LAMBDA_TIDY_EXPLAIN_CACHE=1: say what became of the preamble.
  if (std::getenv("CUDA_LAMBDA_TIDY_EXPLAIN_CACHE"))
    llvm::errs() << "cuda-lambda-tidy: preamble cache " << Outcome.Verdict
                 << ": " << (Source.empty() ? std::string("?") : Source)
                 << " (" << (Pass.empty() ? llvm::StringRef("one pass") : Pass)
                 << ")"
                 << (Outcome.Reason.empty() ? "" : ": " + Outcome.Reason)
                 << "\n";
  if (!Use)
    return Final;
  Link = Use->Link;
  llvm::sys::RemoveFileOnSignal(Link);
  seedPassDependentMacros(Use->DependentMacros);
  Final.insert(Final.begin(), Use->ToolArgs.begin(), Use->ToolArgs.end());
  return Final;
}

/// The pass this process lints ("" for none), for what it says.
std::string &currentPass() {
  static std::string Pass;
  return Pass;
}

int runClangTidy(const char *Argv0, llvm::ArrayRef<std::string> Args) {
  std::string ResourceDir = CLANG_RESOURCE_DIR;
  if (!asksForInformation(parseToolCommandLine(Args).ToolArgs)) {
    llvm::Expected<std::string> Dir = resourceDir();
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    ResourceDir = *Dir;
  }
  std::vector<std::string> Final = withResourceDir(Args, ResourceDir);
  std::string Link;
  if (!preambleCacheDir().empty() &&
      !asksForInformation(parseToolCommandLine(Final).ToolArgs))
    Final = withCachedPreamble(Argv0, std::move(Final), currentPass(), Link);
  std::vector<const char *> TidyArgv = {Argv0};
  for (const std::string &Arg : Final)
    TidyArgv.push_back(Arg.c_str());
  int Status = clang::tidy::clangTidyMain(static_cast<int>(TidyArgv.size()),
                                          TidyArgv.data());
  if (!Link.empty())
    llvm::sys::fs::remove(Link);
  return Status;
}

/// What a child pass needs to look itself up in the results cache.
struct ResultsLookup {
  std::string KeyFile;   ///< where to write "hit", "miss KEY" or "none"
  std::string CacheDir;
  std::string KeyArgs;   ///< the child's options, this run's paths left out
  std::string ExportFixes, ProbeFile; ///< where a hit's outputs go
};

void writeWhole(llvm::StringRef Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (!EC)
    Out << Text;
}

/// Looks the one file of \p Final (the arguments for clang-tidy, the
/// translated database in \p TempDir) up in the results cache: on a hit,
/// prints and writes what the pass printed and wrote then, and returns its
/// exit status; on a miss, says so in the key file (the parent stores the
/// output) and returns nothing.
std::optional<int> replayCachedResult(const char *Argv0,
                                      llvm::ArrayRef<std::string> Final,
                                      llvm::StringRef TempDir,
                                      llvm::StringRef ResourceDir,
                                      const ResultsLookup &Lookup) {
  writeWhole(Lookup.KeyFile, "none");
  ToolCommandLine CommandLine = parseToolCommandLine(Final);
  std::string SourcePath;
  std::optional<clang::tooling::CompileCommand> Found =
      lintCommandOf(Final, SourcePath);
  if (!Found)
    return std::nullopt;
  const clang::tooling::CompileCommand &Command = *Found;
  const clang::tooling::CommandLineArguments &Line = Command.CommandLine;
  llvm::SmallString<256> Source(SourcePath);
  std::vector<std::string> Volatile = {TempDir.str(), ResourceDir.str()};
  llvm::Expected<std::string> Input =
      preprocessedInputDigest(Line, Command.Directory, Volatile);
  if (!Input) {
    llvm::consumeError(Input.takeError());
    return std::nullopt;
  }
  std::string Flags;
  for (std::string Arg : Line) {
    for (llvm::StringRef Prefix : Volatile)
      for (size_t At; !Prefix.empty() &&
                      (At = Arg.find(Prefix.str())) != std::string::npos;)
        Arg.replace(At, Prefix.size(), "<tmp>");
    Flags += Arg + "\n";
  }
  std::string Key = digestOf(
      {"cuda-lambda-tidy results 1",
       toolIdentity(CUDA_LAMBDA_TIDY_VERSION, selfPath(Argv0)),
       Lookup.KeyArgs, Source.str().str(), Command.Directory, Flags,
       configurationInputs(Source, CommandLine.ToolArgs), *Input});
  std::optional<CachedResult> Hit = readCachedResult(Lookup.CacheDir, Key);
  if (!Hit) {
    writeWhole(Lookup.KeyFile, "miss " + Key);
    return std::nullopt;
  }
  llvm::outs() << Hit->Stdout;
  llvm::outs().flush();
  llvm::errs() << Hit->Stderr;
  if (!Lookup.ExportFixes.empty())
    writeWhole(Lookup.ExportFixes, Hit->Fixes);
  if (!Lookup.ProbeFile.empty())
    writeWhole(Lookup.ProbeFile, Hit->Probe);
  writeWhole(Lookup.KeyFile, "hit");
  return Hit->Status;
}

/// Lints with the database in \p DatabaseDir, its nvcc entries translated;
/// with \p Lookup, a pass over one file is first looked up in the results
/// cache.
int runWithDatabase(const char *Argv0, llvm::ArrayRef<std::string> Args,
                    const ToolCommandLine &CommandLine,
                    llvm::StringRef DatabaseDir, const OwnOptions &Own,
                    const ResultsLookup *Lookup = nullptr) {
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer)
    return inputError("'" + DatabaseFile + "' cannot be read");

  // The translated database, and the fallback headers if an entry needs
  // them, go to one private directory.
  llvm::Expected<std::string> TempDir =
      temporaryDirectories().create("cuda-lambda-tidy");
  if (!TempDir)
    return inputError(llvm::toString(TempDir.takeError()));
  llvm::SmallString<256> FallbackDir(*TempDir);
  llvm::sys::path::append(FallbackDir, "fallback");

  NvccEnvironment Env = nvccEnvironment(Own);
  Env.FallbackDir = FallbackDir.str().str();
  llvm::Expected<std::string> CompatHeader = useNvccCompatHeader(*TempDir);
  if (!CompatHeader)
    return inputError(llvm::toString(CompatHeader.takeError()));
  Env.NvccCompatHeader = *CompatHeader;
  // The files linted: what is said is about their entries, and one the
  // database lacks borrows the nearest entry's command.
  std::vector<std::string> Linted;
  for (const std::string &Source : CommandLine.SourcePaths) {
    llvm::SmallString<256> Absolute(Source);
    llvm::sys::fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Linted.push_back(Absolute.str().str());
  }
  llvm::Expected<DatabaseTranslation> Translated = translateCompileDatabase(
      (*Buffer)->getBuffer(), Env, Own.AllowPlugins, Linted);
  if (!Translated)
    return inputError("'" + DatabaseFile +
                      "': " + llvm::toString(Translated.takeError()));
  for (const BorrowedCommand &Borrowed : Translated->Borrowed) {
    size_t I = llvm::find(Linted, Borrowed.File) - Linted.begin();
    llvm::errs() << "note: "
                 << borrowedNote(CommandLine.SourcePaths[I], Borrowed.From)
                 << "\n";
  }
  if (!Translated->FallbackNvcc.empty()) {
    std::string Reason = Own.NoToolkit
                             ? std::string(ToolkitDisabled)
                             : "no CUDA toolkit found for '" +
                                   Translated->FallbackNvcc + "' (its own, " +
                                   ToolkitSearchOrder + ")";
    if (llvm::Error Failed = useFallbackHeaders(FallbackDir, Reason))
      return inputError(llvm::toString(std::move(Failed)));
  }
  for (const std::string &Line : Translated->Warnings)
    warning(Line);

  std::vector<std::string> ExtraSources;
  if (CommandLine.SourcePaths.empty()) {
    if (Translated->CudaFiles.empty())
      return inputError("'" + DatabaseFile + "' has no CUDA entries");
    ExtraSources = Translated->CudaFiles;
  }

  llvm::SmallString<256> TempFile(*TempDir);
  llvm::sys::path::append(TempFile, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(TempFile, EC);
    if (!EC)
      Out << Translated->Json;
    if (EC || Out.has_error()) {
      Out.clear_error();
      return inputError("cannot write '" + TempFile + "'");
    }
  }
  llvm::sys::RemoveFileOnSignal(TempFile);

  std::vector<std::string> WithDatabase =
      withBuildPath(Args, *TempDir, ExtraSources);
  if (Lookup) {
    llvm::Expected<std::string> ResourceDir = resourceDir();
    if (!ResourceDir)
      return inputError(llvm::toString(ResourceDir.takeError()));
    if (std::optional<int> Status = replayCachedResult(
            Argv0, withResourceDir(WithDatabase, *ResourceDir), *TempDir,
            *ResourceDir, *Lookup))
      return *Status;
  }
  return runClangTidy(Argv0, WithDatabase);
}


/// The CUDA files of the compile database in \p DatabaseDir, translated as
/// the child processes will; empty (with the message in \p Error) when the
/// database is unusable.
std::vector<std::string> databaseCudaFiles(llvm::StringRef DatabaseDir,
                                           const OwnOptions &Own,
                                           std::string &Error) {
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer) {
    Error = ("'" + DatabaseFile + "' cannot be read").str();
    return {};
  }
  llvm::Expected<DatabaseTranslation> Translated = translateCompileDatabase(
      (*Buffer)->getBuffer(), nvccEnvironment(Own), Own.AllowPlugins);
  if (!Translated) {
    Error = ("'" + DatabaseFile +
             "': " + llvm::toString(Translated.takeError()))
                .str();
    return {};
  }
  if (Translated->CudaFiles.empty())
    Error = ("'" + DatabaseFile + "' has no CUDA entries").str();
  return Translated->CudaFiles;
}

/// One child process: one pass over some files.
struct ChildRun {
  std::vector<std::string> Args; ///< without argv[0]
  size_t Group = 0;              ///< which output group it belongs to
  std::string StdoutFile, StderrFile, FixesFile;
  /// A device pass that probes whether the host pass is needed: where the
  /// probe writes its verdict.
  std::string ProbeFile;
  /// With the results cache: where the child says "hit" or "miss KEY".
  std::string KeyFile;
  /// A host pass that runs only when the probe of run \c ProbedBy says so.
  std::optional<size_t> ProbedBy;
  bool Skipped = false; ///< a probed host pass that was not needed
  bool Done = false;
  llvm::sys::ProcessInfo Process;
  int Status = 0;
};

/// The line \p Line of \p File and the lines it continues onto (a macro
/// definition), or "" when the file cannot be read.
std::string definitionText(llvm::StringRef File, unsigned Line) {
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

std::string temporaryFile(llvm::StringRef Suffix) {
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createTemporaryFile("cuda-lambda-tidy", Suffix, Path))
    return "";
  llvm::sys::RemoveFileOnSignal(Path);
  return Path.str().str();
}

std::string readWhole(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// Runs the passes in child processes of this binary, at most \p Parallel at
/// a time (one with --fix, in order: the device pass fixes first), and
/// prints their merged findings in \p Own.Format. With \p ProbeHostPass
/// (Passes: device, host) each host pass runs only where its device pass's
/// probe found code that reads differently on the host (PassProbe.h); the
/// device passes of all groups run first. With \p CacheDir, each pass over
/// a group of one file is looked up in the results cache there, and stored
/// on a miss.
int runChildren(const char *Argv0, std::vector<std::string> Args,
                const OwnOptions &Own,
                llvm::ArrayRef<std::string> Passes,
                llvm::ArrayRef<std::vector<std::string>> Groups,
                unsigned Parallel, bool ProbeHostPass,
                llvm::StringRef CacheDir = "",
                llvm::StringRef PreambleDir = "") {
  std::string Self = selfPath(Argv0);
  std::string ExportFixes = takeExportFixes(Args);
  bool WantFixes = !ExportFixes.empty() || Own.Format == "sarif";
  if (asksForFixes(Args))
    Parallel = 1;

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
      const std::string &Pass = Passes[P];
      ChildRun Run;
      Run.Group = G;
      Run.Args = {"--cuda-lambda-tidy-child"};
      if (!Pass.empty())
        Run.Args.push_back("--cuda-pass=" + Pass);
      if (ProbeHostPass && Pass == "device") {
        Run.ProbeFile = temporaryFile("probe");
        if (Run.ProbeFile.empty())
          return inputError("cannot create a temporary file");
        Run.Args.push_back((PassProbeOption + Run.ProbeFile).str());
        DeviceRunOf[G] = Runs.size();
      }
      if (ProbeHostPass && Pass == "host")
        Run.ProbedBy = DeviceRunOf[G];
      if (Own.AllowPlugins)
        Run.Args.push_back("--allow-plugins");
      if (Own.NoToolkit)
        Run.Args.push_back("--cuda-toolkit=none");
      if (!CacheDir.empty() && Groups[G].size() == 1) {
        Run.KeyFile = temporaryFile("key");
        if (Run.KeyFile.empty())
          return inputError("cannot create a temporary file");
        Run.Args.push_back("--cuda-lambda-tidy-results-key=" + Run.KeyFile);
        Run.Args.push_back("--cache-dir=" + CacheDir.str());
      }
      if (!PreambleDir.empty())
        Run.Args.push_back("--cuda-lambda-tidy-preamble-cache=" +
                           PreambleDir.str());
      if (!PreambleDir.empty() && Own.PreambleAtFirstLint)
        Run.Args.push_back("--preamble-at-first-lint");
      Run.StdoutFile = temporaryFile("out");
      Run.StderrFile = temporaryFile("err");
      if (WantFixes) {
        Run.FixesFile = temporaryFile("yaml");
        Run.Args.push_back("--export-fixes=" + Run.FixesFile);
      }
      if (Run.StdoutFile.empty() || Run.StderrFile.empty() ||
          (WantFixes && Run.FixesFile.empty()))
        return inputError("cannot create a temporary file");
      std::vector<std::string> Rest =
          Groups[G].empty() ? Args : withSources(Args, Groups[G]);
      Run.Args.insert(Run.Args.end(), Rest.begin(), Rest.end());
      Runs.push_back(std::move(Run));
    }

  // Start in order; wait for the oldest running child when all slots are
  // taken, so that --fix (one slot) runs strictly in order.
  std::deque<size_t> Running;
  auto WaitOldest = [&] {
    ChildRun &Run = Runs[Running.front()];
    Running.pop_front();
    std::string Message;
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(Run.Process, std::nullopt, &Message);
    Run.Status = Done.ReturnCode;
    Run.Done = true;
    if (Run.Status < 0)
      llvm::errs() << "cuda-lambda-tidy: error: a child pass failed: "
                   << Message << "\n";
  };
  for (size_t I = 0; I < Runs.size(); ++I) {
    if (Runs[I].ProbedBy) {
      ChildRun &Device = Runs[*Runs[I].ProbedBy];
      while (!Device.Done && !Running.empty())
        WaitOldest();
      // A device pass that failed (clang's errors, or findings made errors)
      // gets the host pass too: errors are worth both sides' view.
      std::optional<std::string> Why =
          Device.Status != 0
              ? std::optional<std::string>("the device pass failed")
              : hostPassNeeded(readWhole(Device.ProbeFile));
      // CUDA_LAMBDA_TIDY_EXPLAIN_PASSES=1: say which host passes run and why.
      if (std::getenv("CUDA_LAMBDA_TIDY_EXPLAIN_PASSES"))
        llvm::errs() << "cuda-lambda-tidy: host pass "
                     << (Why ? "needed: " + *Why : std::string("skipped"))
                     << "\n";
      if (!Why) {
        Runs[I].Skipped = true;
        continue;
      }
    }
    if (Running.size() >= std::max(1u, Parallel))
      WaitOldest();
    ChildRun &Run = Runs[I];
    std::vector<llvm::StringRef> ArgRefs = {Self};
    ArgRefs.insert(ArgRefs.end(), Run.Args.begin(), Run.Args.end());
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
    WaitOldest();

  // The results cache: store what each missed pass printed.
  for (ChildRun &Run : Runs) {
    if (Run.KeyFile.empty())
      continue;
    std::string Said = Run.Skipped ? "skipped" : readWhole(Run.KeyFile);
    llvm::sys::fs::remove(Run.KeyFile);
    // CUDA_LAMBDA_TIDY_EXPLAIN_CACHE=1: say which passes hit the cache.
    if (std::getenv("CUDA_LAMBDA_TIDY_EXPLAIN_CACHE") && !Run.Skipped)
      llvm::errs() << "cuda-lambda-tidy: results cache "
                   << llvm::StringRef(Said).split(' ').first << ": "
                   << Groups[Run.Group].front() << " ("
                   << (Run.Args.size() > 1 &&
                               llvm::StringRef(Run.Args[1]).starts_with(
                                   "--cuda-pass=")
                           ? llvm::StringRef(Run.Args[1]).drop_front(12)
                           : llvm::StringRef("one pass"))
                   << ")\n";
    llvm::StringRef Key = Said;
    if (!Run.Done || Run.Status < 0 || !Key.consume_front("miss "))
      continue;
    CachedResult Result;
    Result.Status = Run.Status;
    Result.Stdout = readWhole(Run.StdoutFile);
    // Without what CUDA_LAMBDA_TIDY_EXPLAIN_CACHE made the child say about
    // its preamble: a replay uses none.
    std::string Printed = readWhole(Run.StderrFile);
    for (llvm::StringRef Line : llvm::split(Printed, '\n'))
      if (!Line.starts_with("cuda-lambda-tidy: preamble cache "))
        Result.Stderr += Line.str() + "\n";
    if (!Result.Stderr.empty())
      Result.Stderr.pop_back();
    if (!Run.FixesFile.empty())
      Result.Fixes = readWhole(Run.FixesFile);
    if (!Run.ProbeFile.empty())
      Result.Probe = readWhole(Run.ProbeFile);
    // A cache that cannot be written (a read-only home) only costs time.
    if (llvm::Error Failed = writeCachedResult(CacheDir, Key, Result)) {
      if (std::getenv("CUDA_LAMBDA_TIDY_EXPLAIN_CACHE"))
        warning("results cache: " + llvm::toString(std::move(Failed)));
      else
        llvm::consumeError(std::move(Failed));
    }
  }

  // Collect: findings per group, each finding once overall; stderr lines
  // once, in the order the children ran.
  int Status = 0;
  std::vector<std::string> ErrorLines, PreambleLines;
  std::set<std::string> SeenError, SeenPreamble, Printed;
  std::vector<PrintedDiagnostic> All;
  std::vector<clang::tooling::TranslationUnitDiagnostics> FixParts;
  for (size_t G = 0; G < Groups.size(); ++G) {
    std::vector<std::vector<PrintedDiagnostic>> Passes;
    for (ChildRun &Run : Runs) {
      if (!Run.ProbeFile.empty())
        llvm::sys::fs::remove(Run.ProbeFile);
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

  // The fallback notice comes first, whichever child printed it.
  std::stable_partition(
      ErrorLines.begin(), ErrorLines.end(),
      [](const std::string &Line) { return isFallbackNotice(Line); });
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
                                artifactUri(docsDir(Argv0) + "/"));
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

/// The directory of the compile database clang-tidy will use for
/// \p CommandLine, or "" when there is none (or flags follow `--`).
std::string databaseDirOf(const ToolCommandLine &CommandLine) {
  if (CommandLine.HasCompilerArgs)
    return "";
  std::string DatabaseDir;
  if (std::optional<std::string> BuildPath =
          buildPathOf(CommandLine.ToolArgs)) {
    DatabaseDir = *BuildPath;
    if (llvm::sys::path::filename(DatabaseDir) == "compile_commands.json")
      DatabaseDir = llvm::sys::path::parent_path(DatabaseDir).str();
    if (DatabaseDir.empty())
      DatabaseDir = ".";
  } else if (!CommandLine.SourcePaths.empty()) {
    DatabaseDir = compileDatabaseAbove(CommandLine.SourcePaths.front());
  }
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  if (DatabaseDir.empty() || !llvm::sys::fs::exists(DatabaseFile))
    return "";
  return DatabaseDir;
}

/// The files of the compile database that \p CommandLine lints when it
/// names none (for the configuration they read), else nothing.
std::vector<std::string> databaseSourcesOf(const ToolCommandLine &CommandLine) {
  if (!CommandLine.SourcePaths.empty())
    return {};
  std::string DatabaseDir = databaseDirOf(CommandLine);
  if (DatabaseDir.empty())
    return {};
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  // Read quietly: a malformed database is reported once, later.
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer)
    return {};
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return {};
  }
  std::vector<std::string> Files;
  if (const llvm::json::Array *Entries = Parsed->getAsArray())
    for (const llvm::json::Value &Entry : *Entries) {
      const llvm::json::Object *Object = Entry.getAsObject();
      std::optional<llvm::StringRef> File =
          Object ? Object->getString("file") : std::nullopt;
      if (!File)
        continue;
      llvm::SmallString<256> Path(*File);
      std::optional<llvm::StringRef> Dir = Object->getString("directory");
      if (llvm::sys::path::is_relative(Path) && Dir) {
        Path = *Dir;
        llvm::sys::path::append(Path, *File);
      }
      Files.push_back(Path.str().str());
    }
  return Files;
}

} // namespace

int main(int argc, const char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
  // The compiler launcher: under its own name (a symlink to this binary),
  // or with --launcher first.
  if (llvm::sys::path::stem(argv[0]) == LauncherName)
    return launcherMain(argv[0], Args);
  if (!Args.empty() && Args.front() == "--launcher")
    return launcherMain(argv[0], llvm::ArrayRef(Args).drop_front());
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
  // A device-pass child asked to probe for the host pass (runChildren).
  std::string ProbeFile;
  for (auto It = Args.begin(); It != Args.end() && *It != "--"; ++It)
    if (llvm::StringRef(*It).starts_with(PassProbeOption)) {
      ProbeFile = It->substr(PassProbeOption.size());
      Args.erase(It);
      break;
    }
  OwnOptions Own = takeOwnOptions(Args);
  if (!Own.Error.empty())
    return inputError(Own.Error);
  // No checks chosen anywhere: the cuda-* checks, not clang-tidy's "no
  // checks enabled" (DefaultChecks.h). A child has its parent's choice.
  if (!Own.Child)
    Args = withDefaultChecks(Args,
                             databaseSourcesOf(parseToolCommandLine(Args)));
  ToolCommandLine CommandLine = parseToolCommandLine(Args);
  // The preamble cache: for one file named on the command line (an editor
  // linting what it saves), never when fixes are applied; a child uses the
  // one its parent chose.
  preambleCache().AtFirstLint = Own.PreambleAtFirstLint;
  if (Own.Child) {
    preambleCacheDir() = Own.PreambleCacheDir;
  } else if (CommandLine.SourcePaths.size() == 1 && !Own.NoCache &&
             !Own.NoPreambleCache &&
             !cacheDisabledByEnvironment() &&
             !asksForFixes(CommandLine.ToolArgs) &&
             !asksForInformation(CommandLine.ToolArgs)) {
    preambleCacheDir() = cacheDirectory(Own.CacheDir);
  }

  // --list-checks, --dump-config & co. read no source: clang-tidy accepts
  // any path there, run-clang-tidy's probe `--list-checks -` among them.
  for (const std::string &Source : CommandLine.SourcePaths) {
    if (asksForInformation(CommandLine.ToolArgs))
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
  bool Lints = !asksForInformation(CommandLine.ToolArgs) &&
               (!CommandLine.SourcePaths.empty() || CommandLine.HasBuildPath);
  if (!Own.Child && Lints) {
    std::vector<std::string> Passes;
    std::string Language = explicitLanguage(CommandLine.CompilerArgs);
    bool Cuda = CommandLine.SourcePaths.empty() || Language == "cuda" ||
                Language == "cu" ||
                llvm::any_of(CommandLine.SourcePaths, isCudaSourcePath);
    if (!Own.CudaPass.empty() && Own.CudaPass != "both")
      Passes = {Own.CudaPass};
    else if (Cuda)
      Passes = {"device", "host"};
    else
      Passes = {""};
    // By default the host pass runs only where it can see something the
    // device pass did not; --cuda-pass=both forces it.
    const bool ProbeHostPass = Passes.size() > 1 && Own.CudaPass.empty();
    // The results cache: passes over the files of a compile database, one
    // file per child, never when fixes are applied.
    std::string CacheDir;
    if (!DatabaseDir.empty() && !Own.NoCache && !cacheDisabledByEnvironment() &&
        !asksForFixes(CommandLine.ToolArgs))
      CacheDir = cacheDirectory(Own.CacheDir);
    if (Passes.size() > 1 || Own.Format != "text" || Own.Jobs > 0 ||
        Own.ShardCount > 0 || !CacheDir.empty()) {
      std::vector<std::vector<std::string>> Groups;
      const bool PerFile = Own.Jobs > 0 || !CacheDir.empty();
      if (!PerFile && Own.ShardCount == 0) {
        Groups = {{}};
      } else {
        std::vector<std::string> Files = CommandLine.SourcePaths;
        if (Files.empty()) {
          if (DatabaseDir.empty())
            return inputError(std::string(Own.Jobs > 0 ? "-j" : "--shard") +
                              " without files needs -p with a "
                              "compile_commands.json");
          std::string Error;
          Files = databaseCudaFiles(DatabaseDir, Own, Error);
          if (!Error.empty())
            return inputError(Error);
        }
        if (Own.ShardCount > 0) {
          // Split by the path relative to the database (Shard.h).
          std::string Base = DatabaseDir.empty() ? "." : DatabaseDir;
          Shard S{Own.ShardIndex, Own.ShardCount};
          llvm::erase_if(Files, [&](const std::string &File) {
            return !inShard(S, File, Base);
          });
        }
        if (!PerFile) {
          if (!Files.empty())
            Groups = {Files};
        } else {
          // Without -j, one file at a time, in the order of their paths
          // (as one clang-tidy over all of them would print them).
          if (Own.Jobs == 0)
            llvm::sort(Files);
          for (const std::string &File : Files)
            Groups.push_back({File});
        }
      }
      return runChildren(argv[0], Args, Own, Passes, Groups,
                         std::max(1u, Own.Jobs), ProbeHostPass, CacheDir,
                         preambleCacheDir());
    }
    Own.CudaPass = Passes.front();
  }
  if (Own.CudaPass == "both")
    Own.CudaPass = "";
  currentPass() = Own.CudaPass;
  Args = withCudaPass(Args, Own.CudaPass);
  if (!ProbeFile.empty())
    Args = withPassProbe(Args, ProbeFile);
  CommandLine = parseToolCommandLine(Args);

  if (!DatabaseDir.empty()) {
    if (Own.Child && !Own.ResultsKeyFile.empty()) {
      ResultsLookup Lookup;
      Lookup.KeyFile = Own.ResultsKeyFile;
      Lookup.CacheDir = cacheDirectory(Own.CacheDir);
      Lookup.ProbeFile = ProbeFile;
      // The database by what it says, not where it is: the translated
      // command and the input are keyed below, and the launcher writes the
      // same database to a new temporary directory for every compile.
      std::vector<std::string> Rest = withBuildPath(Args, "<database>", {});
      Lookup.ExportFixes = takeExportFixes(Rest);
      // What the child was asked, without this run's temporary paths.
      Lookup.KeyArgs = "pass=" + Own.CudaPass +
                       (Own.NoToolkit ? " no-toolkit" : "") +
                       (Own.AllowPlugins ? " allow-plugins" : "") +
                       (ProbeFile.empty() ? "" : " probe") +
                       (Lookup.ExportFixes.empty() ? "" : " export-fixes") +
                       "\n";
      for (const std::string &Arg : Rest)
        Lookup.KeyArgs += Arg + "\n";
      return runWithDatabase(argv[0], Args, CommandLine, DatabaseDir, Own,
                             &Lookup);
    }
    return runWithDatabase(argv[0], Args, CommandLine, DatabaseDir, Own);
  }

  std::optional<CudaToolkit> Toolkit =
      Own.NoToolkit ? std::nullopt
                    : findCudaToolkit(ToolkitEnvironment::real());
  std::string FallbackDir;
  if (!Toolkit && needsFallbackHeaders(Args, /*CompileDatabaseFound=*/false)) {
    llvm::Expected<std::string> Dir =
        temporaryDirectories().create("cuda-lambda-tidy-fallback");
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    FallbackDir = *Dir;
    if (llvm::Error Failed = useFallbackHeaders(
            FallbackDir, Own.NoToolkit ? ToolkitDisabled : noToolkitFound()))
      return inputError(llvm::toString(std::move(Failed)));
  }
  std::string CompatHeader;
  if (needsNvccCompatHeader(Args, /*CompileDatabaseFound=*/false)) {
    llvm::Expected<std::string> Dir =
        temporaryDirectories().create("cuda-lambda-tidy-compat");
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    llvm::Expected<std::string> Header = useNvccCompatHeader(*Dir);
    if (!Header)
      return inputError(llvm::toString(Header.takeError()));
    CompatHeader = *Header;
  }
  return runClangTidy(argv[0],
                      rewriteCommandLine(Args, Toolkit,
                                         /*CompileDatabaseFound=*/false,
                                         FallbackDir, CompatHeader));
}

//===--- OnePass.cpp - cuda-lambda-tidy ---------------------------------===//

#include "OnePass.h"
#include "CompileDatabase.h"
#include "CudaLambdaTidyVersion.h"
#include "FallbackHeaders.h"
#include "probe/PassProbe.h"
#include "PreambleCache.h"
#include "ResultsCache.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_lambda_tidy {

/// The compiler command clang-tidy runs for the one source of
/// \p CommandLine (what clang-tidy's main is given): from the compile
/// database of `-p`, or from the flags after `--`; with --extra-arg-before
/// after the compiler, --extra-arg at the end, then what ClangTool adjusts.
/// The source's absolute path goes to \p Source.
static std::optional<clang::tooling::CompileCommand>
lintCommandOf(const ToolCommandLine &CommandLine, std::string &Source) {
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
                 buildPathOf(CommandLine.Options)) {
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
  for (const ToolOption &Option : toolOptionsOf(CommandLine.Options)) {
    if (Option.Name == "extra-arg-before" && Option.HasValue)
      Before.push_back(Option.Value.str());
    else if (Option.Name == "extra-arg" && Option.HasValue)
      After.push_back(Option.Value.str());
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
static bool configurationAddsArgs(llvm::StringRef Source,
                                  llvm::ArrayRef<std::string> Options) {
  if (llvm::StringRef(configurationInputs(Source, Options))
          .contains("ExtraArgs"))
    return true;
  return llvm::any_of(Options, [](llvm::StringRef Arg) {
    return Arg.contains("ExtraArgs");
  });
}

/// With the preamble cache on: \p Final (what clang-tidy's main is given)
/// with the options that load the cached preamble of its one source; the
/// link to remove afterwards goes to \p Link.
static ToolCommandLine withCachedPreamble(DropInRun &Run,
                                          ToolCommandLine Final,
                                          std::string &Link) {
  std::string Source;
  std::optional<clang::tooling::CompileCommand> Command =
      lintCommandOf(Final, Source);
  PreambleOutcome Outcome{"miss", "no compile command"};
  std::optional<PreambleUse> Use;
  if (Command && configurationAddsArgs(Source, Final.Options)) {
    Outcome.Reason = "the configuration adds compiler arguments";
  } else if (Command) {
    PreambleRequest Request;
    // clang-tidy also strips plugins from the command it runs.
    Request.CommandLine = clang::tooling::getStripPluginsAdjuster()(
        Command->CommandLine, Command->Filename);
    Request.Directory = Command->Directory;
    Request.CacheDir = Run.PreambleCacheDir;
    Request.BuildAtFirstSight = Run.PreambleAtFirstLint;
    Request.ToolIdentity = toolIdentity(CUDA_LAMBDA_TIDY_VERSION, Run.self());
    Request.Volatile = Run.temporaryDirectories();
    Use = usePreamble(Request, Outcome);
  }
  // CUDA_LAMBDA_TIDY_EXPLAIN_CACHE=1: say what became of the preamble; a
  // child tells its parent, which says it (and never stores it with the
  // pass's output in the results cache: a replay uses no preamble).
  std::string Said =
      "cuda-lambda-tidy: preamble cache " + Outcome.Verdict + ": " +
      (Source.empty() ? std::string("?") : Source) + " (" +
      (Run.Pass.empty() ? std::string("one pass") : Run.Pass) + ")" +
      (Outcome.Reason.empty() ? "" : ": " + Outcome.Reason);
  if (Run.Request)
    Run.Reply.Preamble = Said;
  else if (explains("CACHE"))
    llvm::errs() << Said << "\n";
  if (!Use)
    return Final;
  Link = Use->Link;
  Run.removeOnSignal(Link);
  seedPassDependentMacros(Use->DependentMacros);
  Final.Options.insert(Final.Options.begin(), Use->ToolArgs.begin(),
                       Use->ToolArgs.end());
  return Final;
}

int runClangTidy(DropInRun &Run, const ToolCommandLine &CommandLine) {
  const bool Informs = asksForInformation(CommandLine.Options);
  std::string ResourceDir = CLANG_RESOURCE_DIR;
  if (!Informs) {
    llvm::Expected<std::string> Dir = Run.resourceDir();
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    ResourceDir = *Dir;
  }
  ToolCommandLine Final = withResourceDir(CommandLine, ResourceDir);
  std::string Link;
  if (!Run.PreambleCacheDir.empty() && !Informs)
    Final = withCachedPreamble(Run, std::move(Final), Link);
  // The one argument vector of a lint: clang-tidy's main reads it.
  const std::vector<std::string> Args = Final.args();
  std::vector<const char *> TidyArgv = {Run.argv0()};
  for (const std::string &Arg : Args)
    TidyArgv.push_back(Arg.c_str());
  int Status = clang::tidy::clangTidyMain(static_cast<int>(TidyArgv.size()),
                                          TidyArgv.data());
  if (!Link.empty())
    llvm::sys::fs::remove(Link);
  return Status;
}

std::optional<std::string>
resultsKeyOf(DropInRun &Run, const ToolCommandLine &ChildCommandLine,
             const ChildRequest &Request) {
  // The child's command line as it lints it (lintOnePass, runWithDatabase):
  // its pass added, `-p` naming the translated database, clang's resource
  // directory.
  const std::string &Pass = Request.Pass;
  const ToolCommandLine CommandLine = withCudaPass(ChildCommandLine, Pass);
  std::string DatabaseDir = databaseDirOf(CommandLine);
  if (DatabaseDir.empty())
    return std::nullopt;
  llvm::Expected<std::string> ResourceDir = Run.resourceDir();
  if (!ResourceDir) {
    llvm::consumeError(ResourceDir.takeError());
    return std::nullopt;
  }
  ToolCommandLine Final = withResourceDir(
      withBuildPath(CommandLine, DatabaseDir, {}), *ResourceDir);
  std::string SourcePath;
  std::optional<clang::tooling::CompileCommand> Found =
      lintCommandOf(Final, SourcePath);
  if (!Found)
    return std::nullopt;
  const clang::tooling::CompileCommand &Command = *Found;
  const clang::tooling::CommandLineArguments &Line = Command.CommandLine;
  llvm::SmallString<256> Source(SourcePath);
  // This run's temporary paths (the translated database's directory,
  // clang's resource directory) are left out of the key.
  std::vector<std::string> Volatile = {DatabaseDir, *ResourceDir};
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
  // What the child is asked, by what the database says rather than where
  // it is (the launcher writes the same database to a new temporary
  // directory for every compile), its files to write left out.
  ToolCommandLine Rest = withBuildPath(CommandLine, "<database>", {});
  const bool ExportsFixes = !takeExportFixes(Rest).empty();
  std::string KeyArgs = "pass=" + Pass +
                        (Request.NoToolkit ? " no-toolkit" : "") +
                        (Request.AllowPlugins ? " allow-plugins" : "") +
                        (Request.ProbeFile.empty() ? "" : " probe") +
                        (ExportsFixes ? " export-fixes" : "") + "\n";
  for (const std::string &Arg : Rest.args())
    KeyArgs += Arg + "\n";
  return digestOf(
      {"cuda-lambda-tidy results 2",
       toolIdentity(CUDA_LAMBDA_TIDY_VERSION, Run.self()), KeyArgs,
       Source.str().str(), Command.Directory, Flags,
       configurationInputs(Source, CommandLine.Options), *Input});
}

llvm::Expected<TranslatedDatabase>
translateDatabase(DropInRun &Run, llvm::ArrayRef<std::string> Sources,
                  llvm::StringRef DatabaseDir, const OwnOptions &Own) {
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer)
    return llvm::createStringError("'" + DatabaseFile + "' cannot be read");

  // The translated database, and the fallback headers if an entry needs
  // them, go to one private directory.
  llvm::Expected<std::string> TempDir =
      Run.createTemporaryDirectory("cuda-lambda-tidy");
  if (!TempDir)
    return TempDir.takeError();
  llvm::SmallString<256> FallbackDir(*TempDir);
  llvm::sys::path::append(FallbackDir, "fallback");

  NvccEnvironment Env = realNvccEnvironment(Own.NoToolkit);
  Env.FallbackDir = FallbackDir.str().str();
  llvm::Expected<std::string> CompatHeader = Run.useNvccCompatHeader(*TempDir);
  if (!CompatHeader)
    return CompatHeader.takeError();
  Env.NvccCompatHeader = *CompatHeader;
  // The files linted: what is said is about their entries, and one the
  // database lacks borrows the nearest entry's command.
  std::vector<std::string> Linted;
  for (const std::string &Source : Sources) {
    llvm::SmallString<256> Absolute(Source);
    llvm::sys::fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Linted.push_back(Absolute.str().str());
  }
  llvm::Expected<DatabaseTranslation> Translated = translateCompileDatabase(
      (*Buffer)->getBuffer(), Env, Own.AllowPlugins, Linted);
  if (!Translated)
    return llvm::createStringError("'" + DatabaseFile +
                                   "': " + llvm::toString(Translated.takeError()));
  for (const BorrowedCommand &Borrowed : Translated->Borrowed) {
    size_t I = llvm::find(Linted, Borrowed.File) - Linted.begin();
    llvm::errs() << "note: " << borrowedNote(Sources[I], Borrowed.From)
                 << "\n";
  }
  if (!Translated->FallbackNvcc.empty()) {
    if (llvm::Error Failed = useFallbackHeaders(
            Run, FallbackDir,
            fallbackReason(Own.NoToolkit, Translated->FallbackNvcc)))
      return Failed;
  }
  for (const std::string &Line : Translated->Warnings)
    warning(Line);
  if (Sources.empty() && Translated->CudaFiles.empty())
    return llvm::createStringError("'" + DatabaseFile +
                                   "' has no CUDA entries");

  llvm::SmallString<256> TempFile(*TempDir);
  llvm::sys::path::append(TempFile, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(TempFile, EC);
    if (!EC)
      Out << Translated->Json;
    if (EC || Out.has_error()) {
      Out.clear_error();
      return llvm::createStringError("cannot write '" + TempFile + "'");
    }
  }
  Run.removeOnSignal(TempFile);
  return TranslatedDatabase{*TempDir, Translated->CudaFiles};
}

int runWithDatabase(DropInRun &Run, const ToolCommandLine &CommandLine,
                    llvm::StringRef DatabaseDir, const OwnOptions &Own) {
  // A parent's children get the database it translated once.
  TranslatedDatabase Database{DatabaseDir.str(), {}};
  if (Run.Request && Run.Request->Translated) {
    Run.useParentDirectory(DatabaseDir);
  } else {
    llvm::Expected<TranslatedDatabase> Translated =
        translateDatabase(Run, CommandLine.SourcePaths, DatabaseDir, Own);
    if (!Translated)
      return inputError(llvm::toString(Translated.takeError()));
    Database = std::move(*Translated);
  }
  return runClangTidy(
      Run, withBuildPath(CommandLine, Database.Dir,
                         CommandLine.SourcePaths.empty()
                             ? Database.CudaFiles
                             : std::vector<std::string>()));
}

int lintOnePass(DropInRun &Run, ToolCommandLine CommandLine,
                OwnOptions &Own) {
  if (Own.CudaPass == "both")
    Own.CudaPass = "";
  Run.Pass = Own.CudaPass;
  const ChildRequest *Request = Run.Request ? &*Run.Request : nullptr;
  if (Request) {
    Run.PreambleCacheDir = Request->PreambleCacheDir;
    Run.PreambleAtFirstLint = Request->PreambleAtFirstLint;
  }
  CommandLine = withCudaPass(std::move(CommandLine), Own.CudaPass);
  if (Request && !Request->ProbeFile.empty())
    CommandLine = withCheckEnabled(std::move(CommandLine),
                                   enablePassProbe(Request->ProbeFile));
  // Flags after `--` win over any database, as in clang-tidy. Without a
  // compile_commands.json (a compile_flags.txt, say) clang-tidy decides
  // alone.
  std::string DatabaseDir = databaseDirOf(CommandLine);
  if (DatabaseDir.empty())
    return runWithFlags(Run, CommandLine, Own);
  return runWithDatabase(Run, CommandLine, DatabaseDir, Own);
}

int lintAsChild(DropInRun &Run, ToolCommandLine CommandLine,
                OwnOptions Own) {
  auto Text = llvm::MemoryBuffer::getFile(Own.RequestFile);
  if (!Text)
    return inputError("'" + Own.RequestFile + "' cannot be read");
  llvm::Expected<ChildRequest> Request =
      readChildRequest((*Text)->getBuffer());
  if (!Request)
    return inputError(llvm::toString(Request.takeError()));
  Run.Request = std::move(*Request);
  Own.CudaPass = Run.Request->Pass;
  Own.AllowPlugins = Run.Request->AllowPlugins;
  Own.NoToolkit = Run.Request->NoToolkit;
  int Status = lintOnePass(Run, std::move(CommandLine), Own);
  // The reply (ChildRequest.h); a parent that cannot read it takes the
  // default.
  std::error_code EC;
  llvm::raw_fd_ostream Out(Run.Request->ReplyFile, EC);
  if (!EC)
    Out << writeChildReply(Run.Reply);
  return Status;
}

int runWithFlags(DropInRun &Run, const ToolCommandLine &CommandLine,
                 const OwnOptions &Own) {
  std::optional<CudaToolkit> Toolkit =
      Own.NoToolkit ? std::nullopt
                    : findCudaToolkit(ToolkitEnvironment::real());
  std::string FallbackDir;
  if (!Toolkit &&
      needsFallbackHeaders(CommandLine, /*CompileDatabaseFound=*/false)) {
    llvm::Expected<std::string> Dir =
        Run.createTemporaryDirectory("cuda-lambda-tidy-fallback");
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    FallbackDir = *Dir;
    if (llvm::Error Failed = useFallbackHeaders(
            Run, FallbackDir, fallbackReason(Own.NoToolkit)))
      return inputError(llvm::toString(std::move(Failed)));
  }
  std::string CompatHeader;
  if (needsNvccCompatHeader(CommandLine, /*CompileDatabaseFound=*/false)) {
    llvm::Expected<std::string> Dir =
        Run.createTemporaryDirectory("cuda-lambda-tidy-compat");
    if (!Dir)
      return inputError(llvm::toString(Dir.takeError()));
    llvm::Expected<std::string> Header = Run.useNvccCompatHeader(*Dir);
    if (!Header)
      return inputError(llvm::toString(Header.takeError()));
    CompatHeader = *Header;
  }
  return runClangTidy(Run, rewriteCommandLine(CommandLine, Toolkit,
                                              /*CompileDatabaseFound=*/false,
                                              FallbackDir, CompatHeader));
}

} // namespace cuda_lambda_tidy

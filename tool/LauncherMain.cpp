//===--- LauncherMain.cpp - cuda-lambda-tidy ----------------------------===//
//
// cuda-lambda-tidy-launcher: lints the CUDA source of an nvcc command by
// running this binary as cuda-lambda-tidy on a one-entry compile database
// that holds the command (so the nvcc translation, both passes and the
// nvcc-compatibility layer are the drop-in's own). Where it knows the
// object file the command writes, the command runs beside the lint (a
// finding in --mode=error removes the object); otherwise it lints first and
// then replaces itself with the command. Launcher.h has the rules.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "CudaLambdaTidyVersion.h"
#include "CudaToolkit.h"
#include "DropInRun.h"
#include "Launcher.h"
#include "NvccTranslation.h"
#include "TidyOutput.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace cuda_lambda_tidy {

namespace {

constexpr const char *Me = "cuda-lambda-tidy-launcher";

std::string readWholeFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// What a lint said about the sources of one command.
struct LintResult {
  bool Ran = false;       ///< the lint ran and reported (status 0, 1 or 3)
  int Status = 0;         ///< its exit status
  std::string Stdout;     ///< its findings, as clang-tidy prints them
  std::string Stderr;     ///< its messages, statistics left out
  unsigned Findings = 0;  ///< countFindings
  bool ParseErrors = false; ///< clang could not parse all of it
};

/// A lint started in the background.
struct PendingLint {
  bool Started = false;
  std::string Dir, Out, Err;
  llvm::sys::ProcessInfo Process;
  LintResult Early; ///< what is known when it could not start
};

/// Starts `Self LintArgs -p <dir> Sources` on a one-entry database of
/// \p Command in \p Directory.
PendingLint startLint(llvm::StringRef Self,
                      llvm::ArrayRef<std::string> LintArgs,
                      llvm::StringRef Directory,
                      llvm::ArrayRef<std::string> Command,
                      llvm::ArrayRef<std::string> Sources) {
  PendingLint Pending;
  llvm::SmallString<256> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("cuda-lambda-tidy-launcher", Dir)) {
    Pending.Early.Stderr = "cannot create a temporary directory: " + EC.message();
    return Pending;
  }
  llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::owner_all);
  auto Path = [&](llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  };
  Pending.Dir = Dir.str().str();
  std::string Database = Path("compile_commands.json");
  Pending.Out = Path("stdout");
  Pending.Err = Path("stderr");
  for (const std::string &File : {Database, Pending.Out, Pending.Err})
    llvm::sys::RemoveFileOnSignal(File);
  {
    std::error_code EC;
    llvm::raw_fd_ostream File(Database, EC);
    if (!EC)
      File << launcherDatabase(Directory, Command, Sources);
  }
  std::vector<llvm::StringRef> Argv = {Self};
  Argv.insert(Argv.end(), LintArgs.begin(), LintArgs.end());
  Argv.push_back("-p");
  Argv.push_back(Pending.Dir);
  Argv.insert(Argv.end(), Sources.begin(), Sources.end());
  std::optional<llvm::StringRef> Redirects[] = {
      std::nullopt, llvm::StringRef(Pending.Out), llvm::StringRef(Pending.Err)};
  std::string Message;
  bool Failed = false;
  Pending.Process = llvm::sys::ExecuteNoWait(Self, Argv, std::nullopt,
                                             Redirects, 0, &Message, &Failed);
  if (Failed || Pending.Process.Pid == llvm::sys::ProcessInfo::InvalidPid) {
    Pending.Early.Status = -1;
    Pending.Early.Stderr = "cuda-lambda-tidy did not start: " + Message + "\n";
    llvm::sys::fs::remove_directories(Pending.Dir);
    return Pending;
  }
  Pending.Started = true;
  return Pending;
}

/// Waits for \p Pending and reads what it said.
LintResult finishLint(PendingLint &Pending) {
  if (!Pending.Started)
    return Pending.Early;
  LintResult Result;
  std::string Message;
  llvm::sys::ProcessInfo Done = llvm::sys::Wait(
      Pending.Process, /*SecondsToWait=*/std::nullopt, &Message);
  Result.Status = Done.ReturnCode;
  Result.Stdout = readWholeFile(Pending.Out);
  std::string Errors = readWholeFile(Pending.Err);
  llvm::sys::fs::remove_directories(Pending.Dir);

  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Errors).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    if (!isLintChatter(Line))
      Result.Stderr += Line.str() + "\n";
  if (Result.Status < 0) {
    Result.Stderr += "cuda-lambda-tidy did not finish: " + Message + "\n";
    return Result;
  }
  if (Result.Status != 0 && Result.Status != 1 && Result.Status != 3)
    return Result;
  Result.Ran = true;
  std::vector<PrintedDiagnostic> Diagnostics = parseDiagnostics(Result.Stdout);
  Result.Findings = countFindings(Diagnostics);
  Result.ParseErrors =
      Result.Status == 3 ||
      llvm::any_of(Diagnostics, [](const PrintedDiagnostic &D) {
        return D.Severity == "error" &&
               (D.Check.empty() ||
                llvm::StringRef(D.Check).starts_with("clang-diagnostic-"));
      });
  return Result;
}

/// Starts \p Command with this process's output; \p Error says why not.
std::optional<llvm::sys::ProcessInfo>
startCommand(llvm::ArrayRef<std::string> Command, std::string &Error) {
  std::string Program = Command.front();
  if (!llvm::StringRef(Program).contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      Error = Found.getError().message();
      return std::nullopt;
    }
    Program = *Found;
  }
  std::vector<llvm::StringRef> Argv(Command.begin(), Command.end());
  llvm::outs().flush();
  llvm::errs().flush();
  bool Failed = false;
  llvm::sys::ProcessInfo Process = llvm::sys::ExecuteNoWait(
      Program, Argv, std::nullopt, {}, 0, &Error, &Failed);
  if (Failed || Process.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return std::nullopt;
  return Process;
}

/// Replaces this process by \p Command; returns only when that fails.
int runCommand(llvm::ArrayRef<std::string> Command) {
  llvm::outs().flush();
  llvm::errs().flush();
  std::vector<char *> Argv;
  for (const std::string &Word : Command)
    Argv.push_back(const_cast<char *>(Word.c_str()));
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  llvm::errs() << Me << ": error: cannot run '" << Command[0]
               << "': " << std::strerror(errno) << "\n";
  return 127;
}

std::string joined(llvm::ArrayRef<std::string> Words) {
  std::string Text;
  for (const std::string &Word : Words)
    Text += (Text.empty() ? "'" : ", '") + Word + "'";
  return Text;
}

} // namespace

int launcherMain(const char *Argv0, llvm::ArrayRef<std::string> Args) {
  LauncherOptions Options = parseLauncherCommandLine(
      Args, llvm::sys::Process::GetEnv("CUDA_LAMBDA_TIDY_LAUNCHER_MODE"),
      llvm::sys::Process::GetEnv("CUDA_LAMBDA_TIDY_LAUNCHER_ARGS"));
  if (Options.Help) {
    llvm::outs() << launcherUsage();
    return 0;
  }
  if (Options.Version) {
    llvm::outs() << Me << " (cuda-lambda-tidy " CUDA_LAMBDA_TIDY_VERSION
                 << ", built with LLVM " CUDA_LAMBDA_TIDY_LLVM_VERSION ")\n";
    return 0;
  }
  if (!Options.Error.empty()) {
    llvm::errs() << Me << ": error: " << Options.Error << "\n";
    return 2;
  }

  std::optional<size_t> Nvcc = nvccPosition(Options.Command);
  if (Options.Mode == LauncherMode::Off || !Nvcc)
    return runCommand(Options.Command);
  llvm::ArrayRef<std::string> NvccCommand =
      llvm::ArrayRef(Options.Command).drop_front(*Nvcc);
  if (nvccCompilesNothing(NvccCommand.drop_front()))
    return runCommand(Options.Command);

  llvm::SmallString<256> Directory;
  if (llvm::sys::fs::current_path(Directory))
    return runCommand(Options.Command);
  // Only which files are CUDA sources is wanted from the translation here;
  // the lint translates the command again, with the toolkit.
  NvccEnvironment Env;
  Env.ReadFile = ToolkitEnvironment::real().ReadFile;
  TranslatedCommand Translated =
      translateNvccCommand(NvccCommand, Directory, Env);
  bool ExplicitCuda = false;
  for (size_t I = 0; I + 1 < Translated.Arguments.size(); ++I)
    if (Translated.Arguments[I] == "-x" &&
        Translated.Arguments[I + 1] == "cuda")
      ExplicitCuda = true;
  std::vector<std::string> Sources =
      Translated.IsCuda ? cudaSourcesOf(Translated.Inputs, ExplicitCuda)
                        : std::vector<std::string>();
  if (Sources.empty())
    return runCommand(Options.Command);

  // With the object file known, the compile runs beside the lint: the
  // build step takes the longer of the two, not their sum, and a finding in
  // --mode=error removes the object. Otherwise the lint runs first.
  std::optional<std::string> Object =
      nvccOutputOf(NvccCommand.drop_front(), Sources);
  PendingLint Pending = startLint(selfPath(Argv0),
                                  launcherLintArgs(Options.TidyArgs),
                                  Directory, NvccCommand, Sources);
  std::optional<llvm::sys::ProcessInfo> Compile;
  if (Pending.Started && Object) {
    std::string Error;
    Compile = startCommand(Options.Command, Error);
    if (!Compile) {
      finishLint(Pending);
      llvm::errs() << Me << ": error: cannot run '" << Options.Command[0]
                   << "': " << Error << "\n";
      return 127;
    }
  }
  LintResult Lint = finishLint(Pending);
  // The compile's exit status, once it has run beside the lint.
  auto CompileStatus = [&]() {
    std::string Message;
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(*Compile, /*SecondsToWait=*/std::nullopt, &Message);
    if (Done.ReturnCode < 0)
      llvm::errs() << Me << ": error: '" << Options.Command[0]
                   << "' did not finish: " << Message << "\n";
    return Done.ReturnCode < 0 ? 128 - Done.ReturnCode : Done.ReturnCode;
  };
  if (!Lint.Ran) {
    llvm::errs() << Lint.Stderr << Me << ": warning: could not lint "
                 << joined(Sources) << " (exit status " << Lint.Status
                 << "); compiling without\n";
    return Compile ? CompileStatus() : runCommand(Options.Command);
  }
  if (Lint.Findings > 0 || Lint.ParseErrors) {
    llvm::outs() << Lint.Stdout;
    llvm::outs().flush();
    llvm::errs() << Lint.Stderr;
  }
  if (Lint.ParseErrors)
    llvm::errs() << Me << ": warning: clang could not parse all of "
                 << joined(Sources)
                 << "; its findings there may be incomplete\n";
  if (Lint.Findings > 0) {
    if (Options.Mode == LauncherMode::Error) {
      if (Compile) {
        CompileStatus();
        llvm::sys::fs::remove(*Object);
      }
      llvm::errs() << Me << ": error: " << Lint.Findings << " finding"
                   << (Lint.Findings == 1 ? "" : "s") << " in "
                   << joined(Sources)
                   << "; no object file (--mode=warn or "
                      "CUDA_LAMBDA_TIDY_LAUNCHER_MODE=warn only warns)\n";
      return 1;
    }
    llvm::errs() << Me << ": warning: " << Lint.Findings << " finding"
                 << (Lint.Findings == 1 ? "" : "s") << " in "
                 << joined(Sources) << "\n";
  }
  return Compile ? CompileStatus() : runCommand(Options.Command);
}

} // namespace cuda_lambda_tidy

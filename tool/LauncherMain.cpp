//===--- LauncherMain.cpp - cuda-lambda-tidy ----------------------------===//
//
// cuda-lambda-tidy-launcher: lints the CUDA source of an nvcc command by
// running this binary as cuda-lambda-tidy on a one-entry compile database
// that holds the command (so the nvcc translation, both passes and the
// nvcc-compatibility layer are the drop-in's own), then replaces itself
// with the command. Launcher.h has the rules.
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

/// Runs `Self LintArgs -p <dir> Sources` on a one-entry database of
/// \p Command in \p Directory.
LintResult lint(llvm::StringRef Self, llvm::ArrayRef<std::string> LintArgs,
                llvm::StringRef Directory,
                llvm::ArrayRef<std::string> Command,
                llvm::ArrayRef<std::string> Sources) {
  LintResult Result;
  llvm::SmallString<256> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("cuda-lambda-tidy-launcher", Dir)) {
    Result.Stderr = "cannot create a temporary directory: " + EC.message();
    return Result;
  }
  llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::owner_all);
  auto Path = [&](llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  };
  std::string Database = Path("compile_commands.json");
  std::string Out = Path("stdout"), Err = Path("stderr");
  for (const std::string &File : {Database, Out, Err})
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
  Argv.push_back(Dir);
  Argv.insert(Argv.end(), Sources.begin(), Sources.end());
  std::optional<llvm::StringRef> Redirects[] = {
      std::nullopt, llvm::StringRef(Out), llvm::StringRef(Err)};
  std::string Message;
  bool Failed = false;
  Result.Status = llvm::sys::ExecuteAndWait(Self, Argv, std::nullopt, Redirects,
                                            0, 0, &Message, &Failed);
  Result.Stdout = readWholeFile(Out);
  std::string Errors = readWholeFile(Err);
  llvm::sys::fs::remove_directories(Dir);

  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Errors).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    if (!isLintChatter(Line))
      Result.Stderr += Line.str() + "\n";
  if (Failed || Result.Status < 0) {
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

  LintResult Lint = lint(selfPath(Argv0), launcherLintArgs(Options.TidyArgs), Directory,
                         NvccCommand, Sources);
  if (!Lint.Ran) {
    llvm::errs() << Lint.Stderr << Me << ": warning: could not lint "
                 << joined(Sources) << " (exit status " << Lint.Status
                 << "); compiling without\n";
    return runCommand(Options.Command);
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
      llvm::errs() << Me << ": error: " << Lint.Findings << " finding"
                   << (Lint.Findings == 1 ? "" : "s") << " in "
                   << joined(Sources)
                   << "; not compiled (--mode=warn or "
                      "CUDA_LAMBDA_TIDY_LAUNCHER_MODE=warn only warns)\n";
      return 1;
    }
    llvm::errs() << Me << ": warning: " << Lint.Findings << " finding"
                 << (Lint.Findings == 1 ? "" : "s") << " in "
                 << joined(Sources) << "\n";
  }
  return runCommand(Options.Command);
}

} // namespace cuda_lambda_tidy

//===--- CudaLambdaTidyMain.cpp - cuda-lambda-tidy ----------------------===//
//
// The drop-in clang-tidy: upstream's main with every upstream module and the
// `cuda` module linked in. Before handing over, it checks that the files
// exist and, for CUDA sources given without compile flags, adds what clang
// needs to parse them with the user's toolkit. With a compile database (-p,
// or one found above the first source) it translates the nvcc entries into
// a private temporary database and points clang-tidy at that.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "CudaModuleAnchor.h"
#include "CudaToolkit.h"
#include "clang-tidy/ClangTidyForceLinker.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace cuda_lambda_tidy;

namespace {

/// Exit status for unusable input: a file that is missing, a directory, or
/// unreadable; no toolkit where one is needed.
constexpr int InputErrorExitCode = 2;

int inputError(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: error: " << Message << "\n";
  return InputErrorExitCode;
}

void warning(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: warning: " << Message << "\n";
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

int runClangTidy(const char *Argv0, llvm::ArrayRef<std::string> Args) {
  std::vector<std::string> Final = withResourceDir(Args, CLANG_RESOURCE_DIR);
  std::vector<const char *> TidyArgv = {Argv0};
  for (const std::string &Arg : Final)
    TidyArgv.push_back(Arg.c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(TidyArgv.size()),
                                    TidyArgv.data());
}

/// Lints with the database in \p DatabaseDir, its nvcc entries translated.
int runWithDatabase(const char *Argv0, llvm::ArrayRef<std::string> Args,
                    const ToolCommandLine &CommandLine,
                    llvm::StringRef DatabaseDir, const OwnOptions &Own) {
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer)
    return inputError("'" + DatabaseFile + "' cannot be read");

  NvccEnvironment Env;
  ToolkitEnvironment ToolkitEnv = ToolkitEnvironment::real();
  Env.ReadFile = ToolkitEnv.ReadFile;
  Env.ToolkitOf = [ToolkitEnv](llvm::StringRef Nvcc) {
    return toolkitOfNvcc(Nvcc, ToolkitEnv);
  };
  llvm::Expected<DatabaseTranslation> Translated = translateCompileDatabase(
      (*Buffer)->getBuffer(), Env, Own.AllowPlugins);
  if (!Translated)
    return inputError("'" + DatabaseFile +
                      "': " + llvm::toString(Translated.takeError()));
  for (const std::string &Line : Translated->Warnings)
    warning(Line);

  std::vector<std::string> ExtraSources;
  if (CommandLine.SourcePaths.empty()) {
    if (Translated->CudaFiles.empty())
      return inputError("'" + DatabaseFile + "' has no CUDA entries");
    ExtraSources = Translated->CudaFiles;
  }

  llvm::SmallString<256> TempDir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("cuda-lambda-tidy", TempDir))
    return inputError("cannot create a temporary directory: " + EC.message());
  llvm::sys::fs::setPermissions(TempDir, llvm::sys::fs::owner_all);
  llvm::SmallString<256> TempFile(TempDir);
  llvm::sys::path::append(TempFile, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(TempFile, EC);
    if (!EC)
      Out << Translated->Json;
    if (EC || Out.has_error()) {
      Out.clear_error();
      llvm::sys::fs::remove_directories(TempDir);
      return inputError("cannot write '" + TempFile + "'");
    }
  }
  llvm::sys::RemoveFileOnSignal(TempFile);

  int Status =
      runClangTidy(Argv0, withBuildPath(Args, TempDir, ExtraSources));
  llvm::sys::fs::remove_directories(TempDir);
  return Status;
}

} // namespace

int main(int argc, const char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
  OwnOptions Own = takeOwnOptions(Args);
  if (!Own.Error.empty())
    return inputError(Own.Error);
  Args = withCudaPass(Args, Own.CudaPass);
  ToolCommandLine CommandLine = parseToolCommandLine(Args);

  for (const std::string &Source : CommandLine.SourcePaths) {
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

  // Flags after `--` win over any database, as in clang-tidy.
  if (!CommandLine.HasCompilerArgs) {
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
    // Without a compile_commands.json (a compile_flags.txt, say) clang-tidy
    // decides alone.
    if (!DatabaseDir.empty() && llvm::sys::fs::exists(DatabaseFile))
      return runWithDatabase(argv[0], Args, CommandLine, DatabaseDir, Own);
  }

  std::optional<CudaToolkit> Toolkit =
      findCudaToolkit(ToolkitEnvironment::real());
  return runClangTidy(argv[0], rewriteCommandLine(Args, Toolkit,
                                                  /*CompileDatabaseFound=*/
                                                  false));
}

//===--- CudaLambdaTidyMain.cpp - cuda-lambda-tidy ----------------------===//
//
// The drop-in clang-tidy: upstream's main with every upstream module and the
// `cuda` module linked in. Before handing over, it checks that the files
// exist and, for CUDA sources given without compile flags, adds what clang
// needs to parse them with the user's toolkit.
//
//===----------------------------------------------------------------------===//

#include "CudaInvocation.h"
#include "CudaModuleAnchor.h"
#include "CudaToolkit.h"
#include "clang-tidy/ClangTidyForceLinker.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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

/// Whether clang-tidy would find a compile_commands.json above \p Source.
bool hasCompileDatabaseAbove(llvm::StringRef Source) {
  llvm::SmallString<256> Dir(Source);
  if (llvm::sys::fs::make_absolute(Dir))
    return false;
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Candidate(Current);
    llvm::sys::path::append(Candidate, "compile_commands.json");
    if (llvm::sys::fs::exists(Candidate))
      return true;
  }
  return false;
}

} // namespace

int main(int argc, const char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
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

  bool CompileDatabaseFound =
      !CommandLine.SourcePaths.empty() &&
      hasCompileDatabaseAbove(CommandLine.SourcePaths.front());
  std::optional<CudaToolkit> Toolkit =
      findCudaToolkit(ToolkitEnvironment::real());

  std::vector<std::string> Rewritten =
      withResourceDir(rewriteCommandLine(Args, Toolkit, CompileDatabaseFound),
                      CLANG_RESOURCE_DIR);
  std::vector<const char *> TidyArgv = {argv[0]};
  for (const std::string &Arg : Rewritten)
    TidyArgv.push_back(Arg.c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(TidyArgv.size()),
                                    TidyArgv.data());
}

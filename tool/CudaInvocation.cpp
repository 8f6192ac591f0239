//===--- CudaInvocation.cpp - cuda-lambda-tidy --------------------------===//

#include "CudaInvocation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

namespace cuda_lambda_tidy {

// clang-tidy's options that take their value as the next argument when it is
// not attached with '='.
static bool takesSeparateValue(llvm::StringRef Option) {
  static const llvm::StringSet<> Options = {
      "checks",       "config",           "config-file",
      "exclude-header-filter", "export-fixes", "extra-arg",
      "extra-arg-before", "format-style", "header-filter",
      "line-filter",  "load",             "p",
      "removed-arg",  "store-check-profile", "vfsoverlay",
      "warnings-as-errors"};
  Option = Option.ltrim('-');
  return !Option.contains('=') && Options.contains(Option);
}

ToolCommandLine parseToolCommandLine(llvm::ArrayRef<std::string> Args) {
  ToolCommandLine Result;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      Result.HasCompilerArgs = true;
      Result.CompilerArgs.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    Result.ToolArgs.push_back(Args[I]);
    if (Arg.size() > 1 && Arg.starts_with("-")) {
      llvm::StringRef Name = Arg.ltrim('-');
      if (Name == "p" || Name.starts_with("p="))
        Result.HasBuildPath = true;
      if (takesSeparateValue(Arg) && I + 1 < Args.size())
        Result.ToolArgs.push_back(Args[++I]);
      continue;
    }
    Result.SourcePaths.push_back(Args[I]);
  }
  return Result;
}

bool isCudaSourcePath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

std::string explicitLanguage(llvm::ArrayRef<std::string> CompilerArgs) {
  std::string Language;
  for (size_t I = 0; I < CompilerArgs.size(); ++I) {
    llvm::StringRef Arg = CompilerArgs[I];
    if (Arg == "-x" && I + 1 < CompilerArgs.size())
      Language = CompilerArgs[++I];
    else if (Arg.starts_with("-x") && Arg.size() > 2)
      Language = Arg.drop_front(2).str();
  }
  return Language;
}

static bool hasArgStartingWith(llvm::ArrayRef<std::string> Args,
                               llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &Arg) {
    return llvm::StringRef(Arg).starts_with(Prefix);
  });
}

static bool newerThanClangKnows(const CudaToolkit &Toolkit) {
  return Toolkit.Major > NewestKnownCudaMajor ||
         (Toolkit.Major == NewestKnownCudaMajor &&
          Toolkit.Minor > NewestKnownCudaMinor);
}

std::vector<std::string> cudaParseFlags(const CudaToolkit &Toolkit,
                                        llvm::ArrayRef<std::string> UserArgs) {
  std::vector<std::string> Flags;
  if (explicitLanguage(UserArgs).empty())
    Flags.insert(Flags.end(), {"-x", "cuda"});
  if (!hasArgStartingWith(UserArgs, "--cuda-path"))
    Flags.push_back("--cuda-path=" + Toolkit.Path);
  if (!hasArgStartingWith(UserArgs, "-nocudalib"))
    Flags.push_back("-nocudalib");
  // CUDA 13 moved thrust, cub and libcu++ to include/cccl; nvcc adds it by
  // itself, clang does not.
  llvm::SmallString<256> Cccl(Toolkit.Path);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (Toolkit.Major >= 13 && !llvm::is_contained(UserArgs, Cccl.str().str()))
    Flags.insert(Flags.end(), {"-isystem", Cccl.str().str()});
  if (!hasArgStartingWith(UserArgs, "--cuda-gpu-arch") &&
      !hasArgStartingWith(UserArgs, "--offload-arch"))
    Flags.push_back(std::string("--cuda-gpu-arch=") + DefaultGpuArch);
  if (newerThanClangKnows(Toolkit)) {
    Flags.push_back("-Wno-unknown-cuda-version");
    // Without a known SDK version clang 22 declares no cudaConfigureCall on
    // the device side, and every <<<...>>> launch fails to parse.
    if (!hasArgStartingWith(UserArgs, "-target-sdk-version"))
      Flags.insert(Flags.end(), {"-Xclang", "-target-sdk-version=12.9"});
  }
  return Flags;
}

static bool wantsCuda(const ToolCommandLine &CommandLine) {
  std::string Language = explicitLanguage(CommandLine.CompilerArgs);
  if (!Language.empty())
    return Language == "cuda";
  return llvm::any_of(CommandLine.SourcePaths, [](const std::string &Path) {
    return isCudaSourcePath(Path);
  });
}

std::vector<std::string>
rewriteCommandLine(llvm::ArrayRef<std::string> Args,
                   const std::optional<CudaToolkit> &Toolkit,
                   bool CompileDatabaseFound) {
  ToolCommandLine CommandLine = parseToolCommandLine(Args);
  if (CommandLine.SourcePaths.empty() || CommandLine.HasBuildPath ||
      (CompileDatabaseFound && !CommandLine.HasCompilerArgs))
    return Args.vec();

  std::vector<std::string> Result = CommandLine.ToolArgs;
  Result.push_back("--");
  if (Toolkit && wantsCuda(CommandLine)) {
    std::vector<std::string> Flags =
        cudaParseFlags(*Toolkit, CommandLine.CompilerArgs);
    Result.insert(Result.end(), Flags.begin(), Flags.end());
  }
  Result.insert(Result.end(), CommandLine.CompilerArgs.begin(),
                CommandLine.CompilerArgs.end());
  return Result;
}

std::vector<std::string> withResourceDir(llvm::ArrayRef<std::string> Args,
                                         llvm::StringRef ResourceDir) {
  bool UserSetOne = llvm::any_of(Args, [](const std::string &Arg) {
    return llvm::StringRef(Arg).contains("-resource-dir");
  });
  ToolCommandLine CommandLine = parseToolCommandLine(Args);
  if (UserSetOne || ResourceDir.empty() || CommandLine.SourcePaths.empty())
    return Args.vec();
  std::vector<std::string> Result = {
      ("--extra-arg-before=-resource-dir=" + ResourceDir).str()};
  Result.insert(Result.end(), Args.begin(), Args.end());
  return Result;
}

} // namespace cuda_lambda_tidy

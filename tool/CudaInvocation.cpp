//===--- CudaInvocation.cpp - cuda-lambda-tidy --------------------------===//

#include "CudaInvocation.h"
#include "FallbackHeaders.h"
#include "Shard.h"
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

// Matches our option `Option` written as `--Option=value` or `--Option value`
// (Name is the argument without its dashes).  On a match, stores the value
// (empty when the command line ends first) and moves I past a separate value.
static bool takeOptionValue(llvm::StringRef Name, llvm::StringRef Option,
                            llvm::ArrayRef<std::string> Args, size_t &I,
                            llvm::StringRef &Value) {
  if (Name == Option) {
    Value = I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "";
    return true;
  }
  if (Name.consume_front(Option) && Name.consume_front("=")) {
    Value = Name;
    return true;
  }
  return false;
}

ToolCommandLine ToolCommandLine::parse(llvm::ArrayRef<std::string> Args) {
  ToolCommandLine Result;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      Result.HasCompilerArgs = true;
      Result.CompilerArgs.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (Arg.size() > 1 && Arg.starts_with("-")) {
      Result.Options.push_back(Args[I]);
      if (takesSeparateValue(Arg) && I + 1 < Args.size())
        Result.Options.push_back(Args[++I]);
      continue;
    }
    Result.SourcePaths.push_back(Args[I]);
  }
  return Result;
}

std::vector<std::string> ToolCommandLine::args() const {
  std::vector<std::string> Args = Options;
  Args.insert(Args.end(), SourcePaths.begin(), SourcePaths.end());
  if (HasCompilerArgs) {
    Args.push_back("--");
    Args.insert(Args.end(), CompilerArgs.begin(), CompilerArgs.end());
  }
  return Args;
}

bool ToolCommandLine::hasBuildPath() const {
  return llvm::any_of(toolOptionsOf(Options),
                      [](const ToolOption &O) { return O.Name == "p"; });
}

std::vector<ToolOption> toolOptionsOf(llvm::ArrayRef<std::string> Options) {
  std::vector<ToolOption> Result;
  for (size_t I = 0; I < Options.size(); ++I) {
    llvm::StringRef Arg = Options[I];
    ToolOption Option;
    Option.Index = I;
    if (Arg.starts_with("-")) {
      llvm::StringRef Name = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
      Option.HasValue = Name.contains('=');
      std::tie(Option.Name, Option.Value) = Name.split('=');
    }
    if (takesSeparateValue(Arg) && I + 1 < Options.size()) {
      Option.Value = Options[++I];
      Option.HasValue = true;
      Option.Size = 2;
    }
    Result.push_back(Option);
  }
  return Result;
}

std::vector<std::string>
optionsWithout(llvm::ArrayRef<std::string> Options,
               llvm::function_ref<bool(const ToolOption &)> Drop) {
  std::vector<std::string> Kept;
  for (const ToolOption &Option : toolOptionsOf(Options))
    if (!Drop(Option))
      Kept.insert(Kept.end(), Options.begin() + Option.Index,
                  Options.begin() + Option.Index + Option.Size);
  return Kept;
}

std::optional<std::string> lastValueOf(llvm::ArrayRef<std::string> Options,
                                       llvm::StringRef Name) {
  std::optional<std::string> Value;
  for (const ToolOption &Option : toolOptionsOf(Options))
    if (Option.Name == Name)
      Value = Option.Value.str();
  return Value;
}

ToolCommandLine withCheckEnabled(ToolCommandLine CommandLine,
                                 llvm::StringRef Check) {
  std::vector<std::string> &Options = CommandLine.Options;
  std::vector<ToolOption> Given = toolOptionsOf(Options);
  auto Checks = llvm::find_if(llvm::reverse(Given), [](const ToolOption &O) {
    return O.Name == "checks";
  });
  if (Checks == Given.rend()) {
    Options.insert(Options.begin(), "--checks=" + Check.str());
    return CommandLine;
  }
  // The last --checks is the one clang-tidy reads.
  std::string &Last = Options[Checks->Index + Checks->Size - 1];
  if (Checks->Size == 2)
    Last += "," + Check.str();
  else
    Last = "--checks=" + Checks->Value.str() + "," + Check.str();
  return CommandLine;
}

OwnOptions takeOwnOptions(std::vector<std::string> &Args) {
  OwnOptions Own;
  std::vector<std::string> Kept;
  bool AfterDashDash = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--")
      AfterDashDash = true;
    if (AfterDashDash || !Arg.starts_with("-")) {
      Kept.push_back(std::move(Args[I]));
      continue;
    }
    llvm::StringRef Name = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    if (Name == "allow-plugins") {
      Own.AllowPlugins = true;
      continue;
    }
    llvm::StringRef Value;
    if (takeOptionValue(Name, "cuda-pass", Args, I, Value)) {
      if (Value != "device" && Value != "host" && Value != "both")
        Own.Error = "--cuda-pass takes 'device', 'host' or 'both', not '" +
                    Value.str() + "'";
      else
        Own.CudaPass = Value.str();
      continue;
    }
    if (takeOptionValue(Name, "cuda-toolkit", Args, I, Value)) {
      if (Value != "none")
        Own.Error = "--cuda-toolkit takes only 'none' (CUDA_PATH chooses a "
                    "toolkit), not '" +
                    Value.str() + "'";
      else
        Own.NoToolkit = true;
      continue;
    }
    if (Name == "no-cache") {
      Own.NoCache = true;
      continue;
    }
    if (Name == "no-preamble-cache") {
      Own.NoPreambleCache = true;
      continue;
    }
    if (Name == "preamble-at-first-lint") {
      Own.PreambleAtFirstLint = true;
      continue;
    }
    if (takeOptionValue(Name, "cache-dir", Args, I, Value)) {
      if (Value.empty())
        Own.Error = "--cache-dir takes a directory";
      else
        Own.CacheDir = Value.str();
      continue;
    }
    if (takeOptionValue(Name, "shard", Args, I, Value)) {
      std::string Error;
      if (std::optional<Shard> S = parseShard(Value, Error)) {
        Own.ShardIndex = S->Index;
        Own.ShardCount = S->Count;
      } else {
        Own.Error = Error;
      }
      continue;
    }
    if (takeOptionValue(Name, "cuda-lambda-tidy-request", Args, I, Value)) {
      Own.RequestFile = Value.str();
      continue;
    }
    if (takeOptionValue(Name, "format", Args, I, Value)) {
      if (Value != "text" && Value != "sarif" && Value != "github")
        Own.Error = "--format takes 'text', 'sarif' or 'github', not '" +
                    Value.str() + "'";
      else
        Own.Format = Value.str();
      continue;
    }
    bool IsJobs = takeOptionValue(Name, "jobs", Args, I, Value);
    if (!IsJobs && Arg.starts_with("-j") && !Arg.starts_with("--")) {
      // -j4 or -j 4, as make and clang-tidy's run script spell it.
      IsJobs = true;
      if (Arg.size() > 2)
        Value = Arg.drop_front(2);
      else
        Value = I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "";
    }
    if (IsJobs) {
      unsigned Jobs = 0;
      if (Value.getAsInteger(10, Jobs) || Jobs == 0)
        Own.Error = "-j takes a positive number, not '" + Value.str() + "'";
      else
        Own.Jobs = Jobs;
      continue;
    }
    Kept.push_back(std::move(Args[I]));
  }
  Args = std::move(Kept);
  return Own;
}

ToolCommandLine withCudaPass(ToolCommandLine CommandLine,
                             llvm::StringRef CudaPass) {
  std::vector<std::string> &Options = CommandLine.Options;
  if (CudaPass == "device")
    Options.insert(Options.begin(), "--extra-arg=--cuda-device-only");
  else if (CudaPass == "host")
    Options.insert(Options.begin(), "--extra-arg=--cuda-host-only");
  return CommandLine;
}

std::optional<std::string> buildPathOf(llvm::ArrayRef<std::string> Options) {
  std::optional<std::string> Result;
  for (const ToolOption &Option : toolOptionsOf(Options))
    if (Option.Name == "p" && Option.HasValue)
      Result = Option.Value.str();
  return Result;
}

ToolCommandLine withBuildPath(ToolCommandLine CommandLine,
                              llvm::StringRef BuildPath,
                              llvm::ArrayRef<std::string> ExtraSources) {
  CommandLine.Options = optionsWithout(
      CommandLine.Options, [](const ToolOption &O) { return O.Name == "p"; });
  CommandLine.Options.insert(CommandLine.Options.end(),
                             {"-p", BuildPath.str()});
  CommandLine.SourcePaths.insert(CommandLine.SourcePaths.end(),
                                 ExtraSources.begin(), ExtraSources.end());
  return CommandLine;
}

std::string takeExportFixes(ToolCommandLine &CommandLine) {
  std::string File = lastValueOf(CommandLine.Options, "export-fixes")
                         .value_or("");
  CommandLine.Options =
      optionsWithout(CommandLine.Options, [](const ToolOption &O) {
        return O.Name == "export-fixes";
      });
  return File;
}

static bool hasOption(llvm::ArrayRef<std::string> Options,
                      llvm::ArrayRef<llvm::StringRef> Names) {
  return llvm::any_of(toolOptionsOf(Options), [&](const ToolOption &O) {
    return llvm::is_contained(Names, O.Name);
  });
}

bool asksForFixes(llvm::ArrayRef<std::string> Options) {
  return hasOption(Options, {"fix", "fix-errors", "fix-notes"});
}

bool asksForInformation(llvm::ArrayRef<std::string> Options) {
  return hasOption(Options, {"list-checks", "dump-config", "explain-config",
                              "verify-config", "help", "help-list",
                              "help-hidden", "version"});
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

/// Force-includes the nvcc-compatibility layer at \p Header, if any. The
/// driver includes clang's CUDA runtime wrapper (and with it the toolkit's
/// headers) before any -include, so the layer sees them.
static void addNvccCompatHeader(std::vector<std::string> &Flags,
                                llvm::StringRef Header) {
  if (!Header.empty())
    Flags.insert(Flags.end(), {"-include", Header.str()});
}

std::vector<std::string> cudaParseFlags(const CudaToolkit &Toolkit,
                                        llvm::ArrayRef<std::string> UserArgs,
                                        llvm::StringRef NvccCompatHeader) {
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
  addNvccCompatHeader(Flags, NvccCompatHeader);
  return Flags;
}

std::vector<std::string>
fallbackParseFlags(llvm::StringRef FallbackDir,
                   llvm::ArrayRef<std::string> UserArgs,
                   llvm::StringRef NvccCompatHeader) {
  std::vector<std::string> Flags;
  if (explicitLanguage(UserArgs).empty())
    Flags.insert(Flags.end(), {"-x", "cuda"});
  // A --cuda-path that holds no toolkit keeps clang from looking for one by
  // itself (and from warning about the one it finds), so that every machine
  // parses the same way, with a toolkit installed or not.
  Flags.push_back(("--cuda-path=" + FallbackDir).str());
  if (!llvm::is_contained(UserArgs, "-nocudainc"))
    Flags.push_back("-nocudainc");
  if (!hasArgStartingWith(UserArgs, "-nocudalib"))
    Flags.push_back("-nocudalib");
  Flags.insert(Flags.end(), {"-isystem", FallbackDir.str(), "-include",
                             FallbackIncludeName});
  if (!hasArgStartingWith(UserArgs, "--cuda-gpu-arch") &&
      !hasArgStartingWith(UserArgs, "--offload-arch"))
    Flags.push_back(std::string("--cuda-gpu-arch=") + DefaultGpuArch);
  // With no toolkit clang knows no SDK version: the device side would then
  // look for cudaConfigureCall and the host side for
  // __cudaPushCallConfiguration. Claiming the newest version clang knows
  // makes both use the latter, which the fallback header declares.
  if (!hasArgStartingWith(UserArgs, "-target-sdk-version"))
    Flags.insert(Flags.end(),
                 {"-Xclang", "-target-sdk-version=" +
                                 std::to_string(NewestKnownCudaMajor) + "." +
                                 std::to_string(NewestKnownCudaMinor)});
  addNvccCompatHeader(Flags, NvccCompatHeader);
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

/// Whether rewriteCommandLine leaves \p CommandLine to clang-tidy as it is.
static bool leftAlone(const ToolCommandLine &CommandLine,
                      bool CompileDatabaseFound) {
  return CommandLine.SourcePaths.empty() || CommandLine.hasBuildPath() ||
         (CompileDatabaseFound && !CommandLine.HasCompilerArgs);
}

bool needsFallbackHeaders(const ToolCommandLine &CommandLine,
                          bool CompileDatabaseFound) {
  return !leftAlone(CommandLine, CompileDatabaseFound) &&
         wantsCuda(CommandLine) &&
         !hasArgStartingWith(CommandLine.CompilerArgs, "--cuda-path");
}

bool needsNvccCompatHeader(const ToolCommandLine &CommandLine,
                           bool CompileDatabaseFound) {
  return !leftAlone(CommandLine, CompileDatabaseFound) &&
         wantsCuda(CommandLine);
}

ToolCommandLine rewriteCommandLine(ToolCommandLine CommandLine,
                                   const std::optional<CudaToolkit> &Toolkit,
                                   bool CompileDatabaseFound,
                                   llvm::StringRef FallbackDir,
                                   llvm::StringRef NvccCompatHeader) {
  if (leftAlone(CommandLine, CompileDatabaseFound))
    return CommandLine;
  std::vector<std::string> Flags;
  if (Toolkit && wantsCuda(CommandLine))
    Flags =
        cudaParseFlags(*Toolkit, CommandLine.CompilerArgs, NvccCompatHeader);
  else if (!Toolkit && !FallbackDir.empty() &&
           needsFallbackHeaders(CommandLine, CompileDatabaseFound))
    Flags = fallbackParseFlags(FallbackDir, CommandLine.CompilerArgs,
                               NvccCompatHeader);
  CommandLine.HasCompilerArgs = true;
  CommandLine.CompilerArgs.insert(CommandLine.CompilerArgs.begin(),
                                  Flags.begin(), Flags.end());
  return CommandLine;
}

ToolCommandLine withResourceDir(ToolCommandLine CommandLine,
                                llvm::StringRef ResourceDir) {
  auto SetsOne = [](const std::string &Arg) {
    return llvm::StringRef(Arg).contains("-resource-dir");
  };
  if (llvm::any_of(CommandLine.Options, SetsOne) ||
      llvm::any_of(CommandLine.CompilerArgs, SetsOne) ||
      ResourceDir.empty() || CommandLine.SourcePaths.empty())
    return CommandLine;
  CommandLine.Options.insert(
      CommandLine.Options.begin(),
      ("--extra-arg-before=-resource-dir=" + ResourceDir).str());
  return CommandLine;
}

} // namespace cuda_lambda_tidy

//===--- Launcher.cpp - cuda-lambda-tidy --------------------------------===//

#include "Launcher.h"
#include "CompileDatabase.h"
#include "NvccTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace cuda_lambda_tidy {

static std::optional<LauncherMode> modeNamed(llvm::StringRef Name) {
  if (Name == "error")
    return LauncherMode::Error;
  if (Name == "warn")
    return LauncherMode::Warn;
  if (Name == "off")
    return LauncherMode::Off;
  return std::nullopt;
}

LauncherOptions parseLauncherCommandLine(llvm::ArrayRef<std::string> Args,
                                         std::optional<std::string> EnvMode,
                                         std::optional<std::string> EnvArgs) {
  LauncherOptions Options;
  if (EnvMode && !EnvMode->empty()) {
    std::optional<LauncherMode> Mode = modeNamed(*EnvMode);
    if (!Mode) {
      Options.Error = "CUDA_LAMBDA_TIDY_LAUNCHER_MODE is '" + *EnvMode +
                      "'; expected error, warn or off";
      return Options;
    }
    Options.Mode = *Mode;
  }
  if (EnvArgs)
    Options.TidyArgs = splitCommand(*EnvArgs);
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      ++I;
      break;
    }
    if (!Arg.starts_with("-"))
      break;
    if (Arg.consume_front("--mode=")) {
      std::optional<LauncherMode> Mode = modeNamed(Arg);
      if (!Mode) {
        Options.Error = "--mode=" + Arg.str() + ": expected error, warn or off";
        return Options;
      }
      Options.Mode = *Mode;
    } else if (Arg.starts_with("--checks=")) {
      Options.TidyArgs.push_back(Arg.str());
    } else if (Arg.consume_front("--tidy-arg=")) {
      Options.TidyArgs.push_back(Arg.str());
    } else if (Arg == "--help" || Arg == "-h") {
      Options.Help = true;
      return Options;
    } else if (Arg == "--version") {
      Options.Version = true;
      return Options;
    } else {
      Options.Error = "unknown option '" + Arg.str() +
                      "' (before the compile command; --help lists them)";
      return Options;
    }
  }
  Options.Command.assign(Args.begin() + I, Args.end());
  if (Options.Command.empty())
    Options.Error = "no compile command given (--help)";
  return Options;
}

std::optional<size_t> nvccPosition(llvm::ArrayRef<std::string> Command) {
  for (size_t I = 0; I < Command.size(); ++I) {
    if (isNvccProgram(Command[I]))
      return I;
    // A launcher's own options (`sccache --foo`) or a word that is not a
    // program: the compiler comes first among the program names.
    if (llvm::StringRef(Command[I]).starts_with("-"))
      return std::nullopt;
  }
  return std::nullopt;
}

bool nvccCompilesNothing(llvm::ArrayRef<std::string> NvccArgs) {
  for (llvm::StringRef Arg : NvccArgs) {
    // nvcc takes one or two dashes and '_' for '-'.
    if (!Arg.starts_with("-"))
      continue;
    std::string Name =
        Arg.drop_front(Arg.starts_with("--") ? 2 : 1).split('=').first.str();
    std::replace(Name.begin(), Name.end(), '_', '-');
    static const char *const Modes[] = {
        "dlink", "device-link", "E",        "preprocess", "M",
        "generate-dependencies", "MM", "generate-nonsystem-dependencies",
        "lib",   "link",        "dryrun",   "version",    "V",
        "help",  "h",           "run",      "fatbin",     "cubin",
        "ptx",   "optix-ir",    "ltoir"};
    for (const char *Mode : Modes)
      if (Name == Mode)
        return true;
  }
  return false;
}

std::optional<std::string> nvccOutputOf(llvm::ArrayRef<std::string> NvccArgs,
                                        llvm::ArrayRef<std::string> Sources) {
  std::optional<std::string> Output;
  bool CompileOnly = false;
  for (size_t I = 0; I < NvccArgs.size(); ++I) {
    llvm::StringRef Arg = NvccArgs[I];
    if (!Arg.starts_with("-"))
      continue;
    auto [Name, Value] =
        Arg.drop_front(Arg.starts_with("--") ? 2 : 1).split('=');
    std::string Spelled = Name.str();
    std::replace(Spelled.begin(), Spelled.end(), '_', '-');
    if (Spelled == "c" || Spelled == "compile")
      CompileOnly = true;
    if (Spelled != "o" && Spelled != "output-file")
      continue;
    if (Arg.contains('='))
      Output = Value.str();
    else if (I + 1 < NvccArgs.size())
      Output = NvccArgs[++I];
    else
      return std::nullopt;
  }
  if (Output)
    return Output->empty() ? std::nullopt : Output;
  if (!CompileOnly || Sources.size() != 1)
    return std::nullopt;
  llvm::SmallString<128> Object(llvm::sys::path::filename(Sources.front()));
  llvm::sys::path::replace_extension(Object, ".o");
  return Object.str().str();
}

std::vector<std::string> cudaSourcesOf(llvm::ArrayRef<std::string> Inputs,
                                       bool CompiledAsCuda) {
  std::vector<std::string> Sources;
  for (const std::string &Input : Inputs) {
    llvm::StringRef Ext = llvm::sys::path::extension(Input);
    bool Binary = Ext == ".o" || Ext == ".obj" || Ext == ".a" ||
                  Ext == ".so" || Ext == ".lib" || Ext == ".dll";
    if (Ext == ".cu" || (CompiledAsCuda && !Binary && !Ext.empty()))
      Sources.push_back(Input);
  }
  return Sources;
}

std::vector<std::string>
launcherLintArgs(llvm::ArrayRef<std::string> TidyArgs) {
  std::vector<std::string> Args;
  bool ChoosesChecks = llvm::any_of(TidyArgs, [](llvm::StringRef Arg) {
    return Arg.starts_with("--checks=") || Arg.starts_with("-checks=");
  });
  if (!ChoosesChecks)
    Args.push_back("--checks=-*,cuda-*");
  Args.push_back("--quiet");
  // A build compiles each file once: precompiling its preamble too would
  // only cost time and space (PreambleCache.h).
  Args.push_back("--no-preamble-cache");
  Args.insert(Args.end(), TidyArgs.begin(), TidyArgs.end());
  return Args;
}

std::string launcherDatabase(llvm::StringRef Directory,
                             llvm::ArrayRef<std::string> Command,
                             llvm::ArrayRef<std::string> Sources) {
  llvm::json::Array Entries;
  for (const std::string &Source : Sources) {
    llvm::json::Array Arguments;
    for (const std::string &Word : Command)
      if (Word == Source || !llvm::is_contained(Sources, Word))
        Arguments.push_back(Word);
    Entries.push_back(llvm::json::Object{{"directory", Directory},
                                         {"file", Source},
                                         {"arguments", std::move(Arguments)}});
  }
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries)));
  return Text;
}

unsigned countFindings(llvm::ArrayRef<PrintedDiagnostic> Diagnostics) {
  unsigned Count = 0;
  for (const PrintedDiagnostic &D : Diagnostics)
    if ((D.Severity == "warning" || D.Severity == "error") &&
        !D.Check.empty() &&
        !llvm::StringRef(D.Check).starts_with("clang-diagnostic-") &&
        D.Check != NvccOnlySyntaxName)
      ++Count;
  return Count;
}

bool isLintChatter(llvm::StringRef Line) {
  static const llvm::Regex Chatter(
      "^([0-9]+ (warning|error)s? (and [0-9]+ (warning|error)s? )?generated\\."
      "|Suppressed [0-9]+ warnings? \\(.*\\)\\."
      "|Use -header-filter=.*)$");
  return Chatter.match(Line.rtrim());
}

std::string launcherUsage() {
  return R"(usage: cuda-lambda-tidy-launcher [OPTION...] [--] [LAUNCHER...] nvcc ARGS...

A compiler launcher: lints the CUDA source of the nvcc command with
cuda-lambda-tidy (its compile flags translated as for a compile database),
then runs the command (through any other launcher, such as ccache).

  cmake -DCMAKE_CUDA_COMPILER_LAUNCHER=cuda-lambda-tidy-launcher ...
  cmake "-DCMAKE_CUDA_COMPILER_LAUNCHER=cuda-lambda-tidy-launcher;ccache" ...

Options (before the command; the environment variable in brackets):
  --mode=error   a finding fails the compile, which is not run (default)
  --mode=warn    findings are printed, the compile runs
  --mode=off     nothing is linted          [CUDA_LAMBDA_TIDY_LAUNCHER_MODE]
  --checks=GLOB  the checks (default: -*,cuda-*)
  --tidy-arg=ARG an option for cuda-lambda-tidy / clang-tidy, repeatable
                 [CUDA_LAMBDA_TIDY_LAUNCHER_ARGS, split as a shell would]
  --version, --help

Commands that compile no CUDA source (not nvcc, device links, -E, -M, ...)
run without a lint. When clang cannot parse the file, or cuda-lambda-tidy
cannot run, the launcher warns and runs the compile.
)";
}

} // namespace cuda_lambda_tidy

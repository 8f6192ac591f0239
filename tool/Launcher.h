//===--- Launcher.h - cuda-lambda-tidy ----------------------------------===//
//
// cuda-lambda-tidy-launcher, the compiler launcher for
// CMAKE_CUDA_COMPILER_LAUNCHER: what it reads from its command line and
// environment, which words of a compile command it lints, and what of the
// lint's output counts as a finding. Plain data to data; LauncherMain.cpp
// runs the processes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_LAUNCHER_H
#define CUDA_LAMBDA_TIDY_TOOL_LAUNCHER_H

#include "TidyOutput.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The name under which the binary is the launcher (a symlink, or a copy).
constexpr const char *LauncherName = "cuda-lambda-tidy-launcher";

/// What a finding does to the compile.
enum class LauncherMode {
  Error, ///< printed; the compile fails (the command is not run)
  Warn,  ///< printed; the command runs
  Off,   ///< nothing is linted; the command runs
};

struct LauncherOptions {
  LauncherMode Mode = LauncherMode::Error;
  /// Options for the lint (cuda-lambda-tidy's and clang-tidy's), in order:
  /// CUDA_LAMBDA_TIDY_LAUNCHER_ARGS's, then `--checks=`/`--tidy-arg=`'s.
  std::vector<std::string> TidyArgs;
  /// The command to run: other launchers (ccache), the compiler, its
  /// arguments.
  std::vector<std::string> Command;
  bool Help = false;    ///< `--help`
  bool Version = false; ///< `--version`
  /// Set when the command line or the environment is malformed: the
  /// one-line message.
  std::string Error;
};

/// Reads `[OPTION...] [--] COMMAND...` (argv[0] left out). Options:
/// `--mode=error|warn|off`, `--checks=GLOB`, `--tidy-arg=ARG` (repeatable),
/// `--help`, `--version`; the first word that does not start with `-`, or
/// the one after `--`, starts the command. \p EnvMode and \p EnvArgs are the
/// values of CUDA_LAMBDA_TIDY_LAUNCHER_MODE and
/// CUDA_LAMBDA_TIDY_LAUNCHER_ARGS (split as a shell would); the command
/// line wins over them.
LauncherOptions parseLauncherCommandLine(llvm::ArrayRef<std::string> Args,
                                         std::optional<std::string> EnvMode,
                                         std::optional<std::string> EnvArgs);

/// Where the compiler of \p Command is: the first nvcc (or nvcc_wrapper)
/// after any launchers; none when the command does not run nvcc.
std::optional<size_t> nvccPosition(llvm::ArrayRef<std::string> Command);

/// Whether the nvcc arguments \p NvccArgs (argv[0] left out) do something
/// other than compile a translation unit: device link, preprocess, generate
/// dependencies only, build a library, print a version or a dry run.
bool nvccCompilesNothing(llvm::ArrayRef<std::string> NvccArgs);

/// The object file the nvcc arguments \p NvccArgs (argv[0] left out) write:
/// the value of `-o`/`--output-file` (`-o F`, `-o=F`, `--output-file=F`,
/// nvcc's `_` for `-` too), or without one, with `-c`/`--compile` and one
/// source in \p Sources, that source's name with `.o` for its extension
/// (nvcc writes it to the current directory). None when it cannot tell:
/// the launcher then lints before it compiles, so that a finding in
/// `--mode=error` leaves no object file behind.
std::optional<std::string> nvccOutputOf(llvm::ArrayRef<std::string> NvccArgs,
                                        llvm::ArrayRef<std::string> Sources);

/// Of an nvcc command's \p Inputs (TranslatedCommand::Inputs), the CUDA
/// sources to lint: `.cu` files, or with \p CompiledAsCuda (`-x cu`) every
/// input that is not an object file or a library.
std::vector<std::string> cudaSourcesOf(llvm::ArrayRef<std::string> Inputs,
                                       bool CompiledAsCuda);

/// The options of the lint: `--checks=-*,cuda-*` unless \p TidyArgs choose
/// checks, `--quiet`, then \p TidyArgs.
std::vector<std::string>
launcherLintArgs(llvm::ArrayRef<std::string> TidyArgs);

/// A compile_commands.json with one entry per source of \p Sources, each
/// the nvcc command \p Command run in \p Directory with the other sources
/// left out.
std::string launcherDatabase(llvm::StringRef Directory,
                             llvm::ArrayRef<std::string> Command,
                             llvm::ArrayRef<std::string> Sources);

/// How many of \p Diagnostics are findings: warnings and errors of a check,
/// not clang's own (`clang-diagnostic-*`, or no check name) and not
/// `nvcc-only-syntax`.
unsigned countFindings(llvm::ArrayRef<PrintedDiagnostic> Diagnostics);

/// Whether a line that the lint printed on stderr is statistics that a
/// build log does not need ("3 warnings generated.", "Suppressed 12
/// warnings (12 in non-user code).", "Use -header-filter=.* to display
/// errors from all non-system headers. ...").
bool isLintChatter(llvm::StringRef Line);

/// The launcher's --help text.
std::string launcherUsage();

/// The launcher's main (LauncherMain.cpp, part of the binary, not of this
/// library): \p Args without argv[0]; the exit status of the command, or
/// 1 when a finding fails the compile, 2 on a malformed command line.
int launcherMain(const char *Argv0, llvm::ArrayRef<std::string> Args);

} // namespace cuda_lambda_tidy

#endif

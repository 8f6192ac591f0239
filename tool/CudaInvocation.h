//===--- CudaInvocation.h - cuda-lambda-tidy ----------------------------===//
//
// From the command line a user typed to the one clang-tidy runs: plain data
// in, plain data out, no AST. Adds what clang 22 needs to parse CUDA with the
// user's toolkit when the user gave no compile flags of their own.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_CUDAINVOCATION_H
#define CUDA_LAMBDA_TIDY_TOOL_CUDAINVOCATION_H

#include "CudaToolkit.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The newest CUDA version clang 22 knows; a newer toolkit needs the
/// `-target-sdk-version` workaround on the device side.
constexpr int NewestKnownCudaMajor = 12;
constexpr int NewestKnownCudaMinor = 9;

/// The GPU architecture used when the user names none.
constexpr const char *DefaultGpuArch = "sm_80";

/// A clang-tidy command line as data, split the way clang-tidy reads it.
/// main reads the user's once (parse); the drop-in changes it with the
/// functions below and hands each child process its own; an argument
/// vector is made of it (args) only for clang-tidy's main and for a child
/// started as a new process.
struct ToolCommandLine {
  /// The options before `--`, each with its separate value (`-p DIR`), in
  /// the order given.
  std::vector<std::string> Options;
  std::vector<std::string> SourcePaths;  ///< the positional arguments
  bool HasCompilerArgs = false;          ///< whether `--` was given
  std::vector<std::string> CompilerArgs; ///< everything after `--`

  static ToolCommandLine parse(llvm::ArrayRef<std::string> Args);
  /// The options, the source paths, then `--` and the compiler arguments
  /// when given: what parse reads back as this command line.
  std::vector<std::string> args() const;
  /// Whether `-p` was given.
  bool hasBuildPath() const;
};

/// One option of ToolCommandLine::Options as clang-tidy reads it.
struct ToolOption {
  /// Without its dashes and without `=value`: "p", "checks", "fix".
  llvm::StringRef Name;
  /// The attached (`--checks=X`) or separate (`--checks X`) value; "" when
  /// none was given.
  llvm::StringRef Value;
  bool HasValue = false; ///< whether a value was given, even an empty one
  /// Where the option starts in Options, and how many elements it spans: 2
  /// where its value is the next element, else 1.
  size_t Index = 0, Size = 1;
};

/// The options in \p Options in the order given. A separate value is taken
/// with the option that takes it (clang-tidy's options with a value), so
/// `--extra-arg -p` is one option, never `-p`.
std::vector<ToolOption> toolOptionsOf(llvm::ArrayRef<std::string> Options);

/// \p Options without the options \p Drop returns true for (each with its
/// separate value).
std::vector<std::string>
optionsWithout(llvm::ArrayRef<std::string> Options,
               llvm::function_ref<bool(const ToolOption &)> Drop);

/// The value of the last option named \p Name in \p Options ("" where it
/// was given without one); nullopt when it was not given.
std::optional<std::string> lastValueOf(llvm::ArrayRef<std::string> Options,
                                       llvm::StringRef Name);

/// \p CommandLine with \p Check enabled after whatever its `--checks`
/// says (or alone in a `--checks` of its own where there is none).
ToolCommandLine withCheckEnabled(ToolCommandLine CommandLine,
                                 llvm::StringRef Check);

/// Options of cuda-lambda-tidy itself, not clang-tidy's.
struct OwnOptions {
  bool AllowPlugins = false; ///< `--allow-plugins`: keep -fplugin= & co.
  /// `--cuda-pass=device|host|both`: which side of each CUDA file to parse;
  /// "" when not given (for CUDA sources: the device pass, and the host pass
  /// where the pass probe asks for it; PassProbe.h).
  std::string CudaPass;
  /// `--format=text|sarif|github`: how findings are printed.
  std::string Format = "text";
  /// `-j N`, `-jN`, `--jobs=N`: parallel child processes over the files of a
  /// compile database (0 when not given).
  unsigned Jobs = 0;
  /// `--cuda-toolkit=none`: parse CUDA against the bundled fallback header
  /// even where a toolkit is installed (as on a machine without one).
  bool NoToolkit = false;
  /// `--cuda-lambda-tidy-request=FILE`: internal; this process is one pass
  /// of a parent cuda-lambda-tidy, which wrote what it asks to FILE
  /// (ChildRequest.h).
  std::string RequestFile;
  /// `--shard=I/N`: lint only the files of shard I (1-based) of N
  /// (Shard.h); 0 and 0 when not given.
  unsigned ShardIndex = 0, ShardCount = 0;
  /// `--cache-dir=DIR`: where the results cache lives ("" for the default,
  /// ResultsCache.h).
  std::string CacheDir;
  /// `--no-cache`: no results cache and no preamble cache in this run.
  bool NoCache = false;
  /// `--no-preamble-cache`: no preamble cache in this run (PreambleCache.h);
  /// the results cache stays.
  bool NoPreambleCache = false;
  /// `--preamble-at-first-lint`: build the preamble cache's entry at the
  /// first lint of a preamble, not the second (PreambleCache.h).
  bool PreambleAtFirstLint = false;
  /// Set when an option of ours is malformed: the one-line message.
  std::string Error;
};

/// Removes our own options from the tool options in \p Args (never from
/// the compiler arguments after `--`) and returns them.
OwnOptions takeOwnOptions(std::vector<std::string> &Args);

/// \p CommandLine with the clang flag that selects \p CudaPass ("device",
/// "host" or "" for none) given to clang-tidy as `--extra-arg`.
ToolCommandLine withCudaPass(ToolCommandLine CommandLine,
                             llvm::StringRef CudaPass);

/// The value of `-p` in the tool options \p Options (`-p DIR`, `-p=DIR`,
/// `--p=DIR`), if any.
std::optional<std::string> buildPathOf(llvm::ArrayRef<std::string> Options);

/// \p CommandLine with its `-p` value replaced by \p BuildPath (or, where
/// it has none, `-p BuildPath` added), and \p ExtraSources appended as
/// sources.
ToolCommandLine withBuildPath(ToolCommandLine CommandLine,
                              llvm::StringRef BuildPath,
                              llvm::ArrayRef<std::string> ExtraSources);

/// Removes `--export-fixes F` / `--export-fixes=F` from the options of
/// \p CommandLine and returns F ("" when not given).
std::string takeExportFixes(ToolCommandLine &CommandLine);

/// Whether the tool options \p Options ask clang-tidy to apply fixes
/// (`--fix`, `--fix-errors`, `--fix-notes`).
bool asksForFixes(llvm::ArrayRef<std::string> Options);

/// Whether the tool options \p Options ask for information instead of
/// linting (`--list-checks`, `--dump-config`, `--explain-config`,
/// `--verify-config`, `--help`, `--version`).
bool asksForInformation(llvm::ArrayRef<std::string> Options);

/// `.cu` and `.cuh` files.
bool isCudaSourcePath(llvm::StringRef Path);

/// The language named by the last `-x` in \p CompilerArgs, or "".
std::string explicitLanguage(llvm::ArrayRef<std::string> CompilerArgs);

/// The flags clang 22 needs to parse CUDA with \p Toolkit, leaving out any
/// the user already chose in \p UserArgs. Prepended, so the user's flags
/// also win on anything both set. With \p NvccCompatHeader (the path of the
/// nvcc-compatibility layer, FallbackHeaders.h), it is force-included.
std::vector<std::string> cudaParseFlags(const CudaToolkit &Toolkit,
                                        llvm::ArrayRef<std::string> UserArgs,
                                        llvm::StringRef NvccCompatHeader = "");

/// The flags clang 22 needs to parse CUDA without a toolkit, against the
/// bundled fallback headers written to \p FallbackDir (FallbackHeaders.h),
/// leaving out any the user already chose in \p UserArgs; with
/// \p NvccCompatHeader, it is force-included after the fallback header.
std::vector<std::string>
fallbackParseFlags(llvm::StringRef FallbackDir,
                   llvm::ArrayRef<std::string> UserArgs,
                   llvm::StringRef NvccCompatHeader = "");

/// The command line to hand to clang-tidy's main for \p CommandLine.
/// \p CompileDatabaseFound says whether clang-tidy would find a
/// compile_commands.json for the sources by itself; then, as with `-p`, the
/// command line is left alone. Without \p Toolkit, CUDA sources are parsed
/// against the fallback headers in \p FallbackDir (when it is not empty).
/// Either way \p NvccCompatHeader, when not empty, is force-included.
ToolCommandLine rewriteCommandLine(ToolCommandLine CommandLine,
                                   const std::optional<CudaToolkit> &Toolkit,
                                   bool CompileDatabaseFound,
                                   llvm::StringRef FallbackDir = "",
                                   llvm::StringRef NvccCompatHeader = "");

/// Whether rewriteCommandLine, given no toolkit, parses \p CommandLine
/// against the fallback headers: it lints CUDA sources, and the compiler
/// arguments name no toolkit (`--cuda-path`) of their own.
bool needsFallbackHeaders(const ToolCommandLine &CommandLine,
                          bool CompileDatabaseFound);

/// Whether rewriteCommandLine may set up a CUDA parse for \p CommandLine,
/// and so wants the nvcc-compatibility layer written: it lints CUDA sources
/// with no compile database.
bool needsNvccCompatHeader(const ToolCommandLine &CommandLine,
                           bool CompileDatabaseFound);

/// \p CommandLine with clang's resource directory (builtin headers and the
/// CUDA wrapper headers) set to \p ResourceDir for every compile command,
/// unless the user set one. Our binary does not live next to clang's
/// resources, so clang's guess from the executable's path would be wrong.
ToolCommandLine withResourceDir(ToolCommandLine CommandLine,
                                llvm::StringRef ResourceDir);

} // namespace cuda_lambda_tidy

#endif

//===--- CompileDatabase.h - cuda-lambda-tidy ---------------------------===//
//
// A compile_commands.json in, the one clang-tidy reads out: every nvcc entry
// translated to clang, plugin-loading flags removed, and an entry borrowed
// from the nearest one for each file to lint that the database lacks. Plain
// data to data; the caller reads and writes the files.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_COMPILEDATABASE_H
#define CUDA_LAMBDA_TIDY_TOOL_COMPILEDATABASE_H

#include "CudaInvocation.h"
#include "NvccTranslation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// A file to lint that the database has no entry for, and the entry whose
/// command it was given (borrowEntry).
struct BorrowedCommand {
  std::string File; ///< absolute, as given in the Linted list
  std::string From; ///< the "file" of the entry borrowed, as written there
};

struct DatabaseTranslation {
  std::string Json;                  ///< the translated compile_commands.json
  /// About the entries of the files linted (translateCompileDatabase's
  /// \p Linted, or every CUDA entry when it is empty): one line each, no
  /// repeats.
  std::vector<std::string> Warnings;
  /// The same lines by entry: the absolute file of each entry (borrowed ones
  /// included) to the lines about its command, in order, no repeats.
  llvm::StringMap<std::vector<std::string>> FileWarnings;
  /// The files of \p Linted given a borrowed entry, in that order.
  std::vector<BorrowedCommand> Borrowed;
  /// The files of the CUDA entries (`.cu`, or `-x cu`/`-x cuda`), absolute,
  /// each once, in database order.
  std::vector<std::string> CudaFiles;
  unsigned NvccEntries = 0;
  /// The first nvcc (as written) of an entry parsed against the fallback
  /// headers because it has no toolkit; "" when there is none.
  std::string FallbackNvcc;
};

/// Translates the compile database \p JsonText. Unless \p AllowPlugins,
/// flags that load code into the tool are removed from every entry, with a
/// warning. Fails, with a one-line message, on malformed JSON, on an entry
/// without directory, file and command or arguments, and on an empty
/// database.
///
/// \p Linted: the files about to be linted, absolute, dots removed (empty:
/// the database's CUDA entries, as `-p` without files lints them). Warnings
/// are about their entries only. Each source among them (shouldBorrow) that
/// has no entry (none for its path, nor for the same file reached through a
/// symbolic link: the one place this reads the file system) gets one,
/// appended: the untranslated command of the nearest
/// entry (nearestEntry) with the file substituted (borrowEntry), then
/// translated like any entry, so that a borrowed nvcc command becomes the
/// clang command nvcc's would.
llvm::Expected<DatabaseTranslation>
translateCompileDatabase(llvm::StringRef JsonText, const NvccEnvironment &Env,
                         bool AllowPlugins,
                         llvm::ArrayRef<std::string> Linted = {});

/// How nvcc commands are translated on this machine: the toolkit each nvcc
/// belongs to (none with \p NoToolkit, `--cuda-toolkit=none`), options
/// files read from disk. The caller sets FallbackDir and NvccCompatHeader.
NvccEnvironment realNvccEnvironment(bool NoToolkit);

/// One entry of a compile database, as written (not translated).
struct CompileEntry {
  std::string Directory;
  std::string File;         ///< as written
  std::string AbsoluteFile; ///< Directory/File, dots removed
  std::vector<std::string> Arguments;
  std::optional<std::string> Output;
};

/// The entries of the compile database \p JsonText; fails as
/// translateCompileDatabase does.
llvm::Expected<std::vector<CompileEntry>>
parseCompileDatabase(llvm::StringRef JsonText);

/// Where an entry is and what it compiles, for nearestEntry.
struct EntryPlace {
  std::string AbsoluteFile;
  bool IsCuda = false; ///< compiled as CUDA (`.cu`, `-x cu`, nvcc_wrapper)
};

/// Whether a file the database lacks gets a borrowed entry: a C, C++ or
/// CUDA source or a `.cuh` by its extension. Other headers are left to
/// clang-tidy's and clangd's own inference, as before.
bool shouldBorrow(llvm::StringRef File);

/// The entry of \p Entries whose command \p File (absolute, not among them)
/// borrows, as clang's interpolating compilation database chooses one: of
/// the entries of the same language — compiled as CUDA for a `.cu` or `.cuh`
/// file; of the same extension, or a host entry of the same language, for
/// another — if there is any, the one whose directory shares the most
/// components with \p File's, then the one with the fewest directories
/// below those (its own directory first), then the smallest path, then the
/// first. std::nullopt when \p Entries is empty.
std::optional<size_t> nearestEntry(llvm::ArrayRef<EntryPlace> Entries,
                                   llvm::StringRef File);

/// \p From with its source replaced by \p File (absolute): every word of
/// the command naming From's file becomes \p File (appended when none
/// does). A `.cuh` borrowing a CUDA command gets the language said (`-x cu`
/// for nvcc, `-x cuda` otherwise) unless the command says one.
CompileEntry borrowEntry(const CompileEntry &From, llvm::StringRef File,
                         bool FromIsCuda);

/// The line that says \p File borrowed the command of \p From.
std::string borrowedNote(llvm::StringRef File, llvm::StringRef From);

/// Splits a compile database's "command" string as clang's JSON database
/// does on POSIX systems (shell-like quotes and backslashes).
std::vector<std::string> splitCommand(llvm::StringRef Command);

/// The directory of the compile database clang-tidy will use for
/// \p CommandLine (`-p`, or the nearest compile_commands.json above its
/// first source), or "" when there is none or flags follow `--`.
std::string databaseDirOf(const ToolCommandLine &CommandLine);

/// The files of the compile database that \p CommandLine lints when it
/// names none (for the configuration they read), else nothing. Reads
/// quietly: a malformed database is reported later, once.
std::vector<std::string> databaseSourcesOf(const ToolCommandLine &CommandLine);

/// The CUDA files of the compile database in \p DatabaseDir, translated as
/// a lint of it will translate them; empty, with the message in \p Error,
/// when the database is unusable or has no CUDA entry.
std::vector<std::string> databaseCudaFiles(llvm::StringRef DatabaseDir,
                                           bool NoToolkit, bool AllowPlugins,
                                           std::string &Error);

} // namespace cuda_lambda_tidy

#endif

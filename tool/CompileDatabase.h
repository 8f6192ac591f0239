//===--- CompileDatabase.h - cuda-lambda-tidy ---------------------------===//
//
// A compile_commands.json in, the one clang-tidy reads out: every nvcc entry
// translated to clang, plugin-loading flags removed. Plain data to data; the
// caller reads and writes the files.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_COMPILEDATABASE_H
#define CUDA_LAMBDA_TIDY_TOOL_COMPILEDATABASE_H

#include "NvccTranslation.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

struct DatabaseTranslation {
  std::string Json;                  ///< the translated compile_commands.json
  std::vector<std::string> Warnings; ///< one line each, no repeats
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
llvm::Expected<DatabaseTranslation>
translateCompileDatabase(llvm::StringRef JsonText, const NvccEnvironment &Env,
                         bool AllowPlugins);

/// Splits a compile database's "command" string as clang's JSON database
/// does on POSIX systems (shell-like quotes and backslashes).
std::vector<std::string> splitCommand(llvm::StringRef Command);

} // namespace cuda_lambda_tidy

#endif

//===--- CompileDatabaseFuzzer.cpp - cuda-lambda-tidy -------------------===//
//
// libFuzzer target for the compile-database reader: the input is the text of
// a compile_commands.json. Every entry goes through the nvcc translator, so
// nvcc command lines inside JSON strings are exercised too; an
// `--options-file` reads the input itself again. Built only with
// -DCUDA_LAMBDA_TIDY_FUZZ=ON, by clang++-22 (fuzz/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "FuzzEnvironment.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace cuda_lambda_tidy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  NvccEnvironment Env = fuzzEnvironment(Text);

  (void)splitCommand(Text);
  for (bool AllowPlugins : {false, true}) {
    llvm::Expected<DatabaseTranslation> T =
        translateCompileDatabase(Text, Env, AllowPlugins);
    if (!T) {
      // Every refusal is one line, for the tool's one-line error.
      std::string Message = llvm::toString(T.takeError());
      if (Message.empty() || Message.find('\n') != std::string::npos)
        __builtin_trap();
      continue;
    }
    // What clang-tidy will read back must itself be a JSON array.
    llvm::Expected<llvm::json::Value> Out = llvm::json::parse(T->Json);
    if (!Out || !Out->getAsArray())
      __builtin_trap();
  }
  return 0;
}

//===--- NvccTranslationFuzzer.cpp - cuda-lambda-tidy -------------------===//
//
// libFuzzer target for the nvcc command-line translator. The input is an nvcc
// command line, one argument per line (argv[0], nvcc, is added). Any
// `--options-file` reads the input itself again, so option files that name
// themselves are exercised too. Built only with
// -DCUDA_LAMBDA_TIDY_FUZZ=ON, by clang++-22 (fuzz/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "FuzzEnvironment.h"
#include "NvccTranslation.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace cuda_lambda_tidy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Command{"/usr/local/cuda/bin/nvcc"};
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    Command.push_back(Line.str());

  NvccEnvironment Env = fuzzEnvironment(Text);

  (void)isNvccCommand(Command);
  for (const std::string &Arg : Command)
    (void)gpuArchOf(Arg);
  TranslatedCommand T = translateNvccCommand(Command, "/work/build", Env);
  std::vector<std::string> Args = T.Arguments;
  (void)stripPluginFlags(Args);
  // Without a launcher, the result is a clang command line: never empty.
  if (T.Arguments.empty())
    __builtin_trap();
  return 0;
}

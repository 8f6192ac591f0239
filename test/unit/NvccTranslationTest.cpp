#include "NvccTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "gtest/gtest.h"
#include <map>

using namespace cuda_lambda_tidy;
using Args = std::vector<std::string>;

namespace {

std::map<std::string, std::string> Files;

NvccEnvironment testEnv() {
  NvccEnvironment Env;
  Env.ReadFile = [](llvm::StringRef Path) -> std::optional<std::string> {
    auto It = Files.find(Path.str());
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
  Env.ToolkitOf = [](llvm::StringRef Nvcc) -> std::optional<CudaToolkit> {
    if (Nvcc.starts_with("/opt/cuda-12.8/"))
      return CudaToolkit{"/opt/cuda-12.8", 12, 8};
    if (Nvcc == "/nowhere/nvcc")
      return std::nullopt;
    return CudaToolkit{"/usr/local/cuda", 13, 0};
  };
  return Env;
}

Args split(llvm::StringRef CommandLine) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine(CommandLine, Saver, Tokens);
  return Args(Tokens.begin(), Tokens.end());
}

TranslatedCommand translate(llvm::StringRef CommandLine,
                            llvm::StringRef Directory = "/build") {
  return translateNvccCommand(split(CommandLine), Directory, testEnv());
}

/// Whether \p Needle occurs in \p Haystack as consecutive elements.
bool has(const Args &Haystack, const Args &Needle) {
  return std::search(Haystack.begin(), Haystack.end(), Needle.begin(),
                     Needle.end()) != Haystack.end();
}

bool hasPrefix(const Args &Haystack, llvm::StringRef Prefix) {
  return std::any_of(Haystack.begin(), Haystack.end(),
                     [&](const std::string &A) {
                       return llvm::StringRef(A).starts_with(Prefix);
                     });
}

int count(const Args &Haystack, llvm::StringRef Arg) {
  return std::count(Haystack.begin(), Haystack.end(), Arg.str());
}

std::string joined(const Args &A) {
  std::string S;
  for (const std::string &Arg : A)
    S += Arg + " ";
  return S;
}

TEST(NvccTranslationTest, RecognizesNvcc) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc"}));
  EXPECT_TRUE(isNvccCommand({"C:/CUDA/bin/nvcc.exe"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/clang++", "-x", "cuda", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/ccache", "g++"}));
  EXPECT_FALSE(isNvccCommand({}));
  EXPECT_TRUE(isNvccCommand({"/src/kokkos/bin/nvcc_wrapper", "-c", "a.cpp"}));
  EXPECT_TRUE(isNvccCommand({"ccache", "/src/kokkos/bin/nvcc_wrapper"}));
  EXPECT_FALSE(isNvccCommand({"/src/kokkos/bin/nvcc_wrapper.bak"}));
}

// Kokkos's nvcc_wrapper, as CMake writes it into a compile database with
// Kokkos_ENABLE_CUDA: a host compiler's command line for a .cpp file.
TEST(NvccTranslationTest, NvccWrapperRunsNvccOnItsSourcesAsCuda) {
  Args Wrapper = split(
      "-DKOKKOS_DEPENDENCE -I/k/core/src -isystem /k/tpls/gtest -O3 "
      "-DNDEBUG -std=gnu++17 -extended-lambda -Wext-lambda-captures-this "
      "-arch=sm_80 -fPIC -Wall -MD -MT a.o -MF a.o.d -o a.o -c /k/a.cpp");
  Args Nvcc = nvccCommandOfWrapper(Wrapper);
  EXPECT_EQ(Nvcc.front(), "nvcc");
  EXPECT_TRUE(has(Nvcc, {"-x", "cu", "/k/a.cpp"})) << joined(Nvcc);
  EXPECT_TRUE(has(Nvcc, {"-extended-lambda"}));
  EXPECT_TRUE(has(Nvcc, {"-arch=sm_80"}));
  EXPECT_TRUE(has(Nvcc, {"-std=c++17"})); // nvcc takes no GNU dialects
  EXPECT_TRUE(has(Nvcc, {"-Xcompiler", "-isystem,/k/tpls/gtest,-fPIC,-Wall"}))
      << joined(Nvcc);
  EXPECT_EQ(count(Nvcc, "-MF"), 0);

  Args Command = {"/k/bin/nvcc_wrapper"};
  Command.insert(Command.end(), Wrapper.begin(), Wrapper.end());
  TranslatedCommand T = translateNvccCommand(Command, "/build", testEnv());
  EXPECT_TRUE(T.IsCuda);
  EXPECT_TRUE(T.ExtendedLambda);
  EXPECT_EQ(T.GpuArch, "sm_80");
  EXPECT_TRUE(has(T.Arguments, {"-x", "cuda"})) << joined(T.Arguments);
  EXPECT_TRUE(has(T.Arguments, {"-isystem", "/k/tpls/gtest"}))
      << joined(T.Arguments);
  EXPECT_TRUE(has(T.Arguments, {"-I/k/core/src"}));
  EXPECT_TRUE(has(T.Arguments, {"/k/a.cpp"}));
  EXPECT_TRUE(T.UnknownFlags.empty()) << joined(T.UnknownFlags);
}

// | -Xcompiler=-Werror, -Werror=x, -pedantic-errors, -Wfatal-errors | dropped: gcc's warnings are not clang's |
TEST(NvccTranslationTest, HostWarningsAsErrorsAreDropped) {
  TranslatedCommand T = translate("nvcc -Xcompiler=-Wall,-Werror,-Werror=shadow "
                                  "-Xcompiler -pedantic-errors,-Wfatal-errors "
                                  "-c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-Wall"})) << joined(T.Arguments);
  EXPECT_FALSE(hasPrefix(T.Arguments, "-Werror")) << joined(T.Arguments);
  EXPECT_EQ(count(T.Arguments, "-pedantic-errors"), 0);
  EXPECT_EQ(count(T.Arguments, "-Wfatal-errors"), 0);
  EXPECT_TRUE(T.UnknownFlags.empty()) << joined(T.UnknownFlags);
}

// | -Xcompiler -isystem,/p (a host flag and its value as two words) | kept together |
TEST(NvccTranslationTest, HostFlagsKeepTheirSeparateValues) {
  TranslatedCommand T = translate(
      "nvcc -Xcompiler -isystem,/usr/include/x,-fPIC,-include,pre.h -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-isystem", "/usr/include/x", "-fPIC",
                                "-include", "pre.h"}))
      << joined(T.Arguments);
  EXPECT_TRUE(T.UnknownFlags.empty()) << joined(T.UnknownFlags);
  // A flag whose value is missing is still dropped, not given the next flag.
  T = translate("nvcc -Xcompiler -fPIC,-isystem -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-fPIC", "-c"})) << joined(T.Arguments);
  EXPECT_EQ(T.UnknownFlags, Args{"-isystem"});
}

// | …/nvcc as the compiler | clang's driver with --cuda-path of that toolkit |
TEST(NvccTranslationTest, NvccBecomesClangWithItsToolkit) {
  TranslatedCommand T = translate("/opt/cuda-12.8/bin/nvcc -c a.cu");
  EXPECT_EQ(T.Arguments.front(), "clang++");
  EXPECT_TRUE(has(T.Arguments, {"--cuda-path=/opt/cuda-12.8"}));
  EXPECT_TRUE(has(T.Arguments, {"-x", "cuda"}));
  EXPECT_TRUE(has(T.Arguments, {"-nocudalib"}));
  EXPECT_TRUE(T.IsCuda);
  // 12.8 is known to clang 22: no workarounds, no cccl.
  EXPECT_FALSE(hasPrefix(T.Arguments, "-Wno-unknown-cuda-version"));
  EXPECT_FALSE(has(T.Arguments, {"-isystem", "/opt/cuda-12.8/include/cccl"}));
  EXPECT_TRUE(T.UnknownFlags.empty());
  EXPECT_TRUE(T.Problems.empty());
}

TEST(NvccTranslationTest, LauncherIsDropped) {
  TranslatedCommand T =
      translate("/usr/bin/ccache /usr/local/cuda/bin/nvcc -c a.cu -o a.o");
  EXPECT_EQ(T.Arguments.front(), "clang++");
  EXPECT_EQ(count(T.Arguments, "/usr/bin/ccache"), 0);
  EXPECT_EQ(count(T.Arguments, "/usr/local/cuda/bin/nvcc"), 0);
  EXPECT_TRUE(has(T.Arguments, {"a.cu"}));
}

TEST(NvccTranslationTest, NoToolkitIsAProblemNotAFailure) {
  TranslatedCommand T = translate("/nowhere/nvcc -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-x", "cuda"}));
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_EQ(T.Problems[0], "no CUDA toolkit found for '/nowhere/nvcc'");
}

TEST(NvccTranslationTest, NoToolkitParsesAgainstTheFallback) {
  NvccEnvironment Env = testEnv();
  Env.FallbackDir = "/tmp/fb";
  TranslatedCommand T = translateNvccCommand(
      split("/nowhere/nvcc -arch=sm_90 --extended-lambda -c a.cu"), "/build",
      Env);
  EXPECT_TRUE(T.UsesFallback);
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(count(T.Arguments, "-x"), 1);
  EXPECT_TRUE(has(T.Arguments, {"--cuda-path=/tmp/fb", "-nocudainc"}));
  EXPECT_TRUE(has(T.Arguments, {"-include", "cuda_lambda_tidy_fallback.h"}));
  // nvcc's architecture, not the default one.
  EXPECT_EQ(count(T.Arguments, "--cuda-gpu-arch=sm_90"), 1);
  EXPECT_FALSE(hasPrefix(T.Arguments, "--cuda-gpu-arch=sm_80"));
  // A toolkit found: no fallback, whatever the environment offers.
  TranslatedCommand WithToolkit = translateNvccCommand(
      split("/usr/local/cuda/bin/nvcc -c a.cu"), "/build", Env);
  EXPECT_FALSE(WithToolkit.UsesFallback);
  EXPECT_FALSE(hasPrefix(WithToolkit.Arguments, "--cuda-path=/tmp/fb"));
  // Not CUDA: no CUDA flags at all.
  TranslatedCommand Host =
      translateNvccCommand(split("/nowhere/nvcc -c h.cpp"), "/build", Env);
  EXPECT_FALSE(Host.UsesFallback);
  EXPECT_EQ(count(Host.Arguments, "-nocudainc"), 0);
}

// | (every CUDA command) | -include <run dir>/cuda_lambda_tidy_nvcc_compat.h |
TEST(NvccTranslationTest, NvccCompatHeaderInEveryCudaCommand) {
  NvccEnvironment Env = testEnv();
  Env.NvccCompatHeader = "/tmp/run/cuda_lambda_tidy_nvcc_compat.h";
  Env.FallbackDir = "/tmp/run/fallback";
  const Args Include = {"-include", Env.NvccCompatHeader};
  for (const char *Command :
       {"/usr/local/cuda/bin/nvcc -c a.cu", "/opt/cuda-12.8/bin/nvcc -c a.cu",
        "/usr/bin/ccache nvcc -x cu -c a.cpp -include pre.h",
        "/nowhere/nvcc --extended-lambda -c a.cu"}) {
    TranslatedCommand T = translateNvccCommand(split(Command), "/build", Env);
    EXPECT_TRUE(T.IsCuda) << Command;
    EXPECT_EQ(count(T.Arguments, Env.NvccCompatHeader), 1)
        << joined(T.Arguments);
    EXPECT_TRUE(has(T.Arguments, Include)) << joined(T.Arguments);
  }
  // After the fallback header, where there is no toolkit.
  TranslatedCommand FB =
      translateNvccCommand(split("/nowhere/nvcc -c a.cu"), "/build", Env);
  auto Fallback = std::find(FB.Arguments.begin(), FB.Arguments.end(),
                            "cuda_lambda_tidy_fallback.h");
  auto Compat =
      std::find(FB.Arguments.begin(), FB.Arguments.end(), Env.NvccCompatHeader);
  EXPECT_LT(Fallback, Compat);
  // Before the user's own -include, which nvcc also reads after its own
  // headers.
  TranslatedCommand Pre =
      translateNvccCommand(split("nvcc -include pre.h -c a.cu"), "/build", Env);
  auto Theirs = std::find(Pre.Arguments.begin(), Pre.Arguments.end(), "pre.h");
  auto Ours = std::find(Pre.Arguments.begin(), Pre.Arguments.end(),
                        Env.NvccCompatHeader);
  EXPECT_LT(Ours, Theirs);
  // Not CUDA: not included.
  TranslatedCommand Host =
      translateNvccCommand(split("nvcc -c h.cpp"), "/build", Env);
  EXPECT_EQ(count(Host.Arguments, Env.NvccCompatHeader), 0);
  // No layer written: nothing included.
  TranslatedCommand Plain = translate("nvcc -c a.cu");
  EXPECT_FALSE(hasPrefix(Plain.Arguments, "/tmp/run/"));
}

// | -x cu | -x cuda |
TEST(NvccTranslationTest, LanguageCu) {
  TranslatedCommand T = translate("nvcc -c k.cpp -x cu");
  EXPECT_TRUE(T.IsCuda);
  // Before the input, wherever nvcc had it, and only once.
  auto X = std::find(T.Arguments.begin(), T.Arguments.end(), "-x");
  auto Input = std::find(T.Arguments.begin(), T.Arguments.end(), "k.cpp");
  ASSERT_NE(X, T.Arguments.end());
  EXPECT_LT(X, Input);
  EXPECT_EQ(*(X + 1), "cuda");
  EXPECT_EQ(count(T.Arguments, "-x"), 1);
  EXPECT_EQ(count(T.Arguments, "cu"), 0);
}

TEST(NvccTranslationTest, HostSourcesStayHost) {
  TranslatedCommand T = translate("nvcc -c host.cpp -o host.o");
  EXPECT_FALSE(T.IsCuda);
  EXPECT_EQ(count(T.Arguments, "-x"), 0);
  EXPECT_FALSE(hasPrefix(T.Arguments, "--cuda-path"));
  TranslatedCommand C = translate("nvcc -x c++ -c k.cu");
  EXPECT_FALSE(C.IsCuda);
  EXPECT_TRUE(has(C.Arguments, {"-x", "c++"}));
}

// | -arch=sm_XX, --gpu-architecture, -gencode, --generate-code, -code |
TEST(NvccTranslationTest, ArchSpellings) {
  EXPECT_EQ(translate("nvcc -arch=sm_86 -c a.cu").GpuArch, "sm_86");
  EXPECT_EQ(translate("nvcc -arch sm_75 -c a.cu").GpuArch, "sm_75");
  EXPECT_EQ(translate("nvcc --gpu-architecture=compute_90 -c a.cu").GpuArch,
            "sm_90");
  EXPECT_EQ(translate("nvcc --gpu-architecture sm_90a -c a.cu").GpuArch,
            "sm_90a");
  EXPECT_EQ(
      translate("nvcc -gencode arch=compute_80,code=sm_86 -c a.cu").GpuArch,
      "sm_80");
  EXPECT_EQ(translate("nvcc --generate-code=arch=compute_89,code=[compute_89,"
                      "sm_89] -c a.cu")
                .GpuArch,
            "sm_89");
  EXPECT_EQ(translate("nvcc -code=sm_75,compute_75 -c a.cu").GpuArch, "sm_75");
  TranslatedCommand T = translate("nvcc -arch=sm_86 -c a.cu");
  EXPECT_EQ(count(T.Arguments, "--cuda-gpu-arch=sm_86"), 1);
  EXPECT_FALSE(has(T.Arguments, {"--cuda-gpu-arch=sm_80"}));
  EXPECT_FALSE(hasPrefix(T.Arguments, "-arch"));
  EXPECT_FALSE(hasPrefix(T.Arguments, "-gencode"));
}

TEST(NvccTranslationTest, SeveralArchsGiveTheLowest) {
  TranslatedCommand T = translate(
      "nvcc --generate-code=arch=compute_90,code=[compute_90,sm_90] "
      "--generate-code=arch=compute_80,code=[compute_80,sm_80] -c a.cu");
  EXPECT_EQ(T.GpuArch, "sm_80");
  EXPECT_EQ(count(T.Arguments, "--cuda-gpu-arch=sm_80"), 1);
  EXPECT_FALSE(has(T.Arguments, {"--cuda-gpu-arch=sm_90"}));
  // The virtual architecture decides __CUDA_ARCH__, not the real one.
  EXPECT_EQ(translate("nvcc -arch=compute_90 -code=sm_75 -c a.cu").GpuArch,
            "sm_90");
  EXPECT_EQ(translate("nvcc -arch=sm_90a -arch=sm_90 -c a.cu").GpuArch,
            "sm_90");
}

TEST(NvccTranslationTest, UnnamedArchGivesTheDefault) {
  TranslatedCommand T = translate("nvcc -arch=native -c a.cu");
  EXPECT_EQ(T.GpuArch, "");
  EXPECT_EQ(count(T.Arguments, "--cuda-gpu-arch=sm_80"), 1);
  EXPECT_EQ(gpuArchOf("all-major"), "");
  EXPECT_EQ(gpuArchOf("lto_90"), "sm_90");
  EXPECT_EQ(gpuArchOf("sm_"), "");
}

// | -Xcompiler=a,b, -Xcompiler a, --compiler-options | unwrapped |
TEST(NvccTranslationTest, HostOptionsAreUnwrapped) {
  TranslatedCommand T = translate("nvcc -Xcompiler=-fPIC,-Wall -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-fPIC", "-Wall"}));
  T = translate("nvcc -Xcompiler -fopenmp -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-fopenmp"}));
  EXPECT_EQ(count(T.Arguments, "-Xcompiler"), 0);
  T = translate("nvcc --compiler-options -Wextra,-Wshadow -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-Wextra", "-Wshadow"}));
  T = translate("nvcc --compiler-options=-O2 -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-O2"}));
  // nvcc hands the value to the host compiler's command line: "-DA=3 -DB=4"
  // defines both.
  T = translate("nvcc -Xcompiler \"-DA=3 -DB=4\" -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-DA=3", "-DB=4"})) << joined(T.Arguments);
}

// | --extended-lambda, --expt-extended-lambda | -D__CUDACC_EXTENDED_LAMBDA__=1 |
TEST(NvccTranslationTest, ExtendedLambda) {
  for (const char *Flag : {"--extended-lambda", "--expt-extended-lambda",
                           "-extended-lambda", "-expt-extended-lambda"}) {
    TranslatedCommand T =
        translate(std::string("nvcc ") + Flag + " -c a.cu");
    EXPECT_TRUE(T.ExtendedLambda) << Flag;
    EXPECT_EQ(count(T.Arguments, "-D__CUDACC_EXTENDED_LAMBDA__=1"), 1) << Flag;
    EXPECT_EQ(count(T.Arguments, Flag), 0) << Flag;
  }
  TranslatedCommand T = translate("nvcc -c a.cu");
  EXPECT_FALSE(T.ExtendedLambda);
  EXPECT_EQ(count(T.Arguments, "-D__CUDACC_EXTENDED_LAMBDA__=1"), 0);
}

TEST(NvccTranslationTest, FromNvccMarkerOnEveryEntry) {
  EXPECT_EQ(count(translate("nvcc -c a.cu").Arguments,
                  "-D__CUDA_LAMBDA_TIDY_FROM_NVCC__=1"),
            1);
  EXPECT_EQ(count(translate("nvcc -c a.cpp").Arguments,
                  "-D__CUDA_LAMBDA_TIDY_FROM_NVCC__=1"),
            1);
}

// | --expt-relaxed-constexpr | -D__CUDACC_RELAXED_CONSTEXPR__=1 |
TEST(NvccTranslationTest, RelaxedConstexpr) {
  TranslatedCommand T = translate("nvcc --expt-relaxed-constexpr -c a.cu");
  EXPECT_EQ(count(T.Arguments, "-D__CUDACC_RELAXED_CONSTEXPR__=1"), 1);
  EXPECT_EQ(count(T.Arguments, "--expt-relaxed-constexpr"), 0);
}

// | -rdc=true, --relocatable-device-code=true, -dc | -fgpu-rdc
// -D__CUDACC_RDC__=1 |
TEST(NvccTranslationTest, RelocatableDeviceCode) {
  for (const char *Line :
       {"nvcc -rdc=true -c a.cu", "nvcc -rdc true -c a.cu",
        "nvcc --relocatable-device-code=true -c a.cu", "nvcc -dc a.cu"}) {
    TranslatedCommand T = translate(Line);
    EXPECT_EQ(count(T.Arguments, "-fgpu-rdc"), 1) << Line;
    // What nvcc defines with -rdc=true, and cub reads; clang does not.
    EXPECT_EQ(count(T.Arguments, "-D__CUDACC_RDC__=1"), 1) << Line;
    EXPECT_EQ(count(T.Arguments, "-c"), 1) << Line;
    EXPECT_FALSE(hasPrefix(T.Arguments, "-rdc")) << Line;
  }
  EXPECT_EQ(count(translate("nvcc -rdc=false -c a.cu").Arguments, "-fgpu-rdc"),
            0);
  EXPECT_EQ(count(translate("nvcc -dw a.cu").Arguments, "-fgpu-rdc"), 0);
  EXPECT_FALSE(hasPrefix(translate("nvcc -rdc=false -c a.cu").Arguments,
                         "-D__CUDACC_RDC__"));
  EXPECT_FALSE(hasPrefix(translate("nvcc -rdc=true -c h.cpp").Arguments,
                         "-D__CUDACC_RDC__"));
}

// | --options-file F | expanded (relative to the entry's directory) |
TEST(NvccTranslationTest, OptionsFileIsExpanded) {
  Files["/build/CMakeFiles/x.dir/includes_CUDA.rsp"] =
      "-I\"/src/with space/include\" -isystem=/usr/include/x\n-DFROM_RSP";
  TranslatedCommand T = translate(
      "nvcc --options-file CMakeFiles/x.dir/includes_CUDA.rsp -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-I/src/with space/include", "-isystem",
                                "/usr/include/x", "-DFROM_RSP"}))
      << joined(T.Arguments);
  EXPECT_EQ(count(T.Arguments, "--options-file"), 0);
  T = translate("nvcc -optf=/build/CMakeFiles/x.dir/includes_CUDA.rsp -c a.cu",
                "/elsewhere");
  EXPECT_TRUE(has(T.Arguments, {"-DFROM_RSP"}));
}

TEST(NvccTranslationTest, UnreadableOptionsFileIsAProblem) {
  TranslatedCommand T = translate("nvcc --options-file missing.rsp -c a.cu");
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_EQ(T.Problems[0],
            "cannot read nvcc options file '/build/missing.rsp'");
  EXPECT_TRUE(has(T.Arguments, {"a.cu"}));
}

TEST(NvccTranslationTest, OptionsFilesCannotRecurseForever) {
  Files["/build/loop.rsp"] = "--options-file loop.rsp -DLOOPED";
  TranslatedCommand T = translate("nvcc --options-file loop.rsp -c a.cu");
  EXPECT_FALSE(T.Problems.empty());
}

// A file that names itself many times would be read k^8 times through the
// nesting cap alone (found by the fuzzer); the total is capped as well.
TEST(NvccTranslationTest, OptionsFilesThatFanOutAreCapped) {
  Files["/build/fan.rsp"] = "--options-file fan.rsp --options-file fan.rsp "
                            "--options-file fan.rsp --options-file fan.rsp "
                            "--options-file fan.rsp --options-file fan.rsp";
  TranslatedCommand T = translate("nvcc --options-file fan.rsp -c a.cu");
  EXPECT_FALSE(T.Problems.empty());
  EXPECT_LE(count(T.Arguments, "-c"), 1);
}

// | -isystem=/p | -isystem /p |
TEST(NvccTranslationTest, SystemIncludes) {
  TranslatedCommand T = translate("nvcc -isystem=/p -isystem /q -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-isystem", "/p", "-isystem", "/q"}));
  T = translate("nvcc --system-include=/r,/s -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-isystem", "/r", "-isystem", "/s"}));
}

TEST(NvccTranslationTest, DefinesSplitAtCommasAsNvccDoes) {
  TranslatedCommand T = translate("nvcc -DA=1,B=2 --undefine-macro=C,D -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-DA=1", "-DB=2", "-UC", "-UD"}))
      << joined(T.Arguments);
}

TEST(NvccTranslationTest, IncludesDefinesAndOptimization) {
  TranslatedCommand T = translate(
      "nvcc -I/a -I /b --include-path=/c -DX=1 -D Y -UZ -O3 -g -include "
      "pre.h -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-I/a", "-I/b", "-I/c", "-DX=1", "-DY", "-UZ",
                                "-O3", "-g", "-include", "pre.h"}))
      << joined(T.Arguments);
}

// | --std c++17, -std=c++17 | -std=c++17 |
TEST(NvccTranslationTest, Standard) {
  EXPECT_TRUE(has(translate("nvcc --std c++17 -c a.cu").Arguments,
                  {"-std=c++17"}));
  EXPECT_TRUE(has(translate("nvcc -std=c++20 -c a.cu").Arguments,
                  {"-std=c++20"}));
  EXPECT_TRUE(has(translate("nvcc --std=c++14 -c a.cu").Arguments,
                  {"-std=c++14"}));
}

// | --default-stream per-thread | -fgpu-default-stream=per-thread |
TEST(NvccTranslationTest, DefaultStream) {
  EXPECT_TRUE(has(translate("nvcc --default-stream per-thread -c a.cu")
                      .Arguments,
                  {"-fgpu-default-stream=per-thread"}));
  EXPECT_TRUE(has(translate("nvcc -default-stream=legacy -c a.cu").Arguments,
                  {"-fgpu-default-stream=legacy"}));
  EXPECT_TRUE(has(translate("nvcc -default-stream null -c a.cu").Arguments,
                  {"-fgpu-default-stream=legacy"}));
}

// | -forward-unknown-to-host-compiler, -ccbin, ... | dropped |
TEST(NvccTranslationTest, NvccOnlyFlagsAreDroppedSilently) {
  const char *Line =
      "nvcc -forward-unknown-to-host-compiler -ccbin /usr/bin/g++-12 "
      "--compiler-bindir=/usr/bin/g++ -allow-unsupported-compiler "
      "-Xptxas -v -Xptxas=-O3 -Xnvlink --suppress-stack-size-warning "
      "-Xfatbin -compress-all -Xcudafe --diag_suppress=177 "
      "--diag_suppress=20012 --diag-suppress 550 --use_fast_math "
      "-use_fast_math -lineinfo -G --keep -t 4 --threads=0 -split-compile 0 "
      "-Werror=cross-execution-space-call --Werror all-warnings "
      "--Wext-lambda-captures-this -Wno-deprecated-gpu-targets "
      "-maxrregcount=32 --ptxas-options=-v -c a.cu -o a.o";
  TranslatedCommand T = translate(Line);
  EXPECT_TRUE(T.UnknownFlags.empty()) << joined(T.UnknownFlags);
  // Everything between the driver's parse flags and the marker is ours.
  Args Tail(T.Arguments.end() - 5, T.Arguments.end());
  EXPECT_EQ(Tail, (Args{"-c", "a.cu", "-o", "a.o",
                        "-D__CUDA_LAMBDA_TIDY_FROM_NVCC__=1"}))
      << joined(T.Arguments);
  for (const char *Gone :
       {"-ccbin", "/usr/bin/g++-12", "-Xptxas", "-v", "-compress-all", "4",
        "550", "-lineinfo", "-G", "all-warnings", "-t",
        "--suppress-stack-size-warning", "--diag_suppress=177"})
    EXPECT_EQ(count(T.Arguments, Gone), 0) << Gone;
}

TEST(NvccTranslationTest, HostFlagsClangKnowsPassThrough) {
  TranslatedCommand T = translate(
      "nvcc -forward-unknown-to-host-compiler -fPIC -Wall -Wno-unused "
      "-pthread -fvisibility=hidden -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-fPIC", "-Wall", "-Wno-unused", "-pthread",
                                "-fvisibility=hidden"}));
  EXPECT_TRUE(T.UnknownFlags.empty());
}

TEST(NvccTranslationTest, UnknownFlagsAreDroppedOnceEach) {
  TranslatedCommand T = translate(
      "nvcc --frobnicate-device -c a.cu --frobnicate-device --no-such=1 "
      "-Xcompiler=-also-unknown");
  EXPECT_EQ(T.UnknownFlags,
            (Args{"--frobnicate-device", "--no-such=1", "-also-unknown"}));
  EXPECT_EQ(count(T.Arguments, "--frobnicate-device"), 0);
  EXPECT_TRUE(has(T.Arguments, {"a.cu"}));
}

// | (toolkit >= 13) | -isystem <toolkit>/include/cccl |
// | (toolkit newer than clang knows) | the SDK-version workaround |
TEST(NvccTranslationTest, Cuda13Workarounds) {
  TranslatedCommand T = translate("/usr/local/cuda/bin/nvcc -c a.cu");
  EXPECT_TRUE(has(T.Arguments, {"-isystem", "/usr/local/cuda/include/cccl"}));
  EXPECT_TRUE(has(T.Arguments, {"-Wno-unknown-cuda-version"}));
  EXPECT_TRUE(has(T.Arguments, {"-Xclang", "-target-sdk-version=12.9"}));
  EXPECT_TRUE(has(T.Arguments, {"--cuda-path=/usr/local/cuda"}));
}

TEST(NvccTranslationTest, DependencyFlagsAreDropped) {
  TranslatedCommand T = translate(
      "nvcc -MD -MT a.o -MF a.o.d -MMD -MP -MQ x -M -MM -c a.cu -o a.o");
  for (const char *Gone : {"-MD", "-MT", "-MF", "a.o.d", "-MMD", "-MP", "-MQ",
                           "x", "-M", "-MM"})
    EXPECT_EQ(count(T.Arguments, Gone), 0) << Gone;
  EXPECT_TRUE(has(T.Arguments, {"-o", "a.o"}));
  EXPECT_EQ(count(T.Arguments, "a.o"), 1);
}

TEST(NvccTranslationTest, OutputAndCompile) {
  TranslatedCommand T =
      translate("nvcc --compile a.cu --output-file=dir/a.o");
  EXPECT_TRUE(has(T.Arguments, {"-c", "a.cu", "-o", "dir/a.o"}));
}

// The whole command line CMake writes for a CUDA target (Ninja, 3.27+).
TEST(NvccTranslationTest, CMakeCommandLine) {
  Files["/build/CMakeFiles/x.dir/includes_CUDA.rsp"] =
      "-I/src/gen -isystem=/usr/include/y";
  TranslatedCommand T = translate(
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO "
      "-I/src/include -isystem=/usr/include/x --options-file "
      "CMakeFiles/x.dir/includes_CUDA.rsp -O3 -std=c++17 "
      "\"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" "
      "--extended-lambda -x cu -rdc=true -c /src/a.cu -o a.o");
  Args Expected = {"clang++",
                   "--cuda-path=/usr/local/cuda",
                   "-nocudalib",
                   "-isystem",
                   "/usr/local/cuda/include/cccl",
                   "-Wno-unknown-cuda-version",
                   "-Xclang",
                   "-target-sdk-version=12.9",
                   "-x",
                   "cuda",
                   "-DFOO",
                   "-I/src/include",
                   "-isystem",
                   "/usr/include/x",
                   "-I/src/gen",
                   "-isystem",
                   "/usr/include/y",
                   "-O3",
                   "-std=c++17",
                   "-c",
                   "/src/a.cu",
                   "-o",
                   "a.o",
                   "-fgpu-rdc",
                   "--cuda-gpu-arch=sm_80",
                   "-D__CUDA_LAMBDA_TIDY_FROM_NVCC__=1",
                   "-D__CUDACC_EXTENDED_LAMBDA__=1",
                   "-D__CUDACC_RDC__=1"};
  EXPECT_EQ(T.Arguments, Expected) << joined(T.Arguments);
  EXPECT_TRUE(T.UnknownFlags.empty());
  EXPECT_TRUE(T.Problems.empty());
}

// What CMake 3.25 wrote for examples/cmake-project (two architectures).
TEST(NvccTranslationTest, CMakeTwoArchitectures) {
  TranslatedCommand T = translate(
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
      "-I/src/include  --generate-code=arch=compute_80,code=[compute_80,sm_80] "
      "--generate-code=arch=compute_90,code=[compute_90,sm_90] "
      "--extended-lambda -std=c++17 -x cu -rdc=true -c /src/scale.cu -o "
      "CMakeFiles/demo.dir/src/scale.cu.o");
  EXPECT_EQ(T.GpuArch, "sm_80");
  EXPECT_TRUE(has(T.Arguments, {"-fgpu-rdc", "--cuda-gpu-arch=sm_80"}));
  EXPECT_EQ(count(T.Arguments, "--cuda-gpu-arch=sm_90"), 0);
  EXPECT_TRUE(T.UnknownFlags.empty());
}

TEST(NvccTranslationTest, PluginFlagsAreStripped) {
  Args A = {"clang++", "-fplugin=/tmp/evil.so", "-Xclang", "-load", "-Xclang",
            "/tmp/evil2.so", "-fpass-plugin=/tmp/p.so", "-Xclang", "-plugin",
            "-Xclang", "print-fns", "-Xclang", "-ast-dump", "-c", "a.cu"};
  Args Removed = stripPluginFlags(A);
  EXPECT_EQ(Removed, (Args{"-fplugin=/tmp/evil.so",
                           "-Xclang -load -Xclang /tmp/evil2.so",
                           "-fpass-plugin=/tmp/p.so",
                           "-Xclang -plugin -Xclang print-fns"}));
  EXPECT_EQ(A, (Args{"clang++", "-Xclang", "-ast-dump", "-c", "a.cu"}));
  Args Clean = {"clang++", "-c", "a.cu"};
  EXPECT_TRUE(stripPluginFlags(Clean).empty());
  EXPECT_EQ(Clean.size(), 3u);
}

} // namespace

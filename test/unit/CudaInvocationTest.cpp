#include "CudaInvocation.h"
#include "gtest/gtest.h"

using namespace cuda_lambda_tidy;
using Args = std::vector<std::string>;

namespace {

CudaToolkit cuda13() { return {"/usr/local/cuda", 13, 0}; }
CudaToolkit cuda128() { return {"/opt/cuda", 12, 8}; }

// The tests write command lines as the argument vectors a user types; the
// functions take and give them as ToolCommandLine.
Args rewrite(const Args &Given, const std::optional<CudaToolkit> &Toolkit,
             bool CompileDatabaseFound, llvm::StringRef FallbackDir = "",
             llvm::StringRef NvccCompatHeader = "") {
  return rewriteCommandLine(ToolCommandLine::parse(Given), Toolkit,
                            CompileDatabaseFound, FallbackDir,
                            NvccCompatHeader)
      .args();
}
bool fallbackFor(const Args &Given, bool CompileDatabaseFound) {
  return needsFallbackHeaders(ToolCommandLine::parse(Given),
                              CompileDatabaseFound);
}
bool compatFor(const Args &Given, bool CompileDatabaseFound) {
  return needsNvccCompatHeader(ToolCommandLine::parse(Given),
                               CompileDatabaseFound);
}
Args resourceDirIn(const Args &Given, llvm::StringRef ResourceDir) {
  return withResourceDir(ToolCommandLine::parse(Given), ResourceDir).args();
}

TEST(CudaInvocationTest, SplitsToolOptionsPathsAndCompilerArgs) {
  ToolCommandLine C = ToolCommandLine::parse(
      {"--checks", "-*,cuda-*", "-p=build", "a.cu", "--fix", "b.cuh", "--",
       "-DX"});
  EXPECT_EQ(C.SourcePaths, (Args{"a.cu", "b.cuh"}));
  EXPECT_EQ(C.Options, (Args{"--checks", "-*,cuda-*", "-p=build", "--fix"}));
  EXPECT_TRUE(C.hasBuildPath());
  EXPECT_TRUE(C.HasCompilerArgs);
  EXPECT_EQ(C.CompilerArgs, Args{"-DX"});
  // The argument vector: the options, the paths, then `--` and the rest;
  // read again, the same command line.
  EXPECT_EQ(C.args(), (Args{"--checks", "-*,cuda-*", "-p=build", "--fix",
                            "a.cu", "b.cuh", "--", "-DX"}));
  ToolCommandLine Again = ToolCommandLine::parse(C.args());
  EXPECT_EQ(Again.Options, C.Options);
  EXPECT_EQ(Again.SourcePaths, C.SourcePaths);
  EXPECT_EQ(Again.CompilerArgs, C.CompilerArgs);
  EXPECT_TRUE(Again.HasCompilerArgs);
  // `--` with nothing after it is kept; none given, none made.
  EXPECT_EQ(ToolCommandLine::parse({"k.cu", "--"}).args(), (Args{"k.cu", "--"}));
  EXPECT_EQ(ToolCommandLine::parse({"k.cu"}).args(), Args{"k.cu"});
}

TEST(CudaInvocationTest, SeparateValuesAreNotPaths) {
  ToolCommandLine C = ToolCommandLine::parse(
      {"-p", "build", "--export-fixes", "fixes.yaml", "-load", "x.so", "k.cu"});
  EXPECT_EQ(C.SourcePaths, Args{"k.cu"});
  EXPECT_TRUE(C.hasBuildPath());
  EXPECT_FALSE(C.HasCompilerArgs);
  // A value is never an option: `--extra-arg -p` names no build path, and
  // `--extra-arg -fix` asks for no fixes.
  ToolCommandLine Values =
      ToolCommandLine::parse({"--extra-arg", "-p", "--extra-arg", "-fix", "k.cu"});
  EXPECT_FALSE(Values.hasBuildPath());
  EXPECT_FALSE(asksForFixes(Values.Options));
}

TEST(CudaInvocationTest, ReadsEachOptionWithItsValue) {
  Args Options = {"--checks", "-*", "-p=build", "--fix", "--extra-arg",
                  "-p", "-export-fixes=", "--load"};
  std::vector<ToolOption> Read = toolOptionsOf(Options);
  ASSERT_EQ(Read.size(), 6u);
  EXPECT_EQ(Read[0].Name, "checks");
  EXPECT_EQ(Read[0].Value, "-*");
  EXPECT_EQ(Read[0].Size, 2u);
  EXPECT_EQ(Read[1].Name, "p");
  EXPECT_EQ(Read[1].Value, "build");
  EXPECT_EQ(Read[1].Index, 2u);
  EXPECT_EQ(Read[2].Name, "fix");
  EXPECT_FALSE(Read[2].HasValue);
  EXPECT_EQ(Read[3].Name, "extra-arg"); // its value `-p` is no option
  EXPECT_EQ(Read[3].Value, "-p");
  EXPECT_EQ(Read[4].Name, "export-fixes"); // an empty value is a value
  EXPECT_TRUE(Read[4].HasValue);
  EXPECT_EQ(Read[5].Name, "load"); // the line ends before its value
  EXPECT_FALSE(Read[5].HasValue);
  EXPECT_EQ(lastValueOf(Options, "p"), std::optional<std::string>("build"));
  EXPECT_EQ(lastValueOf(Options, "config"), std::nullopt);
  EXPECT_EQ(optionsWithout(Options,
                           [](const ToolOption &O) {
                             return O.Name == "checks" || O.Name == "extra-arg";
                           }),
            (Args{"-p=build", "--fix", "-export-fixes=", "--load"}));
}

TEST(CudaInvocationTest, EnablesACheckAfterTheLastChecks) {
  auto Enabled = [](const Args &Given) {
    return withCheckEnabled(ToolCommandLine::parse(Given), "probe").args();
  };
  EXPECT_EQ(Enabled({"k.cu"}), (Args{"--checks=probe", "k.cu"}));
  EXPECT_EQ(Enabled({"--checks=-*,cuda-*", "k.cu"}),
            (Args{"--checks=-*,cuda-*,probe", "k.cu"}));
  EXPECT_EQ(Enabled({"-checks", "a", "--checks", "b", "k.cu"}),
            (Args{"-checks", "a", "--checks", "b,probe", "k.cu"}));
  // A `--checks` given as a value is not the tool's.
  EXPECT_EQ(Enabled({"--extra-arg", "--checks=x", "k.cu"}),
            (Args{"--checks=probe", "--extra-arg", "--checks=x", "k.cu"}));
}

TEST(CudaInvocationTest, RecognizesCudaSources) {
  EXPECT_TRUE(isCudaSourcePath("dir/k.cu"));
  EXPECT_TRUE(isCudaSourcePath("k.cuh"));
  EXPECT_FALSE(isCudaSourcePath("k.cpp"));
  EXPECT_FALSE(isCudaSourcePath("cu"));
}

TEST(CudaInvocationTest, FlagsForCuda13) {
  Args F = cudaParseFlags(cuda13(), {});
  EXPECT_EQ(F, (Args{"-x", "cuda", "--cuda-path=/usr/local/cuda", "-nocudalib",
                     "-isystem", "/usr/local/cuda/include/cccl",
                     "--cuda-gpu-arch=sm_80", "-Wno-unknown-cuda-version",
                     "-Xclang", "-target-sdk-version=12.9"}));
}

TEST(CudaInvocationTest, OlderToolkitNeedsNoWorkarounds) {
  Args F = cudaParseFlags(cuda128(), {});
  EXPECT_EQ(F, (Args{"-x", "cuda", "--cuda-path=/opt/cuda", "-nocudalib",
                     "--cuda-gpu-arch=sm_80"}));
}

TEST(CudaInvocationTest, UserFlagsWin) {
  Args F = cudaParseFlags(cuda13(), {"-xcuda", "--cuda-path=/mine",
                                     "--cuda-gpu-arch=sm_90", "-nocudalib",
                                     "-Xclang", "-target-sdk-version=12.8"});
  EXPECT_EQ(F, (Args{"-isystem", "/usr/local/cuda/include/cccl",
                     "-Wno-unknown-cuda-version"}));
  Args G = cudaParseFlags(cuda13(), {"--offload-arch=sm_75"});
  EXPECT_EQ(std::count(G.begin(), G.end(), "--cuda-gpu-arch=sm_80"), 0);
}

TEST(CudaInvocationTest, CudaFileWithoutFlagsGetsThem) {
  Args R = rewrite({"--checks=-*,cuda-*", "k.cu"}, cuda13(), false);
  Args Expected = {"--checks=-*,cuda-*", "k.cu", "--"};
  Args Flags = cudaParseFlags(cuda13(), {});
  Expected.insert(Expected.end(), Flags.begin(), Flags.end());
  EXPECT_EQ(R, Expected);
}

TEST(CudaInvocationTest, UserCompilerArgsFollowOurs) {
  Args R = rewrite({"k.cu", "--", "-std=c++14"}, cuda13(), false);
  ASSERT_GE(R.size(), 3u);
  EXPECT_EQ(R.back(), "-std=c++14");
  EXPECT_EQ(R[1], "--");
  EXPECT_EQ(R[2], "-x");
}

TEST(CudaInvocationTest, NonCudaFileGetsOnlyTheSeparator) {
  EXPECT_EQ(rewrite({"main.cpp"}, cuda13(), false),
            (Args{"main.cpp", "--"}));
  // `-x cuda` makes any file CUDA; `-x c++` makes a .cu file plain C++.
  Args R = rewrite({"k.cpp", "--", "-x", "cuda"}, cuda13(), false);
  EXPECT_NE(std::find(R.begin(), R.end(), "--cuda-path=/usr/local/cuda"),
            R.end());
  EXPECT_EQ(rewrite({"k.cu", "--", "-x", "c++"}, cuda13(), false),
            (Args{"k.cu", "--", "-x", "c++"}));
}

TEST(CudaInvocationTest, CompileDatabasesAreLeftAlone) {
  Args WithP = {"-p", "build", "k.cu"};
  EXPECT_EQ(rewrite(WithP, cuda13(), false), WithP);
  Args Found = {"k.cu"};
  EXPECT_EQ(rewrite(Found, cuda13(), true), Found);
  Args NoFiles = {"--list-checks"};
  EXPECT_EQ(rewrite(NoFiles, cuda13(), false), NoFiles);
}

TEST(CudaInvocationTest, NoToolkitAndNoFallbackAddsNoCudaFlags) {
  EXPECT_EQ(rewrite({"k.cu"}, std::nullopt, false),
            (Args{"k.cu", "--"}));
}

TEST(CudaInvocationTest, FallbackFlags) {
  EXPECT_EQ(
      fallbackParseFlags("/tmp/fb", {}),
      (Args{"-x", "cuda", "--cuda-path=/tmp/fb", "-nocudainc", "-nocudalib",
            "-isystem", "/tmp/fb", "-include", "cuda_lambda_tidy_fallback.h",
            "--cuda-gpu-arch=sm_80", "-Xclang", "-target-sdk-version=12.9"}));
}

TEST(CudaInvocationTest, FallbackFlagsLeaveTheUsersChoices) {
  Args F = fallbackParseFlags("/tmp/fb", {"-xcuda", "--offload-arch=sm_90",
                                          "-nocudainc", "-nocudalib", "-Xclang",
                                          "-target-sdk-version=12.4"});
  EXPECT_EQ(F, (Args{"--cuda-path=/tmp/fb", "-isystem", "/tmp/fb", "-include",
                     "cuda_lambda_tidy_fallback.h"}));
}

TEST(CudaInvocationTest, NoToolkitParsesCudaAgainstTheFallback) {
  Args R = rewrite({"--checks=-*,cuda-*", "k.cu", "--", "-DX"},
                              std::nullopt, false, "/tmp/fb");
  Args Expected = {"--checks=-*,cuda-*", "k.cu", "--"};
  Args Flags = fallbackParseFlags("/tmp/fb", {"-DX"});
  Expected.insert(Expected.end(), Flags.begin(), Flags.end());
  Expected.push_back("-DX");
  EXPECT_EQ(R, Expected);
  EXPECT_TRUE(fallbackFor({"k.cu"}, false));
  EXPECT_TRUE(fallbackFor({"k.cpp", "--", "-x", "cuda"}, false));
}

TEST(CudaInvocationTest, FallbackOnlyWhereAToolkitWouldBeUsed) {
  // Not CUDA.
  EXPECT_FALSE(fallbackFor({"main.cpp"}, false));
  EXPECT_EQ(rewrite({"main.cpp"}, std::nullopt, false, "/tmp/fb"),
            (Args{"main.cpp", "--"}));
  EXPECT_FALSE(fallbackFor({"k.cu", "--", "-x", "c++"}, false));
  // A toolkit named by the user: theirs, not ours.
  Args Theirs = {"k.cu", "--", "--cuda-path=/opt/cuda"};
  EXPECT_FALSE(fallbackFor(Theirs, false));
  EXPECT_EQ(rewrite(Theirs, std::nullopt, false, "/tmp/fb"), Theirs);
  // A toolkit found: the fallback directory is not used.
  EXPECT_EQ(rewrite({"k.cu"}, cuda13(), false, "/tmp/fb"),
            rewrite({"k.cu"}, cuda13(), false));
  // Compile databases and requests for information are left alone.
  EXPECT_FALSE(fallbackFor({"-p", "build", "k.cu"}, false));
  EXPECT_FALSE(fallbackFor({"k.cu"}, true));
  EXPECT_FALSE(fallbackFor({"--list-checks"}, false));
  EXPECT_EQ(rewrite({"k.cu"}, std::nullopt, true, "/tmp/fb"),
            Args{"k.cu"});
}

// The nvcc-compatibility layer goes into every CUDA parse the tool sets up,
// after the toolkit's (or the fallback) headers, with the user's flags
// still last.
TEST(CudaInvocationTest, NvccCompatHeaderIsForceIncluded) {
  const Args Include = {"-include", "/tmp/c/cuda_lambda_tidy_nvcc_compat.h"};
  Args F = cudaParseFlags(cuda13(), {}, Include[1]);
  ASSERT_GE(F.size(), 2u);
  EXPECT_EQ(Args(F.end() - 2, F.end()), Include);
  Args Older = cudaParseFlags(cuda128(), {"-xcuda"}, Include[1]);
  EXPECT_EQ(Args(Older.end() - 2, Older.end()), Include);

  Args FB = fallbackParseFlags("/tmp/fb", {}, Include[1]);
  auto Fallback =
      std::search(FB.begin(), FB.end(), Include.begin(), Include.end());
  auto Ours = std::find(FB.begin(), FB.end(), "cuda_lambda_tidy_fallback.h");
  ASSERT_NE(Fallback, FB.end());
  ASSERT_NE(Ours, FB.end());
  EXPECT_LT(Ours, Fallback) << "the fallback header must come first";

  Args R = rewrite({"k.cu", "--", "-DX"}, cuda13(), false, "",
                              Include[1]);
  EXPECT_NE(std::search(R.begin(), R.end(), Include.begin(), Include.end()),
            R.end());
  EXPECT_EQ(R.back(), "-DX");
  Args RF =
      rewrite({"k.cu"}, std::nullopt, false, "/tmp/fb", Include[1]);
  EXPECT_NE(std::search(RF.begin(), RF.end(), Include.begin(), Include.end()),
            RF.end());
  // Without a path, nothing is included (and the flags are those above).
  EXPECT_EQ(std::count(F.begin(), F.end(), "-include"), 1);
  Args None = cudaParseFlags(cuda13(), {});
  EXPECT_EQ(std::count(None.begin(), None.end(), "-include"), 0);
}

TEST(CudaInvocationTest, NvccCompatHeaderOnlyForCudaParses) {
  EXPECT_TRUE(compatFor({"k.cu"}, false));
  EXPECT_TRUE(compatFor({"k.cpp", "--", "-x", "cuda"}, false));
  EXPECT_TRUE(compatFor({"k.cu", "--", "--cuda-path=/opt"}, false));
  EXPECT_FALSE(compatFor({"main.cpp"}, false));
  EXPECT_FALSE(compatFor({"k.cu", "--", "-x", "c++"}, false));
  EXPECT_FALSE(compatFor({"-p", "build", "k.cu"}, false));
  EXPECT_FALSE(compatFor({"k.cu"}, true));
  EXPECT_FALSE(compatFor({"--list-checks"}, false));
  // Not CUDA: nothing to include.
  EXPECT_EQ(rewrite({"main.cpp"}, cuda13(), false, "",
                               "/tmp/c/cuda_lambda_tidy_nvcc_compat.h"),
            (Args{"main.cpp", "--"}));
}

TEST(CudaInvocationTest, CudaToolkitNoneIsOurs) {
  Args A = {"--cuda-toolkit=none", "k.cu", "--", "--cuda-toolkit=none"};
  OwnOptions Own = takeOwnOptions(A);
  EXPECT_TRUE(Own.NoToolkit);
  EXPECT_TRUE(Own.Error.empty());
  EXPECT_EQ(A, (Args{"k.cu", "--", "--cuda-toolkit=none"}));
  Args B = {"--cuda-toolkit", "none", "k.cu"};
  EXPECT_TRUE(takeOwnOptions(B).NoToolkit);
  EXPECT_EQ(B, Args{"k.cu"});
  Args C = {"k.cu"};
  EXPECT_FALSE(takeOwnOptions(C).NoToolkit);
  Args D = {"--cuda-toolkit=/opt/cuda", "k.cu"};
  OwnOptions Bad = takeOwnOptions(D);
  EXPECT_FALSE(Bad.NoToolkit);
  EXPECT_EQ(Bad.Error, "--cuda-toolkit takes only 'none' (CUDA_PATH chooses "
                       "a toolkit), not '/opt/cuda'");
}

TEST(CudaInvocationTest, ResourceDirForEveryCommand) {
  EXPECT_EQ(resourceDirIn({"k.cu", "--", "-DX"}, "/usr/lib/llvm-22/lib/clang/22"),
            (Args{"--extra-arg-before=-resource-dir=/usr/lib/llvm-22/lib/clang/22",
                  "k.cu", "--", "-DX"}));
  Args Own = {"k.cu", "--", "-resource-dir=/mine"};
  EXPECT_EQ(resourceDirIn(Own, "/usr/lib/llvm-22/lib/clang/22"), Own);
  Args NoFiles = {"--list-checks"};
  EXPECT_EQ(resourceDirIn(NoFiles, "/r"), NoFiles);
}

} // namespace

//===--- PassProbeTest.cpp - cuda-lambda-tidy ---------------------------===//
//
// The pass probe (tool/PassProbe.h): which code makes the drop-in run the
// host pass too, and which does not.
//
//===----------------------------------------------------------------------===//

#include "PassProbe.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <optional>

namespace {

using namespace clang;

class ProbedSyntaxOnly : public SyntaxOnlyAction {
public:
  explicit ProbedSyntaxOnly(std::optional<std::optional<std::string>> &Verdict)
      : Verdict(Verdict) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(cuda_lambda_tidy::passDependenceProbe(
        CI.getSourceManager(),
        [this](const std::optional<std::string> &Reason) { Verdict = Reason; }));
    return true;
  }

private:
  std::optional<std::optional<std::string>> &Verdict;
};

/// Why the host pass is needed for \p Code (device pass, a system header
/// `lib.h` holding \p SystemHeader), "" when it is not; "no verdict" when
/// the probe said nothing.
std::string hostPassReason(const std::string &Code,
                           const std::string &SystemHeader = "") {
  std::optional<std::optional<std::string>> Verdict;
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-path=" CUDA_TOOLKIT_FOR_TESTS, "-nocudalib",
      "--cuda-gpu-arch=sm_80", "-Wno-unknown-cuda-version",
      "-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS, "-Xclang",
      "-target-sdk-version=12.9", "-std=c++17", "--cuda-device-only",
      "-isystem", CUDA_TOOLKIT_FOR_TESTS "/include/cccl", "-isystem",
      "/sys-include"};
  tooling::FileContentMappings Headers = {{"/sys-include/lib.h", SystemHeader}};
  EXPECT_TRUE(tooling::runToolOnCodeWithArgs(
      std::make_unique<ProbedSyntaxOnly>(Verdict), Code, Args, "input.cu",
      "probe-test", std::make_shared<PCHContainerOperations>(), Headers));
  if (!Verdict)
    return "no verdict";
  return Verdict->value_or("");
}

TEST(PassProbeTest, CodeWithoutPassDependentLinesNeedsOnePass) {
  EXPECT_EQ(hostPassReason("__global__ void k(int *p) { *p = 1; }\n"
                           "void h() { auto l = [] __device__ (int x) { "
                           "return x; }; (void)l; }\n"),
            "");
}

TEST(PassProbeTest, ConditionalsOnThePassNeedBoth) {
  EXPECT_NE(hostPassReason("#ifdef __CUDA_ARCH__\nint a;\n#endif\n"), "");
  EXPECT_NE(hostPassReason("#ifndef __CUDA_ARCH__\nint a;\n#endif\n"), "");
  EXPECT_NE(hostPassReason("#if __CUDA_ARCH__ >= 800\nint a;\n#endif\n"), "");
  EXPECT_NE(hostPassReason("#if 0\n#elif defined(__CUDA_ARCH__)\n#endif\n"),
            "");
  EXPECT_NE(hostPassReason("#if defined(__NVPTX__)\nint a;\n#endif\n"), "");
  EXPECT_NE(hostPassReason("int n = __CUDA_ARCH__;\n"), "");
}

TEST(PassProbeTest, ReasonNamesTheLine) {
  EXPECT_EQ(hostPassReason("int a;\n#ifdef __CUDA_ARCH__\n#endif\n"),
            "input.cu:2: a conditional differs between the passes");
  EXPECT_EQ(hostPassReason("int a;\nint n = __CUDA_ARCH__;\n"),
            "input.cu:2: '__CUDA_ARCH__' differs between the passes");
}

TEST(PassProbeTest, MacrosDefinedFromThePassNeedBoth) {
  // In terms of a pass macro, in the user's file or a system header.
  EXPECT_NE(hostPassReason("#define ON_DEVICE defined(__CUDA_ARCH__)\n"
                           "#if ON_DEVICE\nint a;\n#endif\n"),
            "");
  EXPECT_NE(hostPassReason("#include <lib.h>\nint n = SIDE;\n",
                           "#define SIDE (__CUDA_ARCH__ > 0)\n"),
            "");
  // Defined under a condition on one, in a system header (nv/target's
  // NV_IF_TARGET is this shape).
  EXPECT_NE(hostPassReason("#include <lib.h>\nint n = SIDE;\n",
                           "#ifdef __CUDA_ARCH__\n#define SIDE 1\n"
                           "#else\n#define SIDE 0\n#endif\n"),
            "");
  EXPECT_NE(hostPassReason("#include <nv/target>\n"
                           "__host__ __device__ int f() {\n"
                           "  NV_IF_TARGET(NV_IS_DEVICE, (return 1;), "
                           "(return 0;))\n}\n"),
            "");
}

TEST(PassProbeTest, PassDependenceInsideSystemHeadersAloneNeedsOnePass) {
  EXPECT_EQ(hostPassReason("#include <lib.h>\nint n = plain();\n",
                           "#ifdef __CUDA_ARCH__\nint side();\n#endif\n"
                           "inline int plain() { return 1; }\n"
                           "#define UNRELATED 2\n"),
            "");
  // Every toolkit header a thrust user includes, and nothing of theirs.
  EXPECT_EQ(hostPassReason("#include <thrust/device_vector.h>\n"
                           "#include <thrust/transform.h>\n"
                           "void f(thrust::device_vector<int> &v) {\n"
                           "  thrust::transform(v.begin(), v.end(), v.begin(),"
                           " [] __device__ (int x) { return x + 1; });\n}\n"),
            "");
}

} // namespace

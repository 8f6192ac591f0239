//===--- PassProbeTest.cpp - cuda-lambda-tidy ---------------------------===//
//
// The pass probe (checks/probe/PassProbe.h): which code makes the drop-in run the
// host pass too, and which does not. Two parts: the preprocessor's (a line
// of the user's that reads differently on the host) and the AST's (a
// deduced-return `__device__` lambda handed to a library whose host code
// asks its return type, utils/ReturnTypeQuestion.h).
//
//===----------------------------------------------------------------------===//

#include "probe/PassProbe.h"
#include "CudaAST.h"
#include "utils/ReturnTypeQuestion.h"
#include "utils/PassDependence.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <optional>

namespace {

using namespace clang;
using cuda_lambda_tidy::test::cudaParseArgs;
using cuda_lambda_tidy::test::Pass;

class ProbedSyntaxOnly : public SyntaxOnlyAction {
public:
  explicit ProbedSyntaxOnly(std::optional<std::optional<std::string>> &Verdict)
      : Verdict(Verdict) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    cuda_lambda_tidy::passDependenceProbe(
        CI.getPreprocessor(),
        [this](const std::optional<std::string> &Reason) { Verdict = Reason; });
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
  std::vector<std::string> Args =
      cudaParseArgs(Pass::Device, {"-isystem", "/sys-include"});
  tooling::FileContentMappings Headers = {{"/sys-include/lib.h", SystemHeader}};
  EXPECT_TRUE(tooling::runToolOnCodeWithArgs(
      std::make_unique<ProbedSyntaxOnly>(Verdict), Code, Args, "input.cu",
      "probe-test", std::make_shared<PCHContainerOperations>(), Headers));
  if (!Verdict)
    return "no verdict";
  return Verdict->value_or("");
}

/// What the probe's AST part says of \p Code in the device pass: the reason
/// to run the host pass, "" when there is none.
std::string libraryQuestion(const std::string &Code) {
  std::vector<std::string> Args =
      cudaParseArgs(Pass::Device);
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
  EXPECT_TRUE(AST);
  if (!AST)
    return "no AST";
  return clang::tidy::cuda::utils::hiddenReturnTypeAskedByLibrary(
             AST->getASTContext())
      .value_or("");
}

const char *const CubReduce =
    "#include <cub/device/device_reduce.cuh>\n"
    "void largest(const int *in, int *out, int n, void *tmp, size_t bytes) {\n"
    "  auto larger = %s;\n"
    "  cub::DeviceReduce::Reduce(tmp, bytes, in, out, n, larger, 0);\n"
    "}\n";

std::string cubReduceWith(const std::string &Lambda) {
  std::string Code = CubReduce;
  Code.replace(Code.find("%s"), 2, Lambda);
  return Code;
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

// nvcc rejects these (libcu++'s static_assert in the host pass): the
// question sits in host code the device pass does not instantiate, the way
// there does.
TEST(PassProbeTest, DeducedDeviceLambdaHandedToAnAskingLibraryNeedsBoth) {
  EXPECT_EQ(libraryQuestion(cubReduceWith(
                "[] __device__ (int a, int b) { return a > b ? a : b; }")),
            "input.cu:3: extended __device__ lambda without a trailing return "
            "type handed to 'cub::DeviceReduce::Reduce' (line 4), whose host "
            "code asks 'cuda::std::__accumulator_t' for its return type");
  // Written in the call, and through thrust.
  EXPECT_NE(libraryQuestion(
                "#include <thrust/reduce.h>\n"
                "#include <thrust/execution_policy.h>\n"
                "int top(const int *d, int n) {\n"
                "  return thrust::reduce(thrust::device, d, d + n, 0,\n"
                "      [] __device__ (int a, int b) { return a > b ? a : b; });\n"
                "}\n"),
            "");
}

TEST(PassProbeTest, LookAlikesOfAnAskingLibraryCallNeedOnePass) {
  // A trailing return type: the host pass knows it.
  EXPECT_EQ(libraryQuestion(cubReduceWith(
                "[] __device__ (int a, int b) -> int { return a > b ? a : b; }")),
            "");
  // A host-device lambda: the host pass sees its body.
  EXPECT_EQ(libraryQuestion(cubReduceWith(
                "[] __host__ __device__ (int a, int b) { return a > b ? a : b; }")),
            "");
  // A library that does not ask (thrust::transform, which nvcc accepts).
  EXPECT_EQ(libraryQuestion(
                "#include <thrust/transform.h>\n"
                "#include <thrust/execution_policy.h>\n"
                "void twice(const int *d, int *o, int n) {\n"
                "  thrust::transform(thrust::device, d, d + n, o,\n"
                "      [] __device__ (int a) { return a * 2; });\n"
                "}\n"),
            "");
  // A template of the user's that asks is no library's: the device pass
  // sees it (and cuda-lambda-host-return-type-query reports it there).
  EXPECT_EQ(libraryQuestion(
                "#include <type_traits>\n"
                "template <class F> void ask(F) {\n"
                "  using R = std::invoke_result_t<F, int>; (void)sizeof(R *);\n"
                "}\n"
                "void h() { ask([] __device__ (int a) { return a; }); }\n"),
            "");
}

} // namespace

namespace {

/// The pass-dependent branches the translation unit's one recorder saw in
/// \p Code (device pass, \p Header as system header lib.h): "MACRO taken" or
/// "MACRO skipped", in order.
class BranchesOnly : public SyntaxOnlyAction {
public:
  explicit BranchesOnly(std::vector<std::string> &Out) : Out(Out) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Recorder = &clang::tidy::cuda::utils::passDependenceOf(CI.getPreprocessor());
    return true;
  }
  void EndSourceFileAction() override {
    for (const auto &B : Recorder->conditionals().branches())
      Out.push_back(B.Macro.str() + (B.Taken ? " taken" : " skipped"));
  }

private:
  std::vector<std::string> &Out;
  clang::tidy::cuda::utils::PassDependence *Recorder = nullptr;
};

std::vector<std::string> branchesOf(const std::string &Code,
                                    const std::string &Header = "") {
  std::vector<std::string> Out;
  std::vector<std::string> Args =
      cudaParseArgs(Pass::Device, {"-isystem", "/sys-include"});
  tooling::FileContentMappings Headers = {{"/sys-include/lib.h", Header}};
  EXPECT_TRUE(tooling::runToolOnCodeWithArgs(
      std::make_unique<BranchesOnly>(Out), Code, Args, "input.cu",
      "branches-test", std::make_shared<PCHContainerOperations>(), Headers));
  return Out;
}

} // namespace

TEST(PassDependenceTest, BranchesNameTheMacroTheConditionReads) {
  EXPECT_EQ(branchesOf("#ifdef __CUDA_ARCH__\nint a;\n#else\nint b;\n#endif\n"),
            (std::vector<std::string>{"__CUDA_ARCH__ taken",
                                      "__CUDA_ARCH__ skipped"}));
  // Derived in the user's code, in a library header, and from a derived one.
  EXPECT_EQ(branchesOf("#if defined(__CUDA_ARCH__)\n#define ON_DEV 1\n#else\n"
                       "#define ON_DEV 0\n#endif\n#define ON_HOST (!ON_DEV)\n"
                       "#if ON_HOST\nint h;\n#endif\n"),
            (std::vector<std::string>{"__CUDA_ARCH__ taken",
                                      "__CUDA_ARCH__ skipped",
                                      "ON_HOST skipped"}));
  EXPECT_EQ(branchesOf("#include <lib.h>\n#ifdef LIB_IF_ON_DEVICE\nint d;\n"
                       "#endif\n",
                       "#ifdef __CUDA_ARCH__\n#define LIB_IF_ON_DEVICE\n"
                       "#endif\n"),
            (std::vector<std::string>{"LIB_IF_ON_DEVICE taken"}));
}

TEST(PassDependenceTest, OtherMacrosOpenNoBranch) {
  EXPECT_TRUE(branchesOf("#define FAST 1\n#if FAST\nint f;\n#endif\n"
                         "#ifdef FAST\nint g;\n#endif\n")
                  .empty());
}

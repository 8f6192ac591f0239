#include "CudaAST.h"
#include "utils/ExecutionSpace.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::cuda::utils::ExecutionSpace;
using clang::tidy::cuda::utils::executionSpaceOf;
using namespace cuda_lambda_tidy::test;

namespace {

ExecutionSpace spaceOfFunction(ASTUnit &AST, const std::string &Name) {
  const auto *FD = findFirst<FunctionDecl>(AST, functionDecl(hasName(Name)));
  EXPECT_NE(FD, nullptr) << Name;
  return FD ? executionSpaceOf(*FD) : ExecutionSpace::Host;
}

ExecutionSpace spaceOfLambdaIn(ASTUnit &AST, const std::string &Name) {
  const auto *L = findFirst<LambdaExpr>(
      AST, lambdaExpr(hasAncestor(functionDecl(hasName(Name)))));
  EXPECT_NE(L, nullptr) << Name;
  return L ? executionSpaceOf(*L->getCallOperator()) : ExecutionSpace::Host;
}

const char *Functions = R"cu(
  void host_fn() {}
  __host__ void explicit_host_fn() {}
  __device__ void device_fn() {}
  __host__ __device__ void host_device_fn() {}
  __global__ void kernel() {}
  template <typename T> __global__ void kernel_template(T) {}
  struct S { __device__ void member() {} };
)cu";

TEST(ExecutionSpaceTest, ExplicitAttributes) {
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(Functions, Side);
    ASSERT_TRUE(AST);
    EXPECT_EQ(spaceOfFunction(*AST, "host_fn"), ExecutionSpace::Host);
    EXPECT_EQ(spaceOfFunction(*AST, "explicit_host_fn"), ExecutionSpace::Host);
    EXPECT_EQ(spaceOfFunction(*AST, "device_fn"), ExecutionSpace::Device);
    EXPECT_EQ(spaceOfFunction(*AST, "host_device_fn"),
              ExecutionSpace::HostDevice);
    EXPECT_EQ(spaceOfFunction(*AST, "kernel"), ExecutionSpace::Global);
    EXPECT_EQ(spaceOfFunction(*AST, "kernel_template"), ExecutionSpace::Global);
    EXPECT_EQ(spaceOfFunction(*AST, "member"), ExecutionSpace::Device);
  }
}

TEST(ExecutionSpaceTest, ImplicitHostDeviceOfConstexpr) {
  // clang makes constexpr functions host-device implicitly; that is a fact
  // about where they can run, so it counts.
  auto AST = parseCuda("constexpr int twice(int x) { return 2 * x; }");
  ASSERT_TRUE(AST);
  EXPECT_EQ(spaceOfFunction(*AST, "twice"), ExecutionSpace::HostDevice);
}

TEST(ExecutionSpaceTest, UnannotatedLambdaTakesItsContextsSpace) {
  auto AST = parseCuda(R"cu(
    void in_host() { auto l = [] { return 1; }; }
    __device__ void in_device() { auto l = [] { return 1; }; }
    __global__ void in_kernel() { auto l = [] { return 1; }; }
    __host__ __device__ void in_hd() { auto l = [] { return 1; }; }
    __device__ void nested() { auto outer = [] { auto inner = [] {}; }; }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "in_host"), ExecutionSpace::Host);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "in_device"), ExecutionSpace::Device);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "in_kernel"), ExecutionSpace::Global);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "in_hd"), ExecutionSpace::HostDevice);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "nested"), ExecutionSpace::Device);
}

TEST(ExecutionSpaceTest, AnnotatedLambdaKeepsItsAnnotation) {
  auto AST = parseCuda(R"cu(
    void dev_lambda() { auto l = [] __device__ { return 1; }; }
    void hd_lambda() { auto l = [] __host__ __device__ { return 1; }; }
    void host_lambda() { auto l = [] __host__ { return 1; }; }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "dev_lambda"), ExecutionSpace::Device);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "hd_lambda"), ExecutionSpace::HostDevice);
  EXPECT_EQ(spaceOfLambdaIn(*AST, "host_lambda"), ExecutionSpace::Host);
}

TEST(ExecutionSpaceTest, NamespaceScopeLambdaIsHost) {
  auto AST = parseCuda("auto global_lambda = [] { return 1; };");
  ASSERT_TRUE(AST);
  const auto *L = findFirst<LambdaExpr>(*AST, lambdaExpr(isExpansionInMainFile()));
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(executionSpaceOf(*L->getCallOperator()), ExecutionSpace::Host);
}

} // namespace

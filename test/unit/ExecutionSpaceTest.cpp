#include "CudaAST.h"
#include "utils/ExecutionSpace.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::cuda::utils::AttributePolicy;
using clang::tidy::cuda::utils::ExecutionSpace;
using clang::tidy::cuda::utils::executionSpaceOf;
using clang::tidy::cuda::utils::executionSpaceSpelledBy;
using clang::tidy::cuda::utils::isKernel;
using clang::tidy::cuda::utils::VariableSpace;
using clang::tidy::cuda::utils::variableSpaceOf;
using namespace cuda_lambda_tidy::test;

namespace {

ExecutionSpace
spaceOfFunction(ASTUnit &AST, const std::string &Name,
                AttributePolicy Policy = AttributePolicy::WithImplicit) {
  const auto *FD = findFirst<FunctionDecl>(AST, functionDecl(hasName(Name)));
  EXPECT_NE(FD, nullptr) << Name;
  return FD ? executionSpaceOf(*FD, Policy) : ExecutionSpace::Host;
}

ExecutionSpace
spaceOfLambdaIn(ASTUnit &AST, const std::string &Name,
                AttributePolicy Policy = AttributePolicy::WithImplicit) {
  const auto *L = findFirst<LambdaExpr>(
      AST, lambdaExpr(hasAncestor(functionDecl(hasName(Name)))));
  EXPECT_NE(L, nullptr) << Name;
  return L ? executionSpaceOf(*L->getCallOperator(), Policy)
           : ExecutionSpace::Host;
}

VariableSpace spaceOfVariable(ASTUnit &AST, const std::string &Name,
                              AttributePolicy Policy) {
  const auto *Var = findFirst<VarDecl>(AST, varDecl(hasName(Name)));
  EXPECT_NE(Var, nullptr) << Name;
  return Var ? variableSpaceOf(*Var, Policy) : VariableSpace::Host;
}

constexpr AttributePolicy BothPolicies[] = {AttributePolicy::WithImplicit,
                                            AttributePolicy::AsWritten};

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
  // Written attributes: both policies agree.
  for (Pass Side : {Pass::Host, Pass::Device})
    for (AttributePolicy Policy : BothPolicies) {
      auto AST = parseCuda(Functions, Side);
      ASSERT_TRUE(AST);
      EXPECT_EQ(spaceOfFunction(*AST, "host_fn", Policy), ExecutionSpace::Host);
      EXPECT_EQ(spaceOfFunction(*AST, "explicit_host_fn", Policy),
                ExecutionSpace::Host);
      EXPECT_EQ(spaceOfFunction(*AST, "device_fn", Policy),
                ExecutionSpace::Device);
      EXPECT_EQ(spaceOfFunction(*AST, "host_device_fn", Policy),
                ExecutionSpace::HostDevice);
      EXPECT_EQ(spaceOfFunction(*AST, "kernel", Policy),
                ExecutionSpace::Global);
      EXPECT_EQ(spaceOfFunction(*AST, "kernel_template", Policy),
                ExecutionSpace::Global);
      EXPECT_EQ(spaceOfFunction(*AST, "member", Policy),
                ExecutionSpace::Device);
    }
}

TEST(ExecutionSpaceTest, ImplicitHostDeviceOfConstexpr) {
  // clang makes constexpr functions host-device implicitly; that is a fact
  // about where they can run, so it counts.
  auto AST = parseCuda("constexpr int twice(int x) { return 2 * x; }");
  ASSERT_TRUE(AST);
  EXPECT_EQ(spaceOfFunction(*AST, "twice"), ExecutionSpace::HostDevice);
}

TEST(ExecutionSpaceTest, AsWrittenIgnoresImplicitHostDevice) {
  // nvcc does not make a constexpr function __host__ __device__ (without
  // --expt-relaxed-constexpr): as written, it is host code, and so is an
  // unannotated lambda in it.
  const char *Code = R"cu(
    constexpr int twice(int x) { return 2 * x; }
    constexpr int with_lambda() { return [] { return 1; }(); }
    __device__ constexpr int on_device() { return 1; }
  )cu";
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(Code, Side);
    ASSERT_TRUE(AST);
    EXPECT_EQ(spaceOfFunction(*AST, "twice", AttributePolicy::AsWritten),
              ExecutionSpace::Host);
    EXPECT_EQ(spaceOfLambdaIn(*AST, "with_lambda"), ExecutionSpace::HostDevice);
    EXPECT_EQ(spaceOfLambdaIn(*AST, "with_lambda", AttributePolicy::AsWritten),
              ExecutionSpace::Host);
    for (AttributePolicy Policy : BothPolicies)
      EXPECT_EQ(spaceOfFunction(*AST, "on_device", Policy),
                ExecutionSpace::Device);
  }
}

TEST(ExecutionSpaceTest, IsKernel) {
  auto AST = parseCuda(Functions);
  ASSERT_TRUE(AST);
  for (const char *Name : {"kernel", "kernel_template"}) {
    const auto *FD = findFirst<FunctionDecl>(*AST, functionDecl(hasName(Name)));
    ASSERT_NE(FD, nullptr);
    EXPECT_TRUE(isKernel(*FD)) << Name;
  }
  for (const char *Name : {"host_fn", "device_fn", "host_device_fn"}) {
    const auto *FD = findFirst<FunctionDecl>(*AST, functionDecl(hasName(Name)));
    ASSERT_NE(FD, nullptr);
    EXPECT_FALSE(isKernel(*FD)) << Name;
  }
}

TEST(ExecutionSpaceTest, SpaceSpelledByAttributes) {
  auto AST = parseCuda(R"cu(
    void none() { auto l = [] { return 1; }; }
    void dev() { auto l = [] __device__ { return 1; }; }
    void hd() { auto l = [] __host__ __device__ { return 1; }; }
    void host() { auto l = [] __host__ { return 1; }; }
  )cu");
  ASSERT_TRUE(AST);
  auto Spelled = [&](const std::string &Name) {
    const auto *L = findFirst<LambdaExpr>(
        *AST, lambdaExpr(hasAncestor(functionDecl(hasName(Name)))));
    EXPECT_NE(L, nullptr) << Name;
    llvm::SmallVector<const Attr *, 4> Written;
    if (L)
      for (const Attr *A : L->getCallOperator()->attrs())
        if (!A->isImplicit())
          Written.push_back(A);
    return executionSpaceSpelledBy(Written);
  };
  EXPECT_EQ(Spelled("none"), ExecutionSpace::Host);
  EXPECT_EQ(Spelled("dev"), ExecutionSpace::Device);
  EXPECT_EQ(Spelled("hd"), ExecutionSpace::HostDevice);
  EXPECT_EQ(Spelled("host"), ExecutionSpace::Host);
}

const char *Variables = R"cu(
  int host_var;
  __device__ int device_var;
  __constant__ int constant_var;
  __device__ __constant__ int device_constant_var;
  __managed__ int managed_var;
  __device__ __managed__ int device_managed_var;
  extern __managed__ int redeclared_managed;
  int redeclared_managed = 0;
  constexpr int constexpr_var = 1;
  __device__ constexpr int device_constexpr_var = 1;
  __global__ void kernel() {
    __shared__ int shared_var;
    static __shared__ int static_shared_var;
    int local_var = shared_var + static_shared_var;
  }
)cu";

TEST(ExecutionSpaceTest, VariableSpaceOfWrittenAttributes) {
  for (Pass Side : {Pass::Host, Pass::Device})
    for (AttributePolicy Policy : BothPolicies) {
      auto AST = parseCuda(Variables, Side);
      ASSERT_TRUE(AST);
      auto Of = [&](const std::string &Name) {
        return spaceOfVariable(*AST, Name, Policy);
      };
      EXPECT_EQ(Of("host_var"), VariableSpace::Host);
      EXPECT_EQ(Of("device_var"), VariableSpace::Device);
      EXPECT_EQ(Of("constant_var"), VariableSpace::Constant);
      EXPECT_EQ(Of("device_constant_var"), VariableSpace::Constant);
      // clang drops __managed__ in CUDA: read from the declaration.
      EXPECT_EQ(Of("managed_var"), VariableSpace::Managed);
      EXPECT_EQ(Of("device_managed_var"), VariableSpace::Managed);
      // The definition, written without __managed__, of a variable declared
      // with it.
      const auto *Definition = findFirst<VarDecl>(
          *AST, varDecl(hasName("redeclared_managed"), isDefinition()));
      ASSERT_NE(Definition, nullptr);
      EXPECT_EQ(variableSpaceOf(*Definition, Policy), VariableSpace::Managed);
      EXPECT_EQ(Of("shared_var"), VariableSpace::Shared);
      EXPECT_EQ(Of("static_shared_var"), VariableSpace::Shared);
      EXPECT_EQ(Of("local_var"), VariableSpace::Host);
    }
}

TEST(ExecutionSpaceTest, ImplicitConstantOfConstexprVariable) {
  // In the device pass clang makes a constexpr namespace-scope variable
  // __constant__; nvcc keeps it on the host.
  auto Device = parseCuda(Variables, Pass::Device);
  ASSERT_TRUE(Device);
  EXPECT_EQ(
      spaceOfVariable(*Device, "constexpr_var", AttributePolicy::WithImplicit),
      VariableSpace::Constant);
  EXPECT_EQ(
      spaceOfVariable(*Device, "constexpr_var", AttributePolicy::AsWritten),
      VariableSpace::Host);
  EXPECT_EQ(spaceOfVariable(*Device, "device_constexpr_var",
                            AttributePolicy::AsWritten),
            VariableSpace::Device);
  auto Host = parseCuda(Variables, Pass::Host);
  ASSERT_TRUE(Host);
  for (AttributePolicy Policy : BothPolicies)
    EXPECT_EQ(spaceOfVariable(*Host, "constexpr_var", Policy),
              VariableSpace::Host);
  EXPECT_EQ(spaceOfVariable(*Host, "device_constexpr_var",
                            AttributePolicy::AsWritten),
            VariableSpace::Device);
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
  const auto *L =
      findFirst<LambdaExpr>(*AST, lambdaExpr(isExpansionInMainFile()));
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(executionSpaceOf(*L->getCallOperator()), ExecutionSpace::Host);
}

} // namespace

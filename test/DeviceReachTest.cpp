#include "utils/DeviceReach.h"
#include "CudaAST.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

const FunctionDecl *definitionOf(ASTUnit &AST, const std::string &Name) {
  return findFirst<FunctionDecl>(AST,
                                 functionDecl(hasName(Name), isDefinition()));
}

TEST(DeviceReachTest, PointerParametersThatReachAKernel) {
  auto AST = parseCuda(R"cu(
    __global__ void k(float *p) { p[threadIdx.x] = 0; }
    __global__ void ignores(float *p) {}
    void launch(float *p) { k<<<1, 1>>>(p); }
    void chain(float *q) { launch(q); }
    void unused(float *p) { ignores<<<1, 1>>>(p); }
    void rebound(float *p, float *d) { p = d; k<<<1, 1>>>(p); }
    void captured(float *p) {
      auto f = [p] __device__ (int i) { p[i] = 1; };
      (void)f;
    }
  )cu");
  ASSERT_TRUE(AST);
  DeviceReach Reach;
  const DeviceReachPath *Launch = Reach.pointerParameter(*definitionOf(*AST, "launch"), 0);
  ASSERT_NE(Launch, nullptr);
  EXPECT_TRUE(Launch->Steps.empty());
  EXPECT_EQ(Launch->Crossing.Kind, CrossingKind::KernelArgument);
  const DeviceReachPath *Chain = Reach.pointerParameter(*definitionOf(*AST, "chain"), 0);
  ASSERT_NE(Chain, nullptr);
  ASSERT_EQ(Chain->Steps.size(), 1u);
  EXPECT_EQ(Chain->Steps[0].Callee->getName(), "launch");
  EXPECT_EQ(Reach.pointerParameter(*definitionOf(*AST, "unused"), 0), nullptr);
  EXPECT_EQ(Reach.pointerParameter(*definitionOf(*AST, "rebound"), 0), nullptr);
  const DeviceReachPath *Captured =
      Reach.pointerParameter(*definitionOf(*AST, "captured"), 0);
  ASSERT_NE(Captured, nullptr);
  EXPECT_EQ(Captured->Crossing.Kind, CrossingKind::LambdaCapture);
}

TEST(DeviceReachTest, HostDeviceLambdasThroughLaunchWrappers) {
  auto AST = parseCuda(R"cu(
    template <class F> __global__ void each(int n, F f) { f(threadIdx.x); }
    bool gpu();
    template <class F> void forall(int n, F &&f) {
      if (gpu()) each<<<1, 1>>>(n, f); else for (int i = 0; i < n; ++i) f(i);
    }
    template <class F> void labelled(const char *, int n, const F &f) { forall(n, f); }
    template <class F> void host_only(int n, F f) { for (int i = 0; i < n; ++i) f(i); }
    void user(float *d) {
      labelled("x", 4, [=] __host__ __device__ (int i) { d[i] = 0; });
      host_only(4, [=] __host__ __device__ (int i) { d[i] = 1; });
    }
  )cu");
  ASSERT_TRUE(AST);
  const FunctionDecl *User = definitionOf(*AST, "user");
  ASSERT_NE(User, nullptr);
  DeviceReach Reach;
  std::vector<const LambdaExpr *> Lambdas;
  for (const BoundaryCrossing &C : Reach.sitesOf(*User).Crossings)
    if (C.Lambda && (Lambdas.empty() || Lambdas.back() != C.Lambda))
      Lambdas.push_back(C.Lambda);
  ASSERT_EQ(Lambdas.size(), 2u);
  const DeviceReachPath *Wrapped = Reach.lambda(*User, *Lambdas[0]);
  ASSERT_NE(Wrapped, nullptr);
  ASSERT_EQ(Wrapped->Steps.size(), 2u);
  EXPECT_EQ(Wrapped->Steps[0].Callee->getName(), "labelled");
  EXPECT_EQ(Wrapped->Steps[1].Callee->getName(), "forall");
  EXPECT_EQ(Wrapped->Crossing.Kind, CrossingKind::KernelArgument);
  EXPECT_EQ(Reach.lambda(*User, *Lambdas[1]), nullptr);
}

} // namespace

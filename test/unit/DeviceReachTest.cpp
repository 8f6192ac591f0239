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

TEST(DeviceReachTest, KernelsInstantiatedWithATypeThroughDriverObjects) {
  auto AST = parseCuda(R"cu(
    template <class D> __global__ void run_driver(D d) { d(); }
    template <class F> struct DeviceFor {
      F f;
      __device__ void operator()() const { f(threadIdx.x); }
      void execute() const {
        void (*k)(DeviceFor) = run_driver<DeviceFor>;
        k<<<1, 1>>>(*this);
      }
    };
    template <class F> struct HostFor {
      F f;
      void execute() const { f(0); }
    };
    template <class F> void device_for(const F &f) { DeviceFor<F>{f}.execute(); }
    template <class F> void host_for(const F &f) { HostFor<F>{f}.execute(); }
    struct OnDevice { __host__ __device__ void operator()(int) const {} };
    struct OnHost { __host__ __device__ void operator()(int) const {} };
    void user() {
      device_for(OnDevice{});
      host_for(OnHost{});
      device_for([] __host__ __device__ (int) {});
    }
  )cu");
  ASSERT_TRUE(AST);
  DeviceReach Reach;
  auto Record = [&](const std::string &Name) {
    return findFirst<CXXRecordDecl>(*AST, cxxRecordDecl(hasName(Name), isDefinition()));
  };
  const FunctionDecl *Kernel = Reach.kernelInstantiatedWith(*Record("OnDevice"));
  ASSERT_NE(Kernel, nullptr);
  EXPECT_EQ(Kernel->getName(), "run_driver");
  EXPECT_EQ(Reach.kernelInstantiatedWith(*Record("OnHost")), nullptr);
  const LambdaExpr *Lambda =
      findFirst<LambdaExpr>(*AST, lambdaExpr(isExpansionInMainFile()));
  ASSERT_NE(Lambda, nullptr);
  EXPECT_NE(Reach.kernelInstantiatedWith(*Lambda->getLambdaClass()), nullptr);

  // From the wrappers' instantiations: the device driver's kernel is a few
  // calls under device_for, none is under host_for.
  const FunctionDecl *DeviceFor = findFirst<FunctionDecl>(
      *AST, functionDecl(hasName("device_for"), isTemplateInstantiation(),
                         hasTemplateArgument(
                             0, refersToType(hasDeclaration(
                                    cxxRecordDecl(hasName("OnDevice")))))));
  const FunctionDecl *HostFor = findFirst<FunctionDecl>(
      *AST, functionDecl(hasName("host_for"), isTemplateInstantiation()));
  ASSERT_NE(DeviceFor, nullptr);
  ASSERT_NE(HostFor, nullptr);
  EXPECT_NE(Reach.kernelUnder(*DeviceFor, *Record("OnDevice")), nullptr);
  EXPECT_EQ(Reach.kernelUnder(*HostFor, *Record("OnHost")), nullptr);
  EXPECT_EQ(Reach.kernelUnder(*DeviceFor, *Record("OnHost")), nullptr);
}

TEST(DeviceReachTest, ForwardedTemplateParameters) {
  auto AST = parseCuda(R"cu(
    #include <utility>
    template <class T> T keep(const T &t) { return t; }
    template <class F> __global__ void each(F f) { f(threadIdx.x); }
    template <class F> void impl(int n, F f) { auto body = keep(f); each<<<1, 1>>>(body); }
    template <class... A> void any(A &&...a) { impl(std::forward<A>(a)...); }
    struct Op { __host__ __device__ void operator()(int) const {} };
    void fixed(Op op) { each<<<1, 1>>>(op); }
    void user() { any(4, Op{}); }
  )cu");
  ASSERT_TRUE(AST);
  // The launch in impl<Op> names its own template parameter through a
  // local copy and keep(); the one in fixed names a parameter whose type
  // the function fixes.
  const CUDAKernelCallExpr *InImpl = findFirst<CUDAKernelCallExpr>(
      *AST, cudaKernelCallExpr(hasAncestor(
                functionDecl(hasName("impl"), isTemplateInstantiation()))));
  ASSERT_NE(InImpl, nullptr);
  const ParmVarDecl *Forwarded = forwardedTemplateParameter(InImpl->getArg(0));
  ASSERT_NE(Forwarded, nullptr);
  EXPECT_EQ(Forwarded->getName(), "f");
  const CUDAKernelCallExpr *Fixed = findFirst<CUDAKernelCallExpr>(
      *AST, cudaKernelCallExpr(hasAncestor(functionDecl(hasName("fixed")))));
  ASSERT_NE(Fixed, nullptr);
  EXPECT_EQ(forwardedTemplateParameter(Fixed->getArg(0)), nullptr);
  // The pack element of any<int, Op> that holds the Op: a parameter of the
  // pattern's pack.
  const FunctionDecl *Any = findFirst<FunctionDecl>(
      *AST, functionDecl(hasName("any"), isTemplateInstantiation()));
  ASSERT_NE(Any, nullptr);
  ASSERT_EQ(Any->getNumParams(), 2u);
  DeviceReach Reach;
  const DeviceReachPath *Path = Reach.callableParameter(*Any, 1);
  ASSERT_NE(Path, nullptr);
  ASSERT_EQ(Path->Steps.size(), 1u);
  EXPECT_EQ(Path->Steps[0].Callee->getName(), "impl");
  EXPECT_NE(forwardedTemplateParameter(Path->Crossing.Value), nullptr);
}

} // namespace

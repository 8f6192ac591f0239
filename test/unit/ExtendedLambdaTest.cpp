#include "CudaAST.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "gtest/gtest.h"
#include <cstdio>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// The kind of the lambda assigned to the variable \p Var.
ExtendedLambdaKind kindOf(ASTUnit &AST, const std::string &Var) {
  const auto *L = findFirst<LambdaExpr>(
      AST, lambdaExpr(hasParent(varDecl(hasName(Var)))));
  EXPECT_NE(L, nullptr) << Var;
  return L ? extendedLambdaKindOf(*L) : ExtendedLambdaKind::None;
}

TEST(ExtendedLambdaTest, KindsInHostCode) {
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(R"cu(
      void host_fn(int k) {
        auto plain = [] { return 1; };
        auto dev = [] __device__ (int i) { return i; };
        auto hd = [=] __host__ __device__ (int i) { return i * k; };
        auto host_only = [] __host__ (int i) { return i; };
      }
    )cu", Side);
    ASSERT_TRUE(AST);
    EXPECT_EQ(kindOf(*AST, "plain"), ExtendedLambdaKind::None);
    EXPECT_EQ(kindOf(*AST, "dev"), ExtendedLambdaKind::Device);
    EXPECT_EQ(kindOf(*AST, "hd"), ExtendedLambdaKind::HostDevice);
    EXPECT_EQ(kindOf(*AST, "host_only"), ExtendedLambdaKind::None);
  }
}

TEST(ExtendedLambdaTest, HostDeviceFunctionsHoldExtendedLambdas) {
  auto AST = parseCuda(R"cu(
    __host__ __device__ void hd_fn() { auto dev = [] __device__ {}; }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(kindOf(*AST, "dev"), ExtendedLambdaKind::Device);
}

TEST(ExtendedLambdaTest, NothingInDeviceCodeIsExtended) {
  auto AST = parseCuda(R"cu(
    __device__ void dev_fn() {
      auto annotated = [] __device__ {};
      auto plain = [] {};
      auto outer = [] { auto nested = [] __device__ {}; };
    }
    __global__ void kernel() { auto in_kernel = [] __host__ __device__ {}; }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(kindOf(*AST, "annotated"), ExtendedLambdaKind::None);
  EXPECT_EQ(kindOf(*AST, "plain"), ExtendedLambdaKind::None);
  EXPECT_EQ(kindOf(*AST, "nested"), ExtendedLambdaKind::None);
  EXPECT_EQ(kindOf(*AST, "in_kernel"), ExtendedLambdaKind::None);
}

TEST(ExtendedLambdaTest, NamespaceScopeIsNeverExtended) {
  auto AST = parseCuda("auto global = [] __host__ __device__ {};");
  ASSERT_TRUE(AST);
  EXPECT_EQ(kindOf(*AST, "global"), ExtendedLambdaKind::None);
  const auto *L = findFirst<LambdaExpr>(*AST, lambdaExpr(isExpansionInMainFile()));
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(annotationOf(*L), ExtendedLambdaKind::HostDevice);
  EXPECT_EQ(enclosingFunctionOf(*L).Function, nullptr);
}

TEST(ExtendedLambdaTest, EnclosingFunctionSkipsLambdas) {
  auto AST = parseCuda(R"cu(
    void outer_fn() {
      auto a = [] {
        auto b = [] __device__ {
          auto innermost = [] __device__ {};
        };
      };
    }
  )cu");
  ASSERT_TRUE(AST);
  const auto *Innermost = findFirst<LambdaExpr>(
      *AST, lambdaExpr(hasParent(varDecl(hasName("innermost")))));
  ASSERT_NE(Innermost, nullptr);
  EnclosingFunction Enclosing = enclosingFunctionOf(*Innermost);
  ASSERT_NE(Enclosing.Function, nullptr);
  EXPECT_EQ(Enclosing.Function->getName(), "outer_fn");
  ASSERT_EQ(Enclosing.LambdasBetween.size(), 2u);
  // Innermost first: b's call operator (annotated), then a's (plain).
  EXPECT_TRUE(hasExplicitDeviceAttr(*Enclosing.LambdasBetween[0]));
  EXPECT_FALSE(hasExplicitDeviceAttr(*Enclosing.LambdasBetween[1]));
  // The body of a __device__ lambda is device code: an annotated lambda in
  // it is not extended (nvcc accepts it).
  EXPECT_EQ(extendedLambdaKindOf(*Innermost), ExtendedLambdaKind::None);
}

TEST(ExtendedLambdaTest, InsideHostDeviceLambdaStillExtended) {
  auto AST = parseCuda(R"cu(
    void outer_fn() {
      auto hd = [] __host__ __device__ {
        auto in_hd = [] __device__ {};
      };
      auto dev = [] __device__ {
        auto in_dev = [] __host__ __device__ {};
      };
      auto plain = [] { auto in_plain = [] __device__ {}; };
    }
  )cu");
  ASSERT_TRUE(AST);
  // nvcc rejects this one; cuda-lambda-enclosing-function reports it.
  EXPECT_EQ(kindOf(*AST, "in_hd"), ExtendedLambdaKind::Device);
  EXPECT_EQ(kindOf(*AST, "in_dev"), ExtendedLambdaKind::None);
  EXPECT_EQ(kindOf(*AST, "in_plain"), ExtendedLambdaKind::Device);
}

TEST(ExtendedLambdaTest, MemberFunctionIsTheEnclosingFunction) {
  auto AST = parseCuda(R"cu(
    struct Widget {
      int m;
      void run() { auto l = [=] __device__ { return m; }; }
    };
  )cu");
  ASSERT_TRUE(AST);
  const auto *L = findFirst<LambdaExpr>(*AST, lambdaExpr(isExpansionInMainFile()));
  ASSERT_NE(L, nullptr);
  EnclosingFunction Enclosing = enclosingFunctionOf(*L);
  ASSERT_NE(Enclosing.Function, nullptr);
  EXPECT_EQ(Enclosing.Function->getName(), "run");
  EXPECT_TRUE(Enclosing.LambdasBetween.empty());
  EXPECT_TRUE(isExtendedLambda(*L));
}

TEST(ExtendedLambdaTest, MatcherAgreesWithHelper) {
  auto AST = parseCuda(R"cu(
    void f() { auto plain = [] {}; auto dev = [] __device__ {}; }
  )cu");
  ASSERT_TRUE(AST);
  auto Found = match(lambdaExpr(isExtendedLambda()).bind("n"),
                     AST->getASTContext());
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(extendedLambdaKindOf(*Found.front().getNodeAs<LambdaExpr>("n")),
            ExtendedLambdaKind::Device);
}

// The kinds are remembered per AST: a later AST of the same shape (an
// editor's next parse) may put its lambdas at the addresses of the last
// one's, and must not be answered from it. Whether this run's allocator did
// is printed: where it did not, the test shows only that each AST gets its
// own answers.
TEST(ExtendedLambdaTest, KindsAreForgottenWithTheirAST) {
  const char *Annotations[] = {"__device__", "__host__", "__device__",
                               "__host__"};
  const ExtendedLambdaKind Expected[] = {
      ExtendedLambdaKind::Device, ExtendedLambdaKind::None,
      ExtendedLambdaKind::Device, ExtendedLambdaKind::None};
  const void *LastAddress = nullptr;
  unsigned SameAddress = 0;
  for (unsigned I = 0; I < 4; ++I) {
    auto AST = parseCuda(std::string("void host_fn() { auto lam = [] ") +
                         Annotations[I] + " (int i) { return i; }; }");
    ASSERT_TRUE(AST);
    const auto *L = findFirst<LambdaExpr>(
        *AST, lambdaExpr(hasParent(varDecl(hasName("lam")))));
    ASSERT_NE(L, nullptr);
    SameAddress += L == LastAddress;
    LastAddress = L;
    EXPECT_EQ(extendedLambdaKindOf(*L), Expected[I]) << Annotations[I];
    // Asked twice: the second answer comes from the cache.
    EXPECT_EQ(extendedLambdaKindOf(*L), Expected[I]) << Annotations[I];
  }
  // Not an assertion: the allocator decides.
  std::printf("%u of 3 later ASTs put the lambda where the last one had it\n",
              SameAddress);
}

} // namespace

#include "utils/LambdaReach.h"
#include "CudaAST.h"
#include "utils/LambdaSyntax.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

const CXXRecordDecl *closureOf(ASTUnit &AST, const std::string &Var) {
  const auto *L = findFirst<LambdaExpr>(
      AST, lambdaExpr(hasAncestor(varDecl(hasName(Var)))));
  EXPECT_NE(L, nullptr) << Var;
  return L ? L->getLambdaClass() : nullptr;
}

const char *const Kernels = R"cu(
  template <typename F> __global__ void apply(F f, int *out) { out[0] = f(1); }
  template <typename F> __global__ void sized(int *out) { out[0] = sizeof(F); }
  template <typename F> struct Box { F f; };
  template <typename F> void launch(F f, int *out) { apply<<<1, 1>>>(f, out); }
  template <typename F> void twice(F f, int *out) { launch(f, out); launch(f, out); }
  template <typename F> int on_host(F f) { return f(2); }
)cu";

TEST(LambdaReachTest, FindsEveryWayIntoAKernel) {
  auto AST = parseCuda(std::string(Kernels) + R"cu(
    void user(int *out) {
      auto direct = [](int i) { return i; };
      auto through_decltype = [](int i) { return i; };
      auto nested = [](int i) { return i; };
      auto wrapped = [](int i) { return i; };
      auto deep = [](int i) { return i; };
      auto host_only = [](int i) { return i; };
      apply<<<1, 1>>>(direct, out);
      sized<decltype(through_decltype)><<<1, 1>>>(out);
      sized<Box<decltype(nested)>><<<1, 1>>>(out);
      launch(wrapped, out);
      twice(deep, out);
      out[1] = on_host(host_only);
    }
  )cu");
  ASSERT_TRUE(AST);
  LambdaReach Reach(AST->getASTContext());
  for (const char *Var : {"direct", "through_decltype", "nested"}) {
    auto Entries = Reach.entriesOf(*closureOf(*AST, Var));
    ASSERT_EQ(Entries.size(), 1u) << Var;
    EXPECT_EQ(Entries[0].Through, nullptr) << Var;
  }
  auto Wrapped = Reach.entriesOf(*closureOf(*AST, "wrapped"));
  ASSERT_EQ(Wrapped.size(), 1u);
  ASSERT_NE(Wrapped[0].Through, nullptr);
  EXPECT_EQ(Wrapped[0].Through->getName(), "launch");
  EXPECT_EQ(Wrapped[0].Kernel->getName(), "apply");
  auto Deep = Reach.entriesOf(*closureOf(*AST, "deep"));
  ASSERT_EQ(Deep.size(), 1u);
  EXPECT_EQ(Deep[0].Through->getName(), "twice");
  EXPECT_TRUE(Reach.entriesOf(*closureOf(*AST, "host_only")).empty());
  EXPECT_TRUE(Reach.isCalledOnHost(*closureOf(*AST, "host_only")));
  // Called only inside the kernel: not on the host.
  EXPECT_FALSE(Reach.isCalledOnHost(*closureOf(*AST, "direct")));
}

TEST(LambdaReachTest, OneEntryPerSiteInSourceOrder) {
  auto AST = parseCuda(std::string(Kernels) + R"cu(
    void user(int *out) {
      auto l = [](int i) { return i; };
      launch(l, out);
      apply<<<1, 1>>>(l, out);
    }
  )cu");
  ASSERT_TRUE(AST);
  LambdaReach Reach(AST->getASTContext());
  auto Entries = Reach.entriesOf(*closureOf(*AST, "l"));
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_NE(Entries[0].Through, nullptr);
  EXPECT_EQ(Entries[1].Through, nullptr);
}

TEST(LambdaSyntaxTest, AnnotationAfterTheParameterList) {
  auto AST = parseCuda(R"cu(
    void f() {
      auto after = [](int i) __device__ { return i; };
      auto before = [] __device__ (int i) { return i; };
      auto spec = [] __device__ (int i) constexpr { return i; };
    }
  )cu");
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  auto lambda = [&](const char *Var) {
    return findFirst<LambdaExpr>(
        *AST, lambdaExpr(hasAncestor(varDecl(hasName(Var)))));
  };
  const LambdaExpr *After = lambda("after"), *Before = lambda("before");
  ASSERT_TRUE(After && Before);
  ASSERT_EQ(executionSpaceAttrsOf(*After).size(), 1u);
  EXPECT_TRUE(
      isAfterParameterList(*executionSpaceAttrsOf(*After)[0], *After, SM));
  EXPECT_FALSE(
      isAfterParameterList(*executionSpaceAttrsOf(*Before)[0], *Before, SM));
  EXPECT_EQ(variableNameOf(*After), "after");
  const LangOptions &LO = AST->getASTContext().getLangOpts();
  EXPECT_FALSE(constexprSpecifierOf(*Before, SM, LO));
  // Implicitly constexpr in the AST, but only 'spec' says so in the source.
  EXPECT_TRUE(Before->getCallOperator()->isConstexpr());
  EXPECT_TRUE(constexprSpecifierOf(*lambda("spec"), SM, LO));
}

} // namespace

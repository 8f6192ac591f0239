#include "utils/EnclosingVariableUses.h"
#include "CudaAST.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// The uses in the lambda assigned to \p Var, as "name" or "name@constexpr".
std::vector<std::string> usesIn(ASTUnit &AST, const std::string &Var) {
  const auto *L =
      findFirst<LambdaExpr>(AST, lambdaExpr(isExpansionInMainFile(),
                                            hasParent(varDecl(hasName(Var)))));
  EXPECT_NE(L, nullptr) << Var;
  std::vector<std::string> Result;
  if (!L)
    return Result;
  for (const EnclosingVariableUse &Use : enclosingVariableUsesOf(*L))
    Result.push_back((Use.Var ? Use.Var->getName().str() : "this") +
                     (Use.InIfConstexpr ? "@constexpr" : ""));
  return Result;
}

using Uses = std::vector<std::string>;

TEST(EnclosingVariableUsesTest, NamesInSourceOrder) {
  auto AST = parseCuda(R"cu(
    static int global_static;
    struct M {
      int m;
      void f(int a, int b) {
        const int k = 2;
        static int s;
        auto l = [=] __device__ (int p) {
          int own = p + a;
          if constexpr (true) { own += b + k + m; }
          auto inner = [=] { return a + own; };
          return own + s + global_static + sizeof(b) + inner();
        };
      }
    };
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(usesIn(*AST, "l"),
            (Uses{"a", "b@constexpr", "k@constexpr", "this@constexpr", "a"}));
}

TEST(EnclosingVariableUsesTest, TemplatePatternsAndUnevaluatedOperands) {
  auto AST = parseCuda(R"cu(
    template <int N, typename T> void f(T t, int n) {
      auto l = [=] __device__ () {
        if constexpr (N > 1) { return t + n; }
        decltype(t) x = t;
        return x + noexcept(n) + sizeof(n);
      };
    }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(usesIn(*AST, "l"), (Uses{"t@constexpr", "n@constexpr", "t"}));
}

TEST(EnclosingVariableUsesTest, LocalClassesHaveTheirOwnThis) {
  auto AST = parseCuda(R"cu(
    struct M {
      int m;
      void f() {
        auto l = [=] __device__ () {
          struct Local { int v; int get() { return this->v; } };
          return Local{m}.get();
        };
      }
    };
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(usesIn(*AST, "l"), (Uses{"this"}));
}

} // namespace

#include "utils/TypeFacts.h"
#include "CudaAST.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::cuda::utils::findStdFunctionIn;
using clang::tidy::cuda::utils::isStdFunction;
using clang::tidy::cuda::utils::StdFunctionInType;
using namespace cuda_lambda_tidy::test;

namespace {

const char *Types = R"cu(
  #include <functional>
  using Fn = std::function<int(int)>;
  struct Plain { int a; float b; };
  struct Holder { int k; Fn f; };
  struct Outer { int n; Holder inner[2]; };
  struct Derived : Holder {};
  struct ByPointer { Fn *p; Holder *h; };
  namespace mine { template <typename> struct function {}; }
  template <typename T> void generic(std::function<T(T)> g);

  void plain(Plain);
  void itself(Fn);
  void alias_ref(const Fn &);
  void pointer(Fn *);
  void array(Fn (&)[3]);
  void holder(Holder);
  void outer(Outer);
  void derived(Derived);
  void holder_ref(const Holder &);
  void holder_ptr(Holder *);
  void by_pointer(ByPointer);
  void lookalike(mine::function<int(int)>);
)cu";

std::optional<StdFunctionInType> firstParamOf(ASTUnit &AST,
                                              const std::string &Name) {
  const auto *FD = findFirst<FunctionDecl>(AST, functionDecl(hasName(Name)));
  EXPECT_NE(FD, nullptr) << Name;
  if (!FD)
    return std::nullopt;
  return findStdFunctionIn(FD->getParamDecl(0)->getType());
}

TEST(TypeFactsTest, DeclaresNvstdNamespaceOnlyWithIt) {
  auto Without = parseCuda(R"cu(
    namespace other { namespace nvstd { template <typename> class function; } }
    void f() {}
  )cu");
  ASSERT_TRUE(Without);
  EXPECT_FALSE(clang::tidy::cuda::utils::declaresNvstdNamespace(
      Without->getASTContext()));
  auto With = parseCuda(R"cu(
    extern "C++" { namespace nvstd { template <typename> class function; } }
    void f() {}
  )cu");
  ASSERT_TRUE(With);
  EXPECT_TRUE(clang::tidy::cuda::utils::declaresNvstdNamespace(
      With->getASTContext()));
}

TEST(TypeFactsTest, FindsStdFunctionItselfAndThroughIndirection) {
  auto AST = parseCuda(Types);
  ASSERT_TRUE(AST);
  EXPECT_FALSE(firstParamOf(*AST, "plain"));
  for (const char *Name : {"itself", "alias_ref"}) {
    auto Found = firstParamOf(*AST, Name);
    ASSERT_TRUE(Found) << Name;
    EXPECT_EQ(Found->How, StdFunctionInType::Itself) << Name;
    EXPECT_EQ(Found->FunctionType.getAsString(
                  AST->getASTContext().getPrintingPolicy()),
              "std::function<int (int)>");
  }
  for (const char *Name : {"pointer", "array"}) {
    auto Found = firstParamOf(*AST, Name);
    ASSERT_TRUE(Found) << Name;
    EXPECT_EQ(Found->How, StdFunctionInType::Pointee) << Name;
  }
}

TEST(TypeFactsTest, FindsMembersOfClassesHeldByValue) {
  auto AST = parseCuda(Types);
  ASSERT_TRUE(AST);
  auto InHolder = firstParamOf(*AST, "holder");
  ASSERT_TRUE(InHolder);
  EXPECT_TRUE(InHolder->isMember());
  EXPECT_EQ(InHolder->memberPath(), "f");
  auto InOuter = firstParamOf(*AST, "outer");
  ASSERT_TRUE(InOuter);
  EXPECT_EQ(InOuter->memberPath(), "inner.f");
  auto InBase = firstParamOf(*AST, "derived");
  ASSERT_TRUE(InBase);
  EXPECT_EQ(InBase->memberPath(), "f");
}

TEST(TypeFactsTest, MembersBehindReferencesOrPointersDoNotCount) {
  auto AST = parseCuda(Types);
  ASSERT_TRUE(AST);
  EXPECT_FALSE(firstParamOf(*AST, "holder_ref"));
  EXPECT_FALSE(firstParamOf(*AST, "holder_ptr"));
  EXPECT_FALSE(firstParamOf(*AST, "by_pointer"));
}

TEST(TypeFactsTest, OnlyStdsFunction) {
  auto AST = parseCuda(Types);
  ASSERT_TRUE(AST);
  EXPECT_FALSE(firstParamOf(*AST, "lookalike"));
  // A dependent specialization in a template's pattern is recognised too.
  const auto *Generic =
      findFirst<FunctionDecl>(*AST, functionDecl(hasName("generic")));
  ASSERT_NE(Generic, nullptr);
  EXPECT_TRUE(isStdFunction(Generic->getParamDecl(0)->getType()));
}

} // namespace

namespace {

TEST(TypeFactsTest, QualifiedNameLeavesOutInlineNamespaces) {
  auto AST = parseCuda(R"cu(
    namespace lib { inline namespace v4 { struct Trait {}; } }
    struct Outer { struct Inner {}; };
  )cu");
  ASSERT_TRUE(AST);
  const auto *Trait = findFirst<CXXRecordDecl>(*AST, cxxRecordDecl(hasName("Trait")));
  const auto *Inner = findFirst<CXXRecordDecl>(*AST, cxxRecordDecl(hasName("Inner")));
  ASSERT_TRUE(Trait && Inner);
  EXPECT_EQ(clang::tidy::cuda::utils::qualifiedNameWithoutInline(*Trait), "lib::Trait");
  EXPECT_EQ(clang::tidy::cuda::utils::qualifiedNameWithoutInline(*Inner), "");
}

} // namespace

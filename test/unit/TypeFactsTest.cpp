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

namespace {

using clang::tidy::cuda::utils::findHostOwningPart;
using clang::tidy::cuda::utils::HostOwningPart;

const char *OwningTypes = R"cu(
  #include <array>
  #include <map>
  #include <memory>
  #include <string>
  #include <tuple>
  #include <unordered_set>
  #include <utility>
  #include <vector>
  template <typename T> struct DeviceAlloc {
    using value_type = T;
    T *allocate(unsigned long);
    void deallocate(T *, unsigned long);
  };
  template <typename T, typename A = std::allocator<T>> struct FrameworkVec {
    T *p; unsigned long n; A alloc;
  };
  template <typename T> class Vec : public std::vector<T> {};
  struct Params { int n; std::vector<float> w; };
  struct Outer { float k; Params inner[2]; };
  struct ViaBase : Params {};
  struct Plain { int a; float *p; std::array<float, 4> c; std::pair<int, float> q; };
  struct ByPointer { std::vector<float> *v; const Params &r; };
  struct Tracker { void *record; };
  struct View { float *data; Tracker tracker; };
  template <typename T> void generic(std::vector<T>);
  Vec<double> instantiated;
  std::tuple<int, std::string> instantiated_tuple;

  void vec(std::vector<float>);
  void str(std::string);
  void map(std::map<int, float>);
  void uset(std::unordered_set<int>);
  void unique(std::unique_ptr<int[]>);
  void shared(std::shared_ptr<float>);
  void framework(FrameworkVec<int>);
  void derived(Vec<double>);
  void params(Params);
  void outer(Outer);
  void via_base(ViaBase);
  void tuple(std::tuple<int, std::string>);
  void custom_alloc(std::vector<float, DeviceAlloc<float>>);
  void custom_deleter(std::unique_ptr<float, void (*)(float *)>);
  void framework_device(FrameworkVec<int, DeviceAlloc<int>>);
  void plain(Plain);
  void by_pointer(ByPointer);
  void view(View);
  void vec_ref(const std::vector<float> &);
  void vec_ptr(std::vector<float> *);
)cu";

std::optional<HostOwningPart> owningPartOf(ASTUnit &AST,
                                           const std::string &Name) {
  const auto *FD = findFirst<FunctionDecl>(AST, functionDecl(hasName("::" + Name)));
  EXPECT_NE(FD, nullptr) << Name;
  if (!FD)
    return std::nullopt;
  return findHostOwningPart(FD->getParamDecl(0)->getType());
}

std::string typeName(ASTUnit &AST, QualType Type) {
  PrintingPolicy Policy = AST.getASTContext().getPrintingPolicy();
  Policy.SuppressDefaultTemplateArgs = true;
  return Type.getAsString(Policy);
}

TEST(TypeFactsTest, StandardOwnersAreHostOwning) {
  auto AST = parseCuda(OwningTypes);
  ASSERT_TRUE(AST);
  for (const char *Name : {"vec", "str", "map", "uset", "unique",
                           "shared", "framework", "tuple"}) {
    auto Part = owningPartOf(*AST, Name);
    ASSERT_TRUE(Part) << Name;
    if (std::string(Name) != "tuple")
      EXPECT_TRUE(Part->isItself()) << Name;
  }
  EXPECT_EQ(typeName(*AST, owningPartOf(*AST, "vec")->OwningType),
            "std::vector<float>");
}

TEST(TypeFactsTest, OwnerFoundThroughBasesAndMembers) {
  auto AST = parseCuda(OwningTypes);
  ASSERT_TRUE(AST);
  auto Derived = owningPartOf(*AST, "derived");
  ASSERT_TRUE(Derived);
  ASSERT_EQ(Derived->Steps.size(), 1u);
  EXPECT_NE(Derived->Steps[0].Base, nullptr);
  EXPECT_EQ(Derived->memberPath(), "");
  EXPECT_EQ(typeName(*AST, Derived->OwningType), "std::vector<double>");

  auto Params = owningPartOf(*AST, "params");
  ASSERT_TRUE(Params);
  ASSERT_EQ(Params->Steps.size(), 1u);
  EXPECT_EQ(Params->memberPath(), "w");
  EXPECT_EQ(Params->Steps[0].Within->getName(), "Params");

  auto Outer = owningPartOf(*AST, "outer");
  ASSERT_TRUE(Outer);
  EXPECT_EQ(Outer->memberPath(), "inner.w");

  auto ViaBase = owningPartOf(*AST, "via_base");
  ASSERT_TRUE(ViaBase);
  ASSERT_EQ(ViaBase->Steps.size(), 2u);
  EXPECT_NE(ViaBase->Steps[0].Base, nullptr);
  EXPECT_EQ(ViaBase->memberPath(), "w");
}

TEST(TypeFactsTest, OtherAllocatorsViewsAndIndirectionAreNotHostOwning) {
  auto AST = parseCuda(OwningTypes);
  ASSERT_TRUE(AST);
  for (const char *Name : {"custom_alloc", "custom_deleter", "framework_device",
                           "plain", "by_pointer", "view", "vec_ref",
                           "vec_ptr"})
    EXPECT_FALSE(owningPartOf(*AST, Name)) << Name;
  // A dependent type is not judged.
  const auto *Generic =
      findFirst<FunctionDecl>(*AST, functionDecl(hasName("generic")));
  ASSERT_NE(Generic, nullptr);
  EXPECT_FALSE(findHostOwningPart(Generic->getParamDecl(0)->getType()));
}

} // namespace

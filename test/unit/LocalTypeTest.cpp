#include "utils/LocalType.h"
#include "CudaAST.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// The name of the local type found in the type of variable \p Var, or "".
std::string localTypeIn(ASTUnit &AST, const std::string &Var) {
  const auto *D =
      findFirst<VarDecl>(AST, varDecl(hasName(Var), isExpansionInMainFile()));
  EXPECT_NE(D, nullptr) << Var;
  if (!D)
    return "";
  const TagDecl *Found = findFunctionLocalType(D->getType());
  if (!Found)
    return "";
  return Found->getName().empty() ? "<closure>" : Found->getName().str();
}

TEST(LocalTypeTest, FindsLocalTypesWhereNvccLooks) {
  auto AST = parseCuda(R"cu(
    template <typename T> struct Box { T value; struct Inner {}; };
    struct Global { struct Member {}; };
    void f() {
      struct S { int v; };
      enum E { A };
      struct Outer { struct In {}; };
      S s; E e = A; S arr[2]; S *ptr; int S::*member;
      Box<S> boxed; Box<S>::Inner inner; Outer::In in;
      auto plain = [] {};
      auto dev = [] __device__ {};
      Box<decltype(plain)> boxed_closure;
      void (*callback)(S *); S (*factory)();
      Global g; Global::Member m; Box<int> bi; int i;
      using Alias = S; Alias alias;
    }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(localTypeIn(*AST, "s"), "S");
  EXPECT_EQ(localTypeIn(*AST, "e"), "E");
  EXPECT_EQ(localTypeIn(*AST, "arr"), "S");
  EXPECT_EQ(localTypeIn(*AST, "ptr"), "S");
  EXPECT_EQ(localTypeIn(*AST, "member"), "S");
  EXPECT_EQ(localTypeIn(*AST, "boxed"), "S");
  EXPECT_EQ(localTypeIn(*AST, "inner"), "S");
  EXPECT_EQ(localTypeIn(*AST, "in"), "In");
  EXPECT_EQ(localTypeIn(*AST, "plain"), "<closure>");
  EXPECT_EQ(localTypeIn(*AST, "boxed_closure"), "<closure>");
  EXPECT_EQ(localTypeIn(*AST, "alias"), "S");
  // nvcc names these: extended closures, function types, non-local types.
  EXPECT_EQ(localTypeIn(*AST, "dev"), "");
  EXPECT_EQ(localTypeIn(*AST, "callback"), "");
  EXPECT_EQ(localTypeIn(*AST, "factory"), "");
  EXPECT_EQ(localTypeIn(*AST, "g"), "");
  EXPECT_EQ(localTypeIn(*AST, "m"), "");
  EXPECT_EQ(localTypeIn(*AST, "bi"), "");
  EXPECT_EQ(localTypeIn(*AST, "i"), "");
}

TEST(LocalTypeTest, DependentTypesHaveNoAnswer) {
  auto AST = parseCuda(R"cu(
    template <typename T> void f(T t) { T copy = t; }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(localTypeIn(*AST, "copy"), "");
}

/// What findUnnameableType says of the type of variable \p Var: the kind
/// and the type's name, "" when nvcc can name it.
std::string unnameableIn(ASTUnit &AST, const std::string &Var) {
  const auto *D =
      findFirst<VarDecl>(AST, varDecl(hasName(Var), isExpansionInMainFile()));
  EXPECT_NE(D, nullptr) << Var;
  if (!D)
    return "";
  const auto Found = findUnnameableType(D->getType());
  if (!Found)
    return "";
  static const char *const Kinds[] = {"local", "closure", "private",
                                      "protected", "unnamed"};
  return std::string(Kinds[static_cast<int>(Found->Kind)]) + ":" +
         Found->Decl->getName().str();
}

TEST(LocalTypeTest, FindsTypesNvccCannotNameFromNamespaceScope) {
  auto AST = parseCuda(R"cu(
    template <typename T> struct Box { T value; };
    struct { int x; } unnamed_var;
    typedef struct { int y; } Named;
    enum { Red } unnamed_enum;
    class Outer {
      struct Priv {};
    protected:
      struct Prot {};
    public:
      struct Pub { struct Deep {}; };
      static Priv *priv; static Prot prot; static Box<Priv> boxed_priv;
    };
    namespace { struct InAnon {}; }
    Named named; InAnon in_anon; Outer::Pub pub; Outer::Pub::Deep deep;
    void f() {
      struct L {};
      L local; Box<L *> boxed; void (*fn)(L); auto plain = [] {};
      auto dev = [] __device__ {};
    }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(unnameableIn(*AST, "unnamed_var"), "unnamed:");
  EXPECT_EQ(unnameableIn(*AST, "unnamed_enum"), "unnamed:");
  EXPECT_EQ(unnameableIn(*AST, "priv"), "private:Priv");
  EXPECT_EQ(unnameableIn(*AST, "prot"), "protected:Prot");
  EXPECT_EQ(unnameableIn(*AST, "boxed_priv"), "private:Priv");
  EXPECT_EQ(unnameableIn(*AST, "local"), "local:L");
  EXPECT_EQ(unnameableIn(*AST, "boxed"), "local:L");
  EXPECT_EQ(unnameableIn(*AST, "fn"), "local:L");
  EXPECT_EQ(unnameableIn(*AST, "plain"), "closure:");
  EXPECT_EQ(unnameableIn(*AST, "dev"), "");
  EXPECT_EQ(unnameableIn(*AST, "named"), "");
  EXPECT_EQ(unnameableIn(*AST, "in_anon"), "");
  EXPECT_EQ(unnameableIn(*AST, "pub"), "");
  EXPECT_EQ(unnameableIn(*AST, "deep"), "");
}

} // namespace

namespace {

/// The name of the restricted member type found in the type of \p Var.
std::string restrictedTypeIn(ASTUnit &AST, const std::string &Var) {
  const auto *D =
      findFirst<VarDecl>(AST, varDecl(hasName(Var), isExpansionInMainFile()));
  EXPECT_NE(D, nullptr) << Var;
  if (!D)
    return "";
  const TagDecl *Found = findRestrictedMemberType(D->getType());
  return Found ? Found->getName().str() : "";
}

TEST(LocalTypeTest, FindsPrivateAndProtectedMemberTypes) {
  auto AST = parseCuda(R"cu(
    template <typename T> struct Box { T value; };
    class C {
      struct Priv { struct Deeper {}; };
      template <typename T> struct Tpl {};
      enum Mode { A };
    protected:
      struct Prot {};
    public:
      struct Pub { struct Nested {}; };
      void f() {
        Priv p; Priv::Deeper d; Box<Priv> boxed; Priv *ptr; Tpl<int> spec;
        Mode mode = A; Prot prot; Pub pub; Pub::Nested nested; int i;
      }
    };
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(restrictedTypeIn(*AST, "p"), "Priv");
  // The private class around a public nested one is what nvcc cannot name.
  EXPECT_EQ(restrictedTypeIn(*AST, "d"), "Priv");
  EXPECT_EQ(restrictedTypeIn(*AST, "boxed"), "Priv");
  EXPECT_EQ(restrictedTypeIn(*AST, "ptr"), "Priv");
  EXPECT_EQ(restrictedTypeIn(*AST, "spec"), "Tpl");
  EXPECT_EQ(restrictedTypeIn(*AST, "mode"), "Mode");
  EXPECT_EQ(restrictedTypeIn(*AST, "prot"), "Prot");
  EXPECT_EQ(restrictedTypeIn(*AST, "pub"), "");
  EXPECT_EQ(restrictedTypeIn(*AST, "nested"), "");
  EXPECT_EQ(restrictedTypeIn(*AST, "i"), "");
}

} // namespace

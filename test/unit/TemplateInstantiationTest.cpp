#include "utils/TemplateInstantiation.h"
#include "CudaAST.h"
#include "llvm/ADT/DenseSet.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <map>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_lambda_tidy::test;
namespace utils = clang::tidy::cuda::utils;

namespace {

// Every way a lambda sits in (or next to) a template instantiation. Each
// lambda returns a distinct number, so that a test can name it.
const char *const Code = R"cu(
  template <class T> int function_template(T) { return [] { return 1; }(); }
  int use_function_template = function_template(1);
  template <> int function_template(char) { return [] { return 2; }(); }
  template int function_template(double);

  template <class T> struct ClassTemplate {
    int member() { return [] { return 3; }(); }
    static int (*const in_static_member)();
    int (*in_field)() = [] { return 5; };
    struct Nested { int nested() { return [] { return 6; }(); } };
    friend int befriended(ClassTemplate) { return [] { return 7; }(); }
    template <class U> int member_template(U) { return [] { return 8; }(); }
  };
  template <class T>
  int (*const ClassTemplate<T>::in_static_member)() = [] { return 4; };
  int use_class_template() {
    ClassTemplate<int> c;
    return c.member() + ClassTemplate<int>::in_static_member() +
           ClassTemplate<int>::Nested().nested() + befriended(c) +
           c.member_template('x');
  }

  template <class T> auto variable_template = [](T) { return 9; };
  int use_variable_template = variable_template<int>(0);

  template <class T> int with_default(T t, int (*f)() = [] { return 10; }) {
    return f();
  }
  int use_default = with_default(1);

  int generic() {
    auto g = [](auto x) { return [] { return 11; }() + x; };
    return g(1) + g(2.0);
  }

  template <class T> int nested_lambdas(T) {
    return [] { return [] { return 12; }(); }();
  }
  int use_nested = nested_lambdas(1);

  // Look-alikes that are not instantiations.
  int plain_function() { return [] { return 13; }(); }
  struct PlainClass {
    int member() { return [] { return 14; }(); }
    int (*in_field)() = [] { return 15; };
    template <class T> int never_instantiated(T) { return [] { return 16; }(); }
  };
  auto at_namespace_scope = [] { return 17; };
  void local_class() {
    struct Local { int member() { return [] { return 18; }(); } };
  }
  template <class T> struct Specialized;
  template <> struct Specialized<int> {
    int member() { return [] { return 19; }(); }
  };
)cu";

/// The lambdas of the main file, by the number they return, each with
/// clang's answer and ours.
struct Answers {
  std::map<int, std::vector<std::pair<bool, bool>>> ByNumber;
};

int numberOf(const LambdaExpr &Lambda) {
  int Number = -1;
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Lambda.getBody()))
    for (const Stmt *S : Body->body())
      if (const auto *Return = dyn_cast<ReturnStmt>(S))
        if (const auto *Literal = dyn_cast_or_null<IntegerLiteral>(
                Return->getRetValue()->IgnoreImplicit()))
          Number = static_cast<int>(Literal->getValue().getZExtValue());
  return Number;
}

Answers answersFor(ASTUnit &AST) {
  ASTContext &Context = AST.getASTContext();
  llvm::DenseSet<const LambdaExpr *> Clangs;
  for (const BoundNodes &Match :
       match(lambdaExpr(isExpansionInMainFile(), isInTemplateInstantiation())
                 .bind("l"),
             Context))
    Clangs.insert(Match.getNodeAs<LambdaExpr>("l"));
  Answers Result;
  for (const BoundNodes &Match :
       match(lambdaExpr(isExpansionInMainFile()).bind("l"), Context)) {
    const auto *Lambda = Match.getNodeAs<LambdaExpr>("l");
    Result.ByNumber[numberOf(*Lambda)].push_back(
        {Clangs.contains(Lambda), utils::isInTemplateInstantiation(*Lambda)});
  }
  return Result;
}

TEST(TemplateInstantiationTest, LambdasAgreeWithClangsMatcher) {
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(Code, Side);
    ASSERT_TRUE(AST);
    for (const auto &[Number, Instances] : answersFor(*AST).ByNumber)
      for (const auto &[Clang, Ours] : Instances)
        EXPECT_EQ(Ours, Clang) << "lambda returning " << Number;
  }
}

TEST(TemplateInstantiationTest, PatternsAndInstantiations) {
  auto AST = parseCuda(Code);
  ASSERT_TRUE(AST);
  Answers A = answersFor(*AST);
  auto OursFor = [&](int Number) {
    std::vector<bool> Ours;
    for (const auto &Instance : A.ByNumber[Number])
      Ours.push_back(Instance.second);
    std::sort(Ours.begin(), Ours.end());
    return Ours;
  };
  using V = std::vector<bool>;
  // The pattern, then one or more instantiations.
  auto PatternAndInstantiations = [&](int Number) {
    V Ours = OursFor(Number);
    return Ours.size() >= 2 && !Ours.front() &&
           std::all_of(Ours.begin() + 1, Ours.end(), [](bool B) { return B; });
  };
  // Implicit and explicit instantiations of a function template.
  EXPECT_EQ(OursFor(1), (V{false, true, true}));
  // An explicit specialization is not an instantiation.
  EXPECT_EQ(OursFor(2), (V{false}));
  // Class template members (also an out-of-line static data member's
  // initializer and a default member initializer), nested classes, friends,
  // member templates; a variable template's initializer, whose closure
  // type's context is the namespace; a default argument; a lambda inside a
  // generic lambda's instantiations (int and double) and nested lambdas.
  for (int Number : {3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    EXPECT_TRUE(PatternAndInstantiations(Number)) << Number;
  EXPECT_EQ(OursFor(11).size(), 3u);
  for (int Number : {13, 14, 15, 16, 17, 18, 19})
    EXPECT_EQ(OursFor(Number), (V{false})) << Number;
}

TEST(TemplateInstantiationTest, FunctionsAgreeWithClangsMatcher) {
  auto AST = parseCuda(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  llvm::DenseSet<const FunctionDecl *> Clangs;
  for (const BoundNodes &Match :
       match(functionDecl(isExpansionInMainFile(), isInstantiated()).bind("f"),
             Context))
    Clangs.insert(Match.getNodeAs<FunctionDecl>("f"));
  unsigned Instantiated = 0;
  for (const BoundNodes &Match :
       match(functionDecl(isExpansionInMainFile()).bind("f"), Context)) {
    const auto *Function = Match.getNodeAs<FunctionDecl>("f");
    EXPECT_EQ(utils::isInstantiated(*Function), Clangs.contains(Function))
        << Function->getQualifiedNameAsString();
    Instantiated += utils::isInstantiated(*Function);
  }
  EXPECT_GT(Instantiated, 10u);
}

TEST(TemplateInstantiationTest, MatchersWrapTheHelpers) {
  auto AST = parseCuda(Code);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  for (const BoundNodes &Match :
       match(lambdaExpr(isExpansionInMainFile(),
                        utils::isInTemplateInstantiation())
                 .bind("l"),
             Context))
    EXPECT_TRUE(
        utils::isInTemplateInstantiation(*Match.getNodeAs<LambdaExpr>("l")));
  auto Functions =
      match(functionDecl(isExpansionInMainFile(), hasName("member"),
                         utils::isInstantiated())
                .bind("f"),
            Context);
  ASSERT_EQ(Functions.size(), 1u);
  EXPECT_EQ(cast<CXXRecordDecl>(
                Functions.front().getNodeAs<FunctionDecl>("f")->getParent())
                ->getName(),
            "ClassTemplate");
}

} // namespace

#include "utils/AncestorWalk.h"
#include "CudaAST.h"
#include "utils/CallableCode.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/DenseSet.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

// Lambdas and global variables in every place a check meets them: function
// bodies, nested and generic lambdas, capture initializers, default
// arguments, constructor initializers, local classes, templates and their
// instantiations, and initializers outside any function.
const char *const EveryPlace = R"cu(
  int g;
  const int table[4] = {1, 2, 3, 4};
  struct S { static int s; int m = g; S() : m(g) {} int get() const; };
  int use(int x = g) { return x; }
  int plain(int k) {
    auto a = [k] { return k + g; };
    auto b = [=, c = g] { return [c] { return c + g; }() + table[k]; };
    auto gen = [](auto x) { return x + g + [] { return table[1]; }(); };
    struct Local { int f() { return g; } };
    int arr[sizeof(table) / sizeof(int)] = {table[0]};
    return a() + b() + gen(1) + gen(2.0) + use() + Local().f() + arr[0];
  }
  template <class T> T templated(T t) {
    auto l = [t] __host__ __device__ { return t + table[0]; };
    return l() + T(S::s);
  }
  int inst = templated(1) + templated(2L);
  __device__ int dev(int i) {
    auto d = [i] { return i + table[i]; };
    return d();
  }
  auto at_namespace_scope = [] { return g; };
  struct WithField { int (*f)() = [] { return g; }; };
)cu";

TEST(AncestorWalkTest, AncestriesAreThoseOfTheParentMap) {
  auto AST = parseCuda(EveryPlace);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  const auto *Plain =
      findFirst<FunctionDecl>(*AST, functionDecl(hasName("plain")));
  ASSERT_NE(Plain, nullptr);
  unsigned Checked = 0;
  llvm::DenseSet<DynTypedNode> Seen;
  walkBelow(DynTypedNode::create(*Plain), [&](const DynTypedNode &Node,
                                              AncestorList Above) {
    // clang shares a template's non-dependent nodes with its
    // instantiations: the parent map lists the parent it meets
    // first, in the pattern.
    if (!Seen.insert(Node).second)
      return WalkNext::Children;
    // A default argument (or member initializer) is met first
    // where it is written, outside this walk.
    if (llvm::any_of(Above, [](const DynTypedNode &N) {
          return N.get<CXXDefaultArgExpr>() || N.get<CXXDefaultInitExpr>();
        }))
      return WalkNext::Children;
    Ancestry A(Node, Above);
    // Each node's chain of first parents, up to the root.
    DynTypedNode Current = Node;
    for (size_t I = Above.size(); I-- > 0;) {
      DynTypedNodeList Parents = Context.getParents(Current);
      EXPECT_FALSE(Parents.empty());
      if (Parents.empty())
        break;
      EXPECT_TRUE(Parents[0] == Above[I])
          << Current.getNodeKind().asStringRef().str() << " at "
          << Current.getSourceRange().getBegin().printToString(
                 Context.getSourceManager())
          << ": " << Parents.size() << " parents, first "
          << Parents[0].getNodeKind().asStringRef().str() << ", walked "
          << Above[I].getNodeKind().asStringRef().str();
      EXPECT_TRUE(A.parentOf(Current) == Above[I]);
      Current = Above[I];
    }
    EXPECT_TRUE(
        A.parentOf(DynTypedNode::create(*Plain)).getNodeKind().isNone());
    ++Checked;
    return WalkNext::Children;
  });
  EXPECT_GT(Checked, 100u);
}

TEST(AncestorWalkTest, CodeOfACallableIsForCallables) {
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(EveryPlace, Side);
    ASSERT_TRUE(AST);
    ASTContext &Context = AST->getASTContext();
    // Each reference's owners by walking every callable of the main file.
    llvm::DenseMap<const Stmt *, llvm::SmallVector<const FunctionDecl *, 1>>
        Owners;
    auto Record = [&](const FunctionDecl &Callable) {
      return [&, Function = &Callable](const DynTypedNode &Node, AncestorList) {
        if (const auto *Ref = Node.get<DeclRefExpr>())
          Owners[Ref].push_back(Function);
      };
    };
    for (const BoundNodes &Match :
         match(functionDecl(isExpansionInMainFile(), isDefinition(),
                            unless(isLambdaCallOperatorAsWritten()))
                   .bind("f"),
               Context)) {
      const auto *Function = Match.getNodeAs<FunctionDecl>("f");
      forEachNodeOf(*Function, Record(*Function));
    }
    for (const BoundNodes &Match :
         match(lambdaExpr(isExpansionInMainFile()).bind("l"), Context)) {
      const auto *Lambda = Match.getNodeAs<LambdaExpr>("l");
      forEachNodeOf(*Lambda, Record(*Lambda->getCallOperator()));
    }
    // A node can belong to several callables: a default argument is code of
    // its function and of each call that uses it, and clang shares a
    // template's non-dependent nodes with its instantiations. forCallable
    // picks one of them.
    unsigned Compared = 0;
    for (const BoundNodes &Match :
         match(declRefExpr(isExpansionInMainFile(),
                           forCallable(functionDecl().bind("f")))
                   .bind("r"),
               Context)) {
      const auto *Ref = Match.getNodeAs<DeclRefExpr>("r");
      const auto &Found = Owners.lookup(Ref);
      EXPECT_TRUE(llvm::is_contained(Found, Match.getNodeAs<FunctionDecl>("f")))
          << Ref->getDecl()->getName().str() << " at "
          << Ref->getLocation().printToString(Context.getSourceManager());
      ++Compared;
    }
    EXPECT_GT(Compared, 20u);
  }
}

TEST(AncestorWalkTest, StatementsOfACallableAreItsStatementNodes) {
  auto AST = parseCuda(EveryPlace, Pass::Device);
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  std::vector<Callable> Callables;
  for (const BoundNodes &Match :
       match(functionDecl(isExpansionInMainFile(), isDefinition(),
                          unless(isLambdaCallOperatorAsWritten()))
                 .bind("f"),
             Context))
    Callables.emplace_back(*Match.getNodeAs<FunctionDecl>("f"));
  for (const BoundNodes &Match :
       match(lambdaExpr(isExpansionInMainFile()).bind("l"), Context))
    Callables.emplace_back(*Match.getNodeAs<LambdaExpr>("l"));
  ASSERT_GT(Callables.size(), 5u);
  using Seen = std::vector<std::pair<const Stmt *, size_t>>;
  unsigned Statements = 0;
  for (bool StmtsFirst : {true, false}) {
    for (const Callable &Code : Callables) {
      // Both orders: forEachStmt walking afresh, and replaying the walk
      // forEachNode made.
      Seen FromNodes, FromStmts;
      auto ByNodes = [&] {
        Code.forEachNode([&](const DynTypedNode &Node, AncestorList Above) {
          if (const auto *S = Node.get<Stmt>())
            FromNodes.push_back({S, Above.size()});
        });
      };
      auto ByStmts = [&] {
        Code.forEachStmt(
            [&](const Stmt &S, const DynTypedNode &Node, AncestorList Above) {
              EXPECT_EQ(Node.get<Stmt>(), &S);
              FromStmts.push_back({&S, Above.size()});
            });
      };
      if (StmtsFirst) {
        ByStmts();
        ByNodes();
      } else {
        ByNodes();
        ByStmts();
      }
      EXPECT_EQ(FromStmts, FromNodes);
      Statements += FromStmts.size();
    }
  }
  EXPECT_GT(Statements, 20u);
}

TEST(AncestorWalkTest, FindsEveryLambdaFromItsClosureType) {
  for (Pass Side : {Pass::Host, Pass::Device}) {
    auto AST = parseCuda(EveryPlace, Side);
    ASSERT_TRUE(AST);
    ASTContext &Context = AST->getASTContext();
    unsigned Found = 0;
    for (const BoundNodes &Match :
         match(lambdaExpr(isExpansionInMainFile()).bind("l"), Context)) {
      const auto *Lambda = Match.getNodeAs<LambdaExpr>("l");
      LambdaSite Site = findLambda(*Lambda->getLambdaClass());
      EXPECT_EQ(Site.Lambda, Lambda)
          << Lambda->getBeginLoc().printToString(Context.getSourceManager());
      if (Site.Lambda != Lambda)
        continue;
      DynTypedNodeList Parents = Context.getParents(*Lambda);
      ASSERT_FALSE(Parents.empty());
      EXPECT_TRUE(Site.Ancestors.parentOf(*Lambda) == Parents[0]);
      ++Found;
    }
    // Every lambda, in the patterns and in the instantiations.
    EXPECT_GE(Found, 13u);
  }
}

TEST(AncestorWalkTest, AncestriesBelowARoot) {
  auto AST = parseCuda(EveryPlace);
  ASSERT_TRUE(AST);
  const auto *Plain =
      findFirst<FunctionDecl>(*AST, functionDecl(hasName("plain")));
  const auto *Dev = findFirst<FunctionDecl>(*AST, functionDecl(hasName("dev")));
  ASSERT_TRUE(Plain && Dev);
  const auto *Subscript = findFirst<ArraySubscriptExpr>(
      *AST, arraySubscriptExpr(hasAncestor(functionDecl(hasName("dev")))));
  ASSERT_NE(Subscript, nullptr);
  const DynTypedNode Node = DynTypedNode::create(*Subscript);
  auto Found = ancestriesBelow(DynTypedNode::create(*Dev), {Node});
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_NE(Found.begin()->second.parentOf(Node).get<ImplicitCastExpr>(),
            nullptr);
  // Not below another root.
  EXPECT_TRUE(ancestriesBelow(DynTypedNode::create(*Plain), {Node}).empty());
}

} // namespace

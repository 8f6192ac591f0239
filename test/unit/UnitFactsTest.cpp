#include "CudaAST.h"
#include "utils/UnitFacts.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// A fact that counts its instances, and says which unit made it.
struct CountedFact {
  static int Alive;
  explicit CountedFact(ASTContext &Context) : Made(&Context) { ++Alive; }
  ~CountedFact() { --Alive; }
  const ASTContext *Made;
  int Value = 0;
};
int CountedFact::Alive = 0;

/// A fact made without the context.
struct PlainFact {
  int Value = 7;
};

TEST(UnitFactsTest, OneFactPerUnitSharedByItsAskers) {
  auto AST = parseCuda("void f() {}\n");
  ASSERT_TRUE(AST);
  const ASTContext &Context = AST->getASTContext();
  CountedFact &First = UnitFacts::of(Context).get<CountedFact>();
  First.Value = 42;
  // A second asker (another check) gets the same object, made once.
  CountedFact &Second = UnitFacts::of(Context).get<CountedFact>();
  EXPECT_EQ(&First, &Second);
  EXPECT_EQ(Second.Value, 42);
  EXPECT_EQ(Second.Made, &Context);
  EXPECT_EQ(CountedFact::Alive, 1);
  EXPECT_EQ(UnitFacts::of(Context).get<PlainFact>().Value, 7);
}

TEST(UnitFactsTest, FactsDieWithTheirASTAndALaterASTGetsItsOwn) {
  const int Before = CountedFact::Alive;
  {
    auto AST = parseCuda("void f() {}\n");
    ASSERT_TRUE(AST);
    UnitFacts::of(AST->getASTContext()).get<CountedFact>().Value = 1;
    EXPECT_EQ(CountedFact::Alive, Before + 1);
  }
  EXPECT_EQ(CountedFact::Alive, Before);
  // Parsed again (as clangd does): the new AST may sit at the old address;
  // its facts are new all the same.
  for (int Round = 0; Round < 3; ++Round) {
    auto AST = parseCuda("void g() {}\n");
    ASSERT_TRUE(AST);
    CountedFact &Fact = UnitFacts::of(AST->getASTContext()).get<CountedFact>();
    EXPECT_EQ(Fact.Value, 0) << "round " << Round;
    EXPECT_EQ(Fact.Made, &AST->getASTContext());
    Fact.Value = Round + 1;
  }
  EXPECT_EQ(CountedFact::Alive, Before);
}

TEST(UnitFactsTest, TwoLiveUnitsKeepTheirOwnFacts) {
  auto A = parseCuda("void a() {}\n");
  auto B = parseCuda("void b() {}\n");
  ASSERT_TRUE(A && B);
  UnitFacts::of(A->getASTContext()).get<PlainFact>().Value = 1;
  UnitFacts::of(B->getASTContext()).get<PlainFact>().Value = 2;
  EXPECT_EQ(UnitFacts::of(A->getASTContext()).get<PlainFact>().Value, 1);
  EXPECT_EQ(UnitFacts::of(B->getASTContext()).get<PlainFact>().Value, 2);
}

} // namespace

#include "CudaAST.h"
#include "utils/BoolOption.h"
#include "utils/ClosureCopy.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

ClosureCopyBlocker blockerOf(ASTUnit &AST, const std::string &Name) {
  const auto *Record = findFirst<CXXRecordDecl>(
      AST, cxxRecordDecl(hasName(Name), isDefinition(),
                         unless(classTemplateSpecializationDecl())));
  EXPECT_NE(Record, nullptr) << Name;
  return Record ? closureCopyBlockerOf(*Record, AST.getASTContext())
                : ClosureCopyBlocker::Incomplete;
}

TEST(ClosureCopyTest, PlainAggregatesTravel) {
  auto AST = parseCuda(R"cu(
    struct Base { int n; };
    struct Plain : Base { float *data; double scale; float table[16]; };
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(blockerOf(*AST, "Plain"), ClosureCopyBlocker::None);
}

TEST(ClosureCopyTest, BlockersAreNamed) {
  auto AST = parseCuda(R"cu(
    struct Owning { Owning(const Owning &); int n; };
    struct HoldsOwning { Owning o; };
    struct Ref { const int &r; };
    struct HoldsRef { Ref inner; };
    struct Big { char bytes[5000]; };
    struct Declared;
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(blockerOf(*AST, "HoldsOwning"),
            ClosureCopyBlocker::NotTriviallyCopyable);
  EXPECT_EQ(blockerOf(*AST, "Ref"), ClosureCopyBlocker::ReferenceMember);
  EXPECT_EQ(blockerOf(*AST, "HoldsRef"), ClosureCopyBlocker::ReferenceMember);
  EXPECT_EQ(blockerOf(*AST, "Big"), ClosureCopyBlocker::TooLarge);
}

TEST(ClosureCopyTest, TemplatesAreJudgedByTheirInstantiations) {
  auto AST = parseCuda(R"cu(
    struct Owning { Owning(const Owning &); };
    template <typename T> struct Pointers { T *p; int n; };
    template <typename T> struct Values { T v; };
    template struct Values<int>;
    template struct Values<Owning>;
    template <typename T> struct Never { T v; };
    template <typename T> struct AllGood { T v; };
    template struct AllGood<int>;
    template struct AllGood<double>;
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(blockerOf(*AST, "Pointers"), ClosureCopyBlocker::None);
  EXPECT_EQ(blockerOf(*AST, "Values"),
            ClosureCopyBlocker::NotTriviallyCopyable);
  EXPECT_EQ(blockerOf(*AST, "Never"), ClosureCopyBlocker::Dependent);
  EXPECT_EQ(blockerOf(*AST, "AllGood"), ClosureCopyBlocker::None);
}

TEST(BoolOptionTest, ParsesWhatClangTidyWrites) {
  EXPECT_EQ(parseBoolOption("true"), true);
  EXPECT_EQ(parseBoolOption("False"), false);
  EXPECT_EQ(parseBoolOption("1"), true);
  EXPECT_EQ(parseBoolOption(" 0 "), false);
  EXPECT_EQ(parseBoolOption("maybe"), std::nullopt);
}

} // namespace

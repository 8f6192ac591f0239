#include "CudaAST.h"
#include "utils/LambdaMatches.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// Records the lambdas it is called with, each by the name of its one
/// parameter.
class Recorder : public MatchFinder::MatchCallback {
public:
  std::vector<std::string> Lambdas;
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
    ASSERT_NE(Lambda, nullptr);
    Lambdas.push_back(
        Lambda->getCallOperator()->getParamDecl(0)->getNameAsString());
  }
  std::vector<std::string> sorted() const {
    std::vector<std::string> Names = Lambdas;
    std::sort(Names.begin(), Names.end());
    return Names;
  }
};

using Names = std::vector<std::string>;

TEST(LambdaMatchesTest, EachCheckGetsTheLambdasItSelects) {
  auto AST = parseCuda(R"cu(
    template <typename T> void tmpl(T) {
      auto a = [] __device__ (int ext_in_template) {};
      auto b = [] (int plain_in_template) {};
    }
    void host_fn() {
      auto c = [] __device__ (int ext_written) {};
      auto d = [] __host__ __device__ (int hd_written) {};
      auto e = [] (int plain_written) {};
      tmpl(1);
    }
    __device__ void device_fn() {
      auto f = [] __device__ (int in_device_code) {};
    }
  )cu");
  ASSERT_TRUE(AST);
  MatchFinder Finder;
  Recorder ExtendedAsWritten, Extended, AsWritten, NotExtended;
  // One shared matcher for all four: the registrations keep its callback.
  LambdaRegistration R1 = matchLambdas(Finder, &ExtendedAsWritten,
                                       LambdaSelection::ExtendedAsWritten);
  LambdaRegistration R2 =
      matchLambdas(Finder, &Extended, LambdaSelection::Extended);
  LambdaRegistration R3 =
      matchLambdas(Finder, &AsWritten, LambdaSelection::AsWritten);
  LambdaRegistration R4 =
      matchLambdas(Finder, &NotExtended, LambdaSelection::NotExtended);
  EXPECT_EQ(R1, R4);
  Finder.matchAST(AST->getASTContext());

  // The template's pattern is as written; tmpl<int> holds each of its
  // lambdas once more. A lambda in device code is not extended.
  EXPECT_EQ(ExtendedAsWritten.sorted(),
            (Names{"ext_in_template", "ext_written", "hd_written"}));
  EXPECT_EQ(Extended.sorted(), (Names{"ext_in_template", "ext_in_template",
                                      "ext_written", "hd_written"}));
  EXPECT_EQ(AsWritten.sorted(),
            (Names{"ext_in_template", "ext_written", "hd_written",
                   "in_device_code", "plain_in_template", "plain_written"}));
  EXPECT_EQ(NotExtended.sorted(),
            (Names{"in_device_code", "plain_in_template", "plain_in_template",
                   "plain_written"}));
}

} // namespace

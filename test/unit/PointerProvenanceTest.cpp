#include "utils/PointerProvenance.h"
#include "CudaAST.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// The provenance, at the call of sink() in function \p Function, of its
/// argument: "host:<what>", "device" or "unknown".
std::string atSink(ASTUnit &AST, const std::string &Function) {
  const auto *F = findFirst<FunctionDecl>(
      AST, functionDecl(hasName(Function), isDefinition()));
  EXPECT_NE(F, nullptr) << Function;
  if (!F)
    return "";
  const auto *Call = findFirst<CallExpr>(
      AST, callExpr(callee(functionDecl(hasName("sink"))),
                    hasAncestor(functionDecl(hasName(Function)))));
  EXPECT_NE(Call, nullptr) << Function;
  if (!Call)
    return "";
  auto Answers = analyzePointerProvenance(*F, AST.getASTContext(),
                                          {{Call, Call->getArg(0)}});
  const Provenance &P = Answers[Call->getArg(0)];
  switch (P.Space) {
  case MemorySpace::Host:
    return "host:" + (P.Source.What.empty() ? P.Source.Object : P.Source.What);
  case MemorySpace::Device:
    return "device";
  case MemorySpace::Unknown:
    return "unknown";
  }
  return "";
}

TEST(PointerProvenanceTest, WhetherTheCodeGivesALocalPointerAValue) {
  auto AST = parseCuda(R"cu(
    #include <stdlib.h>
    void sink(float *);
    void parameter(float *p, int n) { int m = n; sink(p + m); }
    void incremented(float *p) { ++p; sink(p); }
    void initialized(float *p) { float *q = p; sink(q); }
    void uninitialized(float *p) { float *q; sink(p); }
    void assigned(float *p, int n) { p = (float *)malloc(n); sink(p); }
    void allocated(float *p) { void *m; posix_memalign(&m, 64, 64); sink(p); }
    void in_lambda(float *p) { auto l = [&] { p = nullptr; }; sink(p); }
    void not_a_pointer(float *p) { float x = 1; x = 2; sink(p); }
    void in_device_lambda(float *p) {
      auto l = [=] __device__ { float *q = p; return *q; };
      sink(p);
    }
    void in_device_lambda_capture(float *p) {
      auto l = [q = (p = nullptr)] __device__ { return q; };
      sink(p);
    }
  )cu");
  ASSERT_TRUE(AST);
  auto Gives = [&](const std::string &Name) {
    const auto *F = findFirst<FunctionDecl>(
        *AST, functionDecl(hasName(Name), isDefinition()));
    EXPECT_NE(F, nullptr) << Name;
    return F && mayGiveLocalPointerAValue(*F);
  };
  EXPECT_FALSE(Gives("parameter"));
  EXPECT_FALSE(Gives("incremented"));
  EXPECT_TRUE(Gives("initialized"));
  EXPECT_FALSE(Gives("uninitialized"));
  EXPECT_TRUE(Gives("assigned"));
  EXPECT_TRUE(Gives("allocated"));
  EXPECT_TRUE(Gives("in_lambda"));
  EXPECT_FALSE(Gives("not_a_pointer"));
  // An extended lambda's body gives values to its own copies only; what it
  // captures is still code of the function.
  EXPECT_FALSE(Gives("in_device_lambda"));
  EXPECT_TRUE(Gives("in_device_lambda_capture"));
}

TEST(PointerProvenanceTest, FollowsAssignmentsBranchesAndLoops) {
  auto AST = parseCuda(R"cu(
    #include <stdlib.h>
    void sink(float *);
    void other(float **);
    void straight(int n) { float *p = (float *)malloc(n); sink(p); }
    void reassigned(int n) {
      float *p = (float *)malloc(n);
      cudaMalloc(&p, n);
      sink(p);
    }
    void both_host(bool c, int n) {
      float *p;
      if (c) p = new float[n]; else p = (float *)calloc(n, 4);
      sink(p + 1);
    }
    void one_device(bool c, float *d) {
      float x;
      float *p = &x;
      if (c) p = d;
      sink(p);
    }
    void loop(int n, float *d) {
      float a[4];
      float *p = a;
      for (int i = 0; i < n; ++i) { sink(p); p = d; }
    }
    void escaped(int n) {
      float *p = (float *)malloc(n);
      other(&p);
      sink(p);
    }
    void registered(int n) {
      float *p = (float *)malloc(n);
      cudaHostRegister(p, n, 0);
      sink(p);
    }
    void parameter(float *p) { sink(p); }
  )cu");
  ASSERT_TRUE(AST);
  EXPECT_EQ(atSink(*AST, "straight"), "host:malloc");
  EXPECT_EQ(atSink(*AST, "reassigned"), "device");
  EXPECT_EQ(atSink(*AST, "both_host"), "host:new[]");
  EXPECT_EQ(atSink(*AST, "one_device"), "unknown");
  EXPECT_EQ(atSink(*AST, "loop"), "unknown");
  EXPECT_EQ(atSink(*AST, "escaped"), "unknown");
  EXPECT_EQ(atSink(*AST, "registered"), "device");
  EXPECT_EQ(atSink(*AST, "parameter"), "unknown");
}

} // namespace

namespace {

/// As atSink, with the unit's summaries: a helper's return value and a
/// pointer member are followed.
std::string atSinkThroughFunctions(ASTUnit &AST, const std::string &Function,
                                   ProvenanceSummaries &Summaries) {
  const auto *F = findFirst<FunctionDecl>(
      AST, functionDecl(hasName(Function), isDefinition()));
  const auto *Call = findFirst<CallExpr>(
      AST, callExpr(callee(functionDecl(hasName("sink"))),
                    hasAncestor(functionDecl(hasName(Function)))));
  EXPECT_TRUE(F && Call) << Function;
  if (!F || !Call)
    return "";
  auto Answers = analyzePointerProvenance(
      *F, AST.getASTContext(), {{Call, Call->getArg(0)}}, &Summaries);
  const Provenance &P = Answers[Call->getArg(0)];
  if (P.Space == MemorySpace::Device)
    return "device";
  if (P.Space == MemorySpace::Unknown)
    return "unknown";
  std::string Via;
  for (const ProvenanceStep &Step : P.Source.Via)
    Via += (Step.Kind == ProvenanceStep::Returned ? "returned:" : "member:") +
           Step.Decl->getNameAsString() + " ";
  return Via + "host:" + (P.Source.What.empty() ? P.Source.Object : P.Source.What);
}

} // namespace

TEST(PointerProvenanceTest, FollowsHelpersAndMembersOfTheUnit) {
  auto AST = parseCuda(R"cu(
    void sink(float *);
    float *make(int n) { return new float[n]; }
    float *make_or_null(int n) { if (n < 0) return nullptr; return make(n); }
    float *make_device(int n) { float *d; cudaMalloc(&d, n); return d; }
    float *mixed(bool c, int n) { return c ? make(n) : make_device(n); }
    float *recursive(int n) { return n ? recursive(n - 1) : new float[1]; }
    float *elsewhere(int n);
    struct Holder {
      Holder(int n) : p(new float[n]) {}
      void use() { sink(p); }
      float *p;
    };
    struct Either {
      Either(int n) : p(new float[n]) {}
      Either(float *q) : p(q) {}
      void use() { sink(p); }
      float *p;
    };
    void helper(int n) { float *w = make(n); sink(w); }
    void helper_of_helper(int n) { sink(make_or_null(n)); }
    void device_helper(int n) { sink(make_device(n)); }
    void mixed_helper(int n) { sink(mixed(true, n)); }
    void recursive_helper(int n) { sink(recursive(n)); }
    void no_body(int n) { sink(elsewhere(n)); }
  )cu");
  ASSERT_TRUE(AST);
  ProvenanceSummaries Summaries(AST->getASTContext());
  EXPECT_EQ(atSinkThroughFunctions(*AST, "helper", Summaries),
            "returned:make host:new[]");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "helper_of_helper", Summaries),
            "returned:make_or_null returned:make host:new[]");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "device_helper", Summaries), "device");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "mixed_helper", Summaries), "unknown");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "recursive_helper", Summaries),
            "unknown");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "no_body", Summaries), "unknown");
  EXPECT_EQ(atSinkThroughFunctions(*AST, "use", Summaries),
            "member:p host:new[]");
  // Without summaries, a helper's value is unknown.
  EXPECT_EQ(atSink(*AST, "helper"), "unknown");
}

#include "utils/KernelBoundary.h"
#include "CudaAST.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::cuda::utils;
using namespace cuda_lambda_tidy::test;

namespace {

/// The snippet parsed (host pass) with thrust and cub on the include path.
std::unique_ptr<ASTUnit> parseWithThrust(const std::string &Code) {
  std::vector<std::string> Args = cudaParseArgs(Pass::Host);
  return tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

/// Every crossing of the sites `matchCrossingSites` finds, in match order.
struct Collector : SharedDispatchCallback {
  std::vector<BoundaryCrossing> Crossings;
  void run(const MatchFinder::MatchResult &Result) override {
    for (const BoundaryCrossing &C : crossingsOf(Result))
      Crossings.push_back(C);
  }
};

std::vector<BoundaryCrossing> crossingsIn(ASTUnit &AST) {
  Collector Collect;
  MatchFinder Finder;
  matchCrossingSites(Finder, Collect);
  Finder.matchAST(AST.getASTContext());
  // In the order written (the finder's order of visit is its own).
  const SourceManager &SM = AST.getSourceManager();
  std::stable_sort(Collect.Crossings.begin(), Collect.Crossings.end(),
                   [&](const BoundaryCrossing &A, const BoundaryCrossing &B) {
                     return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
                   });
  return Collect.Crossings;
}

std::string typeName(const BoundaryCrossing &C) {
  LangOptions CPlusPlus;
  CPlusPlus.CPlusPlus = true;
  PrintingPolicy Policy{CPlusPlus};
  Policy.SuppressScope = true;
  return C.Type.getAsString(Policy);
}

TEST(KernelBoundaryTest, LaunchArgumentsCrossAsTheKernelsParameters) {
  auto AST = parseCuda(R"cu(
    struct Scale { float k; };
    __global__ void apply(Scale s, float *out, double d) {}
    void host(float *out) {
      Scale s{2.f};
      apply<<<1, 1>>>(s, out, 1.0f);
    }
  )cu");
  ASSERT_TRUE(AST);
  auto Crossings = crossingsIn(*AST);
  ASSERT_EQ(Crossings.size(), 3u);
  EXPECT_EQ(Crossings[0].Kind, CrossingKind::KernelArgument);
  EXPECT_EQ(typeName(Crossings[0]), "Scale");
  EXPECT_EQ(Crossings[0].Callee->getName(), "apply");
  EXPECT_EQ(Crossings[1].ArgIndex, 1u);
  // The float argument crosses as the parameter's double.
  EXPECT_EQ(typeName(Crossings[2]), "double");
}

TEST(KernelBoundaryTest, ByCopyCapturesOfExtendedLambdasCross) {
  auto AST = parseCuda(R"cu(
    struct Scale { float k; int f() const { return 0; } };
    void host() {
      Scale s{2.f};
      int n = 3, m = 4;
      auto dev = [s, &m, w = n + 1] __device__ (int i) { return s.k * i + m + w; };
      auto hd = [=] __host__ __device__ () { return n; };
      auto plain = [s] (int i) { return s.k * i; };
    }
  )cu");
  ASSERT_TRUE(AST);
  auto Crossings = crossingsIn(*AST);
  ASSERT_EQ(Crossings.size(), 3u);
  EXPECT_EQ(Crossings[0].Kind, CrossingKind::LambdaCapture);
  EXPECT_EQ(Crossings[0].CapturedVar->getName(), "s");
  EXPECT_EQ(typeName(Crossings[0]), "Scale");
  // `&m` stays behind (a reference is no copy); the init-capture crosses.
  EXPECT_EQ(Crossings[1].CapturedVar->getName(), "w");
  EXPECT_EQ(Crossings[2].CapturedVar->getName(), "n");
  EXPECT_TRUE(Crossings[2].Loc.isValid());
}

TEST(KernelBoundaryTest, ThrustAlgorithmsOnTheDevice) {
  auto AST = parseWithThrust(R"cu(
    #include <thrust/device_vector.h>
    #include <thrust/execution_policy.h>
    #include <thrust/for_each.h>
    #include <thrust/transform.h>
    #include <vector>
    struct Twice { __host__ __device__ float operator()(float x) const { return 2 * x; } };
    struct Touch { __host__ __device__ void operator()(float &x) const { x += 1; } };
    void host(float *raw, cudaStream_t stream) {
      thrust::device_vector<float> d(8);
      std::vector<float> h(8);
      thrust::for_each(thrust::device, raw, raw + 8, Touch{});
      thrust::for_each(thrust::cuda::par.on(stream), raw, raw + 8, Touch{});
      thrust::for_each(thrust::host, raw, raw + 8, Touch{});
      thrust::transform(d.begin(), d.end(), d.begin(), Twice{});
      thrust::transform(h.begin(), h.end(), h.begin(), Twice{});
    }
  )cu");
  ASSERT_TRUE(AST);
  auto Crossings = crossingsIn(*AST);
  // 3 for each device for_each, none for the host one, 4 for the
  // transform on device_vector iterators, none on std::vector's.
  ASSERT_EQ(Crossings.size(), 10u);
  for (const BoundaryCrossing &C : Crossings)
    EXPECT_EQ(C.Kind, CrossingKind::AlgorithmArgument);
  EXPECT_EQ(Crossings[0].ArgIndex, 1u);
  EXPECT_EQ(typeName(Crossings[2]), "Touch");
  EXPECT_EQ(Crossings[2].Callee->getName(), "for_each");
  EXPECT_EQ(deviceAlgorithmOf(*Crossings[6].Call),
            DeviceAlgorithm::ThrustOnDeviceIterators);
  EXPECT_EQ(typeName(Crossings[9]), "Twice");
}

TEST(KernelBoundaryTest, CubLeavesTheHostSideArgumentsOut) {
  auto AST = parseWithThrust(R"cu(
    #include <cub/device/device_reduce.cuh>
    struct Max { __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; } };
    void host(const int *in, int *out, int n, cudaStream_t stream) {
      void *temp = nullptr;
      size_t bytes = 0;
      cub::DeviceReduce::Reduce(temp, bytes, in, out, n, Max{}, 0, stream);
    }
  )cu");
  ASSERT_TRUE(AST);
  auto Crossings = crossingsIn(*AST);
  // temp, in, out, n, Max{}, 0: not `bytes` nor the stream.
  ASSERT_EQ(Crossings.size(), 6u);
  EXPECT_EQ(deviceAlgorithmOf(*Crossings[0].Call), DeviceAlgorithm::Cub);
  EXPECT_EQ(typeName(Crossings[4]), "Max");
}

TEST(KernelBoundaryTest, ByValuePartsFollowMembersAndBases) {
  auto AST = parseCuda(R"cu(
    struct Leaf { int v; };
    struct Base { Leaf leaf; };
    struct Outer : Base { int *p; Leaf *skipped; Leaf arr[2]; };
  )cu");
  ASSERT_TRUE(AST);
  const auto *Outer = findFirst<CXXRecordDecl>(
      *AST, cxxRecordDecl(hasName("Outer"), isDefinition()));
  ASSERT_NE(Outer, nullptr);
  std::vector<std::string> Seen;
  auto Found = findByValuePart(
      AST->getASTContext().getCanonicalTagType(Outer),
      [&](const CXXRecordDecl &R) {
        Seen.push_back(R.getNameAsString());
        return PartVerdict::Descend;
      });
  EXPECT_FALSE(Found);
  EXPECT_EQ(Seen, (std::vector<std::string>{"Outer", "Base", "Leaf", "Leaf"}));
  auto Leaf = findByValuePart(
      AST->getASTContext().getCanonicalTagType(Outer),
      [&](const CXXRecordDecl &R) {
        return R.getName() == "Leaf" ? PartVerdict::Found
                                     : PartVerdict::Descend;
      });
  ASSERT_TRUE(Leaf);
  EXPECT_EQ(Leaf->memberPath(), "leaf");
}

TEST(KernelBoundaryTest, LibraryTypesAreTheLibrarys) {
  auto AST = parseCuda(R"cu(
    namespace thrust { namespace detail { struct Wrapper { int &a; }; } }
    namespace cuda { inline namespace v1 { struct Span { float *p; }; } }
    namespace app { struct Mine { int &a; }; }
    struct Global {};
  )cu");
  ASSERT_TRUE(AST);
  auto Named = [&](const char *Name) {
    return findFirst<CXXRecordDecl>(*AST,
                                    cxxRecordDecl(hasName(Name), isDefinition()));
  };
  EXPECT_TRUE(isLibraryType(*Named("Wrapper")));
  EXPECT_TRUE(isLibraryType(*Named("Span")));
  EXPECT_FALSE(isLibraryType(*Named("Mine")));
  EXPECT_FALSE(isLibraryType(*Named("Global")));
}

} // namespace

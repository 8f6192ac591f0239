#include "FallbackHeaders.h"
#include "CudaAST.h"
#include "CudaInvocation.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace cuda_lambda_tidy;
using namespace clang::ast_matchers;

namespace {

/// The bundled headers written to a new temporary directory, removed with it.
class WrittenFallback {
public:
  WrittenFallback() {
    if (llvm::sys::fs::createUniqueDirectory("fallback-test", Dir))
      ADD_FAILURE() << "no temporary directory";
    else if (llvm::Error Failed = writeFallbackHeaders(Dir))
      ADD_FAILURE() << llvm::toString(std::move(Failed));
  }
  ~WrittenFallback() { llvm::sys::fs::remove_directories(Dir); }
  llvm::StringRef dir() const { return Dir; }

private:
  llvm::SmallString<256> Dir;
};

/// \p Code parsed as CUDA in one pass, against the fallback headers in
/// \p Dir, as the tool parses it without a toolkit.
std::unique_ptr<clang::ASTUnit> parseWithFallback(const std::string &Code,
                                                  llvm::StringRef Dir,
                                                  test::Pass Side) {
  std::vector<std::string> Args = fallbackParseFlags(Dir, {});
  Args.insert(
      Args.end(),
      {"-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS, "-std=c++17",
       Side == test::Pass::Host ? "--cuda-host-only" : "--cuda-device-only"});
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

TEST(FallbackHeadersTest, TheIncludedHeaderAndItsAliases) {
  llvm::ArrayRef<FallbackHeader> Headers = fallbackHeaders();
  ASSERT_FALSE(Headers.empty());
  EXPECT_EQ(Headers.front().Path, FallbackIncludeName);
  for (llvm::StringRef Alias : {"cuda_runtime.h", "cuda_runtime_api.h",
                                "cuda.h", "device_launch_parameters.h"}) {
    const FallbackHeader *Found = llvm::find_if(
        Headers, [&](const FallbackHeader &H) { return H.Path == Alias; });
    ASSERT_NE(Found, Headers.end()) << Alias.str();
    EXPECT_TRUE(Found->Text.contains(
        (llvm::Twine("#include \"") + FallbackIncludeName + "\"").str()))
        << Alias.str();
  }
}

TEST(FallbackHeadersTest, WritesEveryHeader) {
  WrittenFallback Written;
  for (const FallbackHeader &Header : fallbackHeaders()) {
    llvm::SmallString<256> Path(Written.dir());
    llvm::sys::path::append(Path, Header.Path);
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buffer)) << Path.str().str();
    EXPECT_EQ((*Buffer)->getBuffer(), Header.Text) << Path.str().str();
  }
}

TEST(FallbackHeadersTest, UnwritableDirectoryIsAnError) {
  WrittenFallback Written;
  // Below a regular file nothing can be created.
  llvm::SmallString<256> BelowAFile(Written.dir());
  llvm::sys::path::append(BelowAFile, "cuda.h", "sub");
  llvm::Error Failed = writeFallbackHeaders(BelowAFile);
  ASSERT_TRUE(bool(Failed));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(std::move(Failed)))
                  .starts_with("cannot write '"));
}

TEST(FallbackHeadersTest, Notice) {
  std::string Notice = fallbackNotice("--cuda-toolkit=none");
  EXPECT_EQ(Notice, "cuda-lambda-tidy: --cuda-toolkit=none; parsing with the "
                    "bundled fallback header: thrust, cub and CUDA library "
                    "headers are unavailable");
  EXPECT_EQ(Notice.find('\n'), std::string::npos);
}

// What the checks and ordinary CUDA code need, on both sides, with no error.
const char *RuntimeCode = R"cuda(
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
__constant__ float Coefficients[4];
__device__ __forceinline__ float square(float x) { return x * x; }
__global__ void __launch_bounds__(128) scale(float *out, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || i >= gridDim.x * warpSize)
    return;
  tile[threadIdx.x] = square(out[i]) * Coefficients[0] + sqrtf(out[i]);
  __syncthreads();
  atomicAdd(out, tile[0]);
  printf("%d\n", i);
}
int run(int n) {
  float *data = nullptr;
  if (cudaMalloc(&data, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  scale<<<dim3((n + 127) / 128), 128, 0, stream>>>(data, n);
  auto twice = [=] __device__ (int i) { return data[i] * 2; };
  (void)twice;
  cudaMemcpyToSymbol(Coefficients, data, sizeof(float));
  cudaError_t status = cudaDeviceSynchronize();
  cudaFree(data);
  return status == cudaSuccess && cudaGetLastError() == cudaSuccess ? 0 : 1;
}
)cuda";

TEST(FallbackHeadersTest, RuntimeCodeParsesOnBothSides) {
  WrittenFallback Written;
  for (test::Pass Side : {test::Pass::Host, test::Pass::Device}) {
    std::unique_ptr<clang::ASTUnit> AST =
        parseWithFallback(RuntimeCode, Written.dir(), Side);
    ASSERT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred())
        << (Side == test::Pass::Host ? "host" : "device");
    // The launch is a kernel call, the lambda a device lambda, as with the
    // toolkit.
    EXPECT_TRUE(
        test::findFirst<clang::CUDAKernelCallExpr>(*AST, cudaKernelCallExpr()));
    const auto *Lambda = test::findFirst<clang::LambdaExpr>(*AST, lambdaExpr());
    ASSERT_TRUE(Lambda);
    EXPECT_TRUE(Lambda->getCallOperator()->hasAttr<clang::CUDADeviceAttr>());
    const auto *ThreadIdx =
        test::findFirst<clang::VarDecl>(*AST, varDecl(hasName("threadIdx")));
    ASSERT_TRUE(ThreadIdx);
    EXPECT_TRUE(ThreadIdx->hasAttr<clang::CUDADeviceAttr>());
  }
}

// The header must not make errors of its own, whatever the standard.
TEST(FallbackHeadersTest, ParsesInEveryStandard) {
  WrittenFallback Written;
  for (const char *Standard :
       {"-std=c++14", "-std=c++17", "-std=c++20", "-std=c++23"}) {
    std::vector<std::string> Args = fallbackParseFlags(Written.dir(), {});
    Args.insert(Args.end(), {"-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS,
                             Standard, "--cuda-device-only"});
    std::unique_ptr<clang::ASTUnit> AST =
        clang::tooling::buildASTFromCodeWithArgs("", Args, "input.cu");
    ASSERT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Standard;
  }
}

TEST(FallbackHeadersTest, NoToolkitLibraries) {
  WrittenFallback Written;
  std::unique_ptr<clang::ASTUnit> AST = parseWithFallback(
      "#include <thrust/device_vector.h>\n", Written.dir(), test::Pass::Host);
  ASSERT_TRUE(AST);
  EXPECT_TRUE(AST->getDiagnostics().hasFatalErrorOccurred());
}

// nvcc accepts all of it; plain clang 22 rejects the managed variable in
// device code and the integer max/min in host code.
const char *NvccOnlyCode = R"cuda(
__managed__ int ticks;
__global__ void tick() { ++ticks; }
__host__ __device__ int bounded(int a, int b) { return max(a, min(b, ticks)); }
unsigned int blocks(unsigned int n) { ticks = 0; return max(1u, n / 128) + umin(n, 8u); }
int *where() { return &ticks; }
)cuda";

/// \p Code parsed as CUDA in one pass with the toolkit, with the compat
/// layer at \p CompatHeader when it is not empty, as the tool parses it.
std::unique_ptr<clang::ASTUnit> parseWithToolkit(const std::string &Code,
                                                 llvm::StringRef CompatHeader,
                                                 test::Pass Side) {
  std::vector<std::string> Args = cudaParseFlags(
      CudaToolkit{CUDA_TOOLKIT_FOR_TESTS, 13, 0}, {}, CompatHeader);
  Args.insert(
      Args.end(),
      {"-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS, "-std=c++17",
       Side == test::Pass::Host ? "--cuda-host-only" : "--cuda-device-only"});
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

TEST(FallbackHeadersTest, WritesTheNvccCompatHeader) {
  WrittenFallback Written;
  llvm::Expected<std::string> Path = writeNvccCompatHeader(Written.dir());
  ASSERT_TRUE(bool(Path)) << llvm::toString(Path.takeError());
  EXPECT_EQ(llvm::sys::path::filename(*Path), NvccCompatIncludeName);
  EXPECT_EQ(nvccCompatHeader().Path, NvccCompatIncludeName);
  auto Buffer = llvm::MemoryBuffer::getFile(*Path);
  ASSERT_TRUE(bool(Buffer));
  EXPECT_EQ((*Buffer)->getBuffer(), nvccCompatHeader().Text);
}

TEST(FallbackHeadersTest, NvccCompatHeaderMakesNvccOnlyCodeParse) {
  WrittenFallback Written;
  llvm::Expected<std::string> Path = writeNvccCompatHeader(Written.dir());
  ASSERT_TRUE(bool(Path)) << llvm::toString(Path.takeError());
  for (test::Pass Side : {test::Pass::Host, test::Pass::Device}) {
    const char *Name = Side == test::Pass::Host ? "host" : "device";
    std::unique_ptr<clang::ASTUnit> Plain =
        parseWithToolkit(NvccOnlyCode, "", Side);
    ASSERT_TRUE(Plain);
    EXPECT_TRUE(Plain->getDiagnostics().hasErrorOccurred()) << Name;
    std::unique_ptr<clang::ASTUnit> AST =
        parseWithToolkit(NvccOnlyCode, *Path, Side);
    ASSERT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Name;
    // The managed variable is a device variable clang lets host code use.
    const auto *Ticks =
        test::findFirst<clang::VarDecl>(*AST, varDecl(hasName("ticks")));
    ASSERT_TRUE(Ticks);
    EXPECT_TRUE(Ticks->hasAttr<clang::CUDADeviceAttr>()) << Name;
  }
  // Without a toolkit too, after the fallback header.
  for (test::Pass Side : {test::Pass::Host, test::Pass::Device}) {
    std::vector<std::string> Args =
        fallbackParseFlags(Written.dir(), {}, *Path);
    Args.insert(
        Args.end(),
        {"-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS, "-std=c++17",
         Side == test::Pass::Host ? "--cuda-host-only" : "--cuda-device-only"});
    std::unique_ptr<clang::ASTUnit> AST =
        clang::tooling::buildASTFromCodeWithArgs(NvccOnlyCode, Args,
                                                 "input.cu");
    ASSERT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred())
        << (Side == test::Pass::Host ? "host" : "device") << " (fallback)";
  }
}

} // namespace

#include "CudaToolkit.h"
#include "CudaInvocation.h"
#include "gtest/gtest.h"
#include <map>
#include <set>

using namespace cuda_lambda_tidy;

namespace {

/// A make-believe machine: environment variables, programs on PATH, and the
/// toolkit roots that exist with their cuda.h.
struct FakeMachine {
  std::map<std::string, std::string> Env;
  std::map<std::string, std::string> Programs;
  std::map<std::string, std::string> CudaHeaders; // root -> cuda.h text
  std::vector<std::string> OtherEntries; // paths that are not toolkits

  ToolkitEnvironment environment() const {
    ToolkitEnvironment E;
    E.GetEnv = [this](llvm::StringRef Name) -> std::optional<std::string> {
      auto It = Env.find(Name.str());
      return It == Env.end() ? std::nullopt : std::optional(It->second);
    };
    E.FindProgram = [this](llvm::StringRef Name) -> std::optional<std::string> {
      auto It = Programs.find(Name.str());
      return It == Programs.end() ? std::nullopt : std::optional(It->second);
    };
    E.IsToolkitRoot = [this](llvm::StringRef Dir) {
      return CudaHeaders.count(Dir.str()) > 0;
    };
    E.ReadFile = [this](llvm::StringRef Path) -> std::optional<std::string> {
      for (const auto &[Root, Text] : CudaHeaders)
        if (Path == Root + "/include/cuda.h")
          return Text;
      return std::nullopt;
    };
    E.ListDir = [this](llvm::StringRef Dir) {
      std::vector<std::string> Names;
      for (const auto &[Path, Text] : CudaHeaders)
        if (llvm::StringRef(Path).consume_front(Dir.str() + "/"))
          Names.push_back(Path.substr(Dir.size() + 1));
      for (const std::string &Name : OtherEntries)
        if (llvm::StringRef(Name).consume_front(Dir.str() + "/"))
          Names.push_back(Name.substr(Dir.size() + 1));
      return Names;
    };
    return E;
  }
};

const char *Cuda13 = "#define CUDA_VERSION 13000\n";
const char *Cuda128 = "#define CUDA_VERSION 12080\n";

TEST(CudaToolkitTest, ParsesVersion) {
  EXPECT_EQ(parseCudaVersion(Cuda13), std::make_pair(13, 0));
  EXPECT_EQ(parseCudaVersion(Cuda128), std::make_pair(12, 8));
  EXPECT_EQ(parseCudaVersion("#define CUDA_VERSION_X 1"), std::nullopt);
  EXPECT_EQ(parseCudaVersion(""), std::nullopt);
}

TEST(CudaToolkitTest, CudaPathWins) {
  FakeMachine M;
  M.Env["CUDA_PATH"] = "/opt/cuda-12.8/";
  M.Programs["nvcc"] = "/usr/local/cuda/bin/nvcc";
  M.CudaHeaders["/opt/cuda-12.8"] = Cuda128;
  M.CudaHeaders["/opt/cuda-12.8/"] = Cuda128;
  M.CudaHeaders["/usr/local/cuda"] = Cuda13;
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/opt/cuda-12.8");
  EXPECT_EQ(T->Major, 12);
  EXPECT_EQ(T->Minor, 8);
}

TEST(CudaToolkitTest, NvccOnPathIsNext) {
  FakeMachine M;
  M.Programs["nvcc"] = "/opt/nv/13.0/bin/nvcc";
  M.CudaHeaders["/opt/nv/13.0"] = Cuda13;
  M.CudaHeaders["/usr/local/cuda"] = Cuda128;
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/opt/nv/13.0");
  EXPECT_EQ(T->Major, 13);
}

TEST(CudaToolkitTest, FallsBackToUsrLocalCuda) {
  FakeMachine M;
  M.Env["CUDA_PATH"] = "/does/not/exist";
  M.CudaHeaders["/usr/local/cuda"] = Cuda13;
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/usr/local/cuda");
}

TEST(CudaToolkitTest, NewestVersionedInstallWithoutTheLink) {
  FakeMachine M;
  M.CudaHeaders["/usr/local/cuda-12.8"] = Cuda128;
  M.CudaHeaders["/usr/local/cuda-13.0"] = Cuda13;
  M.CudaHeaders["/usr/lib/cuda"] = Cuda128;
  // Not toolkits: no header, or not a version.
  M.OtherEntries = {"/usr/local/cuda-13.1", "/usr/local/cuda-tools",
                    "/usr/local/cuda-9.x", "/usr/local/bin"};
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/usr/local/cuda-13.0");
  EXPECT_EQ(T->Major, 13);
}

TEST(CudaToolkitTest, VersionsCompareAsNumbers) {
  FakeMachine M;
  M.CudaHeaders["/usr/local/cuda-12.10"] = "#define CUDA_VERSION 12100\n";
  M.CudaHeaders["/usr/local/cuda-12.8"] = Cuda128;
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/usr/local/cuda-12.10");
}

TEST(CudaToolkitTest, DebianUsrLibCudaIsLast) {
  FakeMachine M;
  M.CudaHeaders["/usr/lib/cuda"] = Cuda128;
  auto T = findCudaToolkit(M.environment());
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Path, "/usr/lib/cuda");
  EXPECT_EQ(T->Minor, 8);
}

TEST(CudaToolkitTest, NoneFound) {
  FakeMachine M;
  EXPECT_FALSE(findCudaToolkit(M.environment()));
}

// A machine without a toolkit, as the drop-in binary sees it: a stale
// CUDA_PATH, an nvcc outside any toolkit, nothing at /usr/local/cuda. The
// command line it builds parses CUDA against the fallback header.
TEST(CudaToolkitTest, WithoutAToolkitTheFallbackIsUsed) {
  FakeMachine M;
  M.Env["CUDA_PATH"] = "/opt/cuda-removed";
  M.Programs["nvcc"] = "/usr/bin/nvcc";
  std::optional<CudaToolkit> Toolkit = findCudaToolkit(M.environment());
  EXPECT_FALSE(Toolkit);
  ASSERT_TRUE(needsFallbackHeaders(ToolCommandLine::parse({"k.cu"}), false));
  std::vector<std::string> Args =
      rewriteCommandLine(ToolCommandLine::parse({"k.cu"}), Toolkit, false,
                         "/tmp/fb")
          .args();
  std::vector<std::string> Expected = {"k.cu", "--"};
  std::vector<std::string> Flags = fallbackParseFlags("/tmp/fb", {});
  Expected.insert(Expected.end(), Flags.begin(), Flags.end());
  EXPECT_EQ(Args, Expected);
  // The nvcc of a compile database whose toolkit is gone has none either.
  EXPECT_FALSE(toolkitOfNvcc("/opt/cuda-12.1/bin/nvcc", M.environment()));
}

} // namespace

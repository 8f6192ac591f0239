//===--- CudaToolkit.cpp - cuda-lambda-tidy -----------------------------===//

#include "CudaToolkit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace cuda_lambda_tidy {

ToolkitEnvironment ToolkitEnvironment::real() {
  ToolkitEnvironment Env;
  Env.GetEnv = [](llvm::StringRef Name) {
    return llvm::sys::Process::GetEnv(Name);
  };
  Env.FindProgram = [](llvm::StringRef Name) -> std::optional<std::string> {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Name);
    if (!Found)
      return std::nullopt;
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(*Found, Real))
      return *Found;
    return std::string(Real);
  };
  Env.IsToolkitRoot = [](llvm::StringRef Dir) {
    llvm::SmallString<256> Header(Dir);
    llvm::sys::path::append(Header, "include", "cuda_runtime.h");
    return llvm::sys::fs::exists(Header);
  };
  Env.ReadFile = [](llvm::StringRef Path) -> std::optional<std::string> {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return std::nullopt;
    return (*Buffer)->getBuffer().str();
  };
  Env.ListDir = [](llvm::StringRef Dir) {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
    return Names;
  };
  return Env;
}

std::optional<std::pair<int, int>> parseCudaVersion(llvm::StringRef CudaH) {
  constexpr llvm::StringLiteral Define = "#define CUDA_VERSION ";
  size_t At = CudaH.find(Define);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  unsigned Number = 0;
  llvm::StringRef Digits = CudaH.substr(At + Define.size()).ltrim();
  if (Digits.consumeInteger(10, Number) || Number == 0)
    return std::nullopt;
  return std::make_pair(int(Number / 1000), int(Number % 1000 / 10));
}

static CudaToolkit describe(const ToolkitEnvironment &Env,
                            llvm::StringRef Root) {
  CudaToolkit Toolkit;
  Toolkit.Path = Root.rtrim('/').str();
  if (Toolkit.Path.empty())
    Toolkit.Path = "/";
  llvm::SmallString<256> CudaH(Toolkit.Path);
  llvm::sys::path::append(CudaH, "include", "cuda.h");
  if (auto Text = Env.ReadFile(CudaH))
    if (auto Version = parseCudaVersion(*Text))
      std::tie(Toolkit.Major, Toolkit.Minor) = *Version;
  return Toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(const ToolkitEnvironment &Env) {
  if (auto FromEnv = Env.GetEnv("CUDA_PATH"))
    if (!FromEnv->empty() && Env.IsToolkitRoot(*FromEnv))
      return describe(Env, *FromEnv);
  if (auto Nvcc = Env.FindProgram("nvcc")) {
    // <root>/bin/nvcc
    llvm::StringRef Root =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*Nvcc));
    if (!Root.empty() && Env.IsToolkitRoot(Root))
      return describe(Env, Root);
  }
  if (Env.IsToolkitRoot("/usr/local/cuda"))
    return describe(Env, "/usr/local/cuda");
  // Versioned installs without the /usr/local/cuda link: the newest.
  std::optional<std::pair<int, int>> Newest;
  std::string NewestRoot;
  if (Env.ListDir)
    for (const std::string &Name : Env.ListDir("/usr/local")) {
      llvm::StringRef Version(Name);
      int Major = 0, Minor = 0;
      if (!Version.consume_front("cuda-") ||
          Version.consumeInteger(10, Major) || !Version.consume_front(".") ||
          Version.consumeInteger(10, Minor) || !Version.empty())
        continue;
      std::string Root = "/usr/local/" + Name;
      if ((!Newest || *Newest < std::make_pair(Major, Minor)) &&
          Env.IsToolkitRoot(Root)) {
        Newest = std::make_pair(Major, Minor);
        NewestRoot = Root;
      }
    }
  if (Newest)
    return describe(Env, NewestRoot);
  if (Env.IsToolkitRoot("/usr/lib/cuda"))
    return describe(Env, "/usr/lib/cuda");
  return std::nullopt;
}

std::optional<CudaToolkit> toolkitOfNvcc(llvm::StringRef Nvcc,
                                         const ToolkitEnvironment &Env) {
  llvm::StringRef Root =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Nvcc));
  if (!Root.empty() && Env.IsToolkitRoot(Root))
    return describe(Env, Root);
  return findCudaToolkit(Env);
}

} // namespace cuda_lambda_tidy

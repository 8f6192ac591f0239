//===--- DropInRun.cpp - cuda-lambda-tidy -------------------------------===//

#include "DropInRun.h"
#include "CudaLambdaTidyVersion.h"
#include "FallbackHeaders.h"
#include "PreambleCache.h"
#include "ResultsCache.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

namespace cuda_lambda_tidy {

int inputError(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: error: " << Message << "\n";
  return InputErrorExitCode;
}

void warning(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-tidy: warning: " << Message << "\n";
}

bool explains(llvm::StringRef Topic) {
  return std::getenv(("CUDA_LAMBDA_TIDY_EXPLAIN_" + Topic).str().c_str()) !=
         nullptr;
}

std::string selfPath(const char *Argv0) {
  static int Anchor;
  std::string Self = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  return Self.empty() ? std::string(Argv0) : Self;
}

DropInRun::DropInRun(const char *Argv0)
    : Argv0(Argv0), Self(selfPath(Argv0)) {}

DropInRun::~DropInRun() {
  for (const std::string &Dir : TemporaryDirs)
    llvm::sys::fs::remove_directories(Dir);
}

llvm::Expected<std::string>
DropInRun::createTemporaryDirectory(llvm::StringRef Prefix) {
  llvm::SmallString<256> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
    return llvm::createStringError(
        EC, "cannot create a temporary directory: " + EC.message());
  llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::owner_all);
  TemporaryDirs.push_back(Dir.str().str());
  VolatileDirs.push_back(Dir.str().str());
  return TemporaryDirs.back();
}

void DropInRun::removeOnSignal(llvm::StringRef Path) {
  llvm::sys::RemoveFileOnSignal(Path);
  RemovedOnSignal.push_back(Path.str());
}

void DropInRun::becomeForkedChild() {
  TemporaryDirs.clear(); // still in VolatileDirs
  for (const std::string &Path : RemovedOnSignal)
    llvm::sys::DontRemoveFileOnSignal(Path);
  RemovedOnSignal.clear();
  Request.reset();
  Reply = ChildReply();
  Pass.clear();
  PreambleCacheDir.clear();
  PreambleAtFirstLint = false;
}

/// Marks each of \p Headers below \p Dir for removal should a signal end
/// \p Run.
static void removeHeadersOnSignal(DropInRun &Run, llvm::StringRef Dir,
                                  llvm::ArrayRef<FallbackHeader> Headers) {
  for (const FallbackHeader &Header : Headers) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Header.Path);
    Run.removeOnSignal(Path);
  }
}

llvm::Expected<std::string> DropInRun::resourceDir() {
  llvm::ArrayRef<FallbackHeader> Embedded = embeddedResourceHeaders();
  if (Embedded.empty())
    return std::string(CLANG_RESOURCE_DIR);
  // With the preamble cache, in the cache: a preamble names the headers it
  // read by path, and one under this run's temporary directory could never
  // be reused. The binary carries the headers, so its identity keys them.
  if (!PreambleCacheDir.empty()) {
    llvm::Expected<std::string> Stable = stableSupportDirectory(
        PreambleCacheDir,
        "resource headers " + toolIdentity(CUDA_LAMBDA_TIDY_VERSION, Self),
        Embedded);
    if (Stable)
      return Stable;
    llvm::consumeError(Stable.takeError());
  }
  if (WrittenResourceDir)
    return *WrittenResourceDir;
  llvm::Expected<std::string> Dir =
      createTemporaryDirectory("cuda-lambda-tidy-resource");
  if (!Dir)
    return Dir.takeError();
  if (llvm::Error Failed = writeBundledHeaders(*Dir, Embedded))
    return std::move(Failed);
  removeHeadersOnSignal(*this, *Dir, Embedded);
  WrittenResourceDir = *Dir;
  return *WrittenResourceDir;
}

llvm::Expected<std::string>
DropInRun::useNvccCompatHeader(llvm::StringRef Dir) {
  if (!PreambleCacheDir.empty()) {
    llvm::Expected<std::string> Stable =
        stableSupportFile(PreambleCacheDir, nvccCompatHeader().Path,
                          nvccCompatHeader().Text);
    if (Stable)
      return Stable;
    llvm::consumeError(Stable.takeError());
  }
  llvm::Expected<std::string> Path = writeNvccCompatHeader(Dir);
  if (Path)
    removeOnSignal(*Path);
  return Path;
}

std::string DropInRun::docsDir() const {
  llvm::SmallString<256> Installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Self)));
  llvm::sys::path::append(Installed, CUDA_LAMBDA_TIDY_INSTALLED_DOCS_DIR);
  if (llvm::sys::fs::is_directory(Installed))
    return Installed.str().str();
  return CUDA_LAMBDA_TIDY_DOCS_DIR;
}

llvm::Error useFallbackHeaders(DropInRun &Run, llvm::StringRef Dir,
                               llvm::StringRef Reason) {
  if (llvm::Error Failed = writeFallbackHeaders(Dir))
    return Failed;
  removeHeadersOnSignal(Run, Dir, fallbackHeaders());
  // A child tells its parent, which prints the notice before anything else
  // its children printed; a pass run alone prints it.
  if (Run.Request)
    Run.Reply.FallbackReason = Reason.str();
  else
    llvm::errs() << fallbackNotice(Reason) << "\n";
  return llvm::Error::success();
}

} // namespace cuda_lambda_tidy

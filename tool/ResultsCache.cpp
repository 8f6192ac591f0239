//===--- ResultsCache.cpp - cuda-lambda-tidy ----------------------------===//

#include "ResultsCache.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstring>
#include <link.h>

namespace cuda_lambda_tidy {

std::string cacheDirectory(llvm::StringRef Chosen) {
  llvm::SmallString<256> Dir(Chosen);
  if (Dir.empty()) {
    if (std::optional<std::string> Xdg =
            llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
        Xdg && !Xdg->empty() && llvm::sys::path::is_absolute(*Xdg)) {
      Dir = *Xdg;
      llvm::sys::path::append(Dir, "cuda-lambda-tidy");
    } else if (std::optional<std::string> Home =
                   llvm::sys::Process::GetEnv("HOME");
               Home && !Home->empty()) {
      Dir = *Home;
      llvm::sys::path::append(Dir, ".cache", "cuda-lambda-tidy");
    } else {
      return "";
    }
  }
  // Absolute: a child and a cached preamble name files below it from
  // wherever they run.
  if (llvm::sys::fs::make_absolute(Dir))
    return "";
  return Dir.str().str();
}

bool cacheDisabledByEnvironment() {
  std::optional<std::string> Value =
      llvm::sys::Process::GetEnv(NoCacheEnvironmentVariable);
  return Value && !Value->empty() && *Value != "0";
}

/// The GNU build ids of the program and every shared object it loaded,
/// in load order ("" where none has one).
static int appendBuildId(struct dl_phdr_info *Info, size_t, void *Data) {
  std::string &Ids = *static_cast<std::string *>(Data);
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
    if (Segment.p_type != PT_NOTE)
      continue;
    const char *At =
        reinterpret_cast<const char *>(Info->dlpi_addr + Segment.p_vaddr);
    const char *End = At + Segment.p_memsz;
    while (At + sizeof(ElfW(Nhdr)) <= End) {
      const auto *Note = reinterpret_cast<const ElfW(Nhdr) *>(At);
      const char *Name = At + sizeof(ElfW(Nhdr));
      const char *Desc = Name + ((Note->n_namesz + 3) & ~3u);
      if (Desc + Note->n_descsz > End)
        break;
      if (Note->n_type == NT_GNU_BUILD_ID && Note->n_namesz == 4 &&
          std::memcmp(Name, "GNU", 4) == 0)
        Ids += llvm::toHex(llvm::StringRef(Desc, Note->n_descsz), true) + " ";
      At = Desc + ((Note->n_descsz + 3) & ~3u);
    }
  }
  return 0;
}

std::string toolIdentity(llvm::StringRef Version, llvm::StringRef SelfPath) {
  std::string Identity = Version.str() + "\n";
  std::string Ids;
  dl_iterate_phdr(appendBuildId, &Ids);
  if (!Ids.empty())
    return Identity + Ids;
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(SelfPath, Status))
    Identity += std::to_string(Status.getSize()) + " " +
                std::to_string(Status.getLastModificationTime()
                                   .time_since_epoch()
                                   .count());
  return Identity;
}

static std::string fileText(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string("<unreadable>");
}

std::string configurationInputs(llvm::StringRef Source,
                                llvm::ArrayRef<std::string> ToolArgs) {
  std::string Inputs;
  llvm::SmallString<256> Dir(Source);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Candidate(Current);
    llvm::sys::path::append(Candidate, ".clang-tidy");
    if (llvm::sys::fs::exists(Candidate))
      Inputs += Candidate.str().str() + "\n" + fileText(Candidate) + "\n";
  }
  for (size_t I = 0; I < ToolArgs.size(); ++I) {
    llvm::StringRef Arg = llvm::StringRef(ToolArgs[I]).ltrim('-');
    if (Arg == "config-file" && I + 1 < ToolArgs.size())
      Inputs += "config-file\n" + fileText(ToolArgs[I + 1]) + "\n";
    else if (Arg.consume_front("config-file="))
      Inputs += "config-file\n" + fileText(Arg) + "\n";
  }
  return Inputs;
}

namespace {

/// Runs the preprocessor over the whole input, then lists the files it
/// entered with their contents.
class InputListingAction : public clang::PreprocessOnlyAction {
public:
  explicit InputListingAction(
      std::vector<std::pair<std::string, std::string>> &Files)
      : Files(Files) {}

protected:
  void EndSourceFileAction() override {
    clang::CompilerInstance &CI = getCompilerInstance();
    clang::SourceManager &SM = CI.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      std::string Name = It->first.getName().str();
      std::optional<llvm::MemoryBufferRef> Buffer;
      if (It->second)
        Buffer = It->second->getBufferIfLoaded();
      if (Buffer) {
        Files.push_back({Name, Buffer->getBuffer().str()});
        continue;
      }
      auto Read = CI.getFileManager().getBufferForFile(It->first);
      Files.push_back(
          {Name, Read ? (*Read)->getBuffer().str() : std::string("<unread>")});
    }
    PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::vector<std::pair<std::string, std::string>> &Files;
};

} // namespace

std::string digestOf(llvm::ArrayRef<std::string> Parts) {
  llvm::SHA256 Hash;
  for (const std::string &Part : Parts) {
    std::string Length = std::to_string(Part.size()) + ":";
    Hash.update(Length);
    Hash.update(Part);
  }
  std::array<uint8_t, 32> Digest = Hash.final();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

llvm::Expected<std::string>
preprocessedInputDigest(const std::vector<std::string> &CommandLine,
                        llvm::StringRef Directory,
                        llvm::ArrayRef<std::string> Volatile) {
  std::unique_ptr<llvm::vfs::FileSystem> Physical =
      llvm::vfs::createPhysicalFileSystem();
  if (std::error_code EC = Physical->setCurrentWorkingDirectory(Directory))
    return llvm::createStringError(EC, "cannot enter '" + Directory +
                                           "': " + EC.message());
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(new clang::FileManager(
      clang::FileSystemOptions(),
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(Physical.release())));
  std::vector<std::pair<std::string, std::string>> Entered;
  clang::tooling::ToolInvocation Invocation(
      CommandLine, std::make_unique<InputListingAction>(Entered), Files.get());
  clang::TextDiagnosticBuffer Quiet;
  Invocation.setDiagnosticConsumer(&Quiet);
  bool Ran = Invocation.run();
  if (Entered.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the preprocessor entered no file");
  std::vector<std::string> Parts = {Ran ? "ok" : "errors"};
  for (auto &[Name, Content] : Entered) {
    llvm::SmallString<256> Path(Name);
    if (!llvm::sys::path::is_absolute(Path)) {
      Path = Directory;
      llvm::sys::path::append(Path, Name);
    }
    llvm::sys::path::remove_dots(Path, true);
    std::string Shown = Path.str().str();
    for (llvm::StringRef Prefix : Volatile)
      if (!Prefix.empty() && llvm::StringRef(Shown).starts_with(Prefix))
        Shown = "<tmp>" + Shown.substr(Prefix.size());
    Name = Shown;
  }
  std::sort(Entered.begin(), Entered.end());
  for (auto &[Name, Content] : Entered) {
    Parts.push_back(Name);
    Parts.push_back(std::move(Content));
  }
  return digestOf(Parts);
}

static llvm::SmallString<256> entryPath(llvm::StringRef CacheDir,
                                        llvm::StringRef Key) {
  llvm::SmallString<256> Path(CacheDir);
  llvm::sys::path::append(Path, "results", Key.take_front(2), Key + ".entry");
  return Path;
}

static constexpr llvm::StringLiteral EntryMagic = "cuda-lambda-tidy-results 2\n";

std::optional<CachedResult> readCachedResult(llvm::StringRef CacheDir,
                                             llvm::StringRef Key) {
  auto Buffer = llvm::MemoryBuffer::getFile(entryPath(CacheDir, Key));
  if (!Buffer)
    return std::nullopt;
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  if (!Rest.consume_front(EntryMagic))
    return std::nullopt;
  CachedResult Result;
  auto Field = [&](std::string &Into) {
    auto [Header, After] = Rest.split('\n');
    size_t Size = 0;
    if (Header.getAsInteger(10, Size) || After.size() < Size)
      return false;
    Into = After.take_front(Size).str();
    Rest = After.drop_front(Size);
    return true;
  };
  std::string Status;
  if (!Field(Status) || !Field(Result.Stdout) || !Field(Result.Stderr) ||
      !Field(Result.Fixes) || !Field(Result.Probe) ||
      !Field(Result.FallbackReason) || Rest != "end\n" ||
      llvm::StringRef(Status).getAsInteger(10, Result.Status))
    return std::nullopt;
  return Result;
}

llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  llvm::SmallString<256> Temporary;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Path + ".tmp-%%%%%%%%", FD, Temporary))
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      Out.clear_error();
      llvm::sys::fs::remove(Temporary);
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot write '" + Temporary + "'");
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return llvm::createStringError(EC, "cannot rename '" + Temporary +
                                           "': " + EC.message());
  }
  return llvm::Error::success();
}

llvm::Error writeCachedResult(llvm::StringRef CacheDir, llvm::StringRef Key,
                              const CachedResult &Result) {
  llvm::SmallString<256> Path = entryPath(CacheDir, Key);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create '" + Dir +
                                           "': " + EC.message());
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << EntryMagic;
  for (const std::string &Part :
       {std::to_string(Result.Status), Result.Stdout, Result.Stderr,
        Result.Fixes, Result.Probe, Result.FallbackReason})
    Out << Part.size() << "\n" << Part;
  Out << "end\n";
  return writeAtomically(Path, Text);
}

} // namespace cuda_lambda_tidy

//===--- PreambleCache.cpp - cuda-lambda-tidy ---------------------------===//

#include "PreambleCache.h"
#include "FallbackHeaders.h"
#include "probe/PassProbe.h"
#include "ResultsCache.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>

namespace cuda_lambda_tidy {

size_t includeLinesPrefix(llvm::StringRef Text) {
  size_t End = 0; // the start of the line after the last #include
  size_t I = 0;
  const size_t N = Text.size();
  auto LineEnd = [&](size_t From) {
    size_t At = Text.find('\n', From);
    return At == llvm::StringRef::npos ? N : At + 1;
  };
  while (I < N) {
    char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\f' ||
        C == '\v') {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//")) {
      // A line comment continued with a backslash goes on; keep it simple
      // and stop there.
      size_t To = LineEnd(I);
      if (Text.substr(I, To - I).rtrim().ends_with("\\"))
        break;
      I = To;
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t Close = Text.find("*/", I + 2);
      if (Close == llvm::StringRef::npos)
        break;
      I = Close + 2;
      continue;
    }
    if (C != '#')
      break;
    size_t To = LineEnd(I);
    llvm::StringRef Line = Text.substr(I + 1, To - I - 1).rtrim();
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include"))
      break;
    Line = Line.ltrim(" \t");
    // `#include <x>` or `#include "x"`, nothing after it but a comment.
    char Open = Line.empty() ? 0 : Line.front();
    if (Open != '<' && Open != '"')
      break;
    size_t Close = Line.find(Open == '<' ? '>' : '"', 1);
    if (Close == llvm::StringRef::npos)
      break;
    llvm::StringRef Rest = Line.drop_front(Close + 1).ltrim(" \t");
    if (!Rest.empty() && !Rest.starts_with("//"))
      break;
    if (Rest.ends_with("\\"))
      break;
    I = To;
    End = To;
  }
  return End;
}

namespace {

/// The start of the line holding \p Offset.
size_t lineStart(llvm::StringRef Text, size_t Offset) {
  size_t At = Text.rfind('\n', std::min(Offset, Text.size()));
  return At == llvm::StringRef::npos ? 0 : At + 1;
}

/// While the preamble is built: the first `#include` of the main file that
/// enters a file outside the system headers (directly or through other
/// files), as an offset in the main file. The nvcc-compatibility layer,
/// force-included from the command line, is ours and allowed.
class UserFileTracker : public clang::PPCallbacks {
public:
  UserFileTracker(const clang::SourceManager &SM, std::optional<size_t> &Cut,
                  bool &ForeignInclude, bool &Managed)
      : SM(SM), Cut(Cut), ForeignInclude(ForeignInclude), Managed(Managed) {}

  /// cuda-host-variable-in-device-code finds `__managed__` variables by
  /// the macro's expansions, which a PCH does not replay: a preamble that
  /// declares one is not used.
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &,
                    clang::SourceRange, const clang::MacroArgs *) override {
    if (const clang::IdentifierInfo *Id = Name.getIdentifierInfo();
        Id && Id->getName() == "__managed__")
      Managed = true;
  }

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind FileType,
                   clang::FileID) override {
    if (Reason != EnterFile || clang::SrcMgr::isSystem(FileType))
      return;
    clang::FileID Entered = SM.getFileID(Loc);
    clang::OptionalFileEntryRef File = SM.getFileEntryRefForID(Entered);
    if (!File || Entered == SM.getMainFileID())
      return;
    // Walk up to the include at the top: in the main file, or elsewhere
    // (the command line's -include).
    clang::FileID Current = Entered;
    while (true) {
      clang::SourceLocation Included = SM.getIncludeLoc(Current);
      if (Included.isInvalid())
        break;
      clang::FileID Parent = SM.getFileID(Included);
      if (Parent == SM.getMainFileID()) {
        size_t Offset = SM.getFileOffset(Included);
        if (!Cut || Offset < *Cut)
          Cut = Offset;
        return;
      }
      Current = Parent;
    }
    if (llvm::sys::path::filename(File->getName()) != NvccCompatIncludeName)
      ForeignInclude = true;
  }

private:
  const clang::SourceManager &SM;
  std::optional<size_t> &Cut;
  bool &ForeignInclude;
  bool &Managed;
};

/// A file the preamble read, as checked again on reuse.
struct ReadFile {
  std::string Path;
  uint64_t Size = 0;
  int64_t Modified = 0;
  uint64_t Hash = 0;
};

std::optional<ReadFile> statFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return std::nullopt;
  return ReadFile{Path.str(), Status.getSize(),
                  static_cast<int64_t>(Status.getLastModificationTime()
                                           .time_since_epoch()
                                           .count()),
                  0};
}

/// The content hash of \p Path, std::nullopt when it cannot be read.
std::optional<uint64_t> contentHash(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return llvm::xxh3_64bits(llvm::arrayRefFromStringRef((*Buffer)->getBuffer()));
}

class BuildCallbacks : public clang::PreambleCallbacks {
public:
  BuildCallbacks(llvm::StringRef Directory) : Directory(Directory) {}

  void BeforeExecute(clang::CompilerInstance &CI) override { Instance = &CI; }

  std::unique_ptr<clang::PPCallbacks> createPPCallbacks() override {
    clang::Preprocessor &PP = Instance->getPreprocessor();
    passDependentMacrosRecorder(PP, &Macros);
    return std::make_unique<UserFileTracker>(PP.getSourceManager(), Cut,
                                             ForeignInclude, Managed);
  }

  void AfterExecute(clang::CompilerInstance &CI) override {
    clang::SourceManager &SM = CI.getSourceManager();
    clang::OptionalFileEntryRef Main =
        SM.getFileEntryRefForID(SM.getMainFileID());
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      if (Main && It->first == *Main)
        continue;
      llvm::SmallString<256> Path(It->first.getName());
      if (!llvm::sys::path::is_absolute(Path)) {
        Path = Directory;
        llvm::sys::path::append(Path, It->first.getName());
      }
      std::optional<ReadFile> Read = statFile(Path);
      std::optional<uint64_t> Hash = contentHash(Path);
      if (Read && Hash)
        Read->Hash = *Hash;
      if (!Read || !Hash) {
        Unreadable = true;
        continue;
      }
      Files.push_back(std::move(*Read));
    }
  }

  std::string Directory;
  clang::CompilerInstance *Instance = nullptr;
  std::vector<std::string> Macros;
  std::optional<size_t> Cut;
  bool ForeignInclude = false;
  bool Managed = false;
  bool Unreadable = false;
  std::vector<ReadFile> Files;
};

constexpr llvm::StringLiteral DepsMagic = "cuda-lambda-tidy-preamble 1\n";

/// An entry's description: the `.deps` file next to its `.pch`.
struct Entry {
  size_t Bytes = 0;
  bool EndsAtStartOfLine = true;
  uint64_t PchSize = 0;
  std::vector<std::string> Macros;
  std::vector<ReadFile> Files;
};

std::string renderEntry(const Entry &E) {
  std::string Text = DepsMagic.str();
  llvm::raw_string_ostream Out(Text);
  Out << "bytes " << E.Bytes << " " << (E.EndsAtStartOfLine ? 1 : 0) << "\n";
  Out << "pch " << E.PchSize << "\n";
  for (const std::string &Macro : E.Macros)
    Out << "macro " << Macro << "\n";
  for (const ReadFile &F : E.Files)
    Out << "file " << F.Size << " " << F.Modified << " " << F.Hash << " "
        << F.Path << "\n";
  Out << "end\n";
  return Text;
}

std::optional<Entry> parseEntry(llvm::StringRef Text) {
  if (!Text.consume_front(DepsMagic))
    return std::nullopt;
  Entry E;
  bool Ended = false, SawBytes = false, SawPch = false;
  while (!Text.empty() && !Ended) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    auto [Kind, Value] = Line.split(' ');
    if (Kind == "bytes") {
      auto [Size, Eol] = Value.split(' ');
      if (Size.getAsInteger(10, E.Bytes) || (Eol != "0" && Eol != "1"))
        return std::nullopt;
      E.EndsAtStartOfLine = Eol == "1";
      SawBytes = true;
    } else if (Kind == "pch") {
      if (Value.getAsInteger(10, E.PchSize))
        return std::nullopt;
      SawPch = true;
    } else if (Kind == "macro") {
      E.Macros.push_back(Value.str());
    } else if (Kind == "file") {
      auto [Size, After] = Value.split(' ');
      auto [Modified, AfterModified] = After.split(' ');
      auto [Hash, Path] = AfterModified.split(' ');
      ReadFile F;
      if (Size.getAsInteger(10, F.Size) ||
          Modified.getAsInteger(10, F.Modified) ||
          Hash.getAsInteger(10, F.Hash) || Path.empty())
        return std::nullopt;
      F.Path = Path.str();
      E.Files.push_back(std::move(F));
    } else if (Kind == "end") {
      Ended = true;
    } else {
      return std::nullopt;
    }
  }
  if (!Ended || !SawBytes || !SawPch)
    return std::nullopt;
  return E;
}


/// Whether every file \p E read is as it was: the same size, and the same
/// modification time or else the same content (a file touched, or checked
/// out again, unchanged).
bool unchanged(const Entry &E, std::string &Why) {
  for (const ReadFile &F : E.Files) {
    std::optional<ReadFile> Now = statFile(F.Path);
    if (Now && Now->Size == F.Size && Now->Modified == F.Modified)
      continue;
    if (Now && Now->Size == F.Size && contentHash(F.Path) == F.Hash)
      continue;
    Why = "'" + F.Path + "' changed";
    return false;
  }
  return true;
}

/// Removes the other entries of a slot (one entry per file and pass), and
/// leftovers of crashed runs older than an hour.
void pruneSlot(llvm::StringRef SlotDir, llvm::StringRef Keep) {
  std::error_code EC;
  auto Now = std::chrono::system_clock::now();
  for (llvm::sys::fs::directory_iterator It(SlotDir, EC), End;
       !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.starts_with(Keep))
      continue;
    bool Leftover = Name.contains(".use-") || Name.contains(".tmp-") ||
                    Name.starts_with("preamble-");
    if (Leftover) {
      llvm::sys::fs::file_status Status;
      if (llvm::sys::fs::status(It->path(), Status) ||
          Now - Status.getLastModificationTime() < std::chrono::hours(1))
        continue;
    } else if (!Name.ends_with(".pch") && !Name.ends_with(".deps") &&
               !Name.ends_with(".seen")) {
      continue;
    }
    llvm::sys::fs::remove(It->path());
  }
}

/// A private hard link to \p Pch next to it, or "".
std::string linkTo(llvm::StringRef Pch) {
  for (int Attempt = 0; Attempt < 8; ++Attempt) {
    llvm::SmallString<256> Link;
    llvm::sys::fs::createUniquePath(Pch + ".use-%%%%%%%%", Link,
                                    /*MakeAbsolute=*/false);
    std::error_code EC = llvm::sys::fs::create_hard_link(Pch, Link);
    if (!EC)
      return Link.str().str();
    if (EC != std::errc::file_exists)
      return "";
  }
  return "";
}

PreambleUse useEntry(const Entry &E, const std::string &Link) {
  PreambleUse Use;
  Use.Link = Link;
  Use.DependentMacros = E.Macros;
  for (std::string Arg :
       {std::string("-Xclang"), std::string("-include-pch"),
        std::string("-Xclang"), Link, std::string("-Xclang"),
        "-preamble-bytes=" + std::to_string(E.Bytes) + "," +
            (E.EndsAtStartOfLine ? "1" : "0"),
        std::string("-Xclang"), std::string("-fno-validate-pch")})
    Use.ToolArgs.push_back("--extra-arg=" + Arg);
  return Use;
}

class PreambleAction : public clang::tooling::ToolAction {
public:
  PreambleAction(const PreambleRequest &Request, PreambleOutcome &Outcome,
                 std::optional<PreambleUse> &Result)
      : Request(Request), Outcome(Outcome), Result(Result) {}

  bool runInvocation(
      std::shared_ptr<clang::CompilerInvocation> Invocation,
      clang::FileManager *Files,
      std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
      clang::DiagnosticConsumer *) override {
    run(*Invocation, *Files, std::move(PCHContainerOps));
    return true;
  }

private:
  void miss(const llvm::Twine &Reason) {
    Outcome.Verdict = "miss";
    Outcome.Reason = Reason.str();
  }

  void run(clang::CompilerInvocation &Invocation, clang::FileManager &Files,
           std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps) {
    const auto &Inputs = Invocation.getFrontendOpts().Inputs;
    if (Inputs.size() != 1 || !Inputs.front().isFile())
      return miss("not one input file");
    std::string MainPath = Inputs.front().getFile().str();
    auto Buffer = Files.getBufferForFile(MainPath);
    if (!Buffer)
      return miss("the file cannot be read");
    llvm::StringRef Text = (*Buffer)->getBuffer();
    clang::PreambleBounds Lexed = clang::ComputePreambleBounds(
        Invocation.getLangOpts(), (*Buffer)->getMemBufferRef(), 0);
    size_t Prefix = std::min<size_t>(includeLinesPrefix(Text), Lexed.Size);
    if (Prefix == 0)
      return miss("no leading #include lines");

    std::vector<std::string> Cc1 = Invocation.getCC1CommandLine();
    for (const std::string &Arg : Cc1)
      for (const std::string &Prefix : Request.Volatile)
        if (!Prefix.empty() && llvm::StringRef(Arg).contains(Prefix))
          return miss("the command names this run's temporary files: " +
                      Arg);
    std::vector<std::string> SlotParts = {
        "cuda-lambda-tidy preamble slot 1", Request.ToolIdentity,
        clang::getClangFullVersion(), Request.Directory, MainPath};
    SlotParts.insert(SlotParts.end(), Cc1.begin(), Cc1.end());
    std::string Slot = digestOf(SlotParts);
    // The key: the slot and the leading #include lines as written; where
    // the entry ends its preamble earlier (an #include of a user header),
    // it says so.
    std::string Key = digestOf({Slot, Text.take_front(Prefix).str()});
    llvm::SmallString<256> SlotDir(Request.CacheDir);
    llvm::sys::path::append(SlotDir, "preambles", Slot.substr(0, 24));
    llvm::SmallString<256> Pch(SlotDir), Deps(SlotDir);
    llvm::sys::path::append(Pch, Key + ".pch");
    llvm::sys::path::append(Deps, Key + ".deps");

    std::string Stale;
    bool Known = false; // an entry was stored: this preamble was reused
    if (auto Stored = llvm::MemoryBuffer::getFile(Deps)) {
      Known = true;
      std::optional<Entry> E = parseEntry((*Stored)->getBuffer());
      if (E && E->Bytes == 0)
        return miss("the first #include enters a user header");
      if (E && unchanged(*E, Stale)) {
        llvm::sys::fs::file_status Status;
        if (!llvm::sys::fs::status(Pch, Status) &&
            Status.getSize() == E->PchSize) {
          std::string Link = linkTo(Pch);
          if (!Link.empty()) {
            Outcome = {"hit", ""};
            Result = useEntry(*E, Link);
            return;
          }
        }
      }
    }

    if (std::error_code EC = llvm::sys::fs::create_directories(SlotDir))
      return miss("cannot create '" + SlotDir + "': " + EC.message());
    // The first sight of this preamble leaves a mark; the second builds.
    llvm::SmallString<256> Seen(SlotDir);
    llvm::sys::path::append(Seen, Key + ".seen");
    if (!Known && !Request.BuildAtFirstSight &&
        !llvm::sys::fs::exists(Seen)) {
      if (llvm::Error Failed = writeAtomically(Seen, ""))
        llvm::consumeError(std::move(Failed));
      pruneSlot(SlotDir, Key); // the file's older preamble, if any
      return miss("first sight, built at the next lint of this preamble");
    }
    clang::PreambleBounds Bounds(Prefix, Prefix == Lexed.Size
                                             ? Lexed.PreambleEndsAtStartOfLine
                                             : true);
    // At most twice: the second time cut before the first #include that
    // entered a user header.
    for (int Attempt = 0; Attempt < 2; ++Attempt) {
      BuildCallbacks Callbacks(Request.Directory);
      clang::TextDiagnosticBuffer Buffered;
      llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diags =
          clang::CompilerInstance::createDiagnostics(
              *Files.getVirtualFileSystemPtr(),
              Invocation.getDiagnosticOpts(), &Buffered,
              /*ShouldOwnClient=*/false);
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
          Files.getVirtualFileSystemPtr();
      llvm::ErrorOr<clang::PrecompiledPreamble> Built =
          clang::PrecompiledPreamble::Build(
              Invocation, Buffer->get(), Bounds, Diags, VFS, PCHContainerOps,
              /*StoreInMemory=*/false, SlotDir, Callbacks);
      if (!Built)
        return miss("cannot build: " + Built.getError().message());
      if (Callbacks.ForeignInclude)
        return miss("a file forced in from the command line is not a system "
                    "header");
      if (Callbacks.Cut && *Callbacks.Cut < Bounds.Size) {
        size_t Cut = lineStart(Text, *Callbacks.Cut);
        if (Cut == 0 || Attempt == 1) {
          Entry Empty;
          Empty.Bytes = 0;
          if (llvm::Error Failed = writeAtomically(Deps, renderEntry(Empty)))
            llvm::consumeError(std::move(Failed));
          return miss("the first #include enters a user header");
        }
        Bounds = clang::PreambleBounds(Cut, true);
        continue;
      }
      if (Callbacks.Managed)
        return miss("the preamble declares a __managed__ variable");
      if (llvm::any_of(Callbacks.Macros,
                       [](llvm::StringRef M) { return M.starts_with("#"); }))
        return miss("the pass probe found code of the user's in the preamble");
      if (Buffered.getNumWarnings() + Buffered.getNumErrors() > 0)
        return miss("the preamble has diagnostics of its own");
      if (Callbacks.Unreadable)
        return miss("a file the preamble read cannot be checked");
      // Where Build left the PCH, and the bounds clang will use.
      clang::CompilerInvocation Copy(Invocation);
      Built->AddImplicitPreamble(Copy, VFS, Buffer->get());
      std::string Written = Copy.getPreprocessorOpts().ImplicitPCHInclude;
      Entry E;
      E.Bytes = Copy.getPreprocessorOpts().PrecompiledPreambleBytes.first;
      E.EndsAtStartOfLine =
          Copy.getPreprocessorOpts().PrecompiledPreambleBytes.second;
      E.Macros = std::move(Callbacks.Macros);
      E.Files = std::move(Callbacks.Files);
      llvm::sys::fs::file_status Status;
      if (Written.empty() || llvm::sys::fs::status(Written, Status))
        return miss("the PCH was not written");
      E.PchSize = Status.getSize();
      if (std::error_code EC = llvm::sys::fs::rename(Written, Pch))
        return miss("cannot store the PCH: " + EC.message());
      if (llvm::Error Failed = writeAtomically(Deps, renderEntry(E))) {
        llvm::sys::fs::remove(Pch);
        return miss(llvm::toString(std::move(Failed)));
      }
      pruneSlot(SlotDir, Key);
      std::string Link = linkTo(Pch);
      if (Link.empty())
        return miss("cannot link to the stored PCH");
      Outcome.Verdict = "built";
      Outcome.Reason = Stale;
      Result = useEntry(E, Link);
      return;
    }
  }

  const PreambleRequest &Request;
  PreambleOutcome &Outcome;
  std::optional<PreambleUse> &Result;
};

} // namespace

std::optional<PreambleUse> usePreamble(const PreambleRequest &Request,
                                       PreambleOutcome &Outcome) {
  Outcome = {"miss", "no compiler job"};
  std::unique_ptr<llvm::vfs::FileSystem> Physical =
      llvm::vfs::createPhysicalFileSystem();
  if (std::error_code EC =
          Physical->setCurrentWorkingDirectory(Request.Directory)) {
    Outcome.Reason = "cannot enter '" + Request.Directory + "'";
    return std::nullopt;
  }
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(new clang::FileManager(
      clang::FileSystemOptions(),
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(Physical.release())));
  std::optional<PreambleUse> Result;
  PreambleAction Action(Request, Outcome, Result);
  clang::tooling::ToolInvocation Invocation(
      Request.CommandLine, &Action, Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  clang::TextDiagnosticBuffer Quiet;
  Invocation.setDiagnosticConsumer(&Quiet);
  Invocation.run();
  return Result;
}

/// Whether each of \p Headers is below \p Dir with its size: a directory
/// put in place whole (renamed from a temporary one) and not cut short since.
static bool holdsHeaders(llvm::StringRef Dir,
                         llvm::ArrayRef<FallbackHeader> Headers) {
  for (const FallbackHeader &Header : Headers) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Header.Path);
    uint64_t Size;
    if (llvm::sys::fs::file_size(Path, Size) || Size != Header.Text.size())
      return false;
  }
  return true;
}

llvm::Expected<std::string>
stableSupportDirectory(llvm::StringRef CacheDir, llvm::StringRef Key,
                       llvm::ArrayRef<FallbackHeader> Headers) {
  llvm::SmallString<256> Dir(CacheDir);
  llvm::sys::path::append(Dir, "preambles", "support",
                          digestOf({Key.str()}).substr(0, 24));
  // createUniqueDirectory puts a relative name in the system's temporary
  // directory, from where the rename below could not move it.
  if (std::error_code EC = llvm::sys::fs::make_absolute(Dir))
    return llvm::createStringError(EC, "cannot name '" + Dir +
                                           "': " + EC.message());
  if (holdsHeaders(Dir, Headers))
    return Dir.str().str();
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
    return llvm::createStringError(EC, "cannot create '" + Parent +
                                           "': " + EC.message());
  llvm::SmallString<256> Temporary;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory(Dir + ".tmp", Temporary))
    return llvm::createStringError(EC, "cannot write in '" + Parent +
                                           "': " + EC.message());
  if (llvm::Error Failed = writeBundledHeaders(Temporary, Headers)) {
    llvm::sys::fs::remove_directories(Temporary);
    return std::move(Failed);
  }
  // One cut short since it was put in place goes; one that another run put
  // in place meanwhile stays.
  if (llvm::sys::fs::exists(Dir) && !holdsHeaders(Dir, Headers))
    llvm::sys::fs::remove_directories(Dir);
  if (llvm::sys::fs::rename(Temporary, Dir))
    llvm::sys::fs::remove_directories(Temporary);
  if (holdsHeaders(Dir, Headers))
    return Dir.str().str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot write the headers into '" + Dir + "'");
}

llvm::Expected<std::string> stableSupportFile(llvm::StringRef CacheDir,
                                              llvm::StringRef Name,
                                              llvm::StringRef Text) {
  llvm::Expected<std::string> Dir = stableSupportDirectory(
      CacheDir, digestOf({Name.str(), Text.str()}), FallbackHeader{Name, Text});
  if (!Dir)
    return Dir.takeError();
  llvm::SmallString<256> Path(*Dir);
  llvm::sys::path::append(Path, Name);
  return Path.str().str();
}

} // namespace cuda_lambda_tidy

//===--- ClangdMain.cpp - cuda-lambda-clangd ----------------------------===//
//
// clangd 22 with every upstream clang-tidy module and the `cuda` module
// linked in, reading nvcc compile databases as the drop-in does. clangd's
// own main runs unchanged; four of its calls are rerouted at link time
// (`--wrap`, tool/CMakeLists.txt), since clangd installs no headers and has
// no hook for either:
//
//  - JSONCompilationDatabase::loadFromBuffer, which clangd calls on every
//    compile_commands.json it finds (and again when the file changes): the
//    text goes through translateCompileDatabase first, so that each nvcc
//    entry becomes the clang command the drop-in would run (toolkit, CUDA 13
//    workarounds, nvcc-compatibility layer, fallback headers);
//  - inferMissingCompileCommands, which clangd calls right after, on the
//    same thread, with that database: a file the database lacks borrows
//    the untranslated command of the nearest entry, which is then
//    translated (translateCompileDatabase's Linted files), instead of
//    clang's interpolation over the translated commands (which loses `-x
//    cu`, and with it CUDA, for a `.cpp`); what the translation says about
//    an entry is logged when clangd asks for that entry's file;
//  - isFastTidyCheck, which clangd's default FastCheckFilter (Strict) asks
//    about every enabled check: the cuda-* checks measured fast say so
//    (docs/integration.md gives the measurement);
//  - PrecompiledPreamble::Build, which clangd asks to skip the bodies of the
//    headers' functions (templates included): the checks follow a lambda
//    through thrust's and cub's function templates into the kernels they
//    launch, which takes those bodies. The preamble is built with them.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "CudaModuleAnchor.h"
#include "FallbackHeaders.h"
#include "clang-tidy/ClangTidyForceLinker.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>
#include <optional>

using clang::tooling::JSONCommandLineSyntax;
using clang::tooling::JSONCompilationDatabase;

namespace clang::clangd {
// clangd's entry point (clangd/tool/ClangdMain.cpp, libclangdMain.a).
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

// The rerouted functions: `__real_X` is clangd's, `__wrap_X` ours, as
// GNU ld and lld's --wrap=X name them (X mangled).
#define LOAD_FROM_BUFFER                                                       \
  "_ZN5clang7tooling23JSONCompilationDatabase14loadFromBufferEN4llvm9StringRef" \
  "ERNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEENS0_"                 \
  "21JSONCommandLineSyntaxE"
#define INFER_MISSING                                                          \
  "_ZN5clang7tooling27inferMissingCompileCommandsESt10unique_ptrINS0_"        \
  "19CompilationDatabaseESt14default_deleteIS2_EE"
#define IS_FAST_TIDY_CHECK "_ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE"
#define BUILD_PREAMBLE                                                         \
  "_ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN4llvm12"  \
  "MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"              \
  "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"       \
  "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE"

std::unique_ptr<JSONCompilationDatabase>
realLoadFromBuffer(llvm::StringRef Data, std::string &Error,
                   JSONCommandLineSyntax Syntax) asm("__real_" LOAD_FROM_BUFFER);
std::unique_ptr<JSONCompilationDatabase>
wrapLoadFromBuffer(llvm::StringRef Data, std::string &Error,
                   JSONCommandLineSyntax Syntax) asm("__wrap_" LOAD_FROM_BUFFER);
std::unique_ptr<clang::tooling::CompilationDatabase>
realInferMissing(std::unique_ptr<clang::tooling::CompilationDatabase> Inner)
    asm("__real_" INFER_MISSING);
std::unique_ptr<clang::tooling::CompilationDatabase>
wrapInferMissing(std::unique_ptr<clang::tooling::CompilationDatabase> Inner)
    asm("__wrap_" INFER_MISSING);
std::optional<bool>
realIsFastTidyCheck(llvm::StringRef Check) asm("__real_" IS_FAST_TIDY_CHECK);
std::optional<bool>
wrapIsFastTidyCheck(llvm::StringRef Check) asm("__wrap_" IS_FAST_TIDY_CHECK);
#define BUILD_PREAMBLE_PARAMETERS                                              \
  const clang::CompilerInvocation &Invocation,                                 \
      const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,  \
      llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,          \
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,                     \
      std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,          \
      bool StoreInMemory, llvm::StringRef StoragePath,                         \
      clang::PreambleCallbacks &Callbacks
llvm::ErrorOr<clang::PrecompiledPreamble>
realBuildPreamble(BUILD_PREAMBLE_PARAMETERS) asm("__real_" BUILD_PREAMBLE);
llvm::ErrorOr<clang::PrecompiledPreamble>
wrapBuildPreamble(BUILD_PREAMBLE_PARAMETERS) asm("__wrap_" BUILD_PREAMBLE);

namespace {

using namespace cuda_lambda_tidy;

/// One line on clangd's log (stderr, which clangd buffers: flushed at once,
/// as clangd's logger does).
void note(const llvm::Twine &Message) {
  llvm::errs() << "cuda-lambda-clangd: " << Message << "\n";
  llvm::errs().flush();
}

/// The private directory of this process for the nvcc-compatibility layer
/// and the fallback headers, created on first use.
class PrivateDirectory {
public:
  void remove() {
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }
  /// The directory, "" when it cannot be created (said once).
  const std::string &get() {
    if (Dir.empty() && !Failed) {
      llvm::SmallString<256> Path;
      if (std::error_code EC =
              llvm::sys::fs::createUniqueDirectory("cuda-lambda-clangd", Path)) {
        Failed = true;
        note("cannot create a temporary directory: " + EC.message());
      } else {
        llvm::sys::fs::setPermissions(Path, llvm::sys::fs::owner_all);
        Dir = Path.str().str();
      }
    }
    return Dir;
  }

private:
  std::string Dir;
  bool Failed = false;
};

/// What every translation of this process shares: clangd loads databases
/// on several threads.
struct Translator {
  std::mutex Lock;
  PrivateDirectory Private;
  std::string CompatHeader;  ///< written once
  bool FallbackWritten = false;
  llvm::StringSet<> Said;    ///< warnings printed already
  bool NoToolkit = false;    ///< --cuda-toolkit=none: the fallback headers

  /// \p Data translated (with \p Linted, translateCompileDatabase's), or
  /// std::nullopt to let clangd read it as it is (no nvcc entry, or text the
  /// translation rejects: clangd says why).
  std::optional<DatabaseTranslation>
  translate(llvm::StringRef Data, llvm::ArrayRef<std::string> Linted = {}) {
    std::lock_guard<std::mutex> Guard(Lock);
    const std::string &Dir = Private.get();
    if (Dir.empty())
      return std::nullopt;
    if (CompatHeader.empty()) {
      llvm::Expected<std::string> Header = writeNvccCompatHeader(Dir);
      if (!Header) {
        note(llvm::toString(Header.takeError()));
        return std::nullopt;
      }
      llvm::sys::RemoveFileOnSignal(*Header);
      CompatHeader = *Header;
    }
    llvm::SmallString<256> FallbackDir(Dir);
    llvm::sys::path::append(FallbackDir, "fallback");

    NvccEnvironment Env = realNvccEnvironment(NoToolkit);
    Env.FallbackDir = FallbackDir.str().str();
    Env.NvccCompatHeader = CompatHeader;
    llvm::Expected<DatabaseTranslation> Translated =
        translateCompileDatabase(Data, Env, /*AllowPlugins=*/false, Linted);
    if (!Translated) {
      llvm::consumeError(Translated.takeError());
      return std::nullopt;
    }
    if (Translated->NvccEntries == 0)
      return std::nullopt;
    if (!Translated->FallbackNvcc.empty() && !FallbackWritten) {
      if (llvm::Error Failed = writeFallbackHeaders(FallbackDir)) {
        note(llvm::toString(std::move(Failed)));
      } else {
        FallbackWritten = true;
        llvm::errs() << fallbackNotice(fallbackReason(
                            NoToolkit, Translated->FallbackNvcc))
                     << "\n";
      }
    }
    return std::move(*Translated);
  }

  /// Logs once each of \p Lines, what the translation said about a file.
  void say(llvm::ArrayRef<std::string> Lines, llvm::StringRef Kind) {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const std::string &Line : Lines)
      if (Said.insert(Line).second)
        note(Kind + ": " + Line);
  }
};

Translator &translator() {
  static Translator *T = new Translator; // outlives clangd's threads
  return *T;
}

/// A database loaded by wrapLoadFromBuffer: its text as written, and what
/// the translation said about each entry's file.
struct LoadedDatabase {
  std::string Text;
  llvm::StringMap<std::vector<std::string>> FileWarnings;
};

/// The nvcc database wrapLoadFromBuffer loaded last on this thread, for the
/// inferMissingCompileCommands that clangd calls next (parseJSON in
/// clangd/GlobalCompilationDatabase.cpp).
thread_local std::shared_ptr<const LoadedDatabase> JustLoaded;

/// The translated database \p Inner of \p Loaded: a file it lacks borrows
/// the nearest untranslated entry (translateCompileDatabase), whose command
/// is then translated; what the translation says about a file is logged
/// when its command is asked for.
class NvccInferringDatabase : public clang::tooling::CompilationDatabase {
public:
  NvccInferringDatabase(std::unique_ptr<CompilationDatabase> Inner,
                        std::shared_ptr<const LoadedDatabase> Loaded)
      : Inner(std::move(Inner)), Loaded(std::move(Loaded)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    llvm::SmallString<256> File(FilePath);
    llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    std::vector<clang::tooling::CompileCommand> Commands =
        Inner->getCompileCommands(FilePath);
    if (!Commands.empty()) {
      auto Lines = Loaded->FileWarnings.find(File);
      if (Lines != Loaded->FileWarnings.end())
        translator().say(Lines->second, "warning");
      return Commands;
    }
    if (!llvm::sys::path::is_absolute(File) || !shouldBorrow(File))
      return Commands;
    std::optional<DatabaseTranslation> Translated =
        translator().translate(Loaded->Text, {File.str().str()});
    if (!Translated || Translated->Borrowed.empty())
      return Commands;
    llvm::Expected<std::vector<CompileEntry>> Entries =
        parseCompileDatabase(Translated->Json);
    if (!Entries) {
      llvm::consumeError(Entries.takeError());
      return Commands;
    }
    const CompileEntry &Borrowed = Entries->back();
    clang::tooling::CompileCommand Command(
        Borrowed.Directory, Borrowed.File, Borrowed.Arguments, "");
    Command.Heuristic = "borrowed from " + Translated->Borrowed.front().From;
    translator().say(
        {borrowedNote(File, Translated->Borrowed.front().From)}, "note");
    translator().say(Translated->FileWarnings[File], "warning");
    return {std::move(Command)};
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override {
    return Inner->getAllCompileCommands();
  }

private:
  std::unique_ptr<CompilationDatabase> Inner;
  std::shared_ptr<const LoadedDatabase> Loaded;
};

/// Removes the private directory at exit (translator() is never destroyed,
/// as clangd's threads may still use it).
struct RemovePrivateDirectoryAtExit {
  ~RemovePrivateDirectoryAtExit() { translator().Private.remove(); }
};

/// Whether clangd's default FastCheckFilter (Strict) may run the cuda-*
/// check \p Check: clangd calls a check fast when it adds at most 8% to the
/// parse of a file's body (clangd/TidyFastChecks.py). Measured on the
/// realistic thrust/cub files (bench/clangd: CPU time of clangd for a
/// re-check after a body edit, every cuda-* check against none, the preamble
/// with function bodies): all of them together add 8% (thrust_pipeline.cu,
/// 2.28 s against 2.11 s) and nothing measurable (cub_and_members.cu, 0.65 s
/// against 0.73 s); one by one (`--check-tidy-time`, the first five) 5% at
/// most. A check measured slow goes in the list below, and then runs under
/// `FastCheckFilter: Loose` or `None` only.
bool isMeasuredFast(llvm::StringRef Check) {
  static constexpr llvm::StringLiteral Slow[] = {""};
  return !llvm::is_contained(Slow, Check);
}

} // namespace

std::unique_ptr<JSONCompilationDatabase>
wrapLoadFromBuffer(llvm::StringRef Data, std::string &Error,
                   JSONCommandLineSyntax Syntax) {
  JustLoaded.reset();
  std::optional<DatabaseTranslation> Translated = translator().translate(Data);
  if (!Translated)
    return realLoadFromBuffer(Data, Error, Syntax);
  std::unique_ptr<JSONCompilationDatabase> Database =
      realLoadFromBuffer(Translated->Json, Error, Syntax);
  if (Database)
    JustLoaded = std::make_shared<LoadedDatabase>(
        LoadedDatabase{Data.str(), std::move(Translated->FileWarnings)});
  return Database;
}

std::unique_ptr<clang::tooling::CompilationDatabase>
wrapInferMissing(std::unique_ptr<clang::tooling::CompilationDatabase> Inner) {
  if (std::shared_ptr<const LoadedDatabase> Loaded = std::move(JustLoaded))
    Inner = std::make_unique<NvccInferringDatabase>(std::move(Inner),
                                                    std::move(Loaded));
  return realInferMissing(std::move(Inner));
}

std::optional<bool> wrapIsFastTidyCheck(llvm::StringRef Check) {
  if (Check.starts_with("cuda-"))
    return isMeasuredFast(Check);
  return realIsFastTidyCheck(Check);
}

llvm::ErrorOr<clang::PrecompiledPreamble>
wrapBuildPreamble(BUILD_PREAMBLE_PARAMETERS) {
  clang::CompilerInvocation WithBodies(Invocation);
  WithBodies.getFrontendOpts().SkipFunctionBodies = false;
  return realBuildPreamble(WithBodies, MainFileBuffer, Bounds,
                           std::move(Diagnostics), std::move(VFS),
                           std::move(PCHContainerOps), StoreInMemory,
                           StoragePath, Callbacks);
}

int main(int argc, char *argv[]) {
  static RemovePrivateDirectoryAtExit Cleanup;
  // clangd looks for clang's resource directory (builtin headers, the CUDA
  // wrappers) next to its own binary; this one is LLVM's. The drop-in's
  // --cuda-toolkit=none (parse against the fallback headers) is ours.
  std::vector<char *> Args = {argv[0]};
  bool HasResourceDir = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef Arg(argv[I]);
    if (Arg == "--cuda-toolkit=none") {
      translator().NoToolkit = true;
      continue;
    }
    if (Arg.starts_with("--resource-dir") || Arg.starts_with("-resource-dir"))
      HasResourceDir = true;
    Args.push_back(argv[I]);
  }
  std::string ResourceDir = "--resource-dir=" CLANG_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size() - 1),
                                   Args.data());
}

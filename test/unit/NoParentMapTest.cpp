//===--- NoParentMapTest.cpp - cuda-lambda-tidy tests -------------------===//
//
// No cuda-* check may build clang's whole-TU parent map (ParentMapContext):
// it costs about 40% more peak memory on a thrust translation unit. Each
// test runs every cuda-* check in-process, as clang-tidy does, and looks at
// the ASTContext once they are done.
//
//===----------------------------------------------------------------------===//

#include "CudaAST.h"
#include "CudaModuleAnchor.h"
#include "probe/PassProbe.h"
#include "utils/ReturnTypeQuestion.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::tidy;

namespace {

// ParentMapContext keeps its map private and builds it on the first
// getParents(). An explicit instantiation may name a private member (C++
// [temp.spec.general]/6), which lets the test read the pointer to the map.
using ParentsMember =
    std::unique_ptr<ParentMapContext::ParentMap> ParentMapContext::*;
ParentsMember parentsMember();
template <ParentsMember Member> struct ParentsAccess {
  friend ParentsMember parentsMember() { return Member; }
};
template struct ParentsAccess<&ParentMapContext::Parents>;

bool parentMapBuilt(ASTContext &Context) {
  return (Context.getParentMapContext().*parentsMember()) != nullptr;
}

/// What running the checks on one file left behind.
struct Outcome {
  bool Ran = false;
  bool ParentMapBuilt = true;
  llvm::StringMap<unsigned> DiagnosticsPerCheck;
  /// Every finding: "file:offset: message [check]".
  std::set<std::string> Findings;
  /// The pass probe's verdict (checks/probe/PassProbe.h): set once the main file
  /// is read; empty optional inside when the device pass suffices.
  std::optional<std::optional<std::string>> HostPassReason;
  /// The probe's reading of the AST (utils/ReturnTypeQuestion.h), taken
  /// before the preprocessor ends the main file, as in the drop-in.
  std::optional<std::string> LibraryQuestion;
};

/// Records, after every consumer before it, whether the map exists.
class ParentMapProbe : public ASTConsumer {
public:
  explicit ParentMapProbe(Outcome &Result) : Result(Result) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    Result.Ran = true;
    Result.LibraryQuestion =
        clang::tidy::cuda::utils::hiddenReturnTypeAskedByLibrary(Context);
    Result.ParentMapBuilt = parentMapBuilt(Context);
  }

private:
  Outcome &Result;
};

class ChecksThenProbe : public ASTFrontendAction {
public:
  ChecksThenProbe(ClangTidyASTConsumerFactory &Checks, Outcome &Result)
      : Checks(Checks), Result(Result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    cuda_lambda_tidy::passDependenceProbe(
        CI.getPreprocessor(),
        [this](const std::optional<std::string> &Reason) {
          Result.HostPassReason = Reason ? Reason : Result.LibraryQuestion;
        });
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(Checks.createASTConsumer(CI, File));
    Consumers.push_back(std::make_unique<ParentMapProbe>(Result));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Checks;
  Outcome &Result;
};

/// Runs every cuda-* check on the file \p Path, in one CUDA pass, with
/// \p ExtraArgs after the usual CUDA flags.
Outcome runChecks(const std::string &Path, cuda_lambda_tidy::test::Pass Side,
                  const std::vector<std::string> &ExtraArgs = {}) {
  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,cuda-*";
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer Diagnostics(Context);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &Diagnostics,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  ClangTidyASTConsumerFactory Checks(Context);

  std::vector<std::string> CommandLine = {"clang++", "-fsyntax-only"};
  for (const std::string &Arg : cuda_lambda_tidy::test::cudaParseArgs(Side))
    CommandLine.push_back(Arg);
  CommandLine.insert(CommandLine.end(), ExtraArgs.begin(), ExtraArgs.end());
  CommandLine.push_back(Path);
  Outcome Result;
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
  tooling::ToolInvocation Invocation(
      CommandLine, std::make_unique<ChecksThenProbe>(Checks, Result),
      Files.get());
  // The compiler's own errors (fixtures that nvcc rejects) are not the
  // test's business.
  IgnoringDiagConsumer Quiet;
  Invocation.setDiagnosticConsumer(&Quiet);
  Invocation.run();
  for (const ClangTidyError &Error : Diagnostics.take()) {
    ++Result.DiagnosticsPerCheck[Error.DiagnosticName];
    Result.Findings.insert(Error.Message.FilePath + ":" +
                           std::to_string(Error.Message.FileOffset) + ": " +
                           Error.Message.Message + " [" +
                           Error.DiagnosticName + "]");
  }
  return Result;
}

struct Fixture {
  std::string Path, Code;
  std::vector<std::string> RunArgs;
  bool HostOnly = false;
};

/// A fixture that includes thrust or cub and expects no diagnostic.
bool isSilentLibraryLookAlike(llvm::StringRef Code) {
  return (Code.contains("#include <thrust/") || Code.contains("#include <cub/")) &&
         !Code.contains("CHECK-MESSAGES") && !Code.contains("CHECK-NOTES");
}

Fixture readFixture(const std::string &Path) {
  Fixture F;
  F.Path = Path;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return F;
  F.Code = (*Buffer)->getBuffer().str();
  F.RunArgs = {"-I" + llvm::sys::path::parent_path(Path).str()};
  llvm::SmallVector<StringRef, 0> Lines;
  StringRef(F.Code).split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("//"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("RUN-ARGS:"))
      continue;
    llvm::SmallVector<StringRef, 4> Words;
    Line.split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef Word : Words) {
      if (Word == "--cuda-host-only")
        F.HostOnly = true;
      else if (Word != "--cuda-device-only")
        F.RunArgs.push_back(Word.str());
    }
  }
  return F;
}

/// One file per check whose decisions once needed parents (forCallable,
/// getParents, isInTemplateInstantiation and isInstantiated), each with
/// findings, so that every one of those paths runs.
const char *const Witnesses[][2] = {
    {"cuda-host-variable-in-device-code", "host-constants.cu"},
    {"cuda-host-variable-in-device-code", "extended-lambdas.cu"},
    {"cuda-lambda-function-pointer-conversion", "host-conversion.cu"},
    {"cuda-lambda-closure-trait", "trait-decides-launch.cu"},
    {"cuda-lambda-host-return-type-query", "decltype-call.cu"},
    {"cuda-lambda-this-capture", "implicit-default.cu"},
    {"cuda-nvstd-function-boundary", "host-initialization.cu"},
    {"cuda-std-function-in-device-code", "device-code.cu"},
    {"cuda-lambda-missing-annotation", "namespace-scope.cu"},
    {"cuda-lambda-annotation-form", "after-parameter-list.cu"},
    {"cuda-lambda-enclosing-template", "local-type-argument.cu"},
    {"cuda-lambda-adl-placeholder", "ambiguous.cu"},
};

TEST(NoParentMapTest, ChecksWithFindingsLeaveNoParentMap) {
  for (const auto &[Check, File] : Witnesses) {
    Fixture F = readFixture(std::string(FIXTURES_DIR_FOR_TESTS) + "/" + Check +
                            "/" + File);
    ASSERT_FALSE(F.Code.empty()) << F.Path;
    Outcome Result =
        runChecks(F.Path,
                  F.HostOnly ? cuda_lambda_tidy::test::Pass::Host
                             : cuda_lambda_tidy::test::Pass::Device,
                  F.RunArgs);
    ASSERT_TRUE(Result.Ran) << F.Path;
    EXPECT_FALSE(Result.ParentMapBuilt) << F.Path;
    EXPECT_GT(Result.DiagnosticsPerCheck.lookup(Check), 0u)
        << F.Path << ": the path under test did not run";
  }
}

// The probe itself: it sees a map once something asks for parents.
TEST(NoParentMapTest, ProbeSeesAParentMap) {
  auto AST = cuda_lambda_tidy::test::parseCuda("int f() { return 1; }");
  ASSERT_TRUE(AST);
  ASTContext &Context = AST->getASTContext();
  EXPECT_FALSE(parentMapBuilt(Context));
  const auto *F = cuda_lambda_tidy::test::findFirst<FunctionDecl>(
      *AST, ast_matchers::functionDecl(ast_matchers::hasName("f")));
  ASSERT_NE(F, nullptr);
  Context.getParents(*F);
  EXPECT_TRUE(parentMapBuilt(Context));
}

// Every fixture and every example, in both passes: run by the
// `every-file-both-passes` test (label integration), which names the
// directories in CUDA_LAMBDA_TIDY_PARENT_MAP_DIRS. Two facts from the same
// parses: no check builds the parent map, and where the pass probe lets the
// drop-in skip the host pass (its default), the host pass finds nothing the
// device pass did not. Fixtures of the host pass (RUN-ARGS --cuda-host-only)
// are held to the second fact too: the default lints them as any file.
TEST(NoParentMapTest, EveryFileOfTheDirectories) {
  const char *Dirs = std::getenv("CUDA_LAMBDA_TIDY_PARENT_MAP_DIRS");
  if (!Dirs)
    GTEST_SKIP() << "CUDA_LAMBDA_TIDY_PARENT_MAP_DIRS is not set";
  llvm::SmallVector<StringRef, 4> Roots;
  StringRef(Dirs).split(Roots, ':', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Files;
  for (StringRef Root : Roots) {
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End;
         It != End && !EC; It.increment(EC))
      if (llvm::sys::path::extension(It->path()) == ".cu")
        Files.push_back(It->path());
  }
  std::sort(Files.begin(), Files.end());
  ASSERT_FALSE(Files.empty());
  unsigned OnePass = 0, TwoPasses = 0, LookAlikesLeftOut = 0;
  for (const std::string &Path : Files) {
    Fixture F = readFixture(Path);
    // The fixtures that include thrust or cub and expect no finding (23
    // look-alikes, two thrust parses each: a third of this test's time)
    // are left out; the checks' paths through thrust and cub code run here
    // on the fixtures with findings and on examples/realistic.
    if (llvm::StringRef(Path).contains("/fixtures/") &&
        isSilentLibraryLookAlike(F.Code)) {
      ++LookAlikesLeftOut;
      continue;
    }
    // A fixture of the host pass (RUN-ARGS --cuda-host-only) too: the
    // drop-in's default lints its device pass first, and the probe must ask
    // for the host pass where that finds more.
    Outcome Device =
        runChecks(F.Path, cuda_lambda_tidy::test::Pass::Device, F.RunArgs);
    ASSERT_TRUE(Device.Ran) << Path;
    EXPECT_FALSE(Device.ParentMapBuilt) << Path << " (device pass)";
    Outcome Host =
        runChecks(F.Path, cuda_lambda_tidy::test::Pass::Host, F.RunArgs);
    ASSERT_TRUE(Host.Ran) << Path;
    EXPECT_FALSE(Host.ParentMapBuilt) << Path << " (host pass)";
    // Real, correct code (thrust, cub, libcu++, member functions, macros):
    // every check silent in both passes. The sanitizer build, which leaves
    // this test out, lints these files through the drop-in instead
    // (realistic-code-*-pass in test/CMakeLists.txt).
    if (llvm::StringRef(Path).contains("/examples/realistic/")) {
      EXPECT_TRUE(Device.Findings.empty())
          << Path << " (device pass): " << *Device.Findings.begin();
      EXPECT_TRUE(Host.Findings.empty())
          << Path << " (host pass): " << *Host.Findings.begin();
    }
    ASSERT_TRUE(Device.HostPassReason.has_value())
        << Path << ": the pass probe gave no verdict";
    if (*Device.HostPassReason) {
      ++TwoPasses;
      continue;
    }
    ++OnePass;
    for (const std::string &Finding : Host.Findings)
      EXPECT_TRUE(Device.Findings.count(Finding))
          << Path << ": the probe skips the host pass, which finds "
          << Finding;
  }
  std::printf("%u files linted in one pass by default, %u in two; %u "
              "thrust or cub look-alikes left out\n",
              OnePass, TwoPasses, LookAlikesLeftOut);
}

} // namespace

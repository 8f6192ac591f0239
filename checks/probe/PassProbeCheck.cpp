//===--- PassProbeCheck.cpp - cuda-lambda-tidy --------------------------===//
//
// The pass probe as a clang-tidy check, so that it runs inside clang-tidy's
// own parse of a device-pass child. Internal: registered only in a child
// asked to probe (enablePassProbe), never part of the `cuda` module.
//
//===----------------------------------------------------------------------===//

#include "probe/PassProbe.h"
#include "utils/ReturnTypeQuestion.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_lambda_tidy {
namespace {

using namespace clang;

/// Where the verdict goes (set by enablePassProbe, before clang-tidy runs).
std::string &reportFile() {
  static std::string File;
  return File;
}

class PassProbeCheck : public tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                           Preprocessor *) override {
    if (reportFile().empty())
      return;
    // The preprocessor ends the main file after the AST's end
    // (onEndOfTranslationUnit): a line of the user's that reads differently
    // on the host comes first, else what the AST says.
    passDependenceProbe(
        *PP,
        [this](const std::optional<std::string> &HostPassReason) {
          write(HostPassReason ? HostPassReason : LibraryQuestion);
          LibraryQuestion.reset();
          Decided = false;
        },
        [this] { Decided = true; });
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override {
    // The lambdas of the user's code (clang-tidy matches outside system
    // headers): without one, the host pass has nothing to ask about.
    if (!reportFile().empty())
      Finder->addMatcher(ast_matchers::lambdaExpr().bind("lambda"), this);
  }
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override {
    Context = Result.Context;
  }
  void onEndOfTranslationUnit() override {
    // The host pass may ask a library's question about a device lambda's
    // return type (H13) in host branches that the device pass does not
    // instantiate; the host code that leads there is seen here.
    if (Context && !Decided)
      LibraryQuestion =
          tidy::cuda::utils::hiddenReturnTypeAskedByLibrary(*Context);
    Context = nullptr;
  }

private:
  /// One line per translation unit, appended: a child may lint several.
  static void write(const std::optional<std::string> &HostPassReason) {
    std::error_code EC;
    llvm::raw_fd_ostream Out(reportFile(), EC, llvm::sys::fs::OF_Append);
    if (!EC)
      Out << passVerdictLine(HostPassReason);
  }
  std::optional<std::string> LibraryQuestion;
  ASTContext *Context = nullptr;
  bool Decided = false; ///< the preprocessor already asks for the host pass
};

class PassProbeModule : public tidy::ClangTidyModule {
public:
  void addCheckFactories(tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<PassProbeCheck>(PassProbeCheckName);
  }
};

} // namespace

llvm::StringRef enablePassProbe(llvm::StringRef ReportFile) {
  static std::optional<tidy::ClangTidyModuleRegistry::Add<PassProbeModule>>
      Registered;
  if (!Registered)
    Registered.emplace("cuda-lambda-tidy-internal",
                       "cuda-lambda-tidy's pass probe");
  reportFile() = ReportFile.str();
  return PassProbeCheckName;
}

} // namespace cuda_lambda_tidy

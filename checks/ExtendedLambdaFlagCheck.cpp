//===--- ExtendedLambdaFlagCheck.cpp - cuda-lambda-tidy -----------------===//

#include "ExtendedLambdaFlagCheck.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Records which of the two macros the command line (`-D`) defines; a
/// `#define` in a source file does not count.
class CommandLineMacroRecorder : public PPCallbacks {
public:
  CommandLineMacroRecorder(const SourceManager &SM,
                           ExtendedLambdaFlagCheck::CommandLineMacros &Macros)
      : SM(SM), Macros(Macros) {}

  void MacroDefined(const Token &MacroNameTok,
                    const MacroDirective *MD) override {
    // The name first: the headers define thousands of macros, and where a
    // definition was written is a costlier question.
    const IdentifierInfo *Name = MacroNameTok.getIdentifierInfo();
    if (!Name)
      return;
    bool *Seen = nullptr;
    if (Name->getName() == "__CUDA_LAMBDA_TIDY_FROM_NVCC__")
      Seen = &Macros.FromNvcc;
    else if (Name->getName() == "__CUDACC_EXTENDED_LAMBDA__")
      Seen = &Macros.ExtendedLambda;
    if (Seen && SM.isWrittenInCommandLineFile(MacroNameTok.getLocation()))
      *Seen = true;
  }

private:
  const SourceManager &SM;
  ExtendedLambdaFlagCheck::CommandLineMacros &Macros;
};

} // namespace

void ExtendedLambdaFlagCheck::registerPPCallbacks(
    const SourceManager &SM, Preprocessor *PP, Preprocessor *ModuleExpanderPP) {
  Macros = {};
  FirstLambda.clear();
  PP->addPPCallbacks(std::make_unique<CommandLineMacroRecorder>(SM, Macros));
}

void ExtendedLambdaFlagCheck::registerMatchers(MatchFinder *Finder) {
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

void ExtendedLambdaFlagCheck::check(const MatchFinder::MatchResult &Result) {
  if (!Macros.FromNvcc || Macros.ExtendedLambda)
    return;
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const SourceManager &Sources = *Result.SourceManager;
  SourceLocation Loc = Sources.getExpansionLoc(Lambda->getBeginLoc());
  FileID File = Sources.getFileID(Loc);
  auto [It, Inserted] = FirstLambda.insert({File, Loc});
  if (!Inserted && Sources.isBeforeInTranslationUnit(Loc, It->second))
    It->second = Loc;
}

void ExtendedLambdaFlagCheck::onEndOfTranslationUnit() {
  for (const auto &[File, Loc] : FirstLambda)
    diag(Loc, "file has extended lambdas but its nvcc command lacks "
              "'--extended-lambda'; nvcc rejects every '__device__' "
              "annotation on a lambda without it");
  FirstLambda.clear();
}

} // namespace clang::tidy::cuda

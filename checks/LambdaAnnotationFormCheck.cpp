//===--- LambdaAnnotationFormCheck.cpp - cuda-lambda-tidy ---------------===//

#include "LambdaAnnotationFormCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/LambdaSyntax.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaAnnotationFormCheck::registerMatchers(MatchFinder *Finder) {
  // What is written is the same in every instantiation: the pattern only.
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::AsWritten);
}

void LambdaAnnotationFormCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  checkPlacement(*Lambda, *Result.SourceManager, getLangOpts());
  checkConstexpr(*Lambda, *Result.SourceManager, getLangOpts());
}

/// \p Token and the blanks after it, so that removing it leaves no gap.
static CharSourceRange withTrailingBlanks(CharSourceRange Token,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts) {
  SourceLocation End =
      Lexer::getLocForEndOfToken(Token.getEnd(), 0, SM, LangOpts);
  const char *Data = SM.getCharacterData(End);
  unsigned Blanks = 0;
  while (Data[Blanks] == ' ' || Data[Blanks] == '\t')
    ++Blanks;
  return CharSourceRange::getCharRange(Token.getBegin(),
                                       End.getLocWithOffset(Blanks));
}

void LambdaAnnotationFormCheck::checkPlacement(const LambdaExpr &Lambda,
                                               const SourceManager &SM,
                                               const LangOptions &LangOpts) {
  llvm::SmallVector<const Attr *, 2> After, Before;
  for (const Attr *A : utils::executionSpaceAttrsOf(Lambda))
    (utils::isAfterParameterList(*A, Lambda, SM) ? After : Before).push_back(A);
  if (After.empty())
    return;
  const StringRef Spelling =
      utils::spelling(utils::executionSpaceSpelledBy(After));
  SourceLocation First = utils::writtenLocation(*After.front(), SM);
  for (const Attr *A : After)
    if (SM.isBeforeInTranslationUnit(utils::writtenLocation(*A, SM), First))
      First = utils::writtenLocation(*A, SM);
  auto Diag = diag(First, "'%0' after the parameter list of a lambda is "
                          "rejected by nvcc, which reads a lambda's execution "
                          "space only before the '('; write it there")
              << Spelling;

  // Move every annotation written after the list, unless some are also
  // written before it or come from a macro other than __host__/__device__.
  if (!Before.empty())
    return;
  std::optional<utils::ParameterParens> Parens = utils::parameterListOf(Lambda);
  if (!Parens || Parens->LParen.isMacroID())
    return;
  llvm::SmallVector<FixItHint, 3> Fixes;
  for (const Attr *A : After) {
    std::optional<CharSourceRange> Token =
        utils::annotationToken(*A, SM, LangOpts);
    if (!Token)
      return;
    Fixes.push_back(
        FixItHint::CreateRemoval(withTrailingBlanks(*Token, SM, LangOpts)));
  }
  std::optional<FixItHint> Insert =
      utils::insertAnnotation(Lambda, Spelling, SM, LangOpts);
  if (!Insert)
    return;
  Diag << *Insert;
  for (const FixItHint &Fix : Fixes)
    Diag << Fix;
}

void LambdaAnnotationFormCheck::checkConstexpr(const LambdaExpr &Lambda,
                                               const SourceManager &SM,
                                               const LangOptions &LangOpts) {
  const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(Lambda);
  if (Kind == utils::ExtendedLambdaKind::None)
    return;
  std::optional<Token> Specifier =
      utils::constexprSpecifierOf(Lambda, SM, LangOpts);
  if (!Specifier)
    return;
  const bool Consteval = Specifier->getRawIdentifier() == "consteval";
  auto Diag =
      diag(Specifier->getLocation(),
           "extended %0 lambda is declared '%select{constexpr|consteval}1', "
           "which nvcc rejects; %select{remove 'constexpr': nvcc never "
           "evaluates an extended lambda in a constant expression|a "
           "consteval lambda cannot run on the device, so drop 'consteval' "
           "or the annotation}1")
      << utils::spelling(Kind) << Consteval;
  // Removing 'constexpr' loses nothing: nvcc rejects an extended lambda in a
  // constant expression anyway. 'consteval' changes when the lambda runs.
  if (!Consteval)
    Diag << FixItHint::CreateRemoval(withTrailingBlanks(
        CharSourceRange::getTokenRange(Specifier->getLocation()), SM,
        LangOpts));
}

} // namespace clang::tidy::cuda

//===--- LambdaInitCaptureCheck.cpp - cuda-lambda-tidy ------------------===//

#include "LambdaInitCaptureCheck.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaInitCaptureCheck::registerMatchers(MatchFinder *Finder) {
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

/// The variable that \p Init names, when it is nothing but that name
/// (`x`, `{x}`, `(x)`, possibly read or copied implicitly).
static const VarDecl *namedVariable(const Expr *Init) {
  if (!Init)
    return nullptr;
  Init = Init->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Init))
    Init =
        List->getNumInits() == 1 ? List->getInit(0)->IgnoreImplicit() : nullptr;
  else if (const auto *Parens = dyn_cast<ParenListExpr>(Init))
    Init = Parens->getNumExprs() == 1 ? Parens->getExpr(0)->IgnoreImplicit()
                                      : nullptr;
  // A class type is copied by its copy or move constructor, as `[x]` does.
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init))
    Init = Construct->getNumArgs() == 1 &&
                   Construct->getConstructor()->isCopyOrMoveConstructor()
               ? Construct->getArg(0)->IgnoreImplicit()
               : nullptr;
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Init);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Whether `[x = x]` (or `[x{x}]`, `[x(x)]`) can become `[x]` with the same
/// meaning: a by-copy init-capture of a local variable of the same name,
/// whose simple capture would have the same type.
static bool isRedundantInitCapture(const LambdaExpr &Lambda,
                                   const VarDecl &Capture) {
  if (Capture.getType()->isReferenceType() || Capture.isParameterPack())
    return false;
  const VarDecl *Source = namedVariable(Capture.getInit());
  if (!Source || Source->getName() != Capture.getName() ||
      !Source->hasLocalStorage() || Source->isParameterPack())
    return false;
  // Declared right around the lambda: with plain lambdas in between, `[x]`
  // would need each of them to capture `x` too.
  if (Source->getDeclContext() != Lambda.getLambdaClass()->getDeclContext())
    return false;
  QualType Type = Source->getType().getNonReferenceType();
  // An array decays in `[a = a]` but is copied whole by `[a]`.
  if (Type->isArrayType() || Type->isFunctionType())
    return false;
  // `[x]` keeps `const`; a mutable lambda that writes to its copy would
  // stop compiling.
  if (Lambda.isMutable() && Type.isConstQualified())
    return false;
  // `[=, x]` is ill-formed (C++17 and C++20 alike).
  return Lambda.getCaptureDefault() != LCD_ByCopy;
}

void LambdaInitCaptureCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (utils::extendedLambdaKindOf(*Lambda) !=
      utils::ExtendedLambdaKind::HostDevice)
    return;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = Result.Context->getLangOpts();

  for (const LambdaCapture &Capture : Lambda->explicit_captures()) {
    if (!Lambda->isInitCapture(&Capture))
      continue;
    const auto *Var = cast<VarDecl>(Capture.getCapturedVar());
    const bool Redundant = isRedundantInitCapture(*Lambda, *Var);
    auto Diag = diag(Capture.getLocation(),
                     "init-capture %0 is not allowed in an extended __host__ "
                     "__device__ lambda, and nvcc rejects it; %select{compute "
                     "the value into a local variable before the lambda and "
                     "capture that by value|capture %0 by value with a simple "
                     "capture}1")
                << Var << (Redundant ? 1 : 0);
    if (!Redundant || Capture.getLocation().isMacroID())
      continue;
    // `x = x` becomes `x`: remove everything after the name.
    SourceLocation LastToken = Var->getInit()->getEndLoc();
    // `x(x)` of a scalar records no parentheses in the AST.
    if (Var->getInitStyle() == VarDecl::CallInit)
      if (std::optional<Token> Next =
              Lexer::findNextToken(LastToken, SM, LangOpts);
          Next && Next->is(tok::r_paren))
        LastToken = Next->getLocation();
    SourceLocation NameEnd =
        Lexer::getLocForEndOfToken(Capture.getLocation(), 0, SM, LangOpts);
    SourceLocation InitEnd =
        Lexer::getLocForEndOfToken(LastToken, 0, SM, LangOpts);
    if (NameEnd.isInvalid() || InitEnd.isInvalid() || NameEnd.isMacroID() ||
        InitEnd.isMacroID())
      continue;
    Diag << FixItHint::CreateRemoval(
        CharSourceRange::getCharRange(NameEnd, InitEnd));
  }
}

} // namespace clang::tidy::cuda

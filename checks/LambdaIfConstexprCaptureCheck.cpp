//===--- LambdaIfConstexprCaptureCheck.cpp - cuda-lambda-tidy -----------===//

#include "LambdaIfConstexprCaptureCheck.h"
#include "utils/EnclosingVariableUses.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaIfConstexprCaptureCheck::registerMatchers(MatchFinder *Finder) {
  // nvcc judges the template itself, discarded branches included, so the
  // pattern's source is read; instantiations would only repeat it.
  Finder->addMatcher(lambdaExpr(utils::isExtendedLambda(),
                                unless(isExpansionInSystemHeader()),
                                unless(utils::isInTemplateInstantiation()))
                         .bind("lambda"),
                     this);
}

namespace {
/// A variable or `this` as the capture default would capture it.
struct Entity {
  const VarDecl *Var; // null for `this`
  std::string spelling() const {
    return Var ? Var->getName().str() : std::string("this");
  }
};
} // namespace

static bool isExplicitlyCaptured(const LambdaExpr &Lambda, const VarDecl *Var) {
  for (const LambdaCapture &Capture : Lambda.explicit_captures()) {
    if (!Var && Capture.capturesThis())
      return true;
    if (Var && Capture.capturesVariable() && Capture.getCapturedVar() == Var)
      return true;
  }
  return false;
}

void LambdaIfConstexprCaptureCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (Lambda->getCaptureDefault() == LCD_None)
    return;
  const StringRef KindName =
      utils::spelling(utils::extendedLambdaKindOf(*Lambda));

  // The first use of each entity the default captures, in source order.
  llvm::SmallVector<utils::EnclosingVariableUse, 8> FirstUses;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  bool SeenThis = false;
  bool UsesPack = false;
  for (const utils::EnclosingVariableUse &Use :
       utils::enclosingVariableUsesOf(*Lambda)) {
    if (isExplicitlyCaptured(*Lambda, Use.Var))
      continue;
    if (Use.Var && isa<ParmVarDecl>(Use.Var) && Use.Var->isParameterPack()) {
      // cuda-lambda-capture-type reports pack elements.
      UsesPack = true;
      continue;
    }
    if (Use.Var ? !Seen.insert(Use.Var).second : std::exchange(SeenThis, true))
      continue;
    FirstUses.push_back(Use);
  }

  // The fix names every capture of the default explicitly: `[=, x]` is
  // ill-formed before C++20, so `=` itself gives way to the list. `[&]` is
  // left alone: cuda-lambda-reference-capture rewrites it to `[=]` first.
  std::string Explicit;
  for (const utils::EnclosingVariableUse &Use : FirstUses) {
    if (!Explicit.empty())
      Explicit += ", ";
    Explicit += Entity{Use.Var}.spelling();
  }
  const SourceLocation Default = Lambda->getCaptureDefaultLoc();
  const bool CanFix = Lambda->getCaptureDefault() == LCD_ByCopy && !UsesPack &&
                      Default.isFileID();

  bool Fixed = false;
  for (const utils::EnclosingVariableUse &Use : FirstUses) {
    if (!Use.InIfConstexpr)
      continue;
    auto Diag = diag(Use.Loc, "extended %0 lambda first captures '%1' inside "
                              "an 'if constexpr', which nvcc rejects; list "
                              "the captures explicitly, as in '[%2]', or use "
                              "'%1' before the 'if constexpr'")
                << KindName << Entity{Use.Var}.spelling() << Explicit;
    // One replacement per lambda: the diagnostics of its other variables
    // would repeat it.
    if (CanFix && !Fixed)
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(Default, Default), Explicit);
    Fixed = true;
  }
}

} // namespace clang::tidy::cuda

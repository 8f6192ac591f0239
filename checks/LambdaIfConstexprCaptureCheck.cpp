//===--- LambdaIfConstexprCaptureCheck.cpp - cuda-lambda-tidy -----------===//

#include "LambdaIfConstexprCaptureCheck.h"
#include "utils/EnclosingVariableUses.h"
#include "utils/ExecutionSpace.h"
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
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

/// Whether `this` in \p Lambda is a pointer that may be a host pointer:
/// cuda-lambda-this-capture reports it, and where it can, rewrites the
/// capture default itself with the list below and `*this` in it, so that one
/// --fix gives code nvcc compiles and a second changes nothing.
static bool thisMayBeHostPointer(const LambdaExpr &Lambda) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(
      utils::enclosingFunctionOf(Lambda).Function);
  return Method && !Method->isStatic() &&
         utils::runsOnHost(utils::executionSpaceOf(*Method));
}

void LambdaIfConstexprCaptureCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (Lambda->getCaptureDefault() == LCD_None)
    return;
  const StringRef KindName =
      utils::spelling(utils::extendedLambdaKindOf(*Lambda));

  // The fix names every capture of the default explicitly: `[=, x]` is
  // ill-formed before C++20, so `=` itself gives way to the list. `[&]` is
  // left alone: cuda-lambda-reference-capture rewrites it to `[=]` first.
  const utils::DefaultCaptures Captures = utils::defaultCapturesOf(*Lambda);
  const bool HostThis =
      Captures.capturesThis() && thisMayBeHostPointer(*Lambda);
  const std::string Explicit = Captures.spelled(/*CopyThis=*/HostThis);
  const SourceLocation Default = Lambda->getCaptureDefaultLoc();
  const bool CanFix = Lambda->getCaptureDefault() == LCD_ByCopy &&
                      !Captures.UsesPack && Default.isFileID() && !HostThis;

  bool Fixed = false;
  for (const utils::EnclosingVariableUse &Use : Captures.FirstUses) {
    if (!Use.InIfConstexpr)
      continue;
    auto Diag = diag(Use.Loc, "extended %0 lambda first captures '%1' inside "
                              "an 'if constexpr', which nvcc rejects; list "
                              "the captures explicitly, as in '[%2]', or use "
                              "'%1' before the 'if constexpr'")
                << KindName << (Use.Var ? Use.Var->getName() : "this")
                << Explicit;
    // One replacement per lambda: the diagnostics of its other variables
    // would repeat it.
    if (CanFix && !Fixed)
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(Default, Default), Explicit);
    Fixed = true;
  }
}

} // namespace clang::tidy::cuda

//===--- LambdaReferenceCaptureCheck.cpp - cuda-lambda-tidy -------------===//

#include "LambdaReferenceCaptureCheck.h"
#include "utils/EnclosingVariableUses.h"
#include "utils/ExtendedLambda.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaReferenceCaptureCheck::registerMatchers(MatchFinder *Finder) {
  // The captures written in a template's pattern are those of every
  // instantiation; matching the pattern alone reports each lambda once.
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

/// Whether \p Capture is an init-capture declared as a reference (`&x = e`).
static bool isReferenceInitCapture(const LambdaCapture &Capture) {
  if (!Capture.capturesVariable())
    return false;
  const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar());
  return Var && Var->isInitCapture() && Var->getType()->isReferenceType();
}

static bool isByReference(const LambdaCapture &Capture) {
  if (isReferenceInitCapture(Capture))
    return true;
  return Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef;
}

void LambdaReferenceCaptureCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const SourceManager &SM = *Result.SourceManager;
  const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(*Lambda);
  const StringRef KindName = utils::spelling(Kind);

  for (const LambdaCapture &Capture : Lambda->explicit_captures()) {
    if (!isByReference(Capture))
      continue;
    const StringRef Name = Capture.getCapturedVar()->getName();
    const bool IsInit = isReferenceInitCapture(Capture);
    auto Diag = diag(Capture.getLocation(),
                     "extended %0 lambda captures '%1' by reference, but "
                     "device code cannot reach the host's stack; capture it "
                     "by value%select{| instead}2")
                << KindName << Name << (IsInit ? 1 : 0);
    // `[&x = e]` becomes `[x = e]`; init-captures are not allowed at all in
    // __host__ __device__ lambdas, so there the mechanical fix would not
    // compile (cuda-lambda-init-capture explains what to write instead).
    if (IsInit && Kind == utils::ExtendedLambdaKind::HostDevice)
      continue;
    if (std::optional<SourceLocation> Ampersand =
            utils::findPrecedingToken(Capture.getLocation(), '&', SM))
      Diag << FixItHint::CreateRemoval(*Ampersand);
  }

  if (Lambda->getCaptureDefault() != LCD_ByRef)
    return;

  std::string Names;
  auto AddName = [&Names](const ValueDecl &Var) {
    if (!Names.empty())
      Names += ", ";
    Names += "'" + Var.getName().str() + "'";
  };
  bool BlocksRewrite = false;
  for (const LambdaCapture &Capture : Lambda->captures()) {
    if (!Capture.isExplicit() && Capture.capturesVariable())
      AddName(*Capture.getCapturedVar());
    // `[&, x]` or `[&, this]` would become `[=, x]` or `[=, this]`, which
    // C++17 rejects: no mechanical fix.
    if (Capture.isExplicit() && !Lambda->isInitCapture(&Capture) &&
        (Capture.getCaptureKind() == LCK_This ||
         (Capture.capturesVariable() &&
                                    Capture.getCaptureKind() == LCK_ByCopy)))
      BlocksRewrite = true;
  }
  // In a template's pattern clang has not worked out the implicit captures
  // of dependent uses yet (a generic lambda's are never listed there): the
  // names in the body tell what the default captures.
  if (Names.empty() && Lambda->getLambdaClass()->isDependentContext())
    for (const utils::EnclosingVariableUse &Use :
         utils::defaultCapturesOf(*Lambda).FirstUses)
      if (Use.Var)
        AddName(*Use.Var);
  auto Diag =
      Names.empty()
          ? diag(Lambda->getCaptureDefaultLoc(),
                 "extended %0 lambda has a '[&]' capture default, which nvcc "
                 "rejects even when nothing is captured by it; use '[=]'")
                << KindName
          : diag(Lambda->getCaptureDefaultLoc(),
                 "extended %0 lambda captures %1 by reference through its "
                 "'[&]' default, but device code cannot reach the host's "
                 "stack; capture by value with '[=]'")
                << KindName << Names;
  SourceLocation Default = Lambda->getCaptureDefaultLoc();
  if (!BlocksRewrite && Default.isFileID())
    Diag << FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Default, Default.getLocWithOffset(1)),
        "=");
}

} // namespace clang::tidy::cuda

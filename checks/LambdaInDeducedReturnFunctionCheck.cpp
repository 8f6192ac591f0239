//===--- LambdaInDeducedReturnFunctionCheck.cpp - cuda-lambda-tidy ------===//

#include "LambdaInDeducedReturnFunctionCheck.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaInDeducedReturnFunctionCheck::registerMatchers(MatchFinder *Finder) {
  // A function template's pattern holds the lambda once; its instantiations
  // would repeat the same finding.
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

/// Where the deduced part of \p Function's written return type is: the
/// `auto` or `decltype(auto)`, wherever it sits (`const auto &`, or after
/// `->`).
static SourceLocation deducedReturnTypeLoc(const FunctionDecl &Function) {
  if (FunctionTypeLoc TL = Function.getFunctionTypeLoc())
    if (AutoTypeLoc Auto = TL.getReturnLoc().getContainedAutoTypeLoc())
      if (Auto.getBeginLoc().isValid())
        return Auto.getBeginLoc();
  SourceRange Range = Function.getReturnTypeSourceRange();
  return Range.isValid() ? Range.getBegin() : Function.getLocation();
}

void LambdaInDeducedReturnFunctionCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const utils::EnclosingFunction Enclosing =
      utils::enclosingFunctionOf(*Lambda);
  const FunctionDecl *Function = Enclosing.Function;
  // The return type as written: `auto` stays `auto` after deduction.
  if (!Function ||
      !Function->getDeclaredReturnType()->getContainedDeducedType())
    return;

  diag(Lambda->getBeginLoc(),
       "extended %0 lambda is defined %select{in|inside a lambda in}1 %2, "
       "whose return type is deduced, and nvcc rejects that; declare the "
       "return type of %2 explicitly, or use a named function object instead "
       "of the lambda")
      << utils::spelling(utils::extendedLambdaKindOf(*Lambda))
      << (Enclosing.LambdasBetween.empty() ? 0 : 1) << Function;
  diag(deducedReturnTypeLoc(*Function), "return type of %0 is deduced here",
       DiagnosticIDs::Note)
      << Function;
}

} // namespace clang::tidy::cuda

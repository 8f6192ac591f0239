//===--- LambdaMissingAnnotationCheck.cpp - cuda-lambda-tidy ------------===//

#include "LambdaMissingAnnotationCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/LambdaReach.h"
#include "utils/LambdaSyntax.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Why a lambda that reaches device code is rejected there.
enum class Reason {
  Unannotated,     ///< a plain lambda in host code
  HostOnly,        ///< annotated `__host__` alone
  OutsideFunction, ///< at namespace or class scope: never extended
};

} // namespace

void LambdaMissingAnnotationCheck::registerMatchers(MatchFinder *Finder) {
  // Instantiations too: a lambda in a function template reaches device code
  // through the kernels that its instantiations launch.
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::NotExtended);
}

static std::optional<Reason> reasonOf(const LambdaExpr &Lambda) {
  if (!utils::enclosingFunctionOf(Lambda).Function)
    return Reason::OutsideFunction;
  const CXXMethodDecl *CallOperator = Lambda.getCallOperator();
  if (utils::executionSpaceOf(*CallOperator) != utils::ExecutionSpace::Host)
    return std::nullopt; // defined in device or host-device code
  return utils::hasExplicitHostAttr(*CallOperator) ? Reason::HostOnly
                                                   : Reason::Unannotated;
}

void LambdaMissingAnnotationCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!reasonOf(*Lambda))
    return;
  Context = Result.Context;
  Candidates.push_back(Lambda);
}

/// Whether nvcc would reject the lambda once extended because of what it
/// captures: anything by reference (cuda-lambda-reference-capture), or
/// `this`, a host pointer (cuda-lambda-this-capture).
static bool capturesBlockExtension(const LambdaExpr &Lambda) {
  if (Lambda.getCaptureDefault() == LCD_ByRef)
    return true;
  for (const LambdaCapture &Capture : Lambda.captures()) {
    if (Capture.capturesThis())
      return true;
    if (Capture.capturesVariable() &&
        (Capture.getCaptureKind() == LCK_ByRef ||
         Capture.getCapturedVar()->getType()->isReferenceType()))
      return true;
  }
  return false;
}

void LambdaMissingAnnotationCheck::onEndOfTranslationUnit() {
  if (Candidates.empty() || !Context) {
    Candidates.clear();
    return;
  }
  const SourceManager &SM = Context->getSourceManager();
  llvm::sort(Candidates, [&](const LambdaExpr *A, const LambdaExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  const utils::LambdaReach Reach(*Context);
  llvm::DenseSet<SourceLocation> Reported;

  for (const LambdaExpr *Lambda : Candidates) {
    if (Reported.contains(Lambda->getBeginLoc()))
      continue; // the same lambda, in another instantiation
    const CXXRecordDecl &Closure = *Lambda->getLambdaClass();
    llvm::SmallVector<utils::DeviceEntry, 2> Entries = Reach.entriesOf(Closure);
    if (Entries.empty())
      continue;
    Reported.insert(Lambda->getBeginLoc());

    const Reason Why = *reasonOf(*Lambda);
    const bool OnHost = Reach.isCalledOnHost(Closure);
    const std::string Name = utils::variableNameOf(*Lambda);
    const StringRef Wanted = OnHost || Why == Reason::HostOnly
                                 ? "__host__ __device__"
                                 : "__device__";
    {
      auto Diag = [&]() {
        switch (Why) {
        case Reason::Unannotated:
          return diag(Lambda->getBeginLoc(),
                      "%select{lambda|lambda '%1'}0 reaches device code but "
                      "is not an extended lambda, so nvcc rejects its closure "
                      "type as a template argument of a __global__ function; "
                      "annotate it '%2'")
                 << !Name.empty() << Name << Wanted;
        case Reason::HostOnly:
          return diag(Lambda->getBeginLoc(),
                      "%select{lambda|lambda '%1'}0 is annotated '__host__' "
                      "only but reaches device code, so nvcc rejects its "
                      "closure type as a template argument of a __global__ "
                      "function; annotate it '__host__ __device__'")
                 << !Name.empty() << Name;
        case Reason::OutsideFunction:
          break;
        }
        return diag(Lambda->getBeginLoc(),
                    "%select{lambda|lambda '%1'}0 at %select{namespace|class}2 "
                    "scope reaches device code, but a lambda outside a "
                    "function is never an extended lambda, so nvcc rejects "
                    "its closure type as a template argument of a __global__ "
                    "function; define it inside the function that launches "
                    "it, or use a class with a __device__ operator()")
               << !Name.empty() << Name << Closure.getDeclContext()->isRecord();
      }();

      std::optional<FixItHint> Fix;
      if (!capturesBlockExtension(*Lambda)) {
        if (Why == Reason::Unannotated)
          Fix = utils::insertAnnotation(*Lambda, Wanted, SM,
                                        Context->getLangOpts());
        else if (Why == Reason::HostOnly)
          Fix = utils::widenHostAnnotation(*Lambda, SM, Context->getLangOpts());
      }
      if (Fix)
        Diag << *Fix;
    }

    const utils::DeviceEntry &First = Entries.front();
    const std::string Kernel = First.Kernel->getNameAsString();
    if (!First.Through)
      diag(First.Site->getBeginLoc(),
           "it reaches __global__ function '%0' here", DiagnosticIDs::Note)
          << Kernel;
    else
      diag(First.Site->getBeginLoc(),
           "it reaches __global__ function '%0' through this call to '%1'",
           DiagnosticIDs::Note)
          << Kernel << First.Through->getQualifiedNameAsString();
  }
  Candidates.clear();
  Context = nullptr;
}

} // namespace clang::tidy::cuda

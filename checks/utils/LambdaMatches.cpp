//===--- LambdaMatches.cpp - cuda-lambda-tidy ---------------------------===//

#include "LambdaMatches.h"
#include "ExtendedLambda.h"
#include "SourceText.h"
#include "NodeDispatch.h"
#include "SharedDispatch.h"
#include "TemplateInstantiation.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

namespace {

/// The callback of the lambda matcher that the checks of one MatchFinder
/// share: judges the lambda once, then calls each check that wants it.
class LambdaDispatch : public SharedDispatchCallback {
public:
  struct Wanting {
    MatchFinder::MatchCallback *Check;
    LambdaSelection Which;
  };
  std::vector<Wanting> Checks;
  /// Its registration for the lambdas.
  SharedRegistration Lambdas;

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
    const bool Extended = isExtendedLambda(*Lambda);
    // Asked only if a check wants to know: it climbs the contexts.
    std::optional<bool> InInstantiation;
    auto asWritten = [&] {
      if (!InInstantiation)
        InInstantiation = isInTemplateInstantiation(*Lambda);
      return !*InInstantiation;
    };
    for (const Wanting &W : Checks) {
      bool Wanted = false;
      switch (W.Which) {
      case LambdaSelection::ExtendedAsWritten:
        Wanted = Extended && asWritten();
        break;
      case LambdaSelection::Extended:
        Wanted = Extended;
        break;
      case LambdaSelection::AsWritten:
        Wanted = asWritten();
        break;
      case LambdaSelection::NotExtended:
        Wanted = !Extended;
        break;
      }
      if (Wanted)
        W.Check->run(Result);
    }
  }
  llvm::StringRef getID() const override { return "cuda-lambdas"; }
};

} // namespace

/// A lambda written outside system headers.
static bool isLambdaOutsideSystemHeader(const LambdaExpr &Lambda,
                                        ASTContext &Context) {
  return !isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                    Context.getSourceManager());
}

LambdaRegistration matchLambdas(MatchFinder &Finder,
                                MatchFinder::MatchCallback *Check,
                                LambdaSelection Which) {
  std::shared_ptr<LambdaDispatch> Dispatch = sharedDispatch<LambdaDispatch>(
      Finder, Check, [&](LambdaDispatch &New) {
        New.Lambdas = matchNodes<LambdaExpr>(
            Finder, &New, isLambdaOutsideSystemHeader, "lambda");
      });
  Dispatch->Checks.push_back({Check, Which});
  return Dispatch;
}

} // namespace clang::tidy::cuda::utils

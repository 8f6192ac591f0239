//===--- LambdaMatches.cpp - cuda-lambda-tidy ---------------------------===//

#include "LambdaMatches.h"
#include "ExtendedLambda.h"
#include "SourceText.h"
#include "TemplateInstantiation.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

namespace {

/// The callback of the lambda matcher that the checks of one MatchFinder
/// share: judges the lambda once, then calls each check that wants it.
class LambdaDispatch : public MatchFinder::MatchCallback {
public:
  struct Wanting {
    MatchFinder::MatchCallback *Check;
    LambdaSelection Which;
  };
  std::vector<Wanting> Checks;

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
  // As ClangTidyCheck's: the checks' own matchers traverse so.
  std::optional<TraversalKind> getCheckTraversalKind() const override {
    return TK_AsIs;
  }
};

/// The MatchFinder whose checks are registering now, and their dispatch (as
/// matchCallables() keeps it).
struct LambdaRegistering {
  const MatchFinder *Finder = nullptr;
  std::weak_ptr<LambdaDispatch> Dispatch;
};

thread_local LambdaRegistering RegisteringLambdas;

} // namespace

/// A lambda written outside system headers.
AST_MATCHER(LambdaExpr, isLambdaOutsideSystemHeader) {
  return !isExpansionInSystemHeader(Node.getBeginLoc(),
                                    Finder->getASTContext().getSourceManager());
}

LambdaRegistration matchLambdas(MatchFinder &Finder,
                                MatchFinder::MatchCallback *Check,
                                LambdaSelection Which) {
  std::shared_ptr<LambdaDispatch> Dispatch;
  if (RegisteringLambdas.Finder == &Finder)
    Dispatch = RegisteringLambdas.Dispatch.lock();
  if (!Dispatch) {
    Dispatch = std::make_shared<LambdaDispatch>();
    Finder.addMatcher(lambdaExpr(isLambdaOutsideSystemHeader()).bind("lambda"),
                      Dispatch.get());
    RegisteringLambdas = {&Finder, Dispatch};
  }
  Dispatch->Checks.push_back({Check, Which});
  // The check stays one of the MatchFinder's callbacks, told of the start
  // and the end of each translation unit (see matchCallables()).
  Finder.addMatcher(translationUnitDecl(unless(anything())), Check);
  return Dispatch;
}

} // namespace clang::tidy::cuda::utils

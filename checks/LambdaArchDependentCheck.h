//===--- LambdaArchDependentCheck.h - cuda-lambda-tidy ------------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAARCHDEPENDENTCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAARCHDEPENDENTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/ArchConditionals.h"
#include "utils/LambdaMatches.h"

namespace clang::tidy::cuda {

/// Flags preprocessor conditionals on `__CUDA_ARCH__` that make nvcc's host
/// and device passes see different extended lambdas (H06): a lambda that
/// exists in only one pass, and a capture default that captures a variable
/// in only one pass. The other pass's tokens come from the preprocessor's
/// skipped branches, so the check works in either pass.
class LambdaArchDependentCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  void checkFunction(const FunctionDecl &Function, ASTContext &Ctx);
  void checkCaptures(const LambdaExpr &Lambda, ASTContext &Ctx);

  /// This translation unit's pass-dependent branches (its preprocessor's
  /// PassDependence recorder owns them).
  const utils::ArchConditionals *Conditionals = nullptr;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

//===--- LambdaEnclosingTemplateCheck.h - cuda-lambda-tidy --------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAENCLOSINGTEMPLATECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAENCLOSINGTEMPLATECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags extended lambdas whose enclosing function is a template that nvcc
/// cannot name in its generated code (H09): a function template with more
/// than one template parameter pack, a pack that is not last, or an unnamed
/// template parameter; or a function template, or a class template around the
/// enclosing function, instantiated with a type local to a function (a plain
/// lambda's closure type included) or a private or protected member type.
class LambdaEnclosingTemplateCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  void checkParameters(const LambdaExpr &Lambda, const FunctionDecl &Function);
  void checkInstantiation(const LambdaExpr &Lambda,
                          const FunctionDecl &Function);
  /// Specializations already reported: one warning for each, however many
  /// extended lambdas they hold.
  llvm::DenseSet<const Decl *> Reported;
};

} // namespace clang::tidy::cuda

#endif

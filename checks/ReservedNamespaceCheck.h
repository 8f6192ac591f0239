//===--- ReservedNamespaceCheck.h - cuda-lambda-tidy --------------------===//

#ifndef CUDA_LAMBDA_TIDY_RESERVEDNAMESPACECHECK_H
#define CUDA_LAMBDA_TIDY_RESERVEDNAMESPACECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::cuda {

/// Flags user declarations in the CUDA toolkit's namespaces `cuda`, `nv` and
/// `cooperative_groups` (and the namespaces nested in them), and a `using
/// namespace` at global scope that brings a nested namespace `cuda` into the
/// global namespace, where it makes libcu++'s `cuda::` ambiguous, when an
/// unqualified `cuda::` follows it in its file (H36).
class ReservedNamespaceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  void checkNamespace(const NamespaceDecl &Namespace,
                      const SourceManager &SM);
  void checkUsingDirective(const UsingDirectiveDecl &Using,
                           const SourceManager &SM,
                           const LangOptions &LangOpts);
};

} // namespace clang::tidy::cuda

#endif

//===--- LambdaAdlPlaceholderCheck.h - cuda-lambda-tidy -----------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAADLPLACEHOLDERCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAADLPLACEHOLDERCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/CallableCode.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags an unqualified call in host code that passes the closure of an
/// extended lambda (H19) when argument-dependent lookup through nvcc's
/// host-side placeholder for the closure finds a function template of the
/// same name that lookup through the closure itself does not. nvcc's host
/// compiler sees `__nv_dl_wrapper_t<__nv_dl_tag<F, &f, N>, Captures...>` (or
/// `__nv_hdl_wrapper_t<..., Signature, Captures...>`) instead of the closure:
/// its template arguments bring in the namespaces of the enclosing function's
/// parameter and return types and class, of the captured variables' types,
/// of a `__host__ __device__` lambda's own signature, and the global
/// namespace. The call then becomes ambiguous, or calls another function.
class LambdaAdlPlaceholderCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  void checkCall(const CallExpr &Call, const SourceManager &SM,
                 const llvm::DenseMap<const CXXRecordDecl *,
                                      const LambdaExpr *> &LambdasHere);

  /// A call reported once per lambda, whichever instantiation met it.
  llvm::DenseSet<std::pair<SourceLocation, const Decl *>> Reported;
};

} // namespace clang::tidy::cuda

#endif

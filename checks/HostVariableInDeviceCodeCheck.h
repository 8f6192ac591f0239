//===--- HostVariableInDeviceCodeCheck.h - cuda-lambda-tidy -------------===//

#ifndef CUDA_LAMBDA_TIDY_HOSTVARIABLEINDEVICECODECHECK_H
#define CUDA_LAMBDA_TIDY_HOSTVARIABLEINDEVICECODECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/AncestorWalk.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags device code that names a host variable (H16): a namespace-scope,
/// class-static or host function-static variable without `__device__`,
/// `__constant__` or `__managed__`, used in a `__global__` or `__device__`
/// function, an extended lambda, or (in the device pass only) a
/// `__host__ __device__` function. Host constants read by value are fine;
/// binding a reference to one, taking its address, indexing a host array at
/// run time and an `extern const` without a visible initializer are not.
class HostVariableInDeviceCodeCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Seen.clear(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  /// How device code uses a host variable (defined in the .cpp).
  enum class Use;

private:
  /// How device code that names \p Var at \p Ref uses it; \p Owner is set
  /// to the host function whose static local \p Var is.
  Use judgeUse(const Expr &Ref, const VarDecl &Var,
               const utils::Ancestry &Above, ASTContext &Ctx,
               const FunctionDecl *&Owner) const;
  /// \p Ref names \p Var in device code.
  void checkUse(const Expr &Ref, const VarDecl &Var,
                const utils::Ancestry &Above, ASTContext &Ctx);

  /// Where `__managed__` was expanded: clang drops the attribute in CUDA
  /// (it only knows it for HIP), so the AST cannot tell.
  llvm::DenseSet<SourceLocation> ManagedExpansions;
  /// The uses already judged.
  llvm::DenseSet<const Expr *> Seen;
  /// A use reported once, whether seen in a template's pattern or in one of
  /// its instantiations.
  llvm::DenseSet<std::pair<SourceLocation, const Decl *>> Reported;
};

} // namespace clang::tidy::cuda

#endif

//===--- HostVariableInDeviceCodeCheck.h - cuda-lambda-tidy -------------===//

#ifndef CUDA_LAMBDA_TIDY_HOSTVARIABLEINDEVICECODECHECK_H
#define CUDA_LAMBDA_TIDY_HOSTVARIABLEINDEVICECODECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/CallableCode.h"
#include "utils/AncestorWalk.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::cuda {

/// Flags device code that names a host variable (H16): a namespace-scope,
/// class-static or host function-static variable without `__device__`,
/// `__constant__` or `__managed__`, used in a `__global__` or `__device__`
/// function, an extended lambda, or (in the device pass only) a
/// `__host__ __device__` function. Host constants read by value are fine;
/// binding a reference to one, taking its address, indexing a host array at
/// run time and an `extern const` without a visible initializer are not.
/// In a `constexpr` function such a use of a host constant is reported at
/// the calls that evaluate the function at run time (nvcc compiles its body
/// for the device only then).
class HostVariableInDeviceCodeCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    Seen.clear();
    StorageUses.clear();
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  /// How device code uses a host variable (defined in the .cpp).
  enum class Use;

private:
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  /// How device code that names \p Var at \p Ref uses it; \p Owner is set
  /// to the host function whose static local \p Var is.
  Use judgeUse(const Expr &Ref, const VarDecl &Var,
               const utils::Ancestry &Above, ASTContext &Ctx,
               const FunctionDecl *&Owner) const;
  /// \p Ref names \p Var in device code; \p InConstexpr when that code is a
  /// constexpr function's, whose uses of host constants are reported at the
  /// calls that evaluate it at run time.
  void checkUse(const Expr &Ref, const VarDecl &Var,
                const utils::Ancestry &Above, ASTContext &Ctx,
                bool InConstexpr);

  /// A use of a host constant that needs its storage, in a constexpr
  /// function: a hazard only when the function is evaluated at run time.
  struct StorageUse {
    const VarDecl *Var = nullptr;
    SourceLocation Loc;
    Use Kind;
  };
  /// The first such use in \p Callee's code or in the constexpr functions
  /// it calls at run time, if any (computed once per function).
  std::optional<StorageUse> storageUseOf(const FunctionDecl &Callee,
                                         ASTContext &Ctx);
  /// The use \p Call reaches when it is evaluated at run time, if any.
  std::optional<StorageUse> storageUseAtRunTime(const CallExpr &Call,
                                                const utils::Ancestry &Above,
                                                ASTContext &Ctx);
  /// \p Call, in code that runs (not a constexpr function's), evaluates a
  /// constexpr function that needs a host constant's storage; \p FromHost
  /// when that code is host code.
  void checkCall(const CallExpr &Call, const utils::Ancestry &Above,
                 ASTContext &Ctx, bool FromHost);

  /// Where `__managed__` was expanded: clang drops the attribute in CUDA
  /// (it only knows it for HIP), so the AST cannot tell.
  llvm::DenseSet<SourceLocation> ManagedExpansions;
  /// The uses already judged.
  llvm::DenseSet<const Expr *> Seen;
  /// A use reported once, whether seen in a template's pattern or in one of
  /// its instantiations.
  llvm::DenseSet<std::pair<SourceLocation, const Decl *>> Reported;
  /// storageUseOf() of each constexpr function met (a null Var: none).
  llvm::DenseMap<const FunctionDecl *, StorageUse> StorageUses;
};

} // namespace clang::tidy::cuda

#endif

//===--- LambdaClosureTraitCheck.h - cuda-lambda-tidy ------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDACLOSURETRAITCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDACLOSURETRAITCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/CallableCode.h"
#include "utils/InstantiationChain.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Flags type traits on an extended lambda's closure type
/// (`std::is_trivially_copyable`, `std::is_standard_layout`, ...) whose answer
/// picks a kernel's template argument or decides a launch in host code (H15):
/// nvcc's host compiler and device pass may answer differently.
///
/// Also a trait that is the default argument of a class template's
/// parameter (`template <class F, bool = std::is_trivially_copyable<F>::value>`)
/// when host code instantiates the class template with an extended lambda's
/// closure type: the two passes may pick different specializations. Found
/// among the instantiations clang made and followed back to the user's line.
class LambdaClosureTraitCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  /// The shared callable matchers' registration (utils::matchCallables).
  utils::CallableRegistration Callables;
  utils::SharedRegistration Instantiations;
  struct Query {
    SourceLocation Loc;
    const CXXRecordDecl *Closure;
    std::string What;
    std::string Kernel; // empty: the trait decides whether a kernel runs
    DynTypedNode Where; ///< the kernel reference or the branch
  };
  /// Queries for the `if`s and `?:`s of \p Code that decide whether a
  /// kernel is launched.
  void findLaunchingBranches(const utils::Callable &Code,
                             const SourceManager &SM);

  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> Lambdas;
  /// The branches findLaunchingBranches met, each once.
  llvm::DenseSet<const Stmt *> Branches;
  /// What is not device-only code is host code, including what lies
  /// outside any function.
  utils::DeviceOnlyCode DeviceCode;
  llvm::SmallVector<Query, 8> Queries;
  utils::InstantiationIndex Index;
  /// The text of device-only functions and lambdas.
  utils::TextRanges DeviceRanges;
  ASTContext *Context = nullptr;
};

} // namespace clang::tidy::cuda

#endif

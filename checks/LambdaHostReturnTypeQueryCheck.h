//===--- LambdaHostReturnTypeQueryCheck.h - cuda-lambda-tidy ------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDAHOSTRETURNTYPEQUERYCHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDAHOSTRETURNTYPEQUERYCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/CallableCode.h"
#include "utils/InstantiationChain.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Flags host code that asks for the return type of an extended `__device__`
/// lambda without a trailing return type (H13): `decltype(l(...))`,
/// `std::invoke_result`/`std::result_of` (and `cuda::std::`), and
/// `thrust::make_transform_iterator`/`thrust::transform_iterator`. nvcc's host
/// pass sees a placeholder whose call operator returns `int`.
///
/// The same question asked inside a template instantiation (a user's
/// template, thrust, cub, libcu++), whatever the library calls it, is
/// followed through the instantiations clang made back to the user's line
/// and reported at the lambda; so is a `std::invoke_result` that clang could
/// not form because the lambda is `__device__` and the asking code is host
/// code.
class LambdaHostReturnTypeQueryCheck : public ClangTidyCheck {
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
    DynTypedNode Where; ///< the query, to leave out those in device code
  };
  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> Lambdas;
  /// What is not device-only code is host code, including what lies
  /// outside any function.
  utils::DeviceOnlyCode DeviceCode;
  llvm::SmallVector<Query, 8> Queries;
  /// A question asked inside an instantiation (or one clang failed to
  /// answer), to be followed back to the user's code.
  struct Asked {
    SourceLocation Loc;
    const CXXRecordDecl *Closure;
    std::string What;
    bool Failed; ///< clang could not form the answer
    /// For a question asked inside a library: the library function the
    /// user's code calls, and where.
    const FunctionDecl *Entry = nullptr;
    SourceLocation EntryLoc;
  };
  /// Calls from the user's code into library instantiations.
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> LibraryCalls;
  utils::HostLibraryWalk Library;
  std::vector<Asked> Instantiated;
  utils::InstantiationIndex Index;
  /// The text of device-only functions and lambdas.
  utils::TextRanges DeviceRanges;
  ASTContext *Context = nullptr;
};

} // namespace clang::tidy::cuda

#endif

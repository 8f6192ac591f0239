//===--- LambdaCaptureTypeCheck.h - cuda-lambda-tidy --------------------===//

#ifndef CUDA_LAMBDA_TIDY_LAMBDACAPTURETYPECHECK_H
#define CUDA_LAMBDA_TIDY_LAMBDACAPTURETYPECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/LambdaMatches.h"
#include "llvm/ADT/DenseSet.h"
#include <string>

namespace clang::tidy::cuda {

/// Flags captures of an extended lambda whose type nvcc cannot write into
/// its generated code (H04): a type local to a function (a plain lambda's
/// closure type included) anywhere in the captured variable's type, an
/// init-capture of type `std::initializer_list`, and an element of a
/// function parameter pack; and the limits of nvcc's copy of a captured
/// array: more than 7 dimensions, an element type that is not default
/// constructible or not copy assignable on the host, an init-capture from an
/// array; and more than 1022 captured variables. Also a private or protected
/// member type in a capture's type, and, for an extended __host__ __device__
/// lambda, a local or private type in its parameter or return types.
class LambdaCaptureTypeCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  enum class Problem {
    LocalType,
    InitializerList,
    PackElement,
    ArrayRank,
    ArrayDefaultConstruct,
    ArrayAssign,
    ArrayInitCapture,
    CaptureCount,
    RestrictedType,
    SignatureType,
  };
  /// A type nvcc cannot name because it is a private or protected member.
  void reportRestricted(SourceLocation Loc, const TagDecl &Restricted,
                        StringRef KindName, const std::string &What);
  /// The parameter and return types of a __host__ __device__ lambda.
  void checkSignature(const LambdaExpr &Lambda);
  /// nvcc's limits on a captured array, reported at \p Loc.
  void checkCapturedArray(const VarDecl &Var, SourceLocation Loc,
                          StringRef KindName);
  /// Whether \p Problem at \p Loc is reported for the first time: a template
  /// and its instantiations may show the same capture many times.
  bool firstReport(SourceLocation Loc, Problem Problem);

  llvm::DenseSet<std::pair<SourceLocation, unsigned>> Reported;
  utils::LambdaRegistration MatchedLambdas;
};

} // namespace clang::tidy::cuda

#endif

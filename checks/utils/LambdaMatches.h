//===--- LambdaMatches.h - cuda-lambda-tidy -----------------------------===//
//
// The lambdas most checks look at, matched once for all of them: about
// fifteen checks each had a lambdaExpr(...) matcher of their own, and the
// MatchFinder paid for every one of them on every lambda.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_LAMBDAMATCHES_H
#define CUDA_LAMBDA_TIDY_UTILS_LAMBDAMATCHES_H

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <memory>

namespace clang::tidy::cuda::utils {

/// Which lambdas written outside system headers a check wants.
enum class LambdaSelection {
  /// Extended lambdas as written: not those of template instantiations.
  ExtendedAsWritten,
  /// Extended lambdas, those of template instantiations too.
  Extended,
  /// Every lambda as written, extended or not.
  AsWritten,
  /// The lambdas that are not extended, those of instantiations too.
  NotExtended,
};

/// What matchLambdas() returns, for the check to keep (as a member) for as
/// long as it is registered with the MatchFinder.
using LambdaRegistration =
    std::shared_ptr<ast_matchers::MatchFinder::MatchCallback>;

/// Registers \p Check for the lambdas \p Which selects, bound as "lambda".
/// The checks of one MatchFinder share one matcher, tried once on each
/// lambda; its callback calls each check that wants the lambda, in the order
/// they registered.
[[nodiscard]] LambdaRegistration
matchLambdas(ast_matchers::MatchFinder &Finder,
             ast_matchers::MatchFinder::MatchCallback *Check,
             LambdaSelection Which);

} // namespace clang::tidy::cuda::utils

#endif

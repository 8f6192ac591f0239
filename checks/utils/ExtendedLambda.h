//===--- ExtendedLambda.h - cuda-lambda-tidy ----------------------------===//
//
// nvcc's extended lambdas: which lambdas are extended, of which kind, and the
// enclosing function that nvcc names in its generated code.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_EXTENDEDLAMBDA_H
#define CUDA_LAMBDA_TIDY_UTILS_EXTENDEDLAMBDA_H

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda::utils {

enum class ExtendedLambdaKind {
  None,       ///< not an extended lambda
  Device,     ///< [] __device__ (...) {...}
  HostDevice, ///< [] __host__ __device__ (...) {...}
};

/// The execution-space annotation written on a lambda, whatever its context.
/// `__host__` alone counts as None: it never makes a lambda extended.
ExtendedLambdaKind annotationOf(const LambdaExpr &Lambda);

/// nvcc's enclosing function of a lambda: the innermost function around it
/// that is not itself a lambda's call operator.
struct EnclosingFunction {
  /// Null when the outermost lambda is at namespace or class scope.
  const FunctionDecl *Function = nullptr;
  /// Call operators of the lambdas between \c Function and the lambda,
  /// innermost first.
  llvm::SmallVector<const CXXMethodDecl *, 2> LambdasBetween;
};
EnclosingFunction enclosingFunctionOf(const LambdaExpr &Lambda);

/// Whether \p Lambda is an extended lambda, and of which kind: annotated with
/// `__device__` or `__host__ __device__` and defined inside a function that is
/// host or host-device code. A lambda inside a `__device__` or `__global__`
/// function, or inside a `__device__` lambda, is not extended, annotated or
/// not; nor is one outside any function. One inside a `__host__ __device__`
/// extended lambda counts as extended (nvcc rejects it).
ExtendedLambdaKind extendedLambdaKindOf(const LambdaExpr &Lambda);

inline bool isExtendedLambda(const LambdaExpr &Lambda) {
  return extendedLambdaKindOf(Lambda) != ExtendedLambdaKind::None;
}

/// "__device__" or "__host__ __device__", as written in diagnostics.
llvm::StringRef spelling(ExtendedLambdaKind Kind);

/// Matches extended lambdas of either kind.
AST_MATCHER(LambdaExpr, isExtendedLambda) {
  return utils::isExtendedLambda(Node);
}

} // namespace clang::tidy::cuda::utils

#endif

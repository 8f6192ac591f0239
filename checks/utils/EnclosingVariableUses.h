//===--- EnclosingVariableUses.h - cuda-lambda-tidy ---------------------===//
//
// The names in a lambda's body that refer to the enclosing function's local
// variables or to its `this`: what a capture default may capture, read from
// the source as nvcc reads it (also in template patterns, where clang has not
// worked out the implicit captures yet).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_ENCLOSINGVARIABLEUSES_H
#define CUDA_LAMBDA_TIDY_UTILS_ENCLOSINGVARIABLEUSES_H

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace clang::tidy::cuda::utils {

struct EnclosingVariableUse {
  /// The variable named, or null for a use of `this` (written, or implied
  /// by a member's name).
  const VarDecl *Var = nullptr;
  /// Where it is named.
  SourceLocation Loc;
  /// Whether the name is inside an `if constexpr` (its condition, either
  /// branch or its init-statement) within the lambda's body, nested lambdas
  /// included.
  bool InIfConstexpr = false;
};

/// Every name in \p Lambda's body, nested lambdas included, that refers to a
/// variable with automatic storage declared outside \p Lambda, or to `this`,
/// in the order they are written. Names in unevaluated operands (`sizeof`,
/// `alignof`, `decltype`, `noexcept`, an unevaluated `typeid`) are left out;
/// names of constants are kept: nvcc 13 counts them as captures even where
/// the language does not odr-use them. Local classes inside the body are not
/// searched.
llvm::SmallVector<EnclosingVariableUse, 8>
enclosingVariableUsesOf(const LambdaExpr &Lambda);

/// What a lambda's capture default captures, as nvcc meets it: the first
/// use of each variable, and of `this`, that no explicit capture names.
struct DefaultCaptures {
  llvm::SmallVector<EnclosingVariableUse, 8> FirstUses;
  /// Whether an element of a function parameter pack is used (left out of
  /// FirstUses: a list of captures cannot name one element).
  bool UsesPack = false;

  /// Whether one of them is first captured inside an `if constexpr`, which
  /// nvcc rejects (H05).
  bool anyFirstInIfConstexpr() const;
  /// Whether `this` is among them.
  bool capturesThis() const;
  /// The explicit list that replaces the default: "x, y, this", with
  /// "*this" for `this` when \p CopyThis.
  std::string spelled(bool CopyThis) const;
};
DefaultCaptures defaultCapturesOf(const LambdaExpr &Lambda);

} // namespace clang::tidy::cuda::utils

#endif

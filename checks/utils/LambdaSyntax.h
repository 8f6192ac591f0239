//===--- LambdaSyntax.h - cuda-lambda-tidy ------------------------------===//
//
// Where the parts of a lambda are written: its parameter list, its execution
// space annotations and specifiers, the variable it initializes; and the
// fix-its that add or widen an annotation.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_LAMBDASYNTAX_H
#define CUDA_LAMBDA_TIDY_UTILS_LAMBDASYNTAX_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::utils {

/// The name of the variable that \p Lambda initializes (`auto f = [] ...`),
/// or "" when it initializes none.
std::string variableNameOf(const LambdaExpr &Lambda);

/// The parentheses of the lambda's written parameter list, from its call
/// operator's FunctionProtoTypeLoc; nullopt for `[] {...}`.
struct ParameterParens {
  SourceLocation LParen, RParen;
};
std::optional<ParameterParens> parameterListOf(const LambdaExpr &Lambda);

/// The `__host__`/`__device__` attributes written on \p Lambda (explicit, not
/// clang's implicit ones), in source order.
llvm::SmallVector<const Attr *, 2>
executionSpaceAttrsOf(const LambdaExpr &Lambda);

/// The file location where \p A was written, the expansion of its
/// `__host__`/`__device__` macro: `[] __device__ (...)` gives the location of
/// `__device__`, whatever macro wrote it.
SourceLocation writtenLocation(const Attr &A, const SourceManager &SM);

/// Whether \p A is written after the lambda's parameter list
/// (`[](int) __device__ {}`), which nvcc rejects. Decided by the location of
/// its annotation macro relative to the parameter list's `)`.
bool isAfterParameterList(const Attr &A, const LambdaExpr &Lambda,
                          const SourceManager &SM);

/// The range of the `__host__`/`__device__` token that wrote \p A when the
/// token itself is in the main text (not produced by another macro, such as
/// `#define DEVICE_LAMBDA [=] __device__`); nullopt otherwise.
std::optional<CharSourceRange> annotationToken(const Attr &A,
                                               const SourceManager &SM,
                                               const LangOptions &LangOpts);

/// A fix-it that writes \p Spelling (`__device__`, `__host__ __device__`)
/// where nvcc reads a lambda's annotation: before the parameter list, or
/// after the `]` of a lambda without one. Nullopt inside macro expansions and
/// for lambdas with an explicit template parameter list.
std::optional<FixItHint> insertAnnotation(const LambdaExpr &Lambda,
                                          llvm::StringRef Spelling,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts);

/// A fix-it that turns the `__host__` annotation of \p Lambda, written before
/// its parameter list, into `__host__ __device__`.
std::optional<FixItHint> widenHostAnnotation(const LambdaExpr &Lambda,
                                             const SourceManager &SM,
                                             const LangOptions &LangOpts);

/// The location of the `constexpr` or `consteval` keyword written among the
/// specifiers of \p Lambda, between its parameter list and its body. The AST
/// does not record it: clang marks every eligible lambda constexpr in C++17,
/// so the written keyword is found by lexing that range. Nullopt when absent
/// or when the range is not plain file text.
std::optional<Token> constexprSpecifierOf(const LambdaExpr &Lambda,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts);

} // namespace clang::tidy::cuda::utils

#endif

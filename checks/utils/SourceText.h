//===--- SourceText.h - cuda-lambda-tidy --------------------------------===//
//
// Small questions about the characters around an AST location, for fix-its
// whose target the AST does not record (such as the `&` of a capture).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_SOURCETEXT_H
#define CUDA_LAMBDA_TIDY_UTILS_SOURCETEXT_H

#include "clang/Basic/SourceManager.h"
#include <optional>

namespace clang::tidy::cuda::utils {

/// The location of \p Punctuator when it is the first character before
/// \p Loc that is not whitespace, in the same file; nullopt otherwise, and
/// always for locations inside macro expansions (their fix would edit the
/// macro, which the user may not own).
std::optional<SourceLocation> findPrecedingToken(SourceLocation Loc,
                                                 char Punctuator,
                                                 const SourceManager &SM);

/// Whether \p Loc is expanded in a system header: what the AST matcher
/// isExpansionInSystemHeader() decides for a node that begins there.
bool isExpansionInSystemHeader(SourceLocation Loc, const SourceManager &SM);

} // namespace clang::tidy::cuda::utils

#endif

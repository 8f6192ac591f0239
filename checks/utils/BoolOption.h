//===--- BoolOption.h - cuda-lambda-tidy --------------------------------===//
//
// Boolean check options. clang-tidy's OptionsView::get<bool> is an explicit
// specialization compiled into libclangTidy.a; Debian's library is built
// with clang, whose mangling of its return type (enable_if over
// is_integral_v) differs from GCC's, so a check built with GCC cannot link
// against it in the drop-in binary. These read and write the same text
// ("true", "false", or an integer) through the string overloads.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_BOOLOPTION_H
#define CUDA_LAMBDA_TIDY_UTILS_BOOLOPTION_H

#include "clang-tidy/ClangTidyCheck.h"
#include <optional>

namespace clang::tidy::cuda::utils {

/// "true"/"false" (any case) or an integer (non-zero is true); nullopt for
/// anything else.
std::optional<bool> parseBoolOption(llvm::StringRef Text);

/// The check-local option \p Name, or \p Default when unset or unreadable.
bool getBoolOption(const ClangTidyCheck::OptionsView &Options,
                   llvm::StringRef Name, bool Default);

void storeBoolOption(const ClangTidyCheck::OptionsView &Options,
                     ClangTidyOptions::OptionMap &Opts, llvm::StringRef Name,
                     bool Value);

} // namespace clang::tidy::cuda::utils

#endif

//===--- KernelBoundaryCheck.cpp - cuda-lambda-tidy ---------------------===//

#include "utils/KernelBoundaryCheck.h"

namespace clang::tidy::cuda::utils {

KernelBoundaryCheck::KernelBoundaryCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AllowedTypesOption(Options.get("AllowedTypes", "")),
      AllowedTypes(AllowedTypesOption) {}

void KernelBoundaryCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedTypes", AllowedTypesOption);
}

void KernelBoundaryCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  matchCrossingSites(*Finder, this);
}

} // namespace clang::tidy::cuda::utils

//===--- KernelTemplateArgumentCheck.h - cuda-lambda-tidy ---------------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELTEMPLATEARGUMENTCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELTEMPLATEARGUMENTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Flags a `__global__` function template or a `__device__` variable
/// template instantiated with a type nvcc cannot name from namespace scope
/// (H35): a type defined inside a host function, an unnamed type, a private
/// or protected member type, or (for variable templates; kernels are
/// cuda-lambda-missing-annotation's) the closure type of a lambda that is
/// not extended.
class KernelTemplateArgumentCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  llvm::DenseSet<std::pair<SourceLocation, const Decl *>> Reported;
};

} // namespace clang::tidy::cuda

#endif

//===--- ArchConditionals.h - cuda-lambda-tidy --------------------------===//
//
// Preprocessor conditionals on `__CUDA_ARCH__`: the branches that the host
// and device passes of one CUDA source see differently. The AST of one pass
// never contains the other pass's tokens, so these are recorded from the
// preprocessor, with the branch taken in this pass and the ranges of all
// branches (taken and skipped).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_ARCHCONDITIONALS_H
#define CUDA_LAMBDA_TIDY_UTILS_ARCHCONDITIONALS_H

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace clang::tidy::cuda::utils {

/// One branch of an `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` chain whose
/// outcome depends on the pass (this branch's condition, or an earlier one
/// in the same chain, reads `__CUDA_ARCH__` or a macro derived from it:
/// utils/PassDependence.h).
struct ArchBranch {
  /// The location of the chain's first directive (`#if`, `#ifdef`, ...).
  SourceLocation ChainLoc;
  /// From this branch's directive to the next directive of the chain (the
  /// `#elif`, `#else` or `#endif` that ends it).
  SourceRange Range;
  /// Whether this pass compiled the branch's tokens.
  bool Taken = false;
  /// The pass-dependent macro the chain's condition reads as written
  /// (`__CUDA_ARCH__`, or a project's `MY_ON_DEVICE`).
  llvm::StringRef Macro;
};

/// Every pass-dependent branch of one translation unit outside system
/// headers, filled by the translation unit's PassDependence recorder.
class ArchConditionals {
public:
  void clear() { Branches.clear(); }
  const std::vector<ArchBranch> &branches() const { return Branches; }
  void add(ArchBranch B) { Branches.push_back(B); }

  /// The branches whose whole range lies within \p Outer.
  llvm::SmallVector<const ArchBranch *, 4>
  branchesWithin(SourceRange Outer, const SourceManager &SM) const;

  /// The innermost taken branch containing \p Loc (its file location), or
  /// null.
  const ArchBranch *takenBranchAt(SourceLocation Loc,
                                  const SourceManager &SM) const;

private:
  std::vector<ArchBranch> Branches;
};

/// Whether \p Loc lies in the arguments of one of `<nv/target>`'s dispatch
/// macros (`NV_IF_TARGET`, `NV_IF_ELSE_TARGET`, `NV_DISPATCH_TARGET`), which
/// pick code by `__CUDA_ARCH__` as an `#if` would, through macro expansion:
/// the code there may exist on one side only.
bool isInTargetDispatchMacro(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LO);

/// Raw tokens from \p Begin up to (not including) \p End, in one file; none
/// when the two are not file locations of the same file.
std::vector<Token> rawTokens(SourceLocation Begin, SourceLocation End,
                             const SourceManager &SM, const LangOptions &LO);

/// The raw tokens of a branch's body: the lines after its directive, up to
/// its end. For a skipped branch, these are tokens no AST of this pass holds.
std::vector<Token> rawTokensOfBranch(const ArchBranch &Branch,
                                     const SourceManager &SM,
                                     const LangOptions &LO);

/// An annotated lambda found in raw tokens: the `[` of its introducer and
/// whether it is `__host__ __device__` (otherwise `__device__`).
struct RawAnnotatedLambda {
  SourceLocation Introducer;
  bool HostDevice = false;
};

/// Lambdas written as `[...] __device__`, `[...] __host__ __device__` (either
/// order), or with the annotation after the parameter list `[...](...)
/// __device__`, in \p Tokens. `__host__` alone does not count.
std::vector<RawAnnotatedLambda>
findAnnotatedLambdas(llvm::ArrayRef<Token> Tokens);

} // namespace clang::tidy::cuda::utils

#endif

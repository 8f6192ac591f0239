//===--- ASTCache.h - cuda-lambda-tidy ----------------------------------===//
//
// Per-thread caches of facts about AST nodes, keyed by the nodes' addresses:
// which AST a cache was filled from, so that it is emptied before the
// addresses of a later AST (clangd parses the same file again and again) can
// be mistaken for the old ones.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_ASTCACHE_H
#define CUDA_LAMBDA_TIDY_UTILS_ASTCACHE_H

#include "clang/AST/ASTContext.h"

namespace clang::tidy::cuda::utils {

/// The AST a per-thread cache was filled from.
class CachedAST {
public:
  /// Whether the cache holds facts of \p Now; if not, it is to be emptied
  /// and from now on belongs to \p Now.
  bool holds(const ASTContext &Now);

private:
  const ASTContext *Context = nullptr;
  unsigned ContextsDestroyedThen = 0;
};

} // namespace clang::tidy::cuda::utils

#endif

//===--- ASTCache.cpp - cuda-lambda-tidy --------------------------------===//

#include "ASTCache.h"
#include <atomic>

namespace clang::tidy::cuda::utils {

namespace {

/// Bumped whenever an AST that a cache has seen is destroyed: a later AST may
/// reuse its addresses.
std::atomic<unsigned> ContextsDestroyed{0};
void forgetAST(void *) { ++ContextsDestroyed; }

/// The AST this thread asked to be told of the destruction of last: each
/// cache's first look at an AST would otherwise ask again.
thread_local const ASTContext *Watched = nullptr;
thread_local unsigned WatchedSince = 0;

} // namespace

bool CachedAST::holds(const ASTContext &Now) {
  const unsigned Destroyed = ContextsDestroyed.load();
  if (Context == &Now && ContextsDestroyedThen == Destroyed)
    return true;
  if (Watched != &Now || WatchedSince != Destroyed) {
    Now.AddDeallocation(forgetAST, nullptr);
    Watched = &Now;
    WatchedSince = Destroyed;
  }
  Context = &Now;
  ContextsDestroyedThen = Destroyed;
  return false;
}

} // namespace clang::tidy::cuda::utils

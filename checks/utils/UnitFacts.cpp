//===--- UnitFacts.cpp - cuda-lambda-tidy -------------------------------===//

#include "UnitFacts.h"
#include "llvm/ADT/DenseMap.h"
#include <atomic>
#include <mutex>

namespace clang::tidy::cuda::utils {

namespace {

/// The facts of every live AST of the process, under one lock.
std::mutex LiveLock;
llvm::DenseMap<const ASTContext *, UnitFacts *> &live() {
  static llvm::DenseMap<const ASTContext *, UnitFacts *> Map;
  return Map;
}

/// Bumped whenever an AST with facts is destroyed: a later AST may reuse
/// its address, so the last answer of each thread is asked again.
std::atomic<unsigned> Destroyed{0};

/// The answer of this thread's last question: the checks ask on every
/// match, almost always of the same AST.
struct LastAnswer {
  const ASTContext *Context = nullptr;
  UnitFacts *Facts = nullptr;
  unsigned DestroyedThen = 0;
};
thread_local LastAnswer Last;

std::atomic<unsigned> SlotsTaken{0};

} // namespace

unsigned UnitFacts::nextSlotIndex() { return SlotsTaken++; }

UnitFacts::~UnitFacts() = default;

UnitFacts &UnitFacts::of(const ASTContext &Context) {
  const unsigned Now = Destroyed.load(std::memory_order_acquire);
  if (Last.Context == &Context && Last.DestroyedThen == Now)
    return *Last.Facts;
  std::lock_guard<std::mutex> Guard(LiveLock);
  UnitFacts *&Facts = live()[&Context];
  if (!Facts) {
    // The checks see the unit's ASTContext as const; the facts own it no
    // more than they did before (they ask it, ProvenanceSummaries builds
    // CFGs in it).
    auto &Mutable = const_cast<ASTContext &>(Context);
    Facts = new UnitFacts(Mutable);
    Mutable.AddDeallocation(
        [](void *Key) {
          UnitFacts *Gone = nullptr;
          {
            std::lock_guard<std::mutex> Guard(LiveLock);
            auto It = live().find(static_cast<const ASTContext *>(Key));
            if (It != live().end()) {
              Gone = It->second;
              live().erase(It);
            }
            ++Destroyed;
          }
          delete Gone;
        },
        &Mutable);
  }
  Last = {&Context, Facts, Now};
  return *Facts;
}

} // namespace clang::tidy::cuda::utils

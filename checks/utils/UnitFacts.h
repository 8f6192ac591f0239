//===--- UnitFacts.h - cuda-lambda-tidy ---------------------------------===//
//
// The facts the checks share about one translation unit: the launch
// wrappers' and helpers' summaries (DeviceReach, ProvenanceSummaries), the
// extended-lambda kinds, the callable walked last. One object per AST,
// owning them all, so that several checks of one run compute each fact
// once and no check keeps facts of an AST that is gone.
//
// Lifetime: made at the first question about an ASTContext, destroyed with
// it (ASTContext::AddDeallocation). A later AST may reuse the addresses of
// the nodes the facts are keyed by (clangd parses a file again and again);
// it gets facts of its own. One AST is matched by one thread at a time;
// different ASTs may be matched on different threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_UNITFACTS_H
#define CUDA_LAMBDA_TIDY_UTILS_UNITFACTS_H

#include "clang/AST/ASTContext.h"
#include <memory>
#include <type_traits>
#include <vector>

namespace clang::tidy::cuda::utils {

class UnitFacts {
public:
  /// The facts of the unit of \p Context.
  static UnitFacts &of(const ASTContext &Context);

  /// The unit's \p T, made at the first question: `T(ASTContext &)` where
  /// \p T has such a constructor, else `T()`.
  template <typename T> T &get() {
    const unsigned Index = slotIndex<T>();
    if (Index >= Slots.size())
      Slots.resize(Index + 1);
    std::unique_ptr<Slot> &Held = Slots[Index];
    if (!Held) {
      if constexpr (std::is_constructible_v<T, ASTContext &>)
        Held = std::make_unique<Holder<T>>(Context);
      else
        Held = std::make_unique<Holder<T>>();
    }
    return static_cast<Holder<T> &>(*Held).Value;
  }

  UnitFacts(const UnitFacts &) = delete;
  UnitFacts &operator=(const UnitFacts &) = delete;
  ~UnitFacts();

private:
  explicit UnitFacts(ASTContext &Context) : Context(Context) {}

  struct Slot {
    virtual ~Slot() = default;
  };
  template <typename T> struct Holder final : Slot {
    template <typename... ArgTs>
    explicit Holder(ArgTs &&...Args) : Value(std::forward<ArgTs>(Args)...) {}
    T Value;
  };

  /// A number per kind of fact, the same in every unit.
  static unsigned nextSlotIndex();
  template <typename T> static unsigned slotIndex() {
    static const unsigned Index = nextSlotIndex();
    return Index;
  }

  ASTContext &Context;
  std::vector<std::unique_ptr<Slot>> Slots;
};

} // namespace clang::tidy::cuda::utils

#endif

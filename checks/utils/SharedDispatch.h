//===--- SharedDispatch.h - cuda-lambda-tidy ----------------------------===//
//
// One set of matchers for several checks of a MatchFinder: the checks
// register one after another, the first adds the matchers with a shared
// callback (a dispatch) that calls each check wanting the match. A node is
// then matched once, not once per check. matchCallables() and matchLambdas()
// are built on it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_SHAREDDISPATCH_H
#define CUDA_LAMBDA_TIDY_UTILS_SHAREDDISPATCH_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::cuda::utils {

/// What the shared registrations return, for the check to keep (as a
/// member) for as long as it is registered with the MatchFinder.
using SharedRegistration =
    std::shared_ptr<ast_matchers::MatchFinder::MatchCallback>;

/// The base of a shared dispatch. It matches as ClangTidyCheck's own
/// matchers do (with the context's traversal kind, TK_AsIs), and keeps the
/// registrations of the node matchers it is called by (NodeDispatch.h).
class SharedDispatchCallback : public ast_matchers::MatchFinder::MatchCallback {
public:
  std::vector<SharedRegistration> NodeRegistrations;
};

/// The dispatch of type \p DispatchT for the checks registering now with
/// \p Finder: made, and its matchers added by \p AddMatchers, when \p Check
/// is the first of them. clang-tidy registers the checks of one MatchFinder
/// one after another; the dispatch is the checks' to keep (as a member):
/// once they are gone, a MatchFinder at the same address is another and gets
/// a dispatch of its own.
///
/// \p Check stays one of the MatchFinder's callbacks, which the MatchFinder
/// tells of the start and the end of each translation unit, through a
/// matcher that matches nothing (tried on the one translation unit node).
template <typename DispatchT, typename AddMatchersFn>
std::shared_ptr<DispatchT>
sharedDispatch(ast_matchers::MatchFinder &Finder,
               ast_matchers::MatchFinder::MatchCallback *Check,
               AddMatchersFn AddMatchers) {
  struct Registering {
    const ast_matchers::MatchFinder *Finder = nullptr;
    std::weak_ptr<DispatchT> Dispatch;
  };
  static thread_local Registering Now;
  std::shared_ptr<DispatchT> Dispatch;
  if (Now.Finder == &Finder)
    Dispatch = Now.Dispatch.lock();
  if (!Dispatch) {
    Dispatch = std::make_shared<DispatchT>();
    AddMatchers(*Dispatch);
    Now = {&Finder, Dispatch};
  }
  using namespace ast_matchers;
  Finder.addMatcher(translationUnitDecl(unless(anything())), Check);
  return Dispatch;
}

/// A dispatch that hands every match to each check registered with it, in
/// the order they registered. \p Tag names the set of matchers
/// (`static constexpr llvm::StringLiteral ID`, check profiles show it): one
/// dispatch per tag and MatchFinder.
template <typename Tag> class EachCheckDispatch : public SharedDispatchCallback {
public:
  std::vector<ast_matchers::MatchFinder::MatchCallback *> Checks;
  void run(const ast_matchers::MatchFinder::MatchResult &Result) override {
    for (ast_matchers::MatchFinder::MatchCallback *Check : Checks)
      Check->run(Result);
  }
  llvm::StringRef getID() const override { return Tag::ID; }
};

/// Registers \p Check with the EachCheckDispatch of \p Tag, whose matchers
/// \p AddMatchers adds (with the dispatch as their callback) for the first
/// check of \p Finder.
template <typename Tag, typename AddMatchersFn>
[[nodiscard]] SharedRegistration
shareMatchers(ast_matchers::MatchFinder &Finder,
              ast_matchers::MatchFinder::MatchCallback *Check,
              AddMatchersFn AddMatchers) {
  std::shared_ptr<EachCheckDispatch<Tag>> Dispatch =
      sharedDispatch<EachCheckDispatch<Tag>>(Finder, Check, AddMatchers);
  Dispatch->Checks.push_back(Check);
  return Dispatch;
}

} // namespace clang::tidy::cuda::utils

#endif

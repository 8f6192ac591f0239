//===--- NodeDispatch.h - cuda-lambda-tidy ------------------------------===//
//
// One matcher per kind of node for all the checks of a MatchFinder. The
// MatchFinder tries each of its matchers on every node of the matcher's
// kind, and a try costs about 750 instructions before the matcher's own
// test runs (measured with callgrind: five `declRefExpr(unless(anything()))`
// matchers cost 85 M instructions on a file with 22,600 references). The
// checks looked at the commonest nodes of CUDA code (references, calls,
// function declarations, lambdas) through 25 matchers; here a check gives a
// test of the node instead, and one matcher per kind runs every check's
// test, then calls the checks whose test passed, each with the node bound
// under the name it asked for: what `Finder.addMatcher(kind(test).bind(ID),
// Check)` would have called it with.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_NODEDISPATCH_H
#define CUDA_LAMBDA_TIDY_UTILS_NODEDISPATCH_H

#include "SharedDispatch.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace clang::tidy::cuda::utils {

/// Which nodes of kind \p NodeT a check looks for: a test of the node alone
/// (what the check's matcher said), cheap and without side effects.
template <typename NodeT>
using NodeTest = bool (*)(const NodeT &Node, ASTContext &Context);

/// A test that every node of its kind passes: `lambdaExpr()`.
template <typename NodeT> bool anyNode(const NodeT &, ASTContext &) {
  return true;
}

namespace node_dispatch_detail {

/// The matchers MatchFinder keeps a node of kind \p NodeT with.
template <typename NodeT>
using MatcherBase =
    std::conditional_t<std::is_base_of_v<Decl, NodeT>, Decl, Stmt>;

/// Makes the match a check registered for a name is called with: the
/// node bound to that name alone, as MatchFinder would have bound it.
class MakeMatch
    : public ast_matchers::internal::BoundNodesTreeBuilder::Visitor {
public:
  MakeMatch(ASTContext &Context,
            std::optional<ast_matchers::MatchFinder::MatchResult> &Made)
      : Context(Context), Made(Made) {}
  void visitMatch(const ast_matchers::BoundNodes &Bound) override {
    Made.emplace(Bound, &Context);
  }

private:
  ASTContext &Context;
  std::optional<ast_matchers::MatchFinder::MatchResult> &Made;
};

/// The matcher of one kind of node and its callback: tests the node for
/// every check, then calls those whose test passed, in the order they
/// registered.
template <typename NodeT> class NodeDispatch : public SharedDispatchCallback {
public:
  struct Client {
    ast_matchers::MatchFinder::MatchCallback *Callback;
    NodeTest<NodeT> Test;
    std::string ID;
  };
  std::vector<Client> Clients;

  void addMatcherTo(ast_matchers::MatchFinder &Finder) {
    static const ast_matchers::internal::VariadicDynCastAllOfMatcher<
        MatcherBase<NodeT>, NodeT>
        OfKind;
    Finder.addMatcher(
        OfKind(ast_matchers::internal::Matcher<NodeT>(
            new AnyTestPasses(*this))),
        this);
  }

  void run(const ast_matchers::MatchFinder::MatchResult &Result) override {
    // Copied: a check may be called again (on another node) before the
    // last of this node's checks is.
    const DynTypedNode Node = DynTypedNode::create(*Tested);
    const llvm::SmallVector<unsigned, 8> Checks = Passed;
    // One match per name bound, made when a check first needs it: several
    // checks bind "lambda" or "function".
    llvm::SmallVector<
        std::pair<llvm::StringRef,
                  std::optional<ast_matchers::MatchFinder::MatchResult>>,
        8>
        Matches;
    for (unsigned I : Checks) {
      const Client &C = Clients[I];
      auto Found = llvm::find_if(Matches, [&](const auto &Made) {
        return Made.first == C.ID;
      });
      if (Found == Matches.end()) {
        Matches.emplace_back(C.ID, std::nullopt);
        Found = std::prev(Matches.end());
        ast_matchers::internal::BoundNodesTreeBuilder Builder;
        Builder.setBinding(C.ID, Node);
        MakeMatch Make(*Result.Context, Found->second);
        Builder.visitMatches(&Make);
      }
      // As MatchFinder's own MatchVisitor calls a check.
      TraversalKindScope Scope(*Result.Context,
                               C.Callback->getCheckTraversalKind());
      C.Callback->run(*Found->second);
    }
  }

  llvm::StringRef getID() const override { return "cuda-nodes"; }

private:
  class AnyTestPasses : public ast_matchers::internal::MatcherInterface<NodeT> {
  public:
    explicit AnyTestPasses(NodeDispatch &Owner) : Owner(Owner) {}
    bool matches(const NodeT &Node, ast_matchers::internal::ASTMatchFinder *Finder,
                 ast_matchers::internal::BoundNodesTreeBuilder *) const override {
      ASTContext &Context = Finder->getASTContext();
      Owner.Passed.clear();
      for (unsigned I = 0, N = Owner.Clients.size(); I != N; ++I)
        if (Owner.Clients[I].Test(Node, Context))
          Owner.Passed.push_back(I);
      Owner.Tested = &Node;
      return !Owner.Passed.empty();
    }

  private:
    NodeDispatch &Owner;
  };

  /// The node tested last and the checks whose test it passed: MatchFinder
  /// calls run() right after the matcher matched.
  const NodeT *Tested = nullptr;
  llvm::SmallVector<unsigned, 8> Passed;
};

} // namespace node_dispatch_detail

/// Registers \p Check for the nodes of kind \p NodeT that pass \p Test,
/// bound as \p ID: the check is called as it would be for
/// `Finder.addMatcher(kind(test).bind(ID), Check)`, in the same order among
/// the MatchFinder's other checks of that kind. The checks of one
/// MatchFinder share one matcher per kind of node.
template <typename NodeT>
[[nodiscard]] SharedRegistration
matchNodes(ast_matchers::MatchFinder &Finder,
           ast_matchers::MatchFinder::MatchCallback *Check,
           NodeTest<NodeT> Test, llvm::StringRef ID) {
  using Dispatch = node_dispatch_detail::NodeDispatch<NodeT>;
  std::shared_ptr<Dispatch> Shared = sharedDispatch<Dispatch>(
      Finder, Check, [&](Dispatch &New) { New.addMatcherTo(Finder); });
  Shared->Clients.push_back({Check, Test, ID.str()});
  return Shared;
}

} // namespace clang::tidy::cuda::utils

#endif

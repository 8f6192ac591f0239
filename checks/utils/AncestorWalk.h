//===--- AncestorWalk.h - cuda-lambda-tidy ------------------------------===//
//
// The parents of AST nodes, found by walking down from a declaration that is
// already known (a function, a lambda, the declaration a lambda initializes)
// instead of asking ASTContext::getParents, whose first call builds a parent
// map of the whole translation unit: about 40% more peak memory on a thrust
// translation unit. The walk follows the traversal that builds that map
// (implicit code and template instantiations included), so below its root it
// meets the same parents. A node can have several: clang shares a template's
// non-dependent nodes with its instantiations, and a default argument is
// met where it is written and at each call that uses it. The map lists
// first the parent met first in the translation unit; a walk meets the
// pattern before its instantiations too, but a default argument at a call
// when the walk starts below the call.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_ANCESTORWALK_H
#define CUDA_LAMBDA_TIDY_UTILS_ANCESTORWALK_H

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::utils {

/// What a walk does after visiting a node.
enum class WalkNext { Children, SkipChildren, Stop };

/// The nodes above a visited node, from the root of the walk down to the
/// node's parent.
using AncestorList = llvm::ArrayRef<DynTypedNode>;

using WalkVisitor =
    llvm::function_ref<WalkNext(const DynTypedNode &Node, AncestorList Above)>;

/// Walks the AST below \p Root (a declaration or a statement) as clang
/// builds its parent map, calling \p Visit for every node below it.
void walkBelow(const DynTypedNode &Root, WalkVisitor Visit);

/// One node and the nodes above it up to the root of the walk that met it:
/// for each, the parent that ASTContext::getParents would list first.
class Ancestry {
public:
  Ancestry() = default;
  Ancestry(const DynTypedNode &Node, AncestorList Above);

  /// The parent of \p Node, which is the node itself or one of its
  /// ancestors; an empty node for the root of the walk or off the path.
  DynTypedNode parentOf(const DynTypedNode &Node) const;
  template <typename T> DynTypedNode parentOf(const T &Node) const {
    return parentOf(DynTypedNode::create(Node));
  }

private:
  llvm::SmallVector<DynTypedNode, 16> Path; // the root first, the node last
};

/// The ancestries of \p Nodes below \p Root, each from where the walk first
/// meets it; nodes not below \p Root are left out.
llvm::DenseMap<DynTypedNode, Ancestry>
ancestriesBelow(const DynTypedNode &Root, llvm::ArrayRef<DynTypedNode> Nodes);

/// Where the lambda whose closure type is \p Closure is written, found by
/// walking the declaration it is written in: the declaration its initializer
/// belongs to (a variable, a data member, a default argument), or the
/// innermost function around it. An empty \c Lambda when not found.
struct LambdaSite {
  const LambdaExpr *Lambda = nullptr;
  Ancestry Ancestors;
};
LambdaSite findLambda(const CXXRecordDecl &Closure);

} // namespace clang::tidy::cuda::utils

#endif

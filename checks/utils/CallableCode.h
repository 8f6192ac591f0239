//===--- CallableCode.h - cuda-lambda-tidy ------------------------------===//
//
// The code of one function or lambda, as clang's forCallable() assigns code
// to functions, walked from the callable down: a check that wants to know
// which function a statement is in matches the functions and walks their
// code, rather than matching the statement and climbing the whole-TU parent
// map that forCallable() builds.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_CALLABLECODE_H
#define CUDA_LAMBDA_TIDY_UTILS_CALLABLECODE_H

#include "AncestorWalk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::cuda::utils {

using CodeVisitor =
    llvm::function_ref<void(const DynTypedNode &Node, AncestorList Above)>;
/// A visitor of the statements and expressions of the code only, given as
/// both the statement and its node.
using StmtVisitor = llvm::function_ref<void(const Stmt &S,
                                            const DynTypedNode &Node,
                                            AncestorList Above)>;

/// Calls \p Visit for every node of the code of \p Function, with the nodes
/// above it from \p Function down: its signature, parameters and default
/// arguments, constructor initializers and body, with the lambda
/// expressions in it but not their code, nor that of blocks and of local
/// classes' member functions, which belong to those.
void forEachNodeOf(const FunctionDecl &Function, CodeVisitor Visit);

/// The same for a lambda, whose code is its call operator's (for a generic
/// lambda, the template's pattern; each instantiation is a function of its
/// own) and the initializers of its captures.
void forEachNodeOf(const LambdaExpr &Lambda, CodeVisitor Visit);

/// Whether \p Function is the call operator of a lambda as written (a
/// generic lambda's: the pattern), whose code forEachNodeOf(LambdaExpr)
/// walks with its captures.
bool isLambdaCallOperatorAsWritten(const FunctionDecl &Function);

AST_MATCHER(FunctionDecl, isLambdaCallOperatorAsWritten) {
  return utils::isLambdaCallOperatorAsWritten(Node);
}

/// A function or a lambda. A node of code belongs to one, or to several when
/// clang shares it: a template's non-dependent nodes are in the pattern and
/// in each instantiation, a default argument is in its function and at each
/// call that uses it (forCallable() picks one of them).
class Callable {
public:
  explicit Callable(const FunctionDecl &Function) : Function(&Function) {}
  explicit Callable(const LambdaExpr &Lambda)
      : Function(Lambda.getCallOperator()), Lambda(&Lambda) {}

  /// The function whose code it is: for a lambda, its call operator.
  const FunctionDecl &function() const { return *Function; }
  void forEachNode(CodeVisitor Visit) const;
  /// The same walk, for the visitors that look at statements and
  /// expressions only: the other nodes (declarations, type locations) are
  /// passed over without a call, and no visitor asks a node its kind again.
  void forEachStmt(StmtVisitor Visit) const;
  /// Whether the code holds a statement or expression of class \p Class
  /// exactly (not of a class derived from it): a check that looks for a
  /// few kinds of statements skips the walk of code that has none.
  bool contains(Stmt::StmtClass Class) const;

private:
  const FunctionDecl *Function;
  const LambdaExpr *Lambda = nullptr;
};

/// Whether matchCallables() matches \p Function: a definition outside system
/// headers (template instantiations included) that is not the call operator
/// of a lambda as written.
bool isCallableFunction(const FunctionDecl &Function,
                        const ASTContext &Context);
/// Whether matchCallables() matches \p Lambda: one outside system headers.
bool isCallableLambda(const LambdaExpr &Lambda, const ASTContext &Context);

/// What matchCallables() returns, for the check to keep (as a member) for as
/// long as it is registered with the MatchFinder.
using CallableRegistration =
    std::shared_ptr<ast_matchers::MatchFinder::MatchCallback>;

/// Registers \p Check for every callable whose code is written outside
/// system headers (template instantiations included): function definitions
/// and lambdas, for checks that walk that code themselves. The checks of one
/// MatchFinder share one pair of matchers, whose callback calls each of them
/// with the match in the order they registered: a callable is matched once,
/// not once per check. That callback lives while a check keeps the
/// registration returned.
[[nodiscard]] CallableRegistration
matchCallables(ast_matchers::MatchFinder &Finder,
               ast_matchers::MatchFinder::MatchCallback *Check);

/// The callable matchCallables() matched, if it matched this time.
std::optional<Callable>
matchedCallable(const ast_matchers::MatchFinder::MatchResult &Result);

/// The code that runs only on the device (that of `__device__` and
/// `__global__` functions, and of the lambdas in them), gathered from the
/// callables that matchCallables() meets: for a check that asks, at the end
/// of the translation unit, which of the nodes it matched lie in host code.
/// Only the callables are kept, not their nodes: a file with 10,000 device
/// lambdas would otherwise hold every node of every one.
class DeviceOnlyCode {
public:
  /// Adds the code of \p Code if it runs only on the device.
  void add(const Callable &Code);
  /// Those of \p Nodes that lie in the code added: one walk over it, which
  /// stops once all are found (none when \p Nodes is empty).
  llvm::DenseSet<DynTypedNode>
  containing(llvm::ArrayRef<DynTypedNode> Nodes) const;
  /// Those of \p Nodes that lie in the body of the code added: a function's
  /// body or constructor initializers, a lambda's body; not its signature,
  /// default arguments or capture initializers, which nvcc does not count
  /// as the inside of a device function.
  llvm::DenseSet<DynTypedNode>
  bodiesContaining(llvm::ArrayRef<DynTypedNode> Nodes) const;
  void clear() { Callables.clear(); }

private:
  std::vector<Callable> Callables;
};

} // namespace clang::tidy::cuda::utils

#endif

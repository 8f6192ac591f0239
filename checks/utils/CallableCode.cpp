//===--- CallableCode.cpp - cuda-lambda-tidy ----------------------------===//

#include "CallableCode.h"
#include "UnitFacts.h"
#include "ExecutionSpace.h"
#include "NodeDispatch.h"
#include "SharedDispatch.h"
#include "SourceText.h"
#include "clang/AST/ASTContext.h"
#include <bitset>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

namespace {

/// What a walk of a callable's code does at \p Node: whether the node is
/// code of the callable, and whether what is below it is.
struct CodeStep {
  bool Visit;
  WalkNext Next;
  const Stmt *S; // the node, when it is a statement or an expression
};
CodeStep codeStep(const DynTypedNode &Node,
                  const CXXMethodDecl *CallOperator) {
  // Statements first: the commonest nodes of code.
  if (const auto *S = Node.get<Stmt>())
    // A lambda in the code is met; its own code is its own.
    return {true, isa<LambdaExpr>(S) ? WalkNext::SkipChildren
                                     : WalkNext::Children,
            S};
  if (const auto *D = Node.get<Decl>()) {
    // Other functions (a local class's members; for a lambda, the closure
    // type's conversion functions and a generic lambda's instantiations) and
    // blocks have code of their own.
    if (const auto *Function = dyn_cast<FunctionDecl>(D))
      return {false,
              Function == CallOperator ? WalkNext::Children
                                       : WalkNext::SkipChildren,
              nullptr};
    if (isa<BlockDecl>(D))
      return {false, WalkNext::SkipChildren, nullptr};
  }
  return {true, WalkNext::Children, nullptr};
}

void walkCode(const DynTypedNode &Root, const CXXMethodDecl *CallOperator,
              CodeVisitor Visit) {
  walkBelow(Root, [&](const DynTypedNode &Node, AncestorList Above) {
    const CodeStep Step = codeStep(Node, CallOperator);
    if (Step.Visit)
      Visit(Node, Above);
    return Step.Next;
  });
}

} // namespace

void forEachNodeOf(const FunctionDecl &Function, CodeVisitor Visit) {
  walkCode(DynTypedNode::create(Function), nullptr, Visit);
}

void forEachNodeOf(const LambdaExpr &Lambda, CodeVisitor Visit) {
  walkCode(DynTypedNode::create(Lambda), Lambda.getCallOperator(), Visit);
}

bool isLambdaCallOperatorAsWritten(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  return Method && Method->getParent()->isLambda() &&
         Method->getParent()->getLambdaCallOperator() == Method;
}

namespace {

/// A node of a callable's code and how many nodes are above it.
struct WalkedNode {
  DynTypedNode Node;
  const Stmt *S; // the node, when it is a statement or an expression
  unsigned Depth;
  bool Visit;
};

/// The code of the callable of the unit walked last. Several checks walk
/// the code of every callable they match, and clang-tidy calls them one after
/// another on the same match, so one walk serves them all.
struct LastWalk {
  const void *Root = nullptr;
  std::vector<WalkedNode> Nodes;
  /// The classes of the statements among Nodes.
  std::bitset<Stmt::lastStmtConstant + 1> StmtClasses;
  bool Replaying = false;
};

} // namespace

bool isCallableFunction(const FunctionDecl &Function,
                        const ASTContext &Context) {
  // Special members the compiler defines (a closure type's copy
  // constructor, say) have no code a user wrote or can change.
  return Function.isThisDeclarationADefinition() && !Function.isImplicit() &&
         !isLambdaCallOperatorAsWritten(Function) &&
         !isExpansionInSystemHeader(Function.getBeginLoc(),
                                    Context.getSourceManager());
}

bool isCallableLambda(const LambdaExpr &Lambda, const ASTContext &Context) {
  return !isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                    Context.getSourceManager());
}

/// The unit's last walk, of \p Function's unit.
static LastWalk &lastWalkOf(const FunctionDecl &Function) {
  return UnitFacts::of(Function.getASTContext()).get<LastWalk>();
}

/// Fills \p Last with the code of \p Function (or of \p Lambda) unless it
/// holds it already.
static void walkOnce(LastWalk &Last, const FunctionDecl &Function,
                     const LambdaExpr *Lambda) {
  const void *Root = Lambda ? static_cast<const void *>(Lambda)
                            : static_cast<const void *>(&Function);
  if (Last.Root == Root)
    return;
  Last.Root = Root;
  Last.Nodes.clear();
  Last.StmtClasses.reset();
  const DynTypedNode RootNode = Lambda ? DynTypedNode::create(*Lambda)
                                       : DynTypedNode::create(Function);
  const CXXMethodDecl *CallOperator =
      Lambda ? Lambda->getCallOperator() : nullptr;
  walkBelow(RootNode, [&](const DynTypedNode &Node, AncestorList Above) {
    const CodeStep Step = codeStep(Node, CallOperator);
    // Kept also when only what is below it is code (a lambda's call
    // operator): it is above that code.
    if (Step.Visit || Step.Next == WalkNext::Children)
      Last.Nodes.push_back(
          {Node, Step.S, static_cast<unsigned>(Above.size()), Step.Visit});
    if (Step.Visit && Step.S)
      Last.StmtClasses.set(Step.S->getStmtClass());
    return Step.Next;
  });
}

void Callable::forEachNode(CodeVisitor Visit) const {
  LastWalk &Last = lastWalkOf(*Function);
  // A visitor that walks another callable itself walks it directly.
  if (Last.Replaying) {
    if (Lambda)
      forEachNodeOf(*Lambda, Visit);
    else
      forEachNodeOf(*Function, Visit);
    return;
  }
  walkOnce(Last, *Function, Lambda);
  // Replayed in the walk's order, with the same nodes above each.
  llvm::SmallVector<DynTypedNode, 32> Above;
  Above.push_back(Lambda ? DynTypedNode::create(*Lambda)
                         : DynTypedNode::create(*Function));
  Last.Replaying = true;
  for (const WalkedNode &Walked : Last.Nodes) {
    Above.truncate(Walked.Depth);
    if (Walked.Visit)
      Visit(Walked.Node, Above);
    Above.push_back(Walked.Node);
  }
  Last.Replaying = false;
}

void Callable::forEachStmt(StmtVisitor Visit) const {
  LastWalk &Last = lastWalkOf(*Function);
  if (Last.Replaying) {
    forEachNode([&](const DynTypedNode &Node, AncestorList Above) {
      if (const auto *S = Node.get<Stmt>())
        Visit(*S, Node, Above);
    });
    return;
  }
  walkOnce(Last, *Function, Lambda);
  llvm::SmallVector<DynTypedNode, 32> Above;
  Above.push_back(Lambda ? DynTypedNode::create(*Lambda)
                         : DynTypedNode::create(*Function));
  Last.Replaying = true;
  for (const WalkedNode &Walked : Last.Nodes) {
    Above.truncate(Walked.Depth);
    if (Walked.Visit && Walked.S)
      Visit(*Walked.S, Walked.Node, Above);
    Above.push_back(Walked.Node);
  }
  Last.Replaying = false;
}

bool Callable::contains(Stmt::StmtClass Class) const {
  LastWalk &Last = lastWalkOf(*Function);
  if (!Last.Replaying) {
    walkOnce(Last, *Function, Lambda);
    return Last.StmtClasses.test(Class);
  }
  // Asked while another walk is replayed: found by a walk of its own.
  bool Found = false;
  forEachNode([&](const DynTypedNode &Node, AncestorList) {
    if (const auto *S = Node.get<Stmt>())
      Found |= S->getStmtClass() == Class;
  });
  return Found;
}

namespace {

/// The callback of the callable matchers that the checks of one MatchFinder
/// share: calls each check with the match.
class CallableDispatch : public SharedDispatchCallback {
public:
  std::vector<MatchFinder::MatchCallback *> Checks;
  /// Its registrations for the functions and the lambdas.
  std::vector<SharedRegistration> Kinds;

  void run(const MatchFinder::MatchResult &Result) override {
    for (MatchFinder::MatchCallback *Check : Checks)
      Check->run(Result);
  }
  llvm::StringRef getID() const override { return "cuda-callables"; }
};

} // namespace

CallableRegistration matchCallables(MatchFinder &Finder,
                                    MatchFinder::MatchCallback *Check) {
  std::shared_ptr<CallableDispatch> Dispatch =
      sharedDispatch<CallableDispatch>(
          Finder, Check, [&](CallableDispatch &New) {
            New.Kinds.push_back(matchNodes<FunctionDecl>(
                Finder, &New,
                [](const FunctionDecl &Function, ASTContext &Context) {
                  return isCallableFunction(Function, Context);
                },
                "callable-function"));
            New.Kinds.push_back(matchNodes<LambdaExpr>(
                Finder, &New,
                [](const LambdaExpr &Lambda, ASTContext &Context) {
                  return isCallableLambda(Lambda, Context);
                },
                "callable-lambda"));
          });
  Dispatch->Checks.push_back(Check);
  return Dispatch;
}

std::optional<Callable>
matchedCallable(const MatchFinder::MatchResult &Result) {
  if (const auto *Function =
          Result.Nodes.getNodeAs<FunctionDecl>("callable-function"))
    return Callable(*Function);
  if (const auto *Lambda =
          Result.Nodes.getNodeAs<LambdaExpr>("callable-lambda"))
    return Callable(*Lambda);
  return std::nullopt;
}

void DeviceOnlyCode::add(const Callable &Code) {
  if (runsOnHost(executionSpaceOf(Code.function())))
    return;
  Callables.push_back(Code);
}

llvm::DenseSet<DynTypedNode>
DeviceOnlyCode::containing(llvm::ArrayRef<DynTypedNode> Nodes) const {
  llvm::DenseSet<DynTypedNode> Found;
  if (Nodes.empty())
    return Found;
  const llvm::DenseSet<DynTypedNode> Wanted(Nodes.begin(), Nodes.end());
  for (const Callable &Code : Callables) {
    Code.forEachNode([&](const DynTypedNode &Node, AncestorList) {
      if (Wanted.contains(Node))
        Found.insert(Node);
    });
    if (Found.size() == Wanted.size())
      break;
  }
  return Found;
}

llvm::DenseSet<DynTypedNode>
DeviceOnlyCode::bodiesContaining(llvm::ArrayRef<DynTypedNode> Nodes) const {
  llvm::DenseSet<DynTypedNode> Found;
  if (Nodes.empty())
    return Found;
  const llvm::DenseSet<DynTypedNode> Wanted(Nodes.begin(), Nodes.end());
  for (const Callable &Code : Callables) {
    const Stmt *Body = Code.function().getBody();
    Code.forEachNode([&](const DynTypedNode &Node, AncestorList Above) {
      if (!Wanted.contains(Node))
        return;
      for (const DynTypedNode &Parent : Above)
        if ((Body && Parent.get<Stmt>() == Body) ||
            Parent.get<CXXCtorInitializer>()) {
          Found.insert(Node);
          return;
        }
    });
    if (Found.size() == Wanted.size())
      break;
  }
  return Found;
}

} // namespace clang::tidy::cuda::utils

//===--- CallableCode.cpp - cuda-lambda-tidy ----------------------------===//

#include "CallableCode.h"
#include "ExecutionSpace.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

void forEachNodeOf(const FunctionDecl &Function, CodeVisitor Visit) {
  walkBelow(DynTypedNode::create(Function), [&](const DynTypedNode &Node,
                                                AncestorList Above) {
    if (Node.get<FunctionDecl>() || Node.get<BlockDecl>())
      return WalkNext::SkipChildren;
    Visit(Node, Above);
    return Node.get<LambdaExpr>() ? WalkNext::SkipChildren : WalkNext::Children;
  });
}

void forEachNodeOf(const LambdaExpr &Lambda, CodeVisitor Visit) {
  const CXXMethodDecl *CallOperator = Lambda.getCallOperator();
  walkBelow(DynTypedNode::create(Lambda), [&](const DynTypedNode &Node,
                                              AncestorList Above) {
    // The closure type's conversion functions and a generic
    // lambda's instantiations are functions of their own.
    if (const auto *Function = Node.get<FunctionDecl>())
      return Function == CallOperator ? WalkNext::Children
                                      : WalkNext::SkipChildren;
    if (Node.get<BlockDecl>())
      return WalkNext::SkipChildren;
    Visit(Node, Above);
    return Node.get<LambdaExpr>() ? WalkNext::SkipChildren : WalkNext::Children;
  });
}

bool isLambdaCallOperatorAsWritten(const FunctionDecl &Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  return Method && Method->getParent()->isLambda() &&
         Method->getParent()->getLambdaCallOperator() == Method;
}

void Callable::forEachNode(CodeVisitor Visit) const {
  if (Lambda)
    forEachNodeOf(*Lambda, Visit);
  else
    forEachNodeOf(*Function, Visit);
}

void matchCallables(MatchFinder &Finder, MatchFinder::MatchCallback *Check) {
  Finder.addMatcher(functionDecl(isDefinition(),
                                 unless(ast_matchers::isExpansionInSystemHeader()),
                                 unless(isLambdaCallOperatorAsWritten()))
                        .bind("callable-function"),
                    Check);
  Finder.addMatcher(
      lambdaExpr(unless(ast_matchers::isExpansionInSystemHeader())).bind("callable-lambda"),
      Check);
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

//===--- AncestorWalk.cpp - cuda-lambda-tidy ----------------------------===//

#include "AncestorWalk.h"
#include "ClangVersions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda::utils {

namespace {

/// The traversal of clang's parent map (ParentMapContext.cpp): the nodes it
/// records parents for, in the same order, with a stack of the nodes above.
class Walker : public RecursiveASTVisitor<Walker> {
  using Base = RecursiveASTVisitor<Walker>;

public:
  explicit Walker(WalkVisitor Visit) : Visit(Visit) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    return !D || node(DynTypedNode::create(*D),
                      [&] { return Base::TraverseDecl(D); });
  }
#if CLANG_VERSION_MAJOR >= 22
  bool TraverseTypeLoc(TypeLoc TL, bool TraverseQualifier = true) {
    return !TL || node(DynTypedNode::create(TL), [&] {
      return Base::TraverseTypeLoc(TL, TraverseQualifier);
    });
  }
#else
  bool TraverseTypeLoc(TypeLoc TL) {
    return !TL || node(DynTypedNode::create(TL),
                       [&] { return Base::TraverseTypeLoc(TL); });
  }
#endif
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
    return !NNS || node(DynTypedNode::create(NNS), [&] {
      return Base::TraverseNestedNameSpecifierLoc(NNS);
    });
  }
  bool TraverseAttr(Attr *A) {
    return !A || node(DynTypedNode::create(*A),
                      [&] { return Base::TraverseAttr(A); });
  }

  // Statements through the data-recursion hooks, as the parent map does.
  bool dataTraverseStmtPre(Stmt *S) {
    const DynTypedNode Node = DynTypedNode::create(*S);
    if (!enter(Node))
      return false;
    Stack.push_back(Node);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return !Stopped;
  }

private:
  WalkVisitor Visit;
  llvm::SmallVector<DynTypedNode, 32> Stack;
  bool Stopped = false;

  /// Whether to walk below \p Node; the root of the walk is not visited.
  bool enter(const DynTypedNode &Node) {
    if (Stopped)
      return false;
    if (Stack.empty())
      return true;
    switch (Visit(Node, Stack)) {
    case WalkNext::Children:
      return true;
    case WalkNext::SkipChildren:
      return false;
    case WalkNext::Stop:
      Stopped = true;
      return false;
    }
    llvm_unreachable("unknown walk step");
  }

  template <typename TraverseFn>
  bool node(const DynTypedNode &Node, TraverseFn Traverse) {
    if (!enter(Node))
      return !Stopped;
    Stack.push_back(Node);
    const bool Result = Traverse();
    Stack.pop_back();
    return Result && !Stopped;
  }
};

} // namespace

void walkBelow(const DynTypedNode &Root, WalkVisitor Visit) {
  Walker W(Visit);
  if (const auto *D = Root.get<Decl>())
    W.TraverseDecl(const_cast<Decl *>(D));
  else if (const auto *S = Root.get<Stmt>())
    W.TraverseStmt(const_cast<Stmt *>(S));
}

Ancestry::Ancestry(const DynTypedNode &Node, AncestorList Above)
    : Path(Above.begin(), Above.end()) {
  Path.push_back(Node);
}

DynTypedNode Ancestry::parentOf(const DynTypedNode &Node) const {
  for (size_t I = Path.size(); I-- > 1;)
    if (Path[I] == Node)
      return Path[I - 1];
  return DynTypedNode();
}

llvm::DenseMap<DynTypedNode, Ancestry>
ancestriesBelow(const DynTypedNode &Root, llvm::ArrayRef<DynTypedNode> Nodes) {
  llvm::DenseMap<DynTypedNode, Ancestry> Found;
  const llvm::DenseSet<DynTypedNode> Wanted(Nodes.begin(), Nodes.end());
  walkBelow(Root, [&](const DynTypedNode &Node, AncestorList Above) {
    if (Wanted.contains(Node))
      Found.try_emplace(Node, Node, Above);
    return Found.size() == Wanted.size() ? WalkNext::Stop : WalkNext::Children;
  });
  return Found;
}

LambdaSite findLambda(const CXXRecordDecl &Closure) {
  LambdaSite Site;
  auto SearchBelow = [&](const Decl &Root) {
    walkBelow(DynTypedNode::create(Root),
              [&](const DynTypedNode &Node, AncestorList Above) {
                const auto *Lambda = Node.get<LambdaExpr>();
                if (!Lambda || Lambda->getLambdaClass() != &Closure)
                  return WalkNext::Children;
                Site = {Lambda, Ancestry(Node, Above)};
                return WalkNext::Stop;
              });
    return Site.Lambda != nullptr;
  };
  if (const Decl *Initialized = Closure.getLambdaContextDecl();
      Initialized && SearchBelow(*Initialized))
    return Site;
  // The functions around it, innermost first: a lambda in the initializer of
  // another lambda's capture lies outside that lambda's call operator.
  const DeclContext *Around = Closure.getDeclContext();
  bool InFunction = false;
  for (; Around && Around->isFunctionOrMethod(); Around = Around->getParent()) {
    InFunction = true;
    if (const auto *Function = dyn_cast<FunctionDecl>(Around);
        Function && SearchBelow(*Function))
      return Site;
  }
  if (InFunction || !Around)
    return Site;
  // At namespace or class scope without a recorded context declaration: the
  // variable whose initializer it is, found by where it is written.
  const SourceManager &SM = Closure.getASTContext().getSourceManager();
  const SourceLocation Loc = Closure.getLocation();
  for (const Decl *D : Around->decls()) {
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var || !Var->getInit())
      continue;
    const SourceRange Range = Var->getSourceRange();
    if (SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) ||
        SM.isBeforeInTranslationUnit(Range.getEnd(), Loc))
      continue;
    if (SearchBelow(*Var))
      return Site;
  }
  return Site;
}

} // namespace clang::tidy::cuda::utils

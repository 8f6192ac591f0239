//===--- EnclosingVariableUses.cpp - cuda-lambda-tidy -------------------===//

#include "EnclosingVariableUses.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda::utils {

namespace {

class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  UseCollector(const LambdaExpr &Lambda,
               llvm::SmallVectorImpl<EnclosingVariableUse> &Uses)
      : Lambda(Lambda), Uses(Uses) {}

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->hasLocalStorage() || isDeclaredInside(*Var) ||
        Ref->isNonOdrUse() == NOUR_Unevaluated)
      return true;
    Uses.push_back({Var, Ref->getLocation(), IfConstexprDepth > 0});
    return true;
  }

  bool VisitCXXThisExpr(CXXThisExpr *This) {
    Uses.push_back({nullptr, This->getBeginLoc(), IfConstexprDepth > 0});
    return true;
  }

  bool TraverseIfStmt(IfStmt *If) {
    if (!If->isConstexpr())
      return RecursiveASTVisitor::TraverseIfStmt(If);
    ++IfConstexprDepth;
    bool Result = RecursiveASTVisitor::TraverseIfStmt(If);
    --IfConstexprDepth;
    return Result;
  }

  // Unevaluated operands capture nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *Typeid) {
    return Typeid->isPotentiallyEvaluated()
               ? RecursiveASTVisitor::TraverseCXXTypeidExpr(Typeid)
               : true;
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = false) { return true; }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc, bool = false) {
    return true;
  }

  // A local class's members have their own `this` and capture nothing.
  bool TraverseCXXRecordDecl(CXXRecordDecl *Record) {
    return Record->isLambda()
               ? RecursiveASTVisitor::TraverseCXXRecordDecl(Record)
               : true;
  }

private:
  bool isDeclaredInside(const VarDecl &Var) const {
    const DeclContext *Inner = Lambda.getCallOperator();
    for (const DeclContext *Context = Var.getDeclContext(); Context;
         Context = Context->getParent())
      if (Context == Inner)
        return true;
    return false;
  }

  const LambdaExpr &Lambda;
  llvm::SmallVectorImpl<EnclosingVariableUse> &Uses;
  unsigned IfConstexprDepth = 0;
};

} // namespace

llvm::SmallVector<EnclosingVariableUse, 8>
enclosingVariableUsesOf(const LambdaExpr &Lambda) {
  llvm::SmallVector<EnclosingVariableUse, 8> Uses;
  UseCollector Collector(Lambda, Uses);
  Collector.TraverseStmt(Lambda.getBody());
  return Uses;
}

} // namespace clang::tidy::cuda::utils

//===--- EnclosingVariableUses.cpp - cuda-lambda-tidy -------------------===//

#include "EnclosingVariableUses.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <utility>

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

static bool isExplicitlyCaptured(const LambdaExpr &Lambda,
                                 const VarDecl *Var) {
  for (const LambdaCapture &Capture : Lambda.explicit_captures()) {
    if (!Var && Capture.capturesThis())
      return true;
    if (Var && Capture.capturesVariable() && Capture.getCapturedVar() == Var)
      return true;
  }
  return false;
}

DefaultCaptures defaultCapturesOf(const LambdaExpr &Lambda) {
  DefaultCaptures Result;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  bool SeenThis = false;
  for (const EnclosingVariableUse &Use : enclosingVariableUsesOf(Lambda)) {
    if (isExplicitlyCaptured(Lambda, Use.Var))
      continue;
    if (Use.Var && isa<ParmVarDecl>(Use.Var) && Use.Var->isParameterPack()) {
      Result.UsesPack = true;
      continue;
    }
    if (Use.Var ? !Seen.insert(Use.Var).second : std::exchange(SeenThis, true))
      continue;
    Result.FirstUses.push_back(Use);
  }
  return Result;
}

bool DefaultCaptures::anyFirstInIfConstexpr() const {
  return llvm::any_of(FirstUses, [](const EnclosingVariableUse &Use) {
    return Use.InIfConstexpr;
  });
}

bool DefaultCaptures::capturesThis() const {
  return llvm::any_of(FirstUses, [](const EnclosingVariableUse &Use) {
    return !Use.Var;
  });
}

std::string DefaultCaptures::spelled(bool CopyThis) const {
  std::string List;
  for (const EnclosingVariableUse &Use : FirstUses) {
    if (!List.empty())
      List += ", ";
    List += Use.Var ? Use.Var->getName().str() : CopyThis ? "*this" : "this";
  }
  return List;
}

} // namespace clang::tidy::cuda::utils

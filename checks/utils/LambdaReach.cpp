//===--- LambdaReach.cpp - cuda-lambda-tidy -----------------------------===//

#include "LambdaReach.h"
#include "ExecutionSpace.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::utils {

namespace {

/// Nesting deeper than this is not followed (thrust's deepest is ~10).
constexpr unsigned MaxTypeDepth = 24;

class ClosureCollector {
public:
  explicit ClosureCollector(llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out)
      : Out(Out) {}

  void type(QualType T, unsigned Depth) {
    if (T.isNull() || Depth > MaxTypeDepth)
      return;
    const Type *Ty = T.getCanonicalType().getTypePtr();
    if (!SeenTypes.insert(Ty).second)
      return;
    if (const auto *P = dyn_cast<PointerType>(Ty))
      return type(P->getPointeeType(), Depth + 1);
    if (const auto *R = dyn_cast<ReferenceType>(Ty))
      return type(R->getPointeeType(), Depth + 1);
    if (const auto *A = dyn_cast<ArrayType>(Ty))
      return type(A->getElementType(), Depth + 1);
    if (const auto *M = dyn_cast<MemberPointerType>(Ty)) {
      type(M->getPointeeType(), Depth + 1);
      if (const CXXRecordDecl *Class = M->getMostRecentCXXRecordDecl())
        record(*Class, Depth + 1);
      return;
    }
    if (const auto *F = dyn_cast<FunctionProtoType>(Ty)) {
      type(F->getReturnType(), Depth + 1);
      for (QualType Param : F->param_types())
        type(Param, Depth + 1);
      return;
    }
    if (const CXXRecordDecl *RD = Ty->getAsCXXRecordDecl())
      record(*RD, Depth + 1);
  }

  /// A class, and the template arguments of every specialization around it.
  void record(const CXXRecordDecl &RD, unsigned Depth) {
    if (RD.isLambda())
      Out.insert(RD.getCanonicalDecl());
    context(&RD, Depth);
  }

  /// The template arguments of \p DC and of every specialization around it.
  void context(const DeclContext *DC, unsigned Depth) {
    for (; DC; DC = DC->getParent()) {
      if (!SeenContexts.insert(DC).second)
        return;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC))
        args(Spec->getTemplateArgs().asArray(), Depth);
      else if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
        if (const TemplateArgumentList *Args =
                FD->getTemplateSpecializationArgs())
          args(Args->asArray(), Depth);
      }
    }
  }

  void args(llvm::ArrayRef<TemplateArgument> Args, unsigned Depth) {
    for (const TemplateArgument &Arg : Args) {
      switch (Arg.getKind()) {
      case TemplateArgument::Type:
        type(Arg.getAsType(), Depth + 1);
        break;
      case TemplateArgument::Pack:
        args(Arg.pack_elements(), Depth);
        break;
      default:
        break;
      }
    }
  }

private:
  llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out;
  llvm::SmallPtrSet<const Type *, 16> SeenTypes;
  llvm::SmallPtrSet<const DeclContext *, 8> SeenContexts;
};

/// Whether a call from \p Caller runs on the host for nvcc. Clang makes
/// constexpr functions implicitly `__host__ __device__`; nvcc does not (without
/// --expt-relaxed-constexpr), so an implicit device attribute counts as host.
bool isHostCaller(const FunctionDecl *Caller) {
  if (!Caller)
    return true; // a namespace-scope initializer
  // Host as written, and host or host-device as clang sees it (not a
  // special member that clang makes device-only).
  return executionSpaceOf(*Caller, AttributePolicy::AsWritten) ==
             ExecutionSpace::Host &&
         runsOnHost(executionSpaceOf(*Caller));
}

} // namespace

void collectClosureTypes(QualType Type,
                         llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out) {
  ClosureCollector(Out).type(Type, 0);
}

void collectClosureTypes(const FunctionDecl &Function,
                         llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out) {
  ClosureCollector(Out).context(&Function, 0);
}

/// Records every reference to a function whose template arguments name a
/// closure type, with the function around the reference.
class LambdaReachCollector : public RecursiveASTVisitor<LambdaReachCollector> {
public:
  explicit LambdaReachCollector(LambdaReach &Reach) : Reach(Reach) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Callers.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Callers.pop_back();
    return Result;
  }

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    Callers.push_back(Lambda->getCallOperator());
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
    Callers.pop_back();
    return Result;
  }

  // `obj(args)` names operator() at its '('; the site is the whole call.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    PendingOperatorCall = E;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const Expr *Site = E;
    if (PendingOperatorCall &&
        PendingOperatorCall->getCalleeDecl() == E->getDecl() &&
        PendingOperatorCall->getBeginLoc() != E->getBeginLoc())
      Site = PendingOperatorCall;
    noteReference(Site, dyn_cast<FunctionDecl>(E->getDecl()));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    noteReference(E, dyn_cast<FunctionDecl>(E->getMemberDecl()));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    noteReference(E, E->getConstructor());
    return true;
  }

private:
  void noteReference(const Expr *Site, const FunctionDecl *Callee) {
    if (!Callee)
      return;
    const FunctionDecl *Caller = Callers.empty() ? nullptr : Callers.back();
    // Uninstantiated template code (a member template's declaration inside
    // a class template specialization) launches nothing.
    if (Caller && Caller->isDependentContext())
      return;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        Method && isLambdaCallOperator(Method) && isHostCaller(Caller))
      Reach.CalledOnHost.insert(Method->getParent()->getCanonicalDecl());

    if (!Callee->isTemplateInstantiation() &&
        Callee->getDeclContext()->isFileContext())
      return; // nothing around it can name a closure type
    llvm::SmallPtrSet<const CXXRecordDecl *, 4> Closures;
    collectClosureTypes(*Callee, Closures);
    if (Closures.empty())
      return;
    LambdaReach::Reference Ref{Site, Callee->getCanonicalDecl(),
                               Caller ? Caller->getCanonicalDecl() : nullptr};
    if (isKernel(*Callee))
      Reach.Kernels.push_back(Ref);
    else
      Reach.CallsTo[Ref.Callee].push_back(Ref);
  }

  LambdaReach &Reach;
  llvm::SmallVector<const FunctionDecl *, 8> Callers;
  const CXXOperatorCallExpr *PendingOperatorCall = nullptr;
};

LambdaReach::LambdaReach(ASTContext &Context) : Context(Context) {
  // The whole translation unit, also where the tool limits traversal to the
  // main file's declarations (clangd): the kernels that a lambda reaches are
  // instantiated from headers (thrust's, cub's).
  std::vector<Decl *> Scope = Context.getTraversalScope();
  const bool Limited =
      Scope.size() != 1 || !isa<TranslationUnitDecl>(Scope.front());
  if (Limited)
    Context.setTraversalScope({Context.getTranslationUnitDecl()});
  LambdaReachCollector(*this).TraverseAST(Context);
  if (Limited)
    Context.setTraversalScope(Scope);
}

namespace {

struct Walk {
  const llvm::DenseMap<const FunctionDecl *,
                       std::vector<LambdaReach::Reference>> &CallsTo;
  const CXXRecordDecl *Closure;
  const FunctionDecl *Kernel;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
  llvm::SmallVectorImpl<DeviceEntry> &Out;

  static bool carries(const FunctionDecl *Function,
                      const CXXRecordDecl *Closure) {
    if (!Function)
      return false;
    llvm::SmallPtrSet<const CXXRecordDecl *, 4> Named;
    collectClosureTypes(*Function, Named);
    return Named.contains(Closure);
  }

  void from(const LambdaReach::Reference &Ref, const FunctionDecl *Through,
            unsigned Depth) {
    if (Depth < LambdaReach::MaxDepth && carries(Ref.Caller, Closure)) {
      if (!Visited.insert(Ref.Caller).second)
        return;
      auto It = CallsTo.find(Ref.Caller);
      if (It != CallsTo.end() && !It->second.empty()) {
        for (const LambdaReach::Reference &Call : It->second)
          from(Call, Call.Callee, Depth + 1);
        return;
      }
    }
    Out.push_back({Ref.Site, Kernel, Through});
  }
};

} // namespace

llvm::SmallVector<DeviceEntry, 2>
LambdaReach::entriesOf(const CXXRecordDecl &Closure) const {
  const CXXRecordDecl *Key = Closure.getCanonicalDecl();
  llvm::SmallVector<DeviceEntry, 2> Found;
  for (const Reference &Kernel : Kernels) {
    llvm::SmallPtrSet<const CXXRecordDecl *, 4> Named;
    collectClosureTypes(*Kernel.Callee, Named);
    if (!Named.contains(Key))
      continue;
    Walk{CallsTo, Key, Kernel.Callee, {}, Found}.from(Kernel, nullptr, 0);
  }
  // The user's own code first (a site left inside a library means the walk
  // lost the closure type there), then in source order.
  const SourceManager &SM = Context.getSourceManager();
  llvm::sort(Found, [&](const DeviceEntry &A, const DeviceEntry &B) {
    bool SystemA =
        SM.isInSystemHeader(SM.getExpansionLoc(A.Site->getBeginLoc()));
    bool SystemB =
        SM.isInSystemHeader(SM.getExpansionLoc(B.Site->getBeginLoc()));
    if (SystemA != SystemB)
      return SystemB;
    return SM.isBeforeInTranslationUnit(A.Site->getBeginLoc(),
                                        B.Site->getBeginLoc());
  });
  llvm::SmallVector<DeviceEntry, 2> Unique;
  for (const DeviceEntry &Entry : Found)
    if (Unique.empty() ||
        Unique.back().Site->getBeginLoc() != Entry.Site->getBeginLoc())
      Unique.push_back(Entry);
  return Unique;
}

bool LambdaReach::isCalledOnHost(const CXXRecordDecl &Closure) const {
  return CalledOnHost.contains(Closure.getCanonicalDecl());
}

} // namespace clang::tidy::cuda::utils

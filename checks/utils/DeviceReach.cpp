//===--- DeviceReach.cpp - cuda-lambda-tidy -----------------------------===//

#include "DeviceReach.h"
#include "ExecutionSpace.h"
#include "ExtendedLambda.h"
#include "TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>

namespace clang::tidy::cuda::utils {

unsigned objectArguments(const CallExpr &Call) {
  return isa<CXXOperatorCallExpr>(Call) &&
                 isa_and_nonnull<CXXMethodDecl>(Call.getDirectCallee())
             ? 1
             : 0;
}

bool isMoveOrForward(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee && Call.getNumArgs() == 1 && Callee->isInStdNamespace() &&
         Callee->getIdentifier() &&
         (Callee->getName() == "move" || Callee->getName() == "forward");
}

namespace {

/// How many calls deep a parameter is followed: a wrapper of a wrapper of
/// a launch is common (`forall(label, n, f)` calling `forall(n, f)`), six is
/// well past what frameworks nest.
constexpr unsigned MaxCallDepth = 6;

/// See HostCodeSites.
class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  HostCodeSites Sites;

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (const BoundaryCrossing &C : crossingsOfCaptures(*Lambda))
      Sites.Crossings.push_back(C);
    for (Expr *Init : Lambda->capture_inits())
      if (Init)
        TraverseStmt(Init);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    for (const BoundaryCrossing &C : crossingsOfLaunch(*Launch))
      Sites.Crossings.push_back(C);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr>(Call))
      return true;
    llvm::SmallVector<BoundaryCrossing, 4> Crossings =
        crossingsOfAlgorithmCall(*Call);
    if (!Crossings.empty()) {
      Sites.Crossings.append(Crossings.begin(), Crossings.end());
      return true;
    }
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Callee->hasBody() && Call->getNumArgs() != 0)
        Sites.Calls.push_back(Call);
    return true;
  }
};

/// Finds a dereference of the pointers in Tainted: `*p`, `p[i]`, `p->m`, or
/// `p` passed on to a function (not through `...`). A local pointer
/// initialized or assigned from one joins them.
class DerefFinder : public RecursiveASTVisitor<DerefFinder> {
public:
  llvm::SmallPtrSet<const ValueDecl *, 4> Tainted;
  bool Found = false;
  bool Grew = false;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_Deref)
      note(Unary->getSubExpr());
    return !Found;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    // Either side: with a dependent index (a generic lambda's `p[i]`, `i`
    // an `auto` parameter) clang cannot tell which one is the base yet.
    note(Subscript->getLHS());
    note(Subscript->getRHS());
    return !Found;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (Member->isArrow())
      note(Member->getBase());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Named = Callee ? Callee->getNumParams() + objectArguments(*Call)
                            : Call->getNumArgs();
    for (unsigned I = 0, N = Call->getNumArgs(); I < N && I < Named; ++I)
      note(Call->getArg(I));
    return !Found;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->getType()->isPointerType() && Var->getInit())
      spread(Var->getInit(), Var);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->getOpcode() == BO_Assign)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Binary->getLHS()->IgnoreParens()))
        if (Ref->getType()->isPointerType())
          spread(Binary->getRHS(), Ref->getDecl());
    return true;
  }

private:
  /// The variable, or the member (`weights`, `this->weights + i`,
  /// `p.weights`: a functor's pointer member), \p E is computed from.
  static const ValueDecl *rootOf(const Expr *E) {
    if (const ValueDecl *Root = pointerRoot(E))
      return Root;
    for (E = E ? E->IgnoreParenImpCasts() : nullptr; E;
         E = E->IgnoreParenImpCasts()) {
      if (const auto *Member = dyn_cast<MemberExpr>(E))
        return isa<FieldDecl>(Member->getMemberDecl())
                   ? Member->getMemberDecl()
                   : nullptr;
      const auto *Binary = dyn_cast<BinaryOperator>(E);
      if (!Binary || !Binary->isAdditiveOp() ||
          !Binary->getType()->isPointerType())
        return nullptr;
      E = Binary->getLHS()->getType()->isPointerType() ? Binary->getLHS()
                                                       : Binary->getRHS();
    }
    return nullptr;
  }
  void note(const Expr *E) {
    if (const ValueDecl *Root = rootOf(E))
      if (Tainted.count(Root))
        Found = true;
  }
  void spread(const Expr *From, const ValueDecl *To) {
    const ValueDecl *Root = rootOf(From);
    if (Root && Tainted.count(Root) && Tainted.insert(To).second)
      Grew = true;
  }
};

/// Whether \p Function's code gives parameter \p Param another value, takes
/// its address, or asks the runtime where it points: what it holds at a
/// crossing is then not simply what the caller passed.
class ParameterRebound : public RecursiveASTVisitor<ParameterRebound> {
public:
  explicit ParameterRebound(const ParmVarDecl *Param) : Param(Param) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->isAssignmentOp() && names(Binary->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_AddrOf && names(Unary->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return true;
    llvm::StringRef Name = Callee->getName();
    if (Name == "cudaPointerGetAttributes" || Name == "cuPointerGetAttribute" ||
        Name == "cuPointerGetAttributes")
      for (const Expr *Arg : Call->arguments())
        if (pointerRoot(Arg) == Param)
          Found = true;
    return !Found;
  }

private:
  bool names(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Param;
  }
  const ParmVarDecl *Param;
};

bool isInSystemHeader(const Decl &D) {
  const SourceManager &SM = D.getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D.getLocation()));
}

/// A host function whose code can be summarized: a definition, not a
/// template's pattern, run on the host.
const FunctionDecl *hostDefinition(const FunctionDecl &Function) {
  const FunctionDecl *Definition = nullptr;
  if (!Function.hasBody(Definition) || !Definition ||
      Definition->isDependentContext())
    return nullptr;
  ExecutionSpace Space = executionSpaceOf(*Definition);
  if (Space == ExecutionSpace::Global || Space == ExecutionSpace::Device)
    return nullptr;
  return Definition;
}

} // namespace

static std::optional<unsigned> returnedParameter(const FunctionDecl &Function,
                                                 unsigned Nesting);

const ValueDecl *pointerRoot(const Expr *E) {
  for (unsigned Calls = 0; E;) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl();
    // A function that returns its pointer parameter as it is (a
    // framework's `map_to_device(p)` for raw pointers).
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (isMoveOrForward(*Call)) {
        E = Call->getArg(0);
        continue;
      }
      const FunctionDecl *Callee = Call->getDirectCallee();
      std::optional<unsigned> Returned =
          Callee && ++Calls <= 2 ? returnedParameter(*Callee, 0)
                                 : std::nullopt;
      if (!Returned || *Returned >= Call->getNumArgs() ||
          !Call->getArg(*Returned)->getType()->isPointerType())
        return nullptr;
      E = Call->getArg(*Returned);
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (!Cast->getType()->isPointerType() &&
          Cast->getCastKind() != CK_LValueToRValue &&
          Cast->getCastKind() != CK_NoOp)
        return nullptr;
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (!Binary->isAdditiveOp() || !Binary->getType()->isPointerType())
        return nullptr;
      E = Binary->getLHS()->getType()->isPointerType() ? Binary->getLHS()
                                                        : Binary->getRHS();
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (!Unary->isIncrementDecrementOp())
        return nullptr;
      E = Unary->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

const LambdaExpr *lambdaOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      E = Construct->getArg(0);
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Var->hasLocalStorage() || !Var->getInit())
        return nullptr;
      E = Var->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

static const ValueDecl *namedThroughCopies(const Expr *E,
                                           const ValueDecl *Target,
                                           unsigned Nesting = 0);

/// The parameter \p Function returns, when its body is one `return` of a
/// parameter (a copy of it, moved or forwarded).
static std::optional<unsigned> returnedParameter(const FunctionDecl &Function,
                                                 unsigned Nesting) {
  const FunctionDecl *Definition = nullptr;
  // A static member function too (a framework's
  // `to_device_type_impl<T>::map_to_device(param)`); a non-static one may
  // return a member instead.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(
      Function.hasBody(Definition) ? Definition : nullptr);
  if (Nesting > 3 || !Definition || (Method && !Method->isStatic()))
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body || Body->size() != 1)
    return std::nullopt;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Return || !Return->getRetValue())
    return std::nullopt;
  const ValueDecl *Named =
      namedThroughCopies(Return->getRetValue(), nullptr, Nesting + 1);
  for (unsigned I = 0, N = Definition->getNumParams(); I < N; ++I)
    if (Definition->getParamDecl(I) == Named)
      return I;
  return std::nullopt;
}

/// The variable \p E names through copies, casts, `std::move`/`forward`
/// and local copies (`auto body = f;`), stopping at \p Target when met on
/// the way; null when \p E is something else.
static const ValueDecl *namedThroughCopies(const Expr *E,
                                           const ValueDecl *Target,
                                           unsigned Nesting) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (Ref->getDecl() == Target)
        return Target;
      const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Local || !Local->hasLocalStorage() || isa<ParmVarDecl>(Local) ||
          !Local->getInit())
        return Ref->getDecl();
      E = Local->getInit();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() < 1 ||
          !Construct->getConstructor()->isCopyOrMoveConstructor())
        return nullptr;
      E = Construct->getArg(0);
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return nullptr;
      if (isMoveOrForward(*Call)) {
        E = Call->getArg(0);
        continue;
      }
      // A function that returns one of its parameters (a framework's
      // `auto body = trigger_updates_before(loop_body)`).
      std::optional<unsigned> Returned = returnedParameter(*Callee, Nesting);
      if (!Returned || *Returned >= Call->getNumArgs())
        return nullptr;
      E = Call->getArg(*Returned);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool namesVariable(const Expr *E, const ValueDecl *Var) {
  return Var && namedThroughCopies(E, Var) == Var;
}

const ParmVarDecl *forwardedTemplateParameter(const Expr *E) {
  const auto *Param =
      dyn_cast_or_null<ParmVarDecl>(namedThroughCopies(E, nullptr));
  if (!Param)
    return nullptr;
  const auto *Function = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!Function)
    return nullptr;
  const FunctionDecl *Pattern = Function->getTemplateInstantiationPattern();
  if (!Pattern)
    return nullptr;
  // The pattern's parameter the instantiated one comes from: a function
  // parameter pack (`Args &&...args`) stands for as many as were passed.
  unsigned Index = Param->getFunctionScopeIndex();
  unsigned PackSize = Function->getNumParams() + 1 - Pattern->getNumParams();
  for (const ParmVarDecl *Declared : Pattern->parameters()) {
    unsigned Covers = Declared->isParameterPack() ? PackSize : 1;
    if (Index < Covers)
      return Declared->getType()->isDependentType() ? Param : nullptr;
    Index -= Covers;
  }
  return nullptr;
}

/// The arguments of the object construction \p E is (through temporaries
/// and functional casts): a braced list's elements, a constructor's
/// arguments other than a copy's or a move's. Empty for anything else.
static llvm::ArrayRef<const Expr *> constructionArguments(const Expr *E) {
  if (!E)
    return {};
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    const InitListExpr *Semantic =
        List->isSemanticForm() ? List : List->getSemanticForm();
    if (!Semantic)
      Semantic = List;
    return llvm::ArrayRef(Semantic->getInits(), Semantic->getNumInits());
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return {};
    return llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  if (const auto *List = dyn_cast<CXXParenListInitExpr>(E))
    return List->getInitExprs();
  return {};
}

const ParmVarDecl *wrappedTemplateParameter(const Expr *E) {
  for (const Expr *Arg : constructionArguments(E))
    if (Arg && Arg->getType()->isRecordType())
      if (const ParmVarDecl *Param = forwardedTemplateParameter(Arg))
        return Param;
  return nullptr;
}

bool wrapsVariable(const Expr *E, const ValueDecl *Var) {
  for (const Expr *Arg : constructionArguments(E))
    if (Arg && namesVariable(Arg, Var))
      return true;
  return false;
}

bool dereferencesPointer(const Stmt *Code, const ValueDecl *Var) {
  DerefFinder Finder;
  Finder.Tainted.insert(Var);
  // Each round may add the local copies of the pointer; a few rounds reach
  // the copies of copies.
  for (int Round = 0; Round < 4; ++Round) {
    Finder.Grew = false;
    Finder.TraverseStmt(const_cast<Stmt *>(Code));
    if (Finder.Found || !Finder.Grew)
      break;
  }
  return Finder.Found;
}

struct DeviceReach::Impl {
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<HostCodeSites>> Sites;
  llvm::DenseMap<std::pair<const Stmt *, const ValueDecl *>, bool> Derefs;
  /// Per (function, parameter): the path, or null for none. An entry is
  /// null while it is computed (a recursive call finds nothing there).
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>,
                 const DeviceReachPath *>
      Pointers, Callables;
  llvm::DenseMap<std::pair<const FunctionDecl *, const LambdaExpr *>,
                 const DeviceReachPath *>
      Lambdas;
  /// The paths, at addresses that stay put while the tables grow.
  std::deque<DeviceReachPath> Paths;
  unsigned Depth = 0;
  /// Per class held in a kernel's template arguments: the kernel. Made on
  /// the first question.
  std::optional<llvm::DenseMap<const CXXRecordDecl *, const FunctionDecl *>>
      KernelOf;
  /// Per host function: the kernel specializations its code and the code
  /// of the functions it uses refer to.
  llvm::DenseMap<const FunctionDecl *,
                 std::unique_ptr<llvm::SmallVector<const FunctionDecl *, 2>>>
      KernelsUnder;

  const DeviceReachPath *keep(std::optional<DeviceReachPath> Path) {
    if (!Path)
      return nullptr;
    Paths.push_back(std::move(*Path));
    return &Paths.back();
  }
};

namespace {

/// Lists the classes each kernel template's specializations hold in their
/// template arguments: a closure or functor type itself, the classes of
/// class templates' arguments (`ParallelFor<Closure, Policy>`), the captures
/// of a closure (a wrapper's lambda capturing the user's). Declarations
/// only: kernels are declared at namespace scope.
class KernelIndex {
public:
  explicit KernelIndex(
      llvm::DenseMap<const CXXRecordDecl *, const FunctionDecl *> &KernelOf)
      : KernelOf(KernelOf) {}

  void index(const DeclContext &Context) {
    for (const Decl *D : Context.decls()) {
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
        index(*cast<DeclContext>(D));
        continue;
      }
      const auto *Template = dyn_cast<FunctionTemplateDecl>(D);
      if (!Template || !isKernel(*Template->getTemplatedDecl()))
        continue;
      for (const FunctionDecl *Kernel : Template->specializations())
        add(*Kernel);
    }
  }

  /// The classes one kernel specialization holds.
  void add(const FunctionDecl &Kernel) {
    if (const TemplateArgumentList *Args =
            Kernel.getTemplateSpecializationArgs())
      for (const TemplateArgument &Arg : Args->asArray())
        hold(Arg, Kernel, 0);
  }

  void hold(const TemplateArgument &Arg, const FunctionDecl &Kernel,
            unsigned Nesting) {
    if (Arg.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &Element : Arg.pack_elements())
        hold(Element, Kernel, Nesting);
      return;
    }
    if (Arg.getKind() == TemplateArgument::Type)
      hold(Arg.getAsType(), Kernel, Nesting);
  }

private:
  static constexpr unsigned MaxNesting = 4;

  void hold(QualType Type, const FunctionDecl &Kernel, unsigned Nesting) {
    const CXXRecordDecl *Record =
        Type.getNonReferenceType()->getBaseElementTypeUnsafe()
            ->getAsCXXRecordDecl();
    if (!Record || Nesting > MaxNesting ||
        !KernelOf.try_emplace(Record->getCanonicalDecl(), &Kernel).second)
      return;
    if (const auto *Specialization =
            dyn_cast<ClassTemplateSpecializationDecl>(Record))
      for (const TemplateArgument &Arg :
           Specialization->getTemplateArgs().asArray())
        hold(Arg, Kernel, Nesting + 1);
    if (Record->isLambda())
      for (const FieldDecl *Capture : Record->fields())
        hold(Capture->getType(), Kernel, Nesting + 1);
  }

  llvm::DenseMap<const CXXRecordDecl *, const FunctionDecl *> &KernelOf;
};

} // namespace

namespace {

/// The functions a body refers to (called, constructed, named, as members),
/// lambdas' bodies included.
class ReferencedFunctions : public RecursiveASTVisitor<ReferencedFunctions> {
public:
  llvm::SmallVector<const FunctionDecl *, 8> Found;

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl()))
      Found.push_back(Function);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl()))
      Found.push_back(Method);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    Found.push_back(Construct->getConstructor());
    return true;
  }
};

/// Whether \p Kernel's template arguments hold \p Type (as KernelIndex
/// reads them).
bool holds(const FunctionDecl &Kernel, const CXXRecordDecl &Type) {
  llvm::DenseMap<const CXXRecordDecl *, const FunctionDecl *> Held;
  KernelIndex Index(Held);
  Index.add(Kernel);
  return Held.count(Type.getCanonicalDecl());
}

/// The first local variable or parameter \p E reads.
class FirstLocal : public RecursiveASTVisitor<FirstLocal> {
public:
  const VarDecl *Found = nullptr;
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->isLocalVarDeclOrParm())
      Found = Var;
    return !Found;
  }
};

} // namespace

bool isPassedInByCaller(const Expr &Arg) {
  const CXXRecordDecl *Record = Arg.getType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  FirstLocal Local;
  Local.TraverseStmt(const_cast<Expr *>(&Arg));
  if (!Local.Found)
    return false;
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Local.Found->getParentFunctionOrMethod());
  if (!Function || !Function->isTemplateInstantiation())
    return false;
  if (holds(*Function, *Record))
    return true;
  const auto *Method = dyn_cast<CXXMethodDecl>(Function);
  const auto *Class = Method ? dyn_cast<ClassTemplateSpecializationDecl>(
                                   Method->getParent())
                             : nullptr;
  if (!Class)
    return false;
  llvm::DenseMap<const CXXRecordDecl *, const FunctionDecl *> Held;
  KernelIndex Index(Held);
  for (const TemplateArgument &TA : Class->getTemplateArgs().asArray())
    Index.hold(TA, *Function, 0);
  return Held.count(Record->getCanonicalDecl());
}

const FunctionDecl *DeviceReach::kernelUnder(const FunctionDecl &Function,
                                             const CXXRecordDecl &Type) {
  std::unique_ptr<llvm::SmallVector<const FunctionDecl *, 2>> &Kernels =
      State->KernelsUnder[&Function];
  if (!Kernels) {
    // Breadth first through the functions with a body, a few calls deep:
    // a framework's wrapper reaches its kernel through a driver object's
    // constructor, a member function and a launch helper.
    Kernels = std::make_unique<llvm::SmallVector<const FunctionDecl *, 2>>();
    constexpr unsigned MaxDepth = 8;
    llvm::SmallPtrSet<const FunctionDecl *, 32> Seen{&Function};
    llvm::SmallVector<const FunctionDecl *, 8> Level{&Function};
    for (unsigned Depth = 0; Depth < MaxDepth && !Level.empty(); ++Depth) {
      llvm::SmallVector<const FunctionDecl *, 8> Next;
      for (const FunctionDecl *F : Level) {
        const FunctionDecl *Definition = nullptr;
        if (!F->hasBody(Definition) || !Definition->getBody())
          continue;
        ReferencedFunctions Refs;
        Refs.TraverseStmt(Definition->getBody());
        if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
          for (const CXXCtorInitializer *Init : Ctor->inits())
            Refs.TraverseStmt(Init->getInit());
        for (const FunctionDecl *Used : Refs.Found) {
          if (!Seen.insert(Used).second)
            continue;
          if (isKernel(*Used)) {
            if (Used->getTemplateSpecializationArgs())
              Kernels->push_back(Used);
            continue;
          }
          // Device code does not launch: only host functions lead on.
          if (runsOnHost(executionSpaceOf(*Used)))
            Next.push_back(Used);
        }
      }
      Level = std::move(Next);
    }
  }
  for (const FunctionDecl *Kernel : *Kernels)
    if (holds(*Kernel, Type))
      return Kernel;
  return nullptr;
}

const FunctionDecl *
DeviceReach::kernelInstantiatedWith(const CXXRecordDecl &Type) {
  if (!State->KernelOf) {
    State->KernelOf.emplace();
    KernelIndex(*State->KernelOf)
        .index(*Type.getASTContext().getTranslationUnitDecl());
  }
  return State->KernelOf->lookup(Type.getCanonicalDecl());
}

DeviceReach::DeviceReach() : State(std::make_unique<Impl>()) {}
DeviceReach::~DeviceReach() = default;

const HostCodeSites &DeviceReach::sitesOf(const FunctionDecl &Function) {
  std::unique_ptr<HostCodeSites> &Slot = State->Sites[&Function];
  if (!Slot) {
    SiteFinder Finder;
    if (Function.getBody())
      Finder.TraverseStmt(Function.getBody());
    Slot = std::make_unique<HostCodeSites>(std::move(Finder.Sites));
  }
  return *Slot;
}

bool DeviceReach::dereferences(const Stmt *Code, const ValueDecl *Var) {
  auto Found = State->Derefs.find({Code, Var});
  if (Found != State->Derefs.end())
    return Found->second;
  bool Result = dereferencesPointer(Code, Var);
  State->Derefs[{Code, Var}] = Result;
  return Result;
}

const FunctionDecl *
DeviceReach::deviceCodeDereferencing(const CXXRecordDecl &Record,
                                     const FieldDecl &Field) {
  auto Dereferences = [&](const FunctionDecl *Method) {
    return Method && Method->isThisDeclarationADefinition() &&
           Method->getBody() && runsOnDevice(executionSpaceOf(*Method)) &&
           dereferences(Method->getBody(), &Field);
  };
  for (const Decl *Member : Record.decls()) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Member)) {
      if (Dereferences(Method))
        return Method;
    } else if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member)) {
      for (const FunctionDecl *Specialization : Template->specializations())
        if (Dereferences(Specialization))
          return Specialization;
    }
  }
  return nullptr;
}

namespace {

DeviceReachPath prepend(ReachStep Step, const DeviceReachPath &Rest) {
  DeviceReachPath Path = Rest;
  Path.Steps.insert(Path.Steps.begin(), Step);
  return Path;
}

// The first of Calls that hands an argument ArgumentMatches on to a parameter
// of its callee that ParameterReaches leads to the device: that parameter's
// path with the call in front. A member operator's first argument is its
// object, not a parameter.
template <typename ArgumentMatches, typename ParameterReaches>
std::optional<DeviceReachPath>
throughCalls(llvm::ArrayRef<const CallExpr *> Calls, ArgumentMatches Matches,
             ParameterReaches Reaches) {
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      continue;
    const unsigned Offset = objectArguments(*Call);
    for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I)
      if (Matches(Call->getArg(I)))
        if (const DeviceReachPath *Inner = Reaches(*Callee, I - Offset))
          return prepend({Call, Callee}, *Inner);
  }
  return std::nullopt;
}

} // namespace

const DeviceReachPath *
DeviceReach::pointerParameter(const FunctionDecl &Function, unsigned Index) {
  const FunctionDecl *Definition = hostDefinition(Function);
  if (!Definition || Index >= Definition->getNumParams() ||
      isInSystemHeader(*Definition))
    return nullptr;
  const ParmVarDecl *Param = Definition->getParamDecl(Index);
  // `A &&...args` forwards a pointer as a reference to it.
  if (!Param->getType().getNonReferenceType()->isPointerType())
    return nullptr;
  auto Key = std::make_pair(Definition, Index);
  if (auto Found = State->Pointers.find(Key); Found != State->Pointers.end())
    return Found->second;
  if (State->Depth >= MaxCallDepth)
    return nullptr;
  State->Pointers[Key] = nullptr;

  std::optional<DeviceReachPath> Result;
  ParameterRebound Rebound(Param);
  Rebound.TraverseStmt(Definition->getBody());
  if (!Rebound.Found) {
    ++State->Depth;
    const HostCodeSites &Sites = sitesOf(*Definition);
    for (const BoundaryCrossing &C : Sites.Crossings) {
      if (Result || !C.Value || pointerRoot(C.Value) != Param)
        continue;
      switch (C.Kind) {
      case CrossingKind::KernelArgument: {
        const FunctionDecl *Kernel =
            C.Callee ? C.Callee->getDefinition() : nullptr;
        if (Kernel && Kernel->getBody() && C.ArgIndex < Kernel->getNumParams() &&
            dereferences(Kernel->getBody(), Kernel->getParamDecl(C.ArgIndex)))
          Result = DeviceReachPath{{}, C};
        break;
      }
      case CrossingKind::LambdaCapture:
        if (C.Lambda && C.CapturedVar && C.Lambda->getBody() &&
            (extendedLambdaKindOf(*C.Lambda) != ExtendedLambdaKind::HostDevice ||
             lambda(*Definition, *C.Lambda)) &&
            dereferences(C.Lambda->getBody(), C.CapturedVar))
          Result = DeviceReachPath{{}, C};
        break;
      case CrossingKind::AlgorithmArgument:
        if (C.Call && deviceAlgorithmOf(*C.Call) !=
                          DeviceAlgorithm::ThrustOnDeviceIterators)
          Result = DeviceReachPath{{}, C};
        break;
      }
    }
    if (!Result)
      Result = throughCalls(
          Sites.Calls,
          [&](const Expr *Arg) { return pointerRoot(Arg) == Param; },
          [&](const FunctionDecl &Callee, unsigned I) {
            return pointerParameter(Callee, I);
          });
    --State->Depth;
  }
  return State->Pointers[Key] = State->keep(std::move(Result));
}

const DeviceReachPath *
DeviceReach::callableParameter(const FunctionDecl &Function, unsigned Index) {
  const FunctionDecl *Definition = hostDefinition(Function);
  if (!Definition || Index >= Definition->getNumParams())
    return nullptr;
  const ParmVarDecl *Param = Definition->getParamDecl(Index);
  QualType Type = Param->getType().getNonReferenceType();
  if (!Type->isRecordType())
    return nullptr;
  auto Key = std::make_pair(Definition, Index);
  if (auto Found = State->Callables.find(Key); Found != State->Callables.end())
    return Found->second;
  if (State->Depth >= MaxCallDepth)
    return nullptr;
  State->Callables[Key] = nullptr;

  std::optional<DeviceReachPath> Result;
  ++State->Depth;
  const HostCodeSites &Sites = sitesOf(*Definition);
  for (const BoundaryCrossing &C : Sites.Crossings) {
    if (Result || !C.Value ||
        !(namesVariable(C.Value, Param) || wrapsVariable(C.Value, Param)))
      continue;
    if (C.Kind != CrossingKind::LambdaCapture) {
      Result = DeviceReachPath{{}, C};
      continue;
    }
    if (!C.Lambda)
      continue;
    if (extendedLambdaKindOf(*C.Lambda) != ExtendedLambdaKind::HostDevice)
      Result = DeviceReachPath{{}, C};
    else if (const DeviceReachPath *Outer = lambda(*Definition, *C.Lambda))
      Result = *Outer;
  }
  if (!Result)
    Result = throughCalls(
        Sites.Calls,
        [&](const Expr *Arg) {
          return namesVariable(Arg, Param) || wrapsVariable(Arg, Param);
        },
        [&](const FunctionDecl &Callee, unsigned I) {
          return callableParameter(Callee, I);
        });
  --State->Depth;
  return State->Callables[Key] = State->keep(std::move(Result));
}

const DeviceReachPath *DeviceReach::lambda(const FunctionDecl &Function,
                                           const LambdaExpr &Lambda) {
  auto Key = std::make_pair(&Function, &Lambda);
  if (auto Found = State->Lambdas.find(Key); Found != State->Lambdas.end())
    return Found->second;
  State->Lambdas[Key] = nullptr;

  std::optional<DeviceReachPath> Result;
  const HostCodeSites &Sites = sitesOf(Function);
  for (const BoundaryCrossing &C : Sites.Crossings)
    if (!Result && C.Kind != CrossingKind::LambdaCapture && C.Value &&
        lambdaOf(C.Value) == &Lambda)
      Result = DeviceReachPath{{}, C};
  if (!Result)
    Result = throughCalls(
        Sites.Calls,
        [&](const Expr *Arg) { return lambdaOf(Arg) == &Lambda; },
        [&](const FunctionDecl &Callee, unsigned I) {
          return callableParameter(Callee, I);
        });
  return State->Lambdas[Key] = State->keep(std::move(Result));
}

} // namespace clang::tidy::cuda::utils

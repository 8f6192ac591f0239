//===--- PointerProvenance.cpp - cuda-lambda-tidy -----------------------===//
//
// A forward dataflow analysis over clang's CFG (clang/Analysis/CFG.h, with
// the reverse-post-order worklist of clang/Analysis/FlowSensitive/
// DataflowWorklist.h). The lattice, per local pointer variable, is flat:
// Host(source) | Device | Unknown, where two different values join to
// Unknown and two host sources join to the earlier one. A variable with no
// entry is Unknown.
//
// Why not clang's DataflowAnalysis framework (the one
// bugprone-unchecked-optional-access uses): its library is not in
// libclang-cpp.so, so the plugin would have to link a second copy of it
// into Debian's clang-tidy-22, which already holds one; both register the
// command-line option `-dataflow-log`, and LLVM aborts on the second
// registration when the plugin loads. The CFG, its post-order view and the
// worklist are in libclang-cpp.so and shared by both routes.
//
//===----------------------------------------------------------------------===//

#include "PointerProvenance.h"
#include "ClangVersions.h"
#include "DeviceReach.h"
#include "ExecutionSpace.h"
#include "ExtendedLambda.h"
#include "TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <optional>

namespace clang::tidy::cuda::utils {

SourceLocation HostSource::location() const {
  if (Site)
    return Site->getBeginLoc();
  return Var ? Var->getLocation() : SourceLocation();
}

namespace {

using VarState = llvm::DenseMap<const VarDecl *, Provenance>;

/// What the analysis knows at one point of the function.
struct State {
  VarState Vars;
  /// Host sources registered with cudaHostRegister (mapped, with UVA, into
  /// the device's address space) on some path.
  llvm::SmallPtrSet<const void *, 2> Registered;

  bool operator==(const State &Other) const {
    if (Vars.size() != Other.Vars.size() ||
        Registered.size() != Other.Registered.size())
      return false;
    for (const auto &[Var, P] : Vars) {
      auto It = Other.Vars.find(Var);
      if (It == Other.Vars.end() || It->second.Space != P.Space ||
          It->second.Source.key() != P.Source.key())
        return false;
    }
    for (const void *Key : Registered)
      if (!Other.Registered.count(Key))
        return false;
    return true;
  }
  bool operator!=(const State &Other) const { return !(*this == Other); }
};

bool isEarlier(const HostSource &A, const HostSource &B) {
  return A.location().getRawEncoding() < B.location().getRawEncoding();
}

Provenance join(const Provenance &A, const Provenance &B) {
  if (A.Space != B.Space)
    return {};
  if (A.Space == MemorySpace::Host)
    return isEarlier(B.Source, A.Source) ? B : A;
  return A;
}

void joinInto(State &Into, const State &From) {
  for (auto It = Into.Vars.begin(); It != Into.Vars.end();) {
    auto Other = From.Vars.find(It->first);
    Provenance Joined =
        Other == From.Vars.end() ? Provenance() : join(It->second, Other->second);
    auto Current = It++;
    if (Joined.Space == MemorySpace::Unknown)
      Into.Vars.erase(Current);
    else
      Current->second = Joined;
  }
  for (const void *Key : From.Registered)
    Into.Registered.insert(Key);
}

Provenance host(HostSource::KindT Kind, const Expr *Site, const VarDecl *Var,
                llvm::StringRef What, llvm::StringRef Object = "") {
  Provenance P;
  P.Space = MemorySpace::Host;
  P.Source.Kind = Kind;
  P.Source.Site = Site;
  P.Source.Var = Var;
  P.Source.What = What.str();
  P.Source.Object = Object.str();
  return P;
}

Provenance device() {
  Provenance P;
  P.Space = MemorySpace::Device;
  return P;
}

/// A local variable or parameter of pointer type, whose value the analysis
/// follows.
bool isTrackable(const VarDecl &Var) {
  return Var.hasLocalStorage() && Var.getType()->isPointerType();
}

const VarDecl *localPointerNamedBy(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  if (!Ref)
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  return Var && isTrackable(*Var) ? Var : nullptr;
}

llvm::StringRef calleeName(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier())
    return "";
  return Callee->getName();
}

/// Whether \p Callee is a C library function or its `std::` twin, not a
/// user's function or member of the same name.
bool isLibraryFunction(const FunctionDecl &Callee) {
  const DeclContext *Ctx = Callee.getDeclContext()->getRedeclContext();
  return Ctx->isTranslationUnit() || Ctx->isStdNamespace();
}

/// The C allocators whose result is pageable host memory.
bool isHostAllocator(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Allocators[] = {
      "malloc",     "calloc", "realloc",          "aligned_alloc",
      "valloc",     "memalign", "pvalloc",        "alloca",
      "__builtin_alloca", "_mm_malloc", "strdup", "strndup"};
  return llvm::is_contained(Allocators, Name);
}

/// Functions that store a pointer through an argument written `&p`: CUDA's
/// allocators and look-ups (device-accessible memory), and posix_memalign.
bool storesThroughArgument(llvm::StringRef Name) {
  return Name.starts_with("cuda") || Name.starts_with("cu") ||
         Name == "posix_memalign";
}

/// The record type \p E's value or object has (through a pointer for `->`).
const CXXRecordDecl *recordOf(const Expr *E) {
  QualType T = E->getType();
  if (const auto *Ptr = T->getAs<PointerType>())
    T = Ptr->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// Whether template argument \p Index of \p Record is `std::<Name>`.
bool templateArgIsStd(const CXXRecordDecl &Record, unsigned Index,
                      llvm::StringRef Name) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Record);
  if (!Spec || Spec->getTemplateArgs().size() <= Index)
    return false;
  const TemplateArgument &Arg = Spec->getTemplateArgs()[Index];
  if (Arg.getKind() != TemplateArgument::Type)
    return false;
  const CXXRecordDecl *ArgRecord = Arg.getAsType()->getAsCXXRecordDecl();
  return ArgRecord &&
         qualifiedNameWithoutInline(*ArgRecord) == ("std::" + Name).str();
}

/// What kind of host container \p Record is: "std::vector" ... or empty
/// when its buffer is not known to be pageable host memory (another
/// allocator, a deleter that is not std::default_delete).
std::string hostContainerName(const CXXRecordDecl &Record) {
  std::string Name = qualifiedNameWithoutInline(Record);
  if ((Name == "std::vector" || Name == "thrust::host_vector") &&
      templateArgIsStd(Record, 1, "allocator"))
    return Name;
  if (Name == "std::basic_string" && templateArgIsStd(Record, 2, "allocator"))
    return "std::string";
  if (Name == "std::unique_ptr" && templateArgIsStd(Record, 1, "default_delete"))
    return Name;
  return "";
}

/// The variable \p E names, if any: within one function a name (a
/// reference too) is one object, so `v.data()` twice is one buffer.
const VarDecl *objectVar(const Expr *E) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

/// The name of the variable or member \p E names, for a diagnostic ("v",
/// "buffer_"), or empty.
std::string objectName(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl()->getNameAsString();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    if (isa<FieldDecl>(Member->getMemberDecl()))
      return Member->getMemberDecl()->getNameAsString();
  return "";
}

class Evaluator {
public:
  Evaluator(const VarState *Vars, const ASTContext *Ctx,
            ProvenanceSummaries *Summaries)
      : Vars(Vars), Ctx(Ctx), Summaries(Summaries) {}

  Provenance eval(const Expr *E) const;

private:
  Provenance addressOf(const Expr *E) const;
  Provenance read(const Expr *E) const;
  Provenance call(const CallExpr *Call) const;
  Provenance userFunction(const CallExpr *Call,
                          const FunctionDecl *Callee) const;
  Provenance variable(const VarDecl *Var, bool Decayed) const;
  Provenance sharedPtrObject(const Expr *Object, const Expr *Site) const;

  const VarState *Vars;
  const ASTContext *Ctx;
  ProvenanceSummaries *Summaries;
};

/// Whether \p E is a null pointer constant (`nullptr`, `0`, `NULL`): a
/// value stored or returned that no one dereferences.
bool isNull(const Expr *E, const ASTContext &Ctx) {
  return E->IgnoreParenImpCasts()->isNullPointerConstant(
             const_cast<ASTContext &>(Ctx),
             Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

/// Whether the unit's own code of \p Callee is the whole story of what it
/// returns: a function of the user's (not a library's, whose code is its
/// design), with a body, that no override replaces.
bool isSummarizable(const FunctionDecl &Callee, const SourceManager &SM) {
  if (Callee.isInStdNamespace() || !Callee.hasBody() ||
      Callee.isDependentContext())
    return false;
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee.getLocation())))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Callee))
    if (Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
        !Method->getParent()->hasAttr<FinalAttr>())
      return false;
  return true;
}

Provenance via(Provenance P, ProvenanceStep::KindT Kind, const Expr *Site,
               const NamedDecl *Decl) {
  if (P.isHost())
    P.Source.Via.insert(P.Source.Via.begin(), ProvenanceStep{Kind, Site, Decl});
  return P;
}

Provenance Evaluator::variable(const VarDecl *Var, bool Decayed) const {
  if (Var->getType()->isReferenceType())
    return {};
  if (variableSpaceOf(*Var) != VariableSpace::Host)
    return device();
  if (!Var->hasLocalStorage() && !Var->hasGlobalStorage())
    return {};
  return host(Decayed ? HostSource::Array : HostSource::Variable, nullptr, Var,
              "", Var->getName());
}

Provenance Evaluator::read(const Expr *E) const {
  E = E->IgnoreParens();
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return join(read(Cond->getTrueExpr()), read(Cond->getFalseExpr()));
  if (const VarDecl *Var = localPointerNamedBy(E)) {
    if (!Vars)
      return {};
    auto It = Vars->find(Var);
    return It == Vars->end() ? Provenance() : It->second;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
      if (Summaries && Field->getType()->isPointerType())
        return Summaries->fieldOf(*Field);
  return {};
}

Provenance Evaluator::addressOf(const Expr *E) const {
  E = E->IgnoreParens();
  if (isa<clang::StringLiteral>(E))
    return host(HostSource::StringLiteral, E, nullptr, "a string literal");
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return variable(Var, Var->getType()->isArrayType());
    return {};
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(Member->getMemberDecl()))
      return {};
    return Member->isArrow() ? eval(Member->getBase())
                             : addressOf(Member->getBase());
  }
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return eval(Subscript->getBase());
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_Deref)
      return eval(Unary->getSubExpr());
  // v[0], v.front(), v.back(), v.at(0) of a host container.
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      Object = Op->getArg(0);
  } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    llvm::StringRef Name = calleeName(*Member);
    if (Name == "front" || Name == "back" || Name == "at")
      Object = Member->getImplicitObjectArgument();
  }
  if (!Object)
    return {};
  const CXXRecordDecl *Record = recordOf(Object);
  if (!Record)
    return {};
  std::string Container = hostContainerName(*Record);
  if (!Container.empty() && Container != "std::unique_ptr")
    return host(HostSource::Container, E, objectVar(Object), Container,
                objectName(Object));
  if (qualifiedNameWithoutInline(*Record) == "std::array") {
    Provenance Holder = addressOf(Object);
    if (Holder.isHost())
      return host(HostSource::Container, E, objectVar(Object), "std::array",
                  objectName(Object));
  }
  return {};
}

/// `p.get()` of a `std::shared_ptr` named \p Object: host memory when the
/// variable is initialized with std::make_shared or `new`.
Provenance Evaluator::sharedPtrObject(const Expr *Object,
                                      const Expr *Site) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType() ||
      !Var->getInit())
    return {};
  const Expr *Init = Var->getInit()->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init)) {
    if (Construct->getNumArgs() >= 1 &&
        isa<CXXNewExpr>(Construct->getArg(0)->IgnoreParenImpCasts()) &&
        eval(Construct->getArg(0)).isHost())
      return host(HostSource::Container, Site, Var, "std::shared_ptr",
                  Var->getName());
    if (Construct->getNumArgs() == 1)
      Init = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *Call = dyn_cast<CallExpr>(Init))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
          Callee->getName() == "make_shared")
        return host(HostSource::Container, Site, Var, "std::shared_ptr",
                    Var->getName());
  return {};
}

Provenance Evaluator::call(const CallExpr *Call) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return {};
  llvm::StringRef Name = calleeName(*Call);
  if (isHostAllocator(Name) && isLibraryFunction(*Callee))
    return host(HostSource::Allocation, Call, nullptr, Name);
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    const CXXRecordDecl *Record = Object ? recordOf(Object) : nullptr;
    if (!Record)
      return userFunction(Call, Callee);
    std::string Container = hostContainerName(*Record);
    if (Name == "data" || Name == "c_str") {
      if (!Container.empty() && Container != "std::unique_ptr")
        return host(HostSource::Container, Call, objectVar(Object), Container,
                    objectName(Object));
      std::string RecordName = qualifiedNameWithoutInline(*Record);
      if (RecordName == "std::array" && addressOf(Object).isHost())
        return host(HostSource::Container, Call, objectVar(Object),
                    "std::array", objectName(Object));
      if (RecordName == "thrust::device_vector")
        return device();
      return {};
    }
    if (Name == "get") {
      if (Container == "std::unique_ptr")
        return host(HostSource::Container, Call, objectVar(Object), Container,
                    objectName(Object));
      if (qualifiedNameWithoutInline(*Record) == "std::shared_ptr")
        return sharedPtrObject(Object, Call);
      if (qualifiedNameWithoutInline(*Record) == "thrust::device_ptr")
        return device();
    }
    return userFunction(Call, Callee);
  }
  if (Call->getNumArgs() == 1 && Callee->getDeclName().isIdentifier()) {
    std::string Qualified = qualifiedNameWithoutInline(*Callee);
    const Expr *Arg = Call->getArg(0);
    if (Qualified == "std::addressof")
      return addressOf(Arg);
    if (Qualified == "thrust::raw_pointer_cast" ||
        Qualified == "std::launder" || Qualified == "std::to_address") {
      if (Arg->getType()->isPointerType())
        return eval(Arg);
      if (const CXXRecordDecl *Record = Arg->getType()->getAsCXXRecordDecl())
        if (qualifiedNameWithoutInline(*Record) == "thrust::device_ptr")
          return device();
    }
  }
  return userFunction(Call, Callee);
}

Provenance Evaluator::userFunction(const CallExpr *Call,
                                   const FunctionDecl *Callee) const {
  if (!Summaries || !Call->getType()->isPointerType())
    return {};
  return via(Summaries->returnOf(*Callee), ProvenanceStep::Returned, Call,
             Callee);
}

Provenance Evaluator::eval(const Expr *E) const {
  E = E->IgnoreParens();
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return eval(Full->getSubExpr());
  // A pointer variable bound to a reference parameter (a launcher's `Args
  // &&...args`): what the callee reads is the value it holds.
  if (E->isGLValue() && localPointerNamedBy(E))
    return read(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return addressOf(Cast->getSubExpr());
    case CK_LValueToRValue:
      return read(Cast->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
    case CK_AddressSpaceConversion:
      return eval(Cast->getSubExpr());
    default:
      return {};
    }
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    switch (Unary->getOpcode()) {
    case UO_AddrOf:
      return addressOf(Unary->getSubExpr());
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec:
      return read(Unary->getSubExpr());
    default:
      return {};
    }
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    switch (Binary->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      if (Binary->getLHS()->getType()->isPointerType())
        return eval(Binary->getLHS());
      if (Binary->getRHS()->getType()->isPointerType())
        return eval(Binary->getRHS());
      return {};
    case BO_Assign:
    case BO_Comma:
      return eval(Binary->getRHS());
    case BO_AddAssign:
    case BO_SubAssign:
      return read(Binary->getLHS());
    default:
      return {};
    }
  }
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return join(eval(Cond->getTrueExpr()), eval(Cond->getFalseExpr()));
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    // Only the global operator new: a class's own (a "Managed" base with
    // cudaMallocManaged inside) or placement new may place it anywhere.
    const FunctionDecl *Operator = New->getOperatorNew();
    if (!Operator || New->getNumPlacementArgs() != 0 ||
        !Operator->isReplaceableGlobalAllocationFunction())
      return {};
    return host(HostSource::Allocation, New, nullptr,
                New->isArray() ? "new[]" : "new");
  }
  if (isa<clang::StringLiteral>(E))
    return host(HostSource::StringLiteral, E, nullptr, "a string literal");
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call);
  return {};
}

/// The variables whose value the flow analysis cannot follow: a reference
/// or a by-reference capture aliases them, or their address goes anywhere
/// but to a function that stores a pointer through it.
/// Whether \p Child, an element of braced list \p Parent as written
/// (`Functor{p}`, `Functor{h.raw}`; the traversal visits that form, where
/// the element has no conversion yet), is copied: the list's semantic form
/// reads it (an lvalue-to-rvalue conversion), as opposed to binding a
/// reference member to it.
static bool copiedByBracedList(const Stmt *Parent, const Stmt *Child) {
  const auto *List = dyn_cast<InitListExpr>(Parent);
  if (!List)
    return false;
  const InitListExpr *Semantic =
      List->getSemanticForm() ? List->getSemanticForm() : List;
  for (const Expr *Init : Semantic->inits())
    for (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Init); Cast;
         Cast = dyn_cast<ImplicitCastExpr>(Cast->getSubExpr()))
      if (Cast->getCastKind() == CK_LValueToRValue &&
          Cast->getSubExpr()->IgnoreParens() == Child)
        return true;
  return false;
}

static bool referenceArgumentOnlyRead(const CallExpr &Call, const Stmt *Arg,
                                      unsigned Depth);

/// A walk of a function's code that knows what holds each statement (the
/// statements on the way down, Stack.back() the one visited) and reads a
/// lambda as its enclosing function sees it: its capture initializers, not
/// its body, which names the lambda's own copies of what it captures by
/// value (what it captures by reference the derived class meets in
/// VisitLambdaExpr). In a generic lambda's body `p[i]` has no conversions
/// yet, which would read as `p` escaping.
template <typename Derived>
class UseSiteVisitor : public RecursiveASTVisitor<Derived> {
public:
  bool dataTraverseStmtPre(Stmt *S) {
    Stack.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *Lambda,
                          typename RecursiveASTVisitor<Derived>::DataRecursionQueue * =
                              nullptr) {
    if (!this->getDerived().WalkUpFromLambdaExpr(Lambda))
      return false;
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !this->getDerived().TraverseStmt(Init))
        return false;
    return true;
  }

protected:
  std::vector<const Stmt *> Stack;
};

/// Whether a function's body only reads the pointer that its reference
/// parameter is bound to: every use of the parameter is a read of its
/// value, a `sizeof`, or (through std::forward) an argument bound to a
/// parameter that only reads it in turn.
class ReferenceParameterUses
    : public UseSiteVisitor<ReferenceParameterUses> {
public:
  ReferenceParameterUses(const ParmVarDecl &Param, unsigned Depth)
      : Param(Param), Depth(Depth) {}
  bool MayWrite = false;

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCapturedVar() == &Param &&
          Capture.getCaptureKind() == LCK_ByRef) {
        MayWrite = true;
        return false;
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() != &Param || onlyRead(Stack.size() - 1))
      return true;
    MayWrite = true;
    return false;
  }

private:
  bool onlyRead(size_t I) const {
    while (I > 0) {
      const Stmt *Parent = Stack[I - 1];
      if (isa<ParenExpr>(Parent)) {
        --I;
        continue;
      }
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent)) {
        if (Cast->getCastKind() == CK_LValueToRValue)
          return true;
        if (Cast->getCastKind() == CK_NoOp) {
          --I;
          continue;
        }
        return false;
      }
      if (isa<UnaryExprOrTypeTraitExpr>(Parent))
        return true;
      const auto *Call = dyn_cast<CallExpr>(Parent);
      if (!Call || Call->getCallee() == Stack[I])
        return false;
      if (isMoveOrForward(*Call)) {
        --I;
        continue;
      }
      return referenceArgumentOnlyRead(*Call, Stack[I], Depth);
    }
    return false;
  }

  const ParmVarDecl &Param;
  unsigned Depth;
};

/// Whether \p Call, which binds \p Arg (a pointer variable, as an lvalue)
/// to a parameter, leaves its value as it was: the parameter is a copy or
/// a const reference, or a reference that the callee's visible body only
/// reads (a launcher's `Args &&...args` handed on to a kernel by value),
/// following at most \p Depth forwarding calls.
static bool referenceArgumentOnlyRead(const CallExpr &Call, const Stmt *Arg,
                                      unsigned Depth) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  unsigned Offset = objectArguments(Call);
  for (unsigned I = Offset; I < Call.getNumArgs(); ++I) {
    if (Call.getArg(I) != Arg)
      continue;
    if (I - Offset >= Callee->getNumParams())
      return false;
    QualType Type = Callee->getParamDecl(I - Offset)->getType();
    if (!Type->isReferenceType() ||
        Type.getNonReferenceType().isConstQualified())
      return true;
    const FunctionDecl *Definition = nullptr;
    if (Depth == 0 || !Callee->hasBody(Definition) ||
        I - Offset >= Definition->getNumParams())
      return false;
    ReferenceParameterUses Uses(*Definition->getParamDecl(I - Offset),
                                Depth - 1);
    Uses.TraverseStmt(Definition->getBody());
    return !Uses.MayWrite;
  }
  return false;
}

class EscapeFinder : public UseSiteVisitor<EscapeFinder> {
public:
  llvm::DenseSet<const VarDecl *> Escaped;

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef)
        if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
          Escaped.insert(Var);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !isTrackable(*Var) || Escaped.count(Var))
      return true;
    // Stack.back() is Ref itself; look at what holds it.
    // An lvalue `c ? p : q` (or `(p)`) is p itself to what holds it.
    size_t I = Stack.size() - 1;
    while (I > 0 && (isa<ParenExpr>(Stack[I - 1]) ||
                     (isa<ConditionalOperator>(Stack[I - 1]) &&
                      cast<ConditionalOperator>(Stack[I - 1])->getCond() !=
                          Stack[I])))
      --I;
    if (I == 0)
      return true;
    const Stmt *Parent = Stack[I - 1];
    const Stmt *Child = Stack[I];
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent))
      if (Cast->getCastKind() == CK_LValueToRValue)
        return true;
    if (copiedByBracedList(Parent, Child))
      return true;
    if (const auto *Binary = dyn_cast<BinaryOperator>(Parent))
      if (Binary->isAssignmentOp() && Binary->getLHS() == Child)
        return true;
    if (isa<UnaryExprOrTypeTraitExpr>(Parent))
      return true;
    if (const auto *Unary = dyn_cast<UnaryOperator>(Parent)) {
      if (Unary->isIncrementDecrementOp())
        return true;
      if (Unary->getOpcode() == UO_AddrOf && storedThrough(I - 1))
        return true;
    }
    // Bound to a reference parameter that the callee only reads (a
    // launcher forwarding its arguments to a kernel): the value stays.
    if (const auto *Call = dyn_cast<CallExpr>(Parent))
      if (Call->getCallee() != Child &&
          referenceArgumentOnlyRead(*Call, Child, /*Depth=*/3))
        return true;
    Escaped.insert(Var);
    return true;
  }

private:
  /// Whether Stack[AddrOf], a `&p`, is (through casts) an argument of a
  /// call that stores a pointer through it.
  bool storedThrough(size_t AddrOf) const {
    size_t I = AddrOf;
    while (I > 0 && (isa<CastExpr>(Stack[I - 1]) || isa<ParenExpr>(Stack[I - 1])))
      --I;
    if (I == 0)
      return false;
    const auto *Call = dyn_cast<CallExpr>(Stack[I - 1]);
    if (!Call || Call->getCallee() == Stack[I])
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && storesThroughArgument(calleeName(*Call));
  }
};

class Analysis {
public:
  Analysis(const ASTContext &Ctx, const llvm::DenseSet<const VarDecl *> &Escaped,
           ProvenanceSummaries *Summaries)
      : Ctx(Ctx), Escaped(Escaped), Summaries(Summaries) {}

  /// Applies \p S to \p Into; when \p Queries is set, answers those anchored
  /// at \p S first (a lambda's or a call's value crosses before the
  /// expression's own effect).
  void transfer(const Stmt *S, State &Into,
                const llvm::DenseMap<const Stmt *, llvm::SmallVector<const Expr *, 2>>
                    *Queries,
                llvm::DenseMap<const Expr *, Provenance> *Answers,
                llvm::DenseSet<const Expr *> *Answered) const {
    if (Queries) {
      auto It = Queries->find(S);
      if (It != Queries->end()) {
        Evaluator Eval(&Into.Vars, &Ctx, Summaries);
        for (const Expr *Value : It->second) {
          Provenance P = Eval.eval(Value);
          if (P.isHost() && Into.Registered.count(P.Source.key()))
            P = device();
          if (Answered->insert(Value).second)
            (*Answers)[Value] = P;
          else
            (*Answers)[Value] = join((*Answers)[Value], P);
        }
      }
    }
    if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (follows(Var)) {
            if (const Expr *Init = Var->getInit())
              set(Into, Var, Evaluator(&Into.Vars, &Ctx, Summaries).eval(Init));
            else
              Into.Vars.erase(Var);
          }
      return;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (Binary->getOpcode() == BO_Assign)
        if (const VarDecl *Var = localPointerNamedBy(Binary->getLHS()))
          if (follows(Var))
            set(Into, Var, Evaluator(&Into.Vars, &Ctx, Summaries).eval(Binary->getRHS()));
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      llvm::StringRef Name = calleeName(*Call);
      if (Name.empty())
        return;
      if (Name == "cudaHostRegister" && Call->getNumArgs() >= 1) {
        Provenance P = Evaluator(&Into.Vars, &Ctx, Summaries).eval(Call->getArg(0));
        if (P.isHost())
          Into.Registered.insert(P.Source.key());
      }
      if (!storesThroughArgument(Name))
        return;
      for (const Expr *Arg : Call->arguments()) {
        const auto *AddrOf = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
        if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
          continue;
        const VarDecl *Var = localPointerNamedBy(AddrOf->getSubExpr());
        if (!Var || !follows(Var))
          continue;
        if (Name == "posix_memalign")
          set(Into, Var, host(HostSource::Allocation, Call, nullptr, Name));
        else
          set(Into, Var, device());
      }
    }
  }

private:
  bool follows(const VarDecl *Var) const {
    return isTrackable(*Var) && !Escaped.count(Var);
  }
  static void set(State &Into, const VarDecl *Var, Provenance P) {
    if (P.Space == MemorySpace::Unknown)
      Into.Vars.erase(Var);
    else
      Into.Vars[Var] = std::move(P);
  }

  const ASTContext &Ctx;
  const llvm::DenseSet<const VarDecl *> &Escaped;
  ProvenanceSummaries *Summaries;
};

} // namespace

Provenance provenanceOfExpr(const Expr &E, const ASTContext &Ctx,
                            ProvenanceSummaries *Summaries) {
  return Evaluator(nullptr, &Ctx, Summaries).eval(&E);
}

bool readsLocalPointer(const Expr &E) {
  const Expr *Cur = E.IgnoreParens();
  while (true) {
    if (const auto *Full = dyn_cast<FullExpr>(Cur)) {
      Cur = Full->getSubExpr()->IgnoreParens();
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(Cur)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return localPointerNamedBy(Cast->getSubExpr()) != nullptr;
      Cur = Cast->getSubExpr()->IgnoreParens();
      continue;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(Cur)) {
      if (Binary->isAdditiveOp()) {
        Cur = (Binary->getLHS()->getType()->isPointerType() ? Binary->getLHS()
                                                             : Binary->getRHS())
                  ->IgnoreParens();
        continue;
      }
      if (Binary->getOpcode() == BO_Comma || Binary->isAssignmentOp()) {
        Cur = Binary->getRHS()->IgnoreParens();
        continue;
      }
      return false;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(Cur)) {
      if (Unary->isIncrementDecrementOp())
        return localPointerNamedBy(Unary->getSubExpr()) != nullptr;
      return false;
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(Cur))
      return readsLocalPointer(*Cond->getTrueExpr()) ||
             readsLocalPointer(*Cond->getFalseExpr());
    // Bound to a reference parameter: the callee reads it.
    if (Cur->isGLValue() && localPointerNamedBy(Cur))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(Cur)) {
      // thrust::raw_pointer_cast(p) and friends pass a pointer on.
      for (const Expr *Arg : Call->arguments())
        if (Arg->getType()->isPointerType() && readsLocalPointer(*Arg))
          return true;
      return false;
    }
    return false;
  }
}

namespace {

/// Finds what the flow analysis's transfer function gives a variable a
/// value for (a declaration with an initializer, `p = ...`, posix_memalign),
/// also in nested lambdas and default arguments, which it does not look at.
class ValueGiven : public RecursiveASTVisitor<ValueGiven> {
public:
  bool Found = false;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  /// An extended lambda captures by copy (nvcc rejects `&` captures), so its
  /// body cannot give a local of the function a value; what it captures is
  /// still read.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    if (!isExtendedLambda(*Lambda))
      return RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return true;
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (isTrackable(*Var) && Var->getInit())
      Found = true;
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->getOpcode() == BO_Assign &&
        localPointerNamedBy(Binary->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (calleeName(*Call) == "posix_memalign")
      Found = true;
    return !Found;
  }
};

} // namespace

bool mayGiveLocalPointerAValue(const FunctionDecl &Function) {
  ValueGiven Finder;
  Finder.TraverseDecl(const_cast<FunctionDecl *>(&Function));
  return Finder.Found;
}

llvm::DenseMap<const Expr *, Provenance>
analyzePointerProvenance(const FunctionDecl &Function, ASTContext &Ctx,
                         llvm::ArrayRef<ProvenanceQuery> Queries,
                         ProvenanceSummaries *Summaries) {
  llvm::DenseMap<const Expr *, Provenance> Answers;
  if (!Function.hasBody() || Function.isDependentContext())
    return Answers;

  llvm::DenseMap<const Stmt *, llvm::SmallVector<const Expr *, 2>> ByAnchor;
  for (const ProvenanceQuery &Q : Queries)
    ByAnchor[Q.Anchor].push_back(Q.Value);

  EscapeFinder Escapes;
  Escapes.TraverseDecl(const_cast<FunctionDecl *>(&Function));
  Analysis Flow(Ctx, Escapes.Escaped, Summaries);

  AnalysisDeclContext AC(/*ADCMgr=*/nullptr, &Function);
  AC.getCFGBuildOptions().setAllAlwaysAdd();
  const CFG *Graph = AC.getCFG();
  if (!Graph)
    return Answers;
  auto *Order = AC.getAnalysis<PostOrderCFGView>();
  if (!Order)
    return Answers;

  std::vector<std::optional<State>> In(Graph->getNumBlockIDs());
  std::vector<std::optional<State>> Out(Graph->getNumBlockIDs());
  auto entryOf = [&](const CFGBlock &Block) -> std::optional<State> {
    if (&Block == &Graph->getEntry())
      return State();
    std::optional<State> Joined;
    for (const CFGBlock::AdjacentBlock &Pred : Block.preds()) {
      const CFGBlock *P = Pred.getReachableBlock();
      if (!P || !Out[P->getBlockID()])
        continue;
      if (!Joined)
        Joined = *Out[P->getBlockID()];
      else
        joinInto(*Joined, *Out[P->getBlockID()]);
    }
    return Joined;
  };
  llvm::DenseSet<const Expr *> AnsweredValues;
  auto run = [&](const CFGBlock &Block, State S, bool Answer) {
    for (const CFGElement &Element : Block)
      if (std::optional<CFGStmt> Statement = Element.getAs<CFGStmt>())
        Flow.transfer(Statement->getStmt(), S, Answer ? &ByAnchor : nullptr,
                      &Answers, &AnsweredValues);
    return S;
  };

  ForwardDataflowWorklist Worklist(*Graph, Order);
  Worklist.enqueueBlock(&Graph->getEntry());
  // The lattice is finite (per variable: a host source can only move to an
  // earlier one, then to Unknown); the bound is a guard, not a widening.
  unsigned Budget = 64 * Graph->getNumBlockIDs() + 64;
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (Budget-- == 0)
      return llvm::DenseMap<const Expr *, Provenance>();
    std::optional<State> Entry = entryOf(*Block);
    if (!Entry)
      continue;
    State Exit = run(*Block, *Entry, /*Answer=*/false);
    In[Block->getBlockID()] = std::move(*Entry);
    if (!Out[Block->getBlockID()] || *Out[Block->getBlockID()] != Exit) {
      Out[Block->getBlockID()] = std::move(Exit);
      Worklist.enqueueSuccessors(Block);
    }
  }

  for (const CFGBlock *Block : *Graph)
    if (Block && In[Block->getBlockID()])
      run(*Block, *In[Block->getBlockID()], /*Answer=*/true);
  return Answers;
}

namespace {

/// The return statements of a function's own code (not of the lambdas it
/// defines).
class ReturnFinder : public RecursiveASTVisitor<ReturnFinder> {
public:
  llvm::SmallVector<const ReturnStmt *, 2> Returns;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseBlockExpr(BlockExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *Return) {
    Returns.push_back(Return);
    return true;
  }
};

/// Every store into a pointer member in the user's code of a unit, and the
/// members whose address is taken or that a reference binds.
class FieldStoreFinder : public RecursiveASTVisitor<FieldStoreFinder> {
public:
  struct Store {
    const FieldDecl *Field;
    const FunctionDecl *Function;
    const Stmt *Anchor;
    const Expr *Value;
  };
  llvm::SmallVector<Store, 16> Stores;
  llvm::DenseSet<const FieldDecl *> Escaped;

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *F) { return inFunction(F); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) { return inFunction(F); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return inFunction(F);
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *F) { return inFunction(F); }
  bool TraverseCXXConversionDecl(CXXConversionDecl *F) { return inFunction(F); }

  bool dataTraverseStmtPre(Stmt *S) {
    Stack.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }

  bool VisitFieldDecl(FieldDecl *Field) {
    if (Field->getType()->isPointerType())
      if (const Expr *Init = Field->getInClassInitializer())
        Stores.push_back({Field, nullptr, nullptr, Init});
    return true;
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (const FieldDecl *Field = Init->getMember())
      if (Field->getType()->isPointerType() && Init->getInit() &&
          Init->isWritten())
        Stores.push_back({Field, Current, nullptr, Init->getInit()});
    return RecursiveASTVisitor::TraverseConstructorInitializer(Init);
  }
  bool VisitInitListExpr(InitListExpr *Written) {
    // Each list once, as written (the traversal visits that form), read
    // in its semantic form: one initializer per member, brace elision and
    // designators resolved.
    if (!Written->isSyntacticForm())
      return true;
    const InitListExpr *List = Written->getSemanticForm()
                                   ? Written->getSemanticForm()
                                   : Written;
    const RecordDecl *Record = List->getType()->getAsRecordDecl();
    if (!Record || Record->isUnion())
      return true;
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(Record))
      if (CXX->hasDefinition() && CXX->getNumBases() != 0) {
        for (const FieldDecl *Field : Record->fields())
          if (Field->getType()->isPointerType())
            Escaped.insert(Field);
        return true;
      }
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields()) {
      if (I >= List->getNumInits())
        break;
      const Expr *Value = List->getInit(I++);
      // The list is the anchor: what a local pointer it reads holds there.
      if (Field->getType()->isPointerType() &&
          !isa<ImplicitValueInitExpr>(Value))
        Stores.push_back({Field, Current, Current ? List : nullptr, Value});
    }
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !Field->getType()->isPointerType())
      return true;
    // Stack.back() is Member; look at what holds it.
    size_t I = Stack.size() - 1;
    while (I > 0 && isa<ParenExpr>(Stack[I - 1]))
      --I;
    if (I == 0)
      return true;
    const Stmt *Parent = Stack[I - 1];
    const Stmt *Child = Stack[I];
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent))
      if (Cast->getCastKind() == CK_LValueToRValue)
        return true;
    if (copiedByBracedList(Parent, Child))
      return true;
    if (const auto *Binary = dyn_cast<BinaryOperator>(Parent)) {
      if (Binary->getOpcode() == BO_Assign && Binary->getLHS() == Child) {
        Stores.push_back({Field, Current, Binary, Binary->getRHS()});
        return true;
      }
      if ((Binary->getOpcode() == BO_AddAssign ||
           Binary->getOpcode() == BO_SubAssign) &&
          Binary->getLHS() == Child)
        return true; // p += n stays in the same memory
    }
    if (isa<UnaryExprOrTypeTraitExpr>(Parent))
      return true;
    if (const auto *Unary = dyn_cast<UnaryOperator>(Parent))
      if (Unary->isIncrementDecrementOp())
        return true;
    Escaped.insert(Field);
    return true;
  }

private:
  bool inFunction(FunctionDecl *F) {
    const FunctionDecl *Outer = Current;
    Current = F;
    bool Continue = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Current = Outer;
    return Continue;
  }

  const FunctionDecl *Current = nullptr;
  std::vector<const Stmt *> Stack;
};

/// Bound on nested summaries (a helper's return read from a member set
/// from another helper's return ...).
constexpr unsigned MaxSummaryDepth = 4;

} // namespace

Provenance ProvenanceSummaries::returnOf(const FunctionDecl &Function) {
  const FunctionDecl *Definition = nullptr;
  if (!Function.hasBody(Definition) || !Definition)
    return {};
  auto Found = Returns.find(Definition);
  if (Found != Returns.end())
    return Found->second;
  if (Depth >= MaxSummaryDepth ||
      !isSummarizable(*Definition, Ctx.getSourceManager()))
    return {};
  // Unknown while it is computed: a recursive call adds nothing.
  Returns[Definition] = Provenance();
  ReturnFinder Finder;
  Finder.TraverseStmt(Definition->getBody());
  llvm::SmallVector<ProvenanceQuery, 2> Queries;
  for (const ReturnStmt *Return : Finder.Returns)
    if (const Expr *Value = Return->getRetValue())
      if (!isNull(Value, Ctx))
        Queries.push_back({Return, Value});
  Provenance Result;
  if (!Queries.empty()) {
    ++Depth;
    llvm::DenseMap<const Expr *, Provenance> Answers =
        analyzePointerProvenance(*Definition, Ctx, Queries, this);
    --Depth;
    bool First = true;
    for (const ProvenanceQuery &Q : Queries) {
      auto It = Answers.find(Q.Value);
      Provenance P = It == Answers.end() ? Provenance() : It->second;
      Result = First ? P : join(Result, P);
      First = false;
    }
  }
  Returns[Definition] = Result;
  return Result;
}

void ProvenanceSummaries::collectFieldStores() {
  StoresCollected = true;
  const SourceManager &SM = Ctx.getSourceManager();
  FieldStoreFinder Finder;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Finder.TraverseDecl(D);
  for (const FieldStoreFinder::Store &S : Finder.Stores)
    Stores[S.Field].push_back({S.Function, S.Anchor, S.Value});
  Escaped = std::move(Finder.Escaped);
}

/// Whether every member function of \p Record that may store into its
/// members has its body in the unit.
static bool hasAllMemberBodies(const CXXRecordDecl &Record) {
  for (const CXXMethodDecl *Method : Record.methods()) {
    if (Method->isDeleted() || Method->isDefaulted() || Method->isImplicit() ||
        isPureVirtual(*Method))
      continue;
    if (!Method->hasBody() && !Method->isDependentContext())
      return false;
  }
  return true;
}

Provenance ProvenanceSummaries::storedProvenance(const FieldStore &Store,
                                                 const FieldDecl &Field) {
  Provenance P;
  // In a function's code the flow analysis also sees the memory the
  // function registers with cudaHostRegister before the store.
  if (Store.Anchor && Store.Function) {
    llvm::DenseMap<const Expr *, Provenance> Answers = analyzePointerProvenance(
        *Store.Function, Ctx, {{Store.Anchor, Store.Value}}, this);
    auto Answer = Answers.find(Store.Value);
    if (Answer != Answers.end())
      P = Answer->second;
  } else {
    P = provenanceOfExpr(*Store.Value, Ctx, this);
  }
  return via(P, ProvenanceStep::StoredInMember, Store.Value, &Field);
}

Provenance ProvenanceSummaries::fieldOf(const FieldDecl &Field,
                                        const FunctionDecl &Function,
                                        SourceLocation Before) {
  Provenance Whole = fieldOf(Field);
  if (!Whole.isHost())
    return Whole;
  auto It = Stores.find(&Field);
  if (It == Stores.end())
    return Whole;
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<Provenance> First, Nearest;
  SourceLocation NearestLoc;
  for (const FieldStore &Store : It->second) {
    if (Store.Function != &Function || isNull(Store.Value, Ctx))
      continue;
    ++Depth;
    Provenance Here = storedProvenance(Store, Field);
    --Depth;
    if (!Here.isHost())
      continue;
    if (!First)
      First = Here;
    // Of two objects crossing in one function, each gets the store made
    // last before it crosses.
    SourceLocation Loc = Store.Value->getBeginLoc();
    if (Before.isValid() && SM.isBeforeInTranslationUnit(Loc, Before) &&
        (NearestLoc.isInvalid() || SM.isBeforeInTranslationUnit(NearestLoc, Loc))) {
      Nearest = Here;
      NearestLoc = Loc;
    }
  }
  if (Nearest)
    return *Nearest;
  return First ? *First : Whole;
}

/// Whether \p Store adds nothing to what member \p Field holds: a null
/// pointer, or a copy from the same member of another object.
static bool addsNothing(const Expr &Value, const FieldDecl &Field,
                        const ASTContext &Ctx) {
  if (isNull(&Value, Ctx))
    return true;
  const auto *Member = dyn_cast<MemberExpr>(Value.IgnoreParenImpCasts());
  return Member && Member->getMemberDecl() == &Field;
}

const llvm::SmallVector<ProvenanceSummaries::FieldStore, 2> *
ProvenanceSummaries::knownStoresInto(const FieldDecl &Field) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Record = dyn_cast<CXXRecordDecl>(Field.getParent());
  if (!Record || SM.isInSystemHeader(SM.getExpansionLoc(Field.getLocation())) ||
      !hasAllMemberBodies(*Record))
    return nullptr;
  if (!StoresCollected)
    collectFieldStores();
  if (Escaped.count(&Field))
    return nullptr;
  auto It = Stores.find(&Field);
  return It == Stores.end() ? nullptr : &It->second;
}

std::optional<llvm::SmallVector<ProvenanceSummaries::StoredValue, 2>>
ProvenanceSummaries::storesInto(const FieldDecl &Field) {
  const llvm::SmallVector<FieldStore, 2> *Known = knownStoresInto(Field);
  if (!Known)
    return std::nullopt;
  llvm::SmallVector<StoredValue, 2> Values;
  for (const FieldStore &Store : *Known)
    if (!addsNothing(*Store.Value, Field, Ctx))
      Values.push_back({Store.Function, Store.Value});
  if (Values.empty())
    return std::nullopt;
  return Values;
}

Provenance ProvenanceSummaries::fieldOf(const FieldDecl &Field) {
  auto Found = Fields.find(&Field);
  if (Found != Fields.end())
    return Found->second;
  if (Depth >= MaxSummaryDepth)
    return {};
  const llvm::SmallVector<FieldStore, 2> *Known = knownStoresInto(Field);
  Fields[&Field] = Provenance();
  if (!Known)
    return {};
  Provenance Result;
  bool First = true;
  ++Depth;
  for (const FieldStore &Store : *Known) {
    if (addsNothing(*Store.Value, Field, Ctx))
      continue;
    Provenance P = storedProvenance(Store, Field);
    Result = First ? P : join(Result, P);
    First = false;
    if (!Result.isHost())
      break;
  }
  --Depth;
  if (First)
    Result = Provenance();
  return Fields[&Field] = Result;
}

} // namespace clang::tidy::cuda::utils

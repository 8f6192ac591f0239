//===--- HostVariableInDeviceCodeCheck.cpp - cuda-lambda-tidy -----------===//

#include "HostVariableInDeviceCodeCheck.h"
#include "utils/CallableCode.h"
#include "utils/ExecutionSpace.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

enum class HostVariableInDeviceCodeCheck::Use {
  Fine,          ///< a value the compilers fold, or nothing at all
  Variable,      ///< a host variable named in device code
  LambdaObject,  ///< a host closure object called or used in device code
  NoInitializer, ///< an extern const without a visible initializer
  Reference,     ///< a reference bound to a host constant
  Address,       ///< the address of a host constant
  MemberCall,    ///< a member function called on a host constant object
  ArrayIndex,    ///< a host constant array indexed at run time
  Unknown,       ///< decided in a template's instantiations
};

namespace {

using Use = HostVariableInDeviceCodeCheck::Use;

class ManagedCollector : public PPCallbacks {
public:
  ManagedCollector(const SourceManager &SM,
                   llvm::DenseSet<SourceLocation> &Expansions)
      : SM(SM), Expansions(Expansions) {}
  void MacroExpands(const Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *) override {
    if (Name.getIdentifierInfo() &&
        Name.getIdentifierInfo()->getName() == "__managed__")
      Expansions.insert(SM.getExpansionLoc(Range.getBegin()));
  }

private:
  const SourceManager &SM;
  llvm::DenseSet<SourceLocation> &Expansions;
};

/// Where code runs as nvcc sees it. Unlike clang, nvcc does not make
/// constexpr functions (or any other unannotated function) implicitly
/// `__host__ __device__`, so only written attributes count; an unannotated
/// lambda runs where the code around it runs.
utils::ExecutionSpace spaceOf(const FunctionDecl &Function) {
  return utils::executionSpaceOf(Function, utils::AttributePolicy::AsWritten);
}

using Space = utils::ExecutionSpace;

/// The closest parent of \p E that is not a parenthesis.
DynTypedNode parentOf(const Expr &E, const utils::Ancestry &Above) {
  DynTypedNode Node = DynTypedNode::create(E);
  do
    Node = Above.parentOf(Node);
  while (Node.get<ParenExpr>());
  return Node;
}

/// Whether \p Var is a constant the compiler folds where it is used: a
/// constexpr variable, or a const scalar whose initializer is a constant
/// (nvcc folds `const int x = table[2];` in device code).
bool isCompileTimeConstant(const VarDecl &Var, ASTContext &Ctx) {
  if (Var.isConstexpr())
    return true;
  QualType T = Var.getType();
  if (!T.isConstQualified() || T.isVolatileQualified() || !T->isScalarType() ||
      !Var.hasInit() || Var.getInit()->isValueDependent())
    return false;
  Expr::EvalResult Value;
  return Var.getInit()->EvaluateAsRValue(Value, Ctx);
}

/// Whether a value of type \p T can hold an address: a constant of such a
/// type may be the address of a host variable, which the device cannot use.
bool canHoldAddress(QualType T, const ASTContext &Ctx) {
  T = Ctx.getBaseElementType(T.getNonReferenceType());
  return T->isPointerType() || T->isReferenceType();
}

/// Whether \p E is evaluated at compile time into a value that keeps nothing
/// of the host's storage: it lies inside a constant expression (an array
/// bound, a template argument, `if constexpr`, a case label, a
/// static_assert, an enumerator, a noexcept specification, alignas) or in
/// the initializer of a constexpr or constant `const` local that is not a
/// pointer or a reference.
bool isInConstantContext(const Expr &E, const utils::Ancestry &Above,
                         ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    const DynTypedNode Below = Node;
    Node = Above.parentOf(Node);
    if (Node.getNodeKind().isNone())
      return false;
    if (Node.get<ConstantExpr>() || Node.get<TypeLoc>() ||
        Node.get<TemplateArgumentLoc>() || Node.get<StaticAssertDecl>() ||
        Node.get<EnumConstantDecl>())
      return true;
    // A name's explicit template arguments (`load<threads>(p)`): the walk
    // may list them right below the name, which has no other child
    // expression (a member access has its object).
    if (Node.get<DeclRefExpr>() || Node.get<UnresolvedLookupExpr>() ||
        Node.get<DependentScopeDeclRefExpr>())
      return true;
    if (const auto *Member = Node.get<MemberExpr>();
        Member && Below.get<Expr>() != Member->getBase())
      return true;
    if (const auto *A = Node.get<Attr>())
      return isa<AlignedAttr>(A);
    if (const auto *Var = Node.get<VarDecl>())
      return isCompileTimeConstant(*Var, Ctx) &&
             !canHoldAddress(Var->getType(), Ctx);
    if (!Node.get<Expr>())
      return false;
  }
}

bool isClosure(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isLambda();
}

/// Whether the host constant \p Var has a value the device compiler can fold:
/// a constant initializer that is visible here.
bool hasFoldableValue(const VarDecl &Var) {
  const VarDecl *Def = Var.getDefinition();
  if (!Def)
    Def = Var.getInitializingDeclaration();
  return Def && Def->hasInit() && !Def->getInit()->isValueDependent() &&
         Def->hasConstantInitialization();
}

/// Whether \p Var's value depends on template parameters: a variable of a
/// template's pattern (`static constexpr kind_t kind = K;`), whose value
/// only its instantiations know.
bool hasDependentValue(const VarDecl &Var) {
  if (Var.getType()->isDependentType())
    return true;
  const Expr *Init = Var.getAnyInitializer();
  return Init && Init->isValueDependent();
}

/// Whether \p Function is a constexpr function (not a lambda, which nvcc
/// compiles as the code around it) that runs on the device: nvcc compiles
/// its body for the device only when a call evaluates it at run time.
bool isConstexprDeviceFunction(const FunctionDecl &Function) {
  return Function.isConstexpr() && !isLambdaCallOperator(&Function) &&
         utils::runsOnDevice(spaceOf(Function));
}

/// Whether \p Kind needs the storage of a host constant, which a constexpr
/// function needs only when it is evaluated at run time.
bool needsStorage(Use Kind) {
  return Kind == Use::Reference || Kind == Use::Address ||
         Kind == Use::MemberCall || Kind == Use::ArrayIndex;
}

/// Whether the call \p Call is folded to a value that keeps nothing of the
/// host's storage (not an address): nvcc then does not evaluate it on the
/// device.
bool isFoldedToValue(const CallExpr &Call, const ASTContext &Ctx) {
  if (Call.getType()->isVoidType() || canHoldAddress(Call.getType(), Ctx))
    return false;
  Expr::EvalResult Folded;
  return Call.EvaluateAsRValue(Folded, Ctx) && !Folded.Val.isLValue();
}

/// The host variable that the reference variable \p Var is bound to when its
/// initializer names one (`const int &r = limit;`): device code that reads
/// `r` reads that variable, and nvcc folds it where it would fold the
/// variable itself (warning #20094-D, right value).
const VarDecl *boundVariable(const VarDecl &Var) {
  if (!Var.getType()->isReferenceType())
    return nullptr;
  const Expr *Init = Var.getAnyInitializer();
  if (!Init || Init->isValueDependent())
    return nullptr;
  const auto *Named = dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts());
  const auto *Bound = Named ? dyn_cast<VarDecl>(Named->getDecl()) : nullptr;
  return Bound && Bound->hasGlobalStorage() &&
                 !Bound->getType()->isReferenceType()
             ? Bound
             : nullptr;
}

/// Whether clang found \p Ref to be no odr-use of the constant it names:
/// its value is read right where it is named ([basic.def.odr]).
bool isNonOdrUseOfConstant(const Expr &Ref) {
  if (const auto *Name = dyn_cast<DeclRefExpr>(&Ref))
    return Name->isNonOdrUse() == NOUR_Constant;
  if (const auto *Member = dyn_cast<MemberExpr>(&Ref))
    return Member->isNonOdrUse() == NOUR_Constant;
  return false;
}

/// Whether the semantic form of a braced list, \p List, reads the value of
/// the element written as \p Element (a name clang may have rebuilt there:
/// matched by kind and place): an lvalue-to-rvalue conversion of it, under
/// any further conversions, in \p List or a list it holds (brace elision).
bool readsValueOf(const InitListExpr &List, const Expr &Element) {
  for (const Expr *Init : List.inits()) {
    if (!Init)
      continue;
    if (const auto *Inner = dyn_cast<InitListExpr>(Init)) {
      if (readsValueOf(*Inner, Element))
        return true;
      continue;
    }
    bool Converted = false;
    const Expr *E = Init;
    while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      Converted |= Cast->getCastKind() == CK_LValueToRValue;
      E = Cast->getSubExpr();
    }
    E = E->IgnoreParens();
    if (E->getStmtClass() == Element.getStmtClass() &&
        E->getExprLoc() == Element.getExprLoc())
      return Converted || isNonOdrUseOfConstant(*E);
  }
  return false;
}

/// How \p Ref, a use of the host constant \p Var, reaches device code.
Use classifyConstantUse(const Expr &Ref, const VarDecl &Var,
                        const utils::Ancestry &Above, ASTContext &Ctx) {
  QualType T = Var.getType();
  DynTypedNode Parent = parentOf(Ref, Above);
  const auto *ParentExpr = Parent.get<Expr>();
  // In a template's pattern a dependent parent has no conversions yet: its
  // instantiations tell.
  if (ParentExpr &&
      (ParentExpr->isTypeDependent() || ParentExpr->isValueDependent()))
    return Use::Unknown;
  if (const auto *Unary = Parent.get<UnaryOperator>();
      Unary && Unary->getOpcode() == UO_AddrOf)
    return isInConstantContext(*Unary, Above, Ctx) ? Use::Fine : Use::Address;

  if (T->isArrayType()) {
    const auto *Decay = Parent.get<ImplicitCastExpr>();
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return Use::Reference;
    const auto *Subscript = parentOf(*Decay, Above).get<ArraySubscriptExpr>();
    if (isInConstantContext(*Decay, Above, Ctx))
      return Use::Fine;
    return Subscript ? Use::ArrayIndex : Use::Address;
  }

  if (T->isRecordType()) {
    // Members read from a constant object and copies of it are folded; a
    // member function called on it needs the object's address, unless the
    // whole call is itself a constant.
    const CallExpr *Call = nullptr;
    if (const auto *Member = Parent.get<MemberExpr>()) {
      if (isa<CXXMethodDecl>(Member->getMemberDecl()))
        Call = parentOf(*Member, Above).get<CXXMemberCallExpr>();
    } else if (const auto *Op = Parent.get<CXXOperatorCallExpr>();
               Op && Op->getNumArgs() > 0 &&
               Op->getArg(0)->IgnoreParenImpCasts() == &Ref) {
      Call = Op;
    }
    if (!Call)
      return Use::Fine;
    if (Call->isValueDependent())
      return Use::Unknown;
    if (isInConstantContext(*Call, Above, Ctx))
      return Use::Fine;
    Expr::EvalResult Folded;
    if (!Call->getType()->isVoidType() && Call->EvaluateAsRValue(Folded, Ctx))
      return Use::Fine;
    return isClosure(T) ? Use::LambdaObject : Use::MemberCall;
  }

  if (Ref.isLValue() &&
      (Ref.getType()->isReferenceType() || !T->isScalarType()))
    return Use::Reference;
  // Not an odr-use: the language reads the constant's value where it is
  // named. nvcc folds it like any read.
  if (isNonOdrUseOfConstant(Ref))
    return Use::Fine;
  // An element of a braced list as written (`T{max_val, 1}`, `int a[] =
  // {max_val}`): the walk meets the list without its conversions, and clang
  // rebuilt the element it converts; the list's semantic form tells.
  if (const auto *List = Parent.get<InitListExpr>())
    if (const InitListExpr *Semantic =
            List->isSemanticForm() ? List : List->getSemanticForm();
        Semantic && readsValueOf(*Semantic, Ref))
      return Use::Fine;
  // The lvalue may be a potential result of a larger one (C++
  // [basic.def.odr]): an operand of a glvalue conditional (`c ? limit : n`),
  // the right of a comma. Reading the whole reads the value: no storage.
  const Expr *Result = &Ref;
  DynTypedNode Reader = Parent;
  for (;;) {
    if (const auto *Cond = Reader.get<ConditionalOperator>();
        Cond && Cond->isGLValue() &&
        (Cond->getTrueExpr()->IgnoreParens() == Result ||
         Cond->getFalseExpr()->IgnoreParens() == Result)) {
      Result = Cond;
    } else if (const auto *Comma = Reader.get<BinaryOperator>();
               Comma && Comma->getOpcode() == BO_Comma &&
               Comma->getRHS()->IgnoreParens() == Result) {
      Result = Comma;
    } else {
      break;
    }
    Reader = parentOf(*Result, Above);
  }
  if (const auto *Cast = Reader.get<ImplicitCastExpr>();
      Cast && Cast->getCastKind() == CK_LValueToRValue)
    return Use::Fine;
  if (isInConstantContext(Ref, Above, Ctx))
    return Use::Fine;
  return Use::Reference;
}

} // namespace

void HostVariableInDeviceCodeCheck::registerPPCallbacks(const SourceManager &SM,
                                                        Preprocessor *PP,
                                                        Preprocessor *) {
  PP->addPPCallbacks(std::make_unique<ManagedCollector>(SM, ManagedExpansions));
}

void HostVariableInDeviceCodeCheck::registerMatchers(MatchFinder *Finder) {
  // The uses are found in the code of each function and lambda that runs on
  // the device, which check() walks.
  Callables = utils::matchCallables(*Finder, this);
}

/// The variable with static storage (namespace scope, class-static,
/// function-static) that \p Node names, if any.
static const VarDecl *staticVariableNamedBy(const Stmt &S) {
  const ValueDecl *Named = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&S))
    Named = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(&S))
    Named = ME->getMemberDecl();
  const auto *Var = dyn_cast_or_null<VarDecl>(Named);
  return Var && Var->hasGlobalStorage() ? Var : nullptr;
}

static const VarDecl *staticVariableNamedBy(const DynTypedNode &Node) {
  const auto *S = Node.get<Stmt>();
  return S ? staticVariableNamedBy(*S) : nullptr;
}

void HostVariableInDeviceCodeCheck::check(
    const MatchFinder::MatchResult &Result) {
  const std::optional<utils::Callable> Code = utils::matchedCallable(Result);
  if (!Code)
    return;
  const FunctionDecl &Function = Code->function();
  const bool DevicePass = getLangOpts().CUDAIsDevice;
  // __host__ __device__ code is reported in the device pass only: that pass
  // sees what the device compiles (`#ifndef __CUDA_ARCH__` branches are gone),
  // the host pass sees the host's branches instead. Host code is walked for
  // its calls only: a __host__ __device__ constexpr function that host code
  // evaluates at run time is compiled for the device too (nvcc 13).
  bool DeviceCode = false;
  switch (spaceOf(Function)) {
  case Space::Host:
    if (!DevicePass ||
        (Function.isConstexpr() && !isLambdaCallOperator(&Function)))
      return;
    break;
  case Space::HostDevice:
    if (!DevicePass)
      return;
    DeviceCode = true;
    break;
  case Space::Device:
  case Space::Global:
    DeviceCode = true;
    break;
  }
  // A constexpr function's uses of host constants are judged at the calls
  // that evaluate it at run time, and so are the calls it makes.
  const bool InConstexpr = isConstexprDeviceFunction(Function);
  const SourceManager &SM = *Result.SourceManager;
  ASTContext &Ctx = *Result.Context;
  Code->forEachStmt([&](const Stmt &S, const DynTypedNode &Node,
                        utils::AncestorList Above) {
    if (const auto *Call = dyn_cast<CallExpr>(&S)) {
      // Only calls of constexpr functions are judged (checkCall): the
      // others need no copy of the path above them.
      const FunctionDecl *Called = Call->getDirectCallee();
      if (!InConstexpr && Called && Called->isConstexpr())
        checkCall(*Call, utils::Ancestry(Node, Above), Ctx, !DeviceCode);
      return;
    }
    if (!DeviceCode)
      return;
    const VarDecl *Var = staticVariableNamedBy(S);
    if (!Var)
      return;
    const auto &Ref = cast<Expr>(S);
    // clang shares a template's non-dependent nodes with its instantiations:
    // such a use is judged once, with the parents it has where first met (in
    // the pattern), as clang's parent map lists them first.
    if (!Seen.insert(&Ref).second)
      return;
    if (utils::isExpansionInSystemHeader(Ref.getBeginLoc(), SM))
      return;
    checkUse(Ref, *Var, utils::Ancestry(Node, Above), Ctx, InConstexpr);
  });
}

Use HostVariableInDeviceCodeCheck::judgeUse(const Expr &Ref,
                                            const VarDecl &Var,
                                            const utils::Ancestry &Above,
                                            ASTContext &Ctx,
                                            const FunctionDecl *&Owner) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Owner = nullptr;

  // Only names the compiler would resolve in device code count: a reference
  // in sizeof or decltype does not reach the device.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&Ref);
      DRE && DRE->isNonOdrUse() == NOUR_Unevaluated)
    return Use::Fine;
  if (const auto *ME = dyn_cast<MemberExpr>(&Ref);
      ME && ME->isNonOdrUse() == NOUR_Unevaluated)
    return Use::Fine;

  // Device variables, whatever their storage.
  if (utils::variableSpaceOf(Var, utils::AttributePolicy::AsWritten) !=
      utils::VariableSpace::Host)
    return Use::Fine;
  // `__managed__` expanded from a macro of another name, which
  // variableSpaceOf(), reading the declaration's text, does not see.
  for (const VarDecl *Redecl : Var.redecls()) {
    SourceLocation Name = SM.getExpansionLoc(Redecl->getLocation());
    SourceLocation Begin = SM.getExpansionLoc(Redecl->getBeginLoc());
    for (SourceLocation Managed : ManagedExpansions)
      if (!SM.isBeforeInTranslationUnit(Managed, Begin) &&
          SM.isBeforeInTranslationUnit(Managed, Name))
        return Use::Fine;
  }
  // A static local of device or host-device code lives on the device (a
  // host-device function's is cuda-static-in-host-device-function's concern).
  if (Var.isStaticLocal()) {
    Owner = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
    if (Owner && utils::runsOnDevice(spaceOf(*Owner)))
      return Use::Fine;
  }

  // A name in a constant expression (static_assert, a template argument, an
  // array bound, `if constexpr`, an enumerator, a constexpr local's value)
  // is not read on the device, whatever it names.
  if (isInConstantContext(Ref, Above, Ctx))
    return Use::Fine;

  // A reference variable is judged by what it is bound to, when it names
  // it; the findings still name the reference, which is what the code says.
  const VarDecl *Object = &Var;
  if (const VarDecl *Bound = boundVariable(Var))
    Object = Bound;
  // In a template's pattern a member such as `static constexpr kind_t kind =
  // K;` has no value yet: the instantiations, whose use names the
  // instantiated member and its value, tell.
  if (hasDependentValue(Var) || hasDependentValue(*Object))
    return Use::Unknown;
  Use Kind = Use::Variable;
  QualType T = Object->getType();
  if (T.isConstQualified() && !T.isVolatileQualified() &&
      !T->isReferenceType()) {
    Kind = hasFoldableValue(*Object)
               ? classifyConstantUse(Ref, *Object, Above, Ctx)
               : (Object->hasExternalStorage() ? Use::NoInitializer
                                               : Use::Variable);
  }
  if (Kind == Use::Variable && isClosure(T))
    Kind = Use::LambdaObject;
  return Kind;
}

/// The declaration a finding about \p Var is reported once for: that of
/// the template whose instantiations \p Var is one of, or \p Var itself.
static const Decl *reportedDecl(const VarDecl &Var) {
  if (const VarDecl *From = Var.getInstantiatedFromStaticDataMember())
    return From->getCanonicalDecl();
  if (const auto *Spec = dyn_cast<VarTemplateSpecializationDecl>(&Var))
    return Spec->getSpecializedTemplate()->getCanonicalDecl();
  return Var.getCanonicalDecl();
}

/// The name a finding gives \p Var: that of the member as the template
/// declares it (`Stats::calls`, not `Stats<int>::calls`), so that a finding
/// reached through different instantiations in different translation units
/// is one finding, written as the user wrote it.
static std::string nameOf(const VarDecl &Var) {
  const VarDecl *Named = &Var;
  if (const VarDecl *From = Var.getInstantiatedFromStaticDataMember())
    Named = From;
  return Named->isStaticDataMember() ? Named->getQualifiedNameAsString()
                                     : Named->getNameAsString();
}

/// Where a finding about the use \p Ref is reported: at the name itself,
/// after any `ns::` or `object.` before it.
static SourceLocation nameLocation(const Expr &Ref) {
  return isa<DeclRefExpr>(Ref) ? cast<DeclRefExpr>(Ref).getLocation()
                               : cast<MemberExpr>(Ref).getMemberLoc();
}

std::optional<HostVariableInDeviceCodeCheck::StorageUse>
HostVariableInDeviceCodeCheck::storageUseOf(const FunctionDecl &Callee,
                                            ASTContext &Ctx) {
  const FunctionDecl *Function = Callee.getDefinition();
  if (!Function || !isConstexprDeviceFunction(*Function) ||
      utils::isExpansionInSystemHeader(Function->getLocation(),
                                       Ctx.getSourceManager()))
    return std::nullopt;
  // What the device compiles of a __host__ __device__ function is what the
  // device pass sees.
  if (spaceOf(*Function) == Space::HostDevice && !getLangOpts().CUDAIsDevice)
    return std::nullopt;
  // Marked as having none while it is walked: a recursive call adds nothing.
  if (auto [It, New] = StorageUses.try_emplace(Function); !New)
    return It->second.Var ? std::optional(It->second) : std::nullopt;

  StorageUse Found;
  utils::forEachNodeOf(*Function, [&](const DynTypedNode &Node,
                                      utils::AncestorList Above) {
    if (Found.Var)
      return;
    if (const auto *Call = Node.get<CallExpr>()) {
      if (std::optional<StorageUse> Inner = storageUseAtRunTime(
              *Call, utils::Ancestry(Node, Above), Ctx))
        Found = *Inner;
      return;
    }
    const VarDecl *Var = staticVariableNamedBy(Node);
    if (!Var)
      return;
    const auto &Ref = *Node.get<Expr>();
    const FunctionDecl *Owner = nullptr;
    const Use Kind =
        judgeUse(Ref, *Var, utils::Ancestry(Node, Above), Ctx, Owner);
    if (needsStorage(Kind))
      Found = {Var, nameLocation(Ref), Kind};
  });
  StorageUses[Function] = Found;
  return Found.Var ? std::optional(Found) : std::nullopt;
}

std::optional<HostVariableInDeviceCodeCheck::StorageUse>
HostVariableInDeviceCodeCheck::storageUseAtRunTime(
    const CallExpr &Call, const utils::Ancestry &Above, ASTContext &Ctx) {
  // In a template's pattern, the instantiations tell.
  if (Call.isTypeDependent() || Call.isValueDependent())
    return std::nullopt;
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->isConstexpr())
    return std::nullopt;
  std::optional<StorageUse> Found = storageUseOf(*Callee, Ctx);
  // A call in a constant expression, or one nvcc folds to a value, is not
  // evaluated on the device.
  if (!Found || isInConstantContext(Call, Above, Ctx) ||
      isFoldedToValue(Call, Ctx))
    return std::nullopt;
  return Found;
}

void HostVariableInDeviceCodeCheck::checkCall(const CallExpr &Call,
                                              const utils::Ancestry &Above,
                                              ASTContext &Ctx, bool FromHost) {
  const FunctionDecl *Called = Call.getDirectCallee();
  // Host code calls __host__ __device__ functions only (a __device__ one at
  // run time is another error, which clang reports).
  if (!Called || !Called->isConstexpr() ||
      (FromHost && spaceOf(*Called) != Space::HostDevice))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  if (utils::isExpansionInSystemHeader(Call.getBeginLoc(), SM))
    return;
  const std::optional<StorageUse> Found =
      storageUseAtRunTime(Call, Above, Ctx);
  if (!Found)
    return;
  const FunctionDecl &Callee = *Called;
  // At the function's name (at the operator for an operator call); once
  // for all instantiations of a template around the call.
  const SourceLocation Loc =
      isa<CXXOperatorCallExpr>(Call)
          ? Call.getExprLoc()
          : Call.getCallee()->IgnoreParenImpCasts()->getExprLoc();
  const FunctionDecl *Pattern = Callee.getTemplateInstantiationPattern();
  if (!Pattern)
    Pattern = &Callee;
  if (!Reported.insert({SM.getExpansionLoc(Loc), Pattern->getCanonicalDecl()})
           .second)
    return;

  const std::string Name = nameOf(*Found->Var);
  diag(Loc, "constexpr function '%0' is evaluated at run time here, so nvcc "
            "compiles it for the device, where it %select{binds a reference "
            "to host constant|takes the address of host constant|calls a "
            "member function of host constant|indexes host array}1 '%2', "
            "which exists only in host memory; call it with constant "
            "arguments, or declare '%2' __constant__")
      << Callee.getNameAsString()
      << (Found->Kind == Use::Reference ? 0
          : Found->Kind == Use::Address ? 1
          : Found->Kind == Use::MemberCall ? 2
                                           : 3)
      << Name;
  diag(Found->Loc, "'%0' used here", DiagnosticIDs::Note) << Name;
  diag(Found->Var->getLocation(), "'%0' declared here", DiagnosticIDs::Note)
      << Name;
}

void HostVariableInDeviceCodeCheck::checkUse(const Expr &Ref,
                                             const VarDecl &Variable,
                                             const utils::Ancestry &Above,
                                             ASTContext &Ctx,
                                             bool InConstexpr) {
  const VarDecl *Var = &Variable;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Owner = nullptr;
  const Use Kind = judgeUse(Ref, *Var, Above, Ctx, Owner);
  if (Kind == Use::Fine || Kind == Use::Unknown)
    return;
  // A constexpr function that needs a host constant's storage is fine as
  // long as every call folds it; the calls that do not are reported.
  if (InConstexpr && needsStorage(Kind))
    return;

  // One report per use, not one per instantiation of the template whose
  // static member or variable it names.
  const SourceLocation Loc = nameLocation(Ref);
  if (!Reported.insert({SM.getExpansionLoc(Loc), reportedDecl(*Var)}).second)
    return;

  const std::string Name = nameOf(*Var);
  switch (Kind) {
  case Use::Variable:
    if (Owner)
      diag(Loc, "static local '%0' of host function '%1' is used in device "
                "code, where it does not exist; copy its value into a local "
                "variable and capture that")
          << Name << Owner->getNameAsString();
    else
      diag(Loc, "host %select{variable|static member}0 '%1' is used in "
                "device code, where it does not exist; declare it "
                "__device__ or __constant__ and set it with "
                "cudaMemcpyToSymbol, or pass its value in as a kernel "
                "argument or lambda capture")
          << (Var->isStaticDataMember() ? 1 : 0) << Name;
    break;
  case Use::LambdaObject:
    diag(Loc, "lambda object '%0' is a host variable, which device code "
              "cannot call through; pass it in as a kernel argument or "
              "define the lambda inside the device code")
        << Name;
    break;
  case Use::NoInitializer:
    diag(Loc, "host constant '%0' has no initializer visible here, so device "
              "code cannot use its value; define it with a constant "
              "initializer in this file, declare it __constant__ and set it "
              "with cudaMemcpyToSymbol, or pass its value in")
        << Name;
    break;
  case Use::Reference:
  case Use::Address:
  case Use::MemberCall:
    diag(Loc, "device code %select{binds a reference to|takes the address "
              "of|calls a member function of}0 host constant '%1', which "
              "exists only in host memory; copy its value into a local "
              "variable, or declare it __constant__")
        << (Kind == Use::Reference ? 0
            : Kind == Use::Address ? 1
                                   : 2)
        << Name;
    break;
  case Use::ArrayIndex:
    diag(Loc, "host array '%0' is indexed at run time in device code, but "
              "it exists only in host memory; declare it __constant__ or "
              "__device__, which keeps its initializer")
        << Name;
    break;
  case Use::Fine:
  case Use::Unknown:
    break;
  }
  diag(Var->getLocation(), "'%0' declared here", DiagnosticIDs::Note) << Name;
}

} // namespace clang::tidy::cuda

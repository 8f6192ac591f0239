//===--- LambdaAdlPlaceholderCheck.cpp - cuda-lambda-tidy ---------------===//

#include "LambdaAdlPlaceholderCheck.h"
#include "utils/AncestorWalk.h"
#include "utils/CallableCode.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/LambdaReach.h"
#include "utils/LambdaSyntax.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Nesting deeper than this is not followed.
constexpr unsigned MaxDepth = 16;

/// The namespaces argument-dependent lookup searches for arguments of the
/// types added, each with the first type that brought it in (the why, for
/// the diagnostic): [basic.lookup.argdep], without hidden friends.
class AssociatedNamespaces {
public:
  void addType(QualType T, const std::string &Why, unsigned Depth = 0) {
    if (T.isNull() || Depth > MaxDepth)
      return;
    const Type *Ty = T.getCanonicalType().getTypePtr();
    if (!SeenTypes.insert(Ty).second)
      return;
    if (const auto *P = dyn_cast<PointerType>(Ty))
      return addType(P->getPointeeType(), Why, Depth + 1);
    if (const auto *R = dyn_cast<ReferenceType>(Ty))
      return addType(R->getPointeeType(), Why, Depth + 1);
    if (const auto *A = dyn_cast<ArrayType>(Ty))
      return addType(A->getElementType(), Why, Depth + 1);
    if (const auto *F = dyn_cast<FunctionProtoType>(Ty)) {
      addType(F->getReturnType(), Why, Depth + 1);
      for (QualType Param : F->param_types())
        addType(Param, Why, Depth + 1);
      return;
    }
    if (const auto *M = dyn_cast<MemberPointerType>(Ty)) {
      addType(M->getPointeeType(), Why, Depth + 1);
      if (const CXXRecordDecl *Class = M->getMostRecentCXXRecordDecl())
        addClass(*Class, Why, Depth + 1);
      return;
    }
    if (const auto *Enum = Ty->getAs<EnumType>())
      return addNamespaceOf(*Enum->getDecl(), Why);
    if (const CXXRecordDecl *Class = Ty->getAsCXXRecordDecl())
      addClass(*Class, Why, Depth + 1);
  }

  void addClass(const CXXRecordDecl &Class, const std::string &Why,
                unsigned Depth = 0) {
    addNamespaceOf(Class, Why);
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Class))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        addArgument(Arg, Why, Depth + 1);
    if (const CXXRecordDecl *Definition = Class.getDefinition())
      for (const CXXBaseSpecifier &Base : Definition->bases())
        addType(Base.getType(), Why, Depth + 1);
  }

  void addNamespace(const DeclContext &Namespace, const std::string &Why) {
    Namespaces.insert({Namespace.getPrimaryContext(), Why});
  }

  const llvm::MapVector<const DeclContext *, std::string> &namespaces() const {
    return Namespaces;
  }

private:
  void addArgument(const TemplateArgument &Arg, const std::string &Why,
                   unsigned Depth) {
    if (Arg.getKind() == TemplateArgument::Type)
      addType(Arg.getAsType(), Why, Depth);
    else if (Arg.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &Element : Arg.pack_elements())
        addArgument(Element, Why, Depth);
  }

  /// The innermost namespace around \p D; a local class's is that of its
  /// function.
  void addNamespaceOf(const Decl &D, const std::string &Why) {
    const DeclContext *Context = D.getDeclContext();
    while (Context && !Context->isFileContext())
      Context = Context->getParent();
    if (!Context)
      return;
    addNamespace(*Context, Why);
    // An inline namespace's enclosing namespace is associated as well.
    while (Context->isInlineNamespace() && Context->getParent()) {
      Context = Context->getParent();
      addNamespace(*Context, Why);
    }
  }

  llvm::SmallPtrSet<const Type *, 16> SeenTypes;
  llvm::MapVector<const DeclContext *, std::string> Namespaces;
};

std::string quoted(QualType T, const ASTContext &Ctx) {
  return "'" + T.getAsString(Ctx.getPrintingPolicy()) + "'";
}

/// What nvcc's placeholder for the closure of \p Lambda (extended, in
/// \p Enclosing) names in its template arguments.
AssociatedNamespaces placeholderNamespaces(const LambdaExpr &Lambda,
                                           utils::ExtendedLambdaKind Kind,
                                           const FunctionDecl &Enclosing,
                                           const ASTContext &Ctx) {
  AssociatedNamespaces Placeholder;
  const std::string Function = "'" + Enclosing.getNameAsString() + "'";
  for (const ParmVarDecl *Param : Enclosing.parameters())
    Placeholder.addType(Param->getType(), "the parameter type " +
                                              quoted(Param->getType(), Ctx) +
                                              " of " + Function);
  Placeholder.addType(Enclosing.getReturnType(),
                      "the return type " +
                          quoted(Enclosing.getReturnType(), Ctx) + " of " +
                          Function);
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Enclosing))
    Placeholder.addClass(*Method->getParent(),
                         "the class '" + Method->getParent()->getNameAsString() +
                             "' of " + Function);
  for (const LambdaCapture &Capture : Lambda.captures())
    if (Capture.capturesVariable())
      if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
        Placeholder.addType(Var->getType().getNonReferenceType(),
                            "the type " + quoted(Var->getType(), Ctx) +
                                " of the captured variable '" +
                                Var->getNameAsString() + "'");
  if (Kind == utils::ExtendedLambdaKind::HostDevice) {
    const CXXMethodDecl *Op = Lambda.getCallOperator();
    Placeholder.addType(Op->getType(), "the lambda's own signature " +
                                           quoted(Op->getType(), Ctx));
  }
  // __nv_dl_wrapper_t and __nv_hdl_wrapper_t are in the global namespace.
  Placeholder.addNamespace(*Ctx.getTranslationUnitDecl(),
                           "nvcc's wrapper class, in the global namespace");
  return Placeholder;
}

/// Whether \p Class is \p Base or has it among its bases, at any depth.
bool isOrDerivesFrom(const CXXRecordDecl &Class, const CXXRecordDecl &Base) {
  if (Class.getCanonicalDecl() == Base.getCanonicalDecl())
    return true;
  const CXXRecordDecl *Definition = Class.getDefinition();
  return Definition && Definition->isDerivedFrom(&Base);
}

/// Whether \p Class is a specialization of \p Template or derives from one:
/// what template argument deduction accepts for a parameter 'Template<...>'.
bool isOrDerivesFromSpecializationOf(const CXXRecordDecl &Class,
                                     const ClassTemplateDecl &Template,
                                     unsigned Depth = 0) {
  if (Depth > MaxDepth)
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Class))
    if (Spec->getSpecializedTemplate()->getCanonicalDecl() ==
        Template.getCanonicalDecl())
      return true;
  const CXXRecordDecl *Definition = Class.getDefinition();
  if (!Definition)
    return true; // Unknown: assume it may.
  for (const CXXBaseSpecifier &Base : Definition->bases()) {
    const CXXRecordDecl *BaseClass = Base.getType()->getAsCXXRecordDecl();
    if (!BaseClass ||
        isOrDerivesFromSpecializationOf(*BaseClass, Template, Depth + 1))
      return true;
  }
  return false;
}

/// Whether an argument of class type \p Arg may convert to the class
/// \p Param: a derived-to-base conversion, a conversion function of the
/// argument, or a non-explicit constructor of the parameter's class whose
/// first parameter could take the argument with no second user-defined
/// conversion. Errs towards "may".
bool classMayConvert(const CXXRecordDecl &Arg, const CXXRecordDecl &Param) {
  if (isOrDerivesFrom(Arg, Param))
    return true;
  const CXXRecordDecl *ArgDef = Arg.getDefinition();
  const CXXRecordDecl *ParamDef = Param.getDefinition();
  if (!ArgDef || !ParamDef)
    return true;
  if (!ArgDef->getVisibleConversionFunctions().empty())
    return true;
  for (const Decl *D : ParamDef->decls()) {
    const FunctionDecl *Ctor = nullptr;
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      Ctor = Template->getTemplatedDecl();
    else
      Ctor = dyn_cast<FunctionDecl>(D);
    const auto *Constructor = dyn_cast_or_null<CXXConstructorDecl>(Ctor);
    if (!Constructor || Constructor->isExplicit() ||
        Constructor->getNumParams() == 0 ||
        Constructor->getMinRequiredArguments() > 1)
      continue;
    const QualType First =
        Constructor->getParamDecl(0)->getType().getNonReferenceType();
    if (First->isDependentType())
      return true;
    const CXXRecordDecl *FirstClass = First->getAsCXXRecordDecl();
    // A non-class first parameter needs a conversion function of the
    // argument (none, above); another class needs a derived-to-base one.
    if (FirstClass && isOrDerivesFrom(Arg, *FirstClass))
      return true;
  }
  // An inheriting 'using Base::Base' is left to the caller's doubt.
  return llvm::any_of(ParamDef->decls(),
                      [](const Decl *D) { return isa<UsingDecl>(D); });
}

/// Whether the argument \p Arg may be passed to \p Param of a function
/// template in overload resolution: false only where template argument
/// deduction fails ('X<T>' given a class that is no X) or no implicit
/// conversion exists between two classes. Everything else may.
bool argumentMayMatch(QualType Arg, QualType Param) {
  const QualType P = Param.getNonReferenceType().getCanonicalType();
  const QualType A = Arg.getNonReferenceType().getCanonicalType();
  const CXXRecordDecl *ArgClass = A->getAsCXXRecordDecl();
  if (P->isDependentType()) {
    const auto *Pattern = P->getAs<TemplateSpecializationType>();
    if (!Pattern)
      return true;
    const auto *Template = dyn_cast_or_null<ClassTemplateDecl>(
        Pattern->getTemplateName().getAsTemplateDecl());
    if (!Template)
      return true;
    // Deduction from 'X<T...>' needs an X or a class derived from one.
    return ArgClass ? isOrDerivesFromSpecializationOf(*ArgClass, *Template)
                    : A->isDependentType();
  }
  const CXXRecordDecl *ParamClass = P->getAsCXXRecordDecl();
  if (!ParamClass || !ArgClass)
    return true;
  return classMayConvert(*ArgClass, *ParamClass);
}

/// Whether \p Function could be called with \p Args: their number, and
/// each argument against its parameter (argumentMayMatch).
bool mayBeViable(const FunctionDecl &Function, ArrayRef<const Expr *> Args) {
  const bool Pack = llvm::any_of(
      Function.parameters(),
      [](const ParmVarDecl *P) { return P->isParameterPack(); });
  if (Args.size() < Function.getMinRequiredArguments() ||
      (!Pack && !Function.isVariadic() && Args.size() > Function.getNumParams()))
    return false;
  for (unsigned I = 0; I < Args.size() && I < Function.getNumParams(); ++I) {
    const ParmVarDecl *Param = Function.getParamDecl(I);
    if (Param->isParameterPack())
      break;
    if (!argumentMayMatch(Args[I]->getType(), Param->getType()))
      return false;
  }
  return true;
}

/// A function template of \p Name in \p Namespace that the arguments
/// \p Args could call: what ADL through the placeholder adds to the
/// candidates. One that no argument list of these types could call (the
/// RAJA pattern: 'forall_impl(Host, const seq_exec &, ...)' found next to
/// the policy's own) changes nothing and is not returned.
const FunctionTemplateDecl *candidateIn(const DeclContext &Namespace,
                                        DeclarationName Name,
                                        ArrayRef<const Expr *> Args) {
  for (const NamedDecl *Found : Namespace.lookup(Name)) {
    const auto *Template =
        dyn_cast<FunctionTemplateDecl>(Found->getUnderlyingDecl());
    if (Template && mayBeViable(*Template->getTemplatedDecl(), Args))
      return Template;
  }
  return nullptr;
}

/// Whether \p Call names a function without qualification or parentheses,
/// so that argument-dependent lookup runs for it. (CallExpr::usesADL() says
/// only whether the function chosen came from it.)
bool isUnqualifiedCall(const CallExpr &Call) {
  // A kernel launch becomes a call nvcc writes itself, without this lookup
  // (measured: a launch of 'apply' given a lambda capturing a std::pair is
  // not ambiguous with std::apply).
  if (isa<CXXOperatorCallExpr, CXXMemberCallExpr, CUDAKernelCallExpr>(Call))
    return false;
  const auto *Name = dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreImpCasts());
  return Name && !Name->hasQualifier() && isa<FunctionDecl>(Name->getDecl()) &&
         !isa<CXXMethodDecl>(Name->getDecl());
}

/// How to name \p Callee so that no argument-dependent lookup runs.
std::string qualifiedCallee(const FunctionDecl &Callee) {
  std::string Name = utils::qualifiedNameWithoutInline(Callee);
  if (Name.empty())
    Name = Callee.getQualifiedNameAsString();
  return Callee.getDeclContext()->getRedeclContext()->isTranslationUnit()
             ? "::" + Name
             : Name;
}

} // namespace

void LambdaAdlPlaceholderCheck::registerMatchers(MatchFinder *Finder) {
  // The unqualified calls are found in the host code of each function and
  // lambda, which check() walks.
  Callables = utils::matchCallables(*Finder, this);
}

void LambdaAdlPlaceholderCheck::check(const MatchFinder::MatchResult &Result) {
  const std::optional<utils::Callable> Code = utils::matchedCallable(Result);
  // The placeholder exists in what nvcc's host compiler compiles only.
  if (!Code || !utils::runsOnHost(utils::executionSpaceOf(Code->function())))
    return;
  // Calls that argument-dependent lookup resolves are plain calls (or
  // user-defined literals): code without any has nothing to look at.
  if (!Code->contains(Stmt::CallExprClass) &&
      !Code->contains(Stmt::UserDefinedLiteralClass))
    return;
  // The lambdas written in this code are met on the way (a lambda passed
  // as an argument right after the call that takes it): known without
  // searching for them again.
  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> LambdasHere;
  llvm::SmallVector<const CallExpr *, 8> Calls;
  Code->forEachStmt([&](const Stmt &S, const DynTypedNode &,
                        utils::AncestorList) {
    if (const auto *Lambda = dyn_cast<LambdaExpr>(&S))
      LambdasHere.try_emplace(Lambda->getLambdaClass(), Lambda);
    else if (const auto *Call = dyn_cast<CallExpr>(&S);
             Call && isUnqualifiedCall(*Call))
      Calls.push_back(Call);
  });
  for (const CallExpr *Call : Calls)
    checkCall(*Call, *Result.SourceManager, LambdasHere);
}

void LambdaAdlPlaceholderCheck::checkCall(
    const CallExpr &Call, const SourceManager &SM,
    const llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *>
        &LambdasHere) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Call.getBeginLoc().isInvalid() ||
      SM.isInSystemHeader(SM.getExpansionLoc(Call.getBeginLoc())))
    return;
  const ASTContext &Ctx = Callee->getASTContext();
  const auto Arguments = llvm::ArrayRef(Call.getArgs(), Call.getNumArgs());

  const DeclContext *CalleeNamespace =
      Callee->getDeclContext()->getEnclosingNamespaceContext()->getPrimaryContext();
  // What lookup through the real argument types searches, in both compilers.
  AssociatedNamespaces Real;
  for (const Expr *Arg : Arguments)
    Real.addType(Arg->getType(), "");

  for (const Expr *Arg : Arguments) {
    llvm::SmallPtrSet<const CXXRecordDecl *, 2> Closures;
    utils::collectClosureTypes(Arg->getType(), Closures);
    for (const CXXRecordDecl *Closure : Closures) {
      const LambdaExpr *Lambda = LambdasHere.lookup(Closure);
      if (!Lambda)
        Lambda = utils::findLambda(*Closure).Lambda;
      if (!Lambda)
        continue;
      const utils::ExtendedLambdaKind Kind =
          utils::extendedLambdaKindOf(*Lambda);
      const FunctionDecl *Enclosing =
          utils::enclosingFunctionOf(*Lambda).Function;
      if (Kind == utils::ExtendedLambdaKind::None || !Enclosing)
        continue;
      const AssociatedNamespaces Placeholder =
          placeholderNamespaces(*Lambda, Kind, *Enclosing, Ctx);
      for (const auto &[Namespace, Why] : Placeholder.namespaces()) {
        // The callee's own namespace holds the overloads that ordinary
        // lookup found: both compilers consider them.
        if (Real.namespaces().count(Namespace) ||
            Namespace == CalleeNamespace)
          continue;
        const FunctionTemplateDecl *Found =
            candidateIn(*Namespace, Callee->getDeclName(), Arguments);
        if (!Found)
          continue;
        if (!Reported.insert({SM.getExpansionLoc(Call.getBeginLoc()),
                              Closure->getCanonicalDecl()})
                 .second)
          return;
        const std::string NamespaceName =
            isa<TranslationUnitDecl>(Namespace)
                ? std::string("the global namespace")
                : "namespace '" +
                      cast<NamespaceDecl>(Namespace)->getQualifiedNameAsString() +
                      "'";
        const std::string Name = utils::variableNameOf(*Lambda);
        diag(Call.getBeginLoc(),
             "unqualified call to '%0' passes extended %1 lambda%select{| "
             "'%3'}2, which nvcc's host compiler replaces with a placeholder "
             "type whose argument-dependent lookup also searches %4, through "
             "%5; there '%6' makes the call ambiguous or is called instead; "
             "qualify the call, as in '%7'")
            << Callee->getNameAsString() << utils::spelling(Kind)
            << !Name.empty() << Name << NamespaceName << Why
            << Found->getQualifiedNameAsString()
            << qualifiedCallee(*Callee);
        diag(Lambda->getBeginLoc(), "extended %0 lambda defined here, in '%1'",
             DiagnosticIDs::Note)
            << utils::spelling(Kind) << Enclosing->getNameAsString();
        diag(Found->getLocation(), "'%0' declared here", DiagnosticIDs::Note)
            << Found->getQualifiedNameAsString();
        return;
      }
    }
  }
}

} // namespace clang::tidy::cuda

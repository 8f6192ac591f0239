//===--- LambdaHostReturnTypeQueryCheck.cpp - cuda-lambda-tidy ----------===//

#include "LambdaHostReturnTypeQueryCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/InstantiationChain.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// The closure class named by \p T: the type itself after references and
/// qualifiers, or the callee of a `result_of<F(Args...)>` function type.
const CXXRecordDecl *closureOrResultCallee(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getCanonicalType().getNonReferenceType();
  if (const auto *Fn = T->getAs<FunctionProtoType>())
    T = Fn->getReturnType().getCanonicalType().getNonReferenceType();
  const auto *Record = T->getAsCXXRecordDecl();
  return Record && Record->isLambda() ? Record : nullptr;
}

/// The closure whose call operator is called somewhere in \p E.
const CXXRecordDecl *calledClosureIn(const Stmt *S) {
  if (!S)
    return nullptr;
  // `l(x)` calls the closure's operator() where it is callable; where it is
  // not (a __device__ lambda seen from host code) clang calls through the
  // conversion to a function pointer instead.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      if (const CXXRecordDecl *Closure = closureOrResultCallee(Op->getArg(0)->getType()))
        return Closure;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const auto *Conversion = dyn_cast<CXXMemberCallExpr>(
            Call->getCallee()->IgnoreImplicit()))
      if (const auto *Method = Conversion->getMethodDecl())
        if (isa<CXXConversionDecl>(Method) && Method->getParent()->isLambda())
          return Method->getParent();
  for (const Stmt *Child : S->children())
    if (const CXXRecordDecl *Found = calledClosureIn(Child))
      return Found;
  return nullptr;
}

/// Whether a trailing return type mentions a parameter of the lambda
/// (`-> decltype(x * 2)`): the host pass cannot evaluate it either.
class ParameterMention : public RecursiveASTVisitor<ParameterMention> {
public:
  explicit ParameterMention(const FunctionDecl &Op) : Op(Op) {}
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *P = dyn_cast<ParmVarDecl>(E->getDecl()))
      if (P->getDeclContext() == &Op)
        Found = true;
    return !Found;
  }

private:
  const FunctionDecl &Op;
};

bool returnTypeHidden(const LambdaExpr &Lambda) {
  if (!Lambda.hasExplicitResultType())
    return true;
  const CXXMethodDecl *Op = Lambda.getCallOperator();
  const TypeSourceInfo *TSI = Op->getTypeSourceInfo();
  if (!TSI)
    return false;
  auto FnLoc = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>();
  if (!FnLoc)
    return false;
  ParameterMention Visitor(*Op);
  Visitor.TraverseTypeLoc(FnLoc.getReturnLoc());
  return Visitor.Found;
}

/// Whether \p T can be written in the lambda's place as is: no closure,
/// local or unnamed class anywhere in it.
bool spellable(QualType T) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isUndeducedType())
    return false;
  if (T->isBuiltinType())
    return true;
  if (const auto *P = T->getAs<PointerType>())
    return spellable(P->getPointeeType());
  if (T->isReferenceType())
    return spellable(T.getNonReferenceType());
  if (const auto *Record = T->getAsCXXRecordDecl()) {
    if (Record->isLambda() || Record->isLocalClass() ||
        !Record->getIdentifier())
      return false;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type && !spellable(Arg.getAsType()))
          return false;
    return true;
  }
  if (const auto *Enum = T->getAs<EnumType>())
    return Enum->getDecl()->getIdentifier() &&
           !Enum->getDecl()->getParentFunctionOrMethod();
  return false;
}

/// The closure asked about by \p Spec when it is a library's return-type
/// query, whatever the library calls it: a class template of std,
/// cuda::std, thrust or cub named for invoking or for `result_of`
/// (`std::invoke_result`, libstdc++'s `__invoke_result`, libcu++'s
/// `__invoke_of`, thrust's `result_of_adaptable_function`), whose first
/// argument is the closure type (or `F(Args...)` with F the closure).
const CXXRecordDecl *queriedClosure(const ClassTemplateSpecializationDecl &Spec,
                                    std::string &Name) {
  Name = utils::qualifiedNameWithoutInline(*Spec.getSpecializedTemplate());
  const StringRef Qualified = Name;
  if (!Qualified.starts_with("std::") && !Qualified.starts_with("cuda::") &&
      !Qualified.starts_with("thrust::") && !Qualified.starts_with("cub::"))
    return nullptr;
  const StringRef Short = Qualified.rsplit("::").second;
  if (!Short.contains("invoke_result") && !Short.contains("invoke_of") &&
      !Short.contains("result_of"))
    return nullptr;
  const ArrayRef<TemplateArgument> Args = Spec.getTemplateArgs().asArray();
  if (Args.empty() || Args[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return closureOrResultCallee(Args[0].getAsType());
}

const CXXRecordDecl *queriedClosure(const Type *T, std::string &Name) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T ? T->getAsCXXRecordDecl() : nullptr);
  return Spec ? queriedClosure(*Spec, Name) : nullptr;
}

bool isQueryName(StringRef Qualified) {
  const StringRef Short = Qualified.rsplit("::").second;
  return Short.contains("invoke_result") || Short.contains("invoke_of") ||
         Short.contains("result_of");
}

/// In a dependent type as written in a template (a default template
/// argument, an alias template's pattern), the indices of the template
/// parameters of depth \p Depth whose return type it asks for, added to
/// \p Out: `invoke_result_t<F, ...>`, `typename invoke_result<F, ...>::type`,
/// or an alias template whose own pattern asks about the argument given for F
/// (libcu++'s `__accumulator_t<Op, T>` is `decay_t<invoke_result_t<Op, T>>`),
/// each with the name of the template that asks. All of them: cub's
/// `__accumulator_t<ReductionOpT, invoke_result_t<TransformOpT, ...>, InitT>`
/// asks about two.
using AskedParameter = std::pair<int, std::string>;
void askedParameters(QualType T, unsigned Depth,
                     llvm::SmallVectorImpl<AskedParameter> &Out,
                     int Level = 0) {
  if (T.isNull() || Level > 6)
    return;
  const Type *Ty = T.getTypePtr();
  if (const auto *Dependent = dyn_cast<DependentNameType>(Ty)) {
    const NestedNameSpecifier Qualifier = Dependent->getQualifier();
    if (Qualifier.getKind() == NestedNameSpecifier::Kind::Type)
      askedParameters(QualType(Qualifier.getAsType(), 0), Depth, Out,
                      Level + 1);
    return;
  }
  const auto *Spec = dyn_cast<TemplateSpecializationType>(Ty);
  if (!Spec)
    return;
  const TemplateDecl *Template = Spec->getTemplateName().getAsTemplateDecl();
  if (!Template)
    return;
  const ArrayRef<TemplateArgument> Args = Spec->template_arguments();
  const std::string Asking = utils::qualifiedNameWithoutInline(*Template);
  auto AddParameterAt = [&](size_t Index) {
    if (Index >= Args.size() || Args[Index].getKind() != TemplateArgument::Type)
      return;
    QualType Arg = Args[Index].getAsType();
    if (const auto *Function = Arg->getAs<FunctionProtoType>())
      Arg = Function->getReturnType();
    const auto *Param = Arg->getAs<TemplateTypeParmType>();
    if (Param && Param->getDepth() == Depth &&
        llvm::none_of(Out, [&](const AskedParameter &P) {
          return P.first == static_cast<int>(Param->getIndex());
        }))
      Out.emplace_back(static_cast<int>(Param->getIndex()), Asking);
  };
  if (isQueryName(Asking))
    AddParameterAt(0);
  else if (const auto *Alias = dyn_cast<TypeAliasTemplateDecl>(Template)) {
    const TypeAliasDecl *Pattern = Alias->getTemplatedDecl();
    llvm::SmallVector<AskedParameter, 2> Own;
    askedParameters(Pattern->getUnderlyingType(),
                    Alias->getTemplateParameters()->getDepth(), Own,
                    Level + 1);
    for (const AskedParameter &Index : Own)
      AddParameterAt(static_cast<size_t>(Index.first));
  }
  for (const TemplateArgument &Arg : Args)
    if (Arg.getKind() == TemplateArgument::Type)
      askedParameters(Arg.getAsType(), Depth, Out, Level + 1);
}

/// A template argument filled in by a default argument that asks for the
/// return type of another argument, a closure: of a class template
/// specialization (cub's `DispatchReduce<..., AccumT = __accumulator_t<Op,
/// T>>`) or of an alias template (cub's `DispatchTransformReduce<...,
/// AccumT = __accumulator_t<ReductionOpT, invoke_result_t<TransformOpT,
/// ...>, InitT>>`). \p Args are the arguments the asked ones are read from
/// (a specialization's, or those written for an alias template), \p
/// Written how many were written.
const CXXRecordDecl *defaultArgumentQuery(const TemplateDecl &Template,
                                          ArrayRef<TemplateArgument> Args,
                                          std::string &Name,
                                          unsigned Written) {
  const TemplateParameterList *Params = Template.getTemplateParameters();
  unsigned Index = 0;
  for (const NamedDecl *Param : *Params) {
    // Only the arguments the default filled in: one written explicitly
    // (thrust gives DispatchScan its AccumT) asks nothing.
    if (Index++ < Written)
      continue;
    const auto *TypeParam = dyn_cast<TemplateTypeParmDecl>(Param);
    if (!TypeParam || !TypeParam->hasDefaultArgument() ||
        TypeParam->isParameterPack())
      continue;
    const TypeSourceInfo *Default =
        TypeParam->getDefaultArgument().getTypeSourceInfo();
    if (!Default)
      continue;
    llvm::SmallVector<AskedParameter, 2> Asked;
    askedParameters(Default->getType(), Params->getDepth(), Asked);
    for (const auto &[At, Asking] : Asked) {
      if (static_cast<size_t>(At) >= Args.size() ||
          Args[At].getKind() != TemplateArgument::Type)
        continue;
      if (const CXXRecordDecl *Closure =
              closureOrResultCallee(Args[At].getAsType())) {
        Name = Asking;
        return Closure;
      }
    }
  }
  return nullptr;
}

/// The closure whose return type the type \p T asks for: \p T, its alias
/// templates and member typedefs followed one step of sugar at a time, and
/// the template arguments on the way (`decay_t<invoke_result_t<F, int>>`).
const CXXRecordDecl *queryBehind(QualType T, const ASTContext &Context,
                                 std::string &Name, int Depth = 0) {
  for (int Step = 0; Step < 16 && !T.isNull() && Depth < 4; ++Step) {
    const Type *Ty = T.getTypePtr();
    if (const auto *Typedef = dyn_cast<TypedefType>(Ty)) {
      const NestedNameSpecifier Qualifier = Typedef->getQualifier();
      if (Qualifier.getKind() == NestedNameSpecifier::Kind::Type)
        if (const CXXRecordDecl *Closure =
                queriedClosure(Qualifier.getAsType(), Name))
          return Closure;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(
              Typedef->getDecl()->getDeclContext()))
        if (const CXXRecordDecl *Closure = queriedClosure(*Spec, Name))
          return Closure;
    }
    if (const auto *Spec = dyn_cast<TemplateSpecializationType>(Ty)) {
      if (!Spec->isTypeAlias()) {
        if (const CXXRecordDecl *Closure = queriedClosure(Ty, Name))
          return Closure;
        if (const auto *Record = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                Ty->getAsCXXRecordDecl()))
          if (const CXXRecordDecl *Closure = defaultArgumentQuery(
                  *Record->getSpecializedTemplate(),
                  Record->getTemplateArgs().asArray(), Name,
                  Spec->template_arguments().size()))
            return Closure;
      } else if (const TemplateDecl *Alias =
                     Spec->getTemplateName().getAsTemplateDecl()) {
        // An alias template's default arguments are filled in where it is
        // named, and asked there.
        if (const CXXRecordDecl *Closure = defaultArgumentQuery(
                *Alias, Spec->template_arguments(), Name,
                Spec->template_arguments().size()))
          return Closure;
      }
      for (const TemplateArgument &Arg : Spec->template_arguments()) {
        if (Arg.getKind() != TemplateArgument::Type)
          continue;
        llvm::SmallPtrSet<const CXXRecordDecl *, 2> Closures;
        utils::closuresIn(Arg.getAsType(), Closures);
        if (Closures.empty())
          continue;
        if (const CXXRecordDecl *Closure =
                queryBehind(Arg.getAsType(), Context, Name, Depth + 1))
          return Closure;
      }
    }
    const QualType Next = T.getSingleStepDesugaredType(Context);
    if (Next == T)
      break;
    T = Next;
  }
  return nullptr;
}

const NamedDecl *lookupOne(const DeclContext &Context, StringRef Name) {
  const DeclContext::lookup_result Found = Context.lookup(
      DeclarationName(&Context.getParentASTContext().Idents.get(Name)));
  return Found.empty() ? nullptr : Found.front();
}

bool hasMemberNamed(const CXXRecordDecl &Record, const IdentifierInfo &Name,
                    int Depth = 0) {
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition || Depth > 8)
    return false;
  if (!Definition->lookup(DeclarationName(&Name)).empty())
    return true;
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl())
      if (hasMemberNamed(*BaseRecord, Name, Depth + 1))
        return true;
  return false;
}

/// The closure of a `std::invoke_result`/`std::result_of` (or cuda::std)
/// that clang instantiated without a `type`: it could not call the closure
/// from the code that asked, a `__device__` call operator from host code.
const CXXRecordDecl *failedQuery(const ClassTemplateSpecializationDecl &Spec,
                                 std::string &Name) {
  Name = utils::qualifiedNameWithoutInline(*Spec.getSpecializedTemplate());
  if (Name != "std::invoke_result" && Name != "std::result_of" &&
      Name != "cuda::std::invoke_result" && Name != "cuda::std::result_of")
    return nullptr;
  const ArrayRef<TemplateArgument> Args = Spec.getTemplateArgs().asArray();
  if (Args.empty() || Args[0].getKind() != TemplateArgument::Type ||
      !Spec.isThisDeclarationADefinition())
    return nullptr;
  const CXXRecordDecl *Closure = closureOrResultCallee(Args[0].getAsType());
  if (!Closure)
    return nullptr;
  const IdentifierInfo &TypeName = Spec.getASTContext().Idents.get("type");
  return hasMemberNamed(Spec, TypeName) ? nullptr : Closure;
}

} // namespace

void LambdaHostReturnTypeQueryCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(lambdaExpr().bind("lambda"), this);
  utils::matchCallables(*Finder, this);
  Finder->addMatcher(
      typeLoc(loc(decltypeType()), unless(isExpansionInSystemHeader()))
          .bind("decltype"),
      this);
  // Everywhere, system headers included: a library's own question about a
  // closure is followed back to the user's code at the end.
  Finder->addMatcher(templateSpecializationTypeLoc().bind("specialization"),
                     this);
  utils::matchInstantiations(*Finder, this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(
                   hasAnyName("::thrust::make_transform_iterator",
                              "::cuda::make_transform_iterator"))),
               unless(isExpansionInSystemHeader()))
          .bind("library"),
      this);
  // Calls from the user's code into a library (whose own code clang-tidy
  // does not match): walked at the end, in the host pass only (see
  // onEndOfTranslationUnit). Not matched in the device pass, where they are
  // among the commonest nodes.
  if (getLangOpts().CUDAIsDevice)
    return;
  Finder->addMatcher(declRefExpr(to(functionDecl())).bind("call"), this);
  Finder->addMatcher(memberExpr(member(functionDecl())).bind("call"), this);
  Finder->addMatcher(cxxConstructExpr().bind("call"), this);
}

void LambdaHostReturnTypeQueryCheck::check(
    const MatchFinder::MatchResult &Result) {
  Context = Result.Context;
  if (const std::optional<utils::Callable> Code =
          utils::matchedCallable(Result)) {
    DeviceCode.add(*Code);
    const utils::ExecutionSpace Space =
        utils::executionSpaceOf(Code->function());
    if (Space == utils::ExecutionSpace::Device ||
        Space == utils::ExecutionSpace::Global) {
      DeviceRanges.add(Code->function().getSourceRange(),
                       *Result.SourceManager);
    }
    return;
  }
  if (const Decl *Instantiation = utils::matchedInstantiation(Result)) {
    Index.add(*Instantiation, *Result.SourceManager);
    return;
  }
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda")) {
    Lambdas[Lambda->getLambdaClass()] = Lambda;
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<Expr>("call")) {
    const FunctionDecl *Callee = nullptr;
    SourceLocation At = Call->getBeginLoc();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Call))
      Callee = dyn_cast<FunctionDecl>(Ref->getDecl());
    else if (const auto *Member = dyn_cast<MemberExpr>(Call)) {
      Callee = dyn_cast<FunctionDecl>(Member->getMemberDecl());
      At = Member->getMemberLoc();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call))
      Callee = Construct->getConstructor();
    if (Callee && utils::isHostLibraryInstantiation(*Callee))
      LibraryCalls.emplace_back(Callee, At);
    return;
  }
  if (const auto *Loc = Result.Nodes.getNodeAs<TypeLoc>("decltype")) {
    const auto *Decltype = Loc->getTypePtr()->getAs<DecltypeType>();
    if (!Decltype)
      return;
    const CXXRecordDecl *Closure =
        calledClosureIn(Decltype->getUnderlyingExpr());
    if (Closure)
      Queries.push_back({Loc->getBeginLoc(), Closure, "'decltype'",
                         DynTypedNode::create(*Loc)});
    return;
  }
  if (const auto *Loc =
          Result.Nodes.getNodeAs<TemplateSpecializationTypeLoc>(
              "specialization")) {
    const auto *Spec = Loc->getTypePtr();
    const TemplateDecl *Template = Spec->getTemplateName().getAsTemplateDecl();
    if (!Template)
      return;
    const std::string Name = utils::qualifiedNameWithoutInline(*Template);
    const SourceManager &SM = *Result.SourceManager;
    const bool InSystemHeader =
        SM.isInSystemHeader(SM.getExpansionLoc(Loc->getBeginLoc()));
    static const llvm::StringRef Queried[] = {
        "std::invoke_result",        "std::invoke_result_t",
        "std::result_of",            "std::result_of_t",
        "cuda::std::invoke_result",  "cuda::std::invoke_result_t",
        "cuda::std::result_of",      "cuda::std::result_of_t",
        "thrust::transform_iterator", "cuda::transform_iterator"};
    if (InSystemHeader || llvm::find(Queried, Name) == std::end(Queried)) {
      // Asked inside an instantiation, or in a spelling of the user's own
      // (an alias template): followed back at the end.
      llvm::SmallPtrSet<const CXXRecordDecl *, 2> Closures;
      for (const TemplateArgument &Arg : Spec->template_arguments())
        if (Arg.getKind() == TemplateArgument::Type)
          utils::closuresIn(Arg.getAsType(), Closures);
      if (Closures.empty())
        return;
      std::string Query;
      if (const CXXRecordDecl *Closure =
              queryBehind(QualType(Spec, 0), *Result.Context, Query))
        Instantiated.push_back(
            {Loc->getTemplateNameLoc(), Closure, "'" + Name + "'", false});
      return;
    }
    for (const TemplateArgument &Arg : Spec->template_arguments()) {
      if (Arg.getKind() != TemplateArgument::Type)
        continue;
      if (const CXXRecordDecl *Closure = closureOrResultCallee(Arg.getAsType())) {
        Queries.push_back({Loc->getTemplateNameLoc(), Closure,
                           "'" + Name + "'", DynTypedNode::create(*Loc)});
        return;
      }
    }
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library")) {
    for (const Expr *Arg : Call->arguments()) {
      const CXXRecordDecl *Closure = closureOrResultCallee(Arg->getType());
      if (!Closure)
        continue;
      Queries.push_back(
          {Call->getBeginLoc(), Closure,
           "'" + utils::qualifiedNameWithoutInline(*Call->getDirectCallee()) +
               "'",
           DynTypedNode::create(*Call)});
      return;
    }
  }
}

namespace {

/// The return type to suggest for \p Lambda (empty when none is spellable)
/// and the name of the variable it initializes (" 'name'" or empty).
std::pair<std::string, std::string> describe(const LambdaExpr &Lambda,
                                             const CXXRecordDecl &Closure,
                                             const ASTContext &Context) {
  // The deduced return type, when one type holds for every call.
  const CXXMethodDecl *Op = Lambda.getCallOperator();
  std::string Spelled;
  if (!Lambda.hasExplicitResultType() && !Lambda.isGenericLambda() &&
      !Op->getReturnType()->isUndeducedType() &&
      spellable(Op->getReturnType())) {
    PrintingPolicy Policy(Context.getLangOpts());
    Policy.SuppressScope = false;
    Spelled =
        TypeName::getFullyQualifiedName(Op->getReturnType(), Context, Policy);
  }
  std::string Name;
  if (const auto *Var =
          utils::findLambda(Closure).Ancestors.parentOf(Lambda).get<VarDecl>())
    Name = " '" + Var->getNameAsString() + "'";
  return {Spelled, Name};
}

} // namespace

void LambdaHostReturnTypeQueryCheck::onEndOfTranslationUnit() {
  llvm::DenseSet<const LambdaExpr *> Fixed;
  llvm::DenseSet<const LambdaExpr *> ReportedLambdas;
  std::set<std::pair<unsigned, const CXXRecordDecl *>> Reported;
  if (!Context)
    return;
  const SourceManager &SM = Context->getSourceManager();
  // A question written in a template of the user's and asked in its
  // instantiation is reported at the lambda, with the way from the user's
  // line that instantiated it.
  // Only in the host pass: there a library's host-device functions hold
  // their host branches (NV_IF_TARGET), which nvcc's host pass compiles; in
  // the device pass they hold the device branches.
  if (Context->getLangOpts().CUDAIsDevice)
    LibraryCalls.clear();
  for (const auto &[Callee, At] : LibraryCalls)
    for (const utils::HostLibraryWalk::Site &Site : Library.sitesOf(
             *Callee, [&](QualType T, std::string &What) {
               std::string Query;
               const CXXRecordDecl *Closure =
                   queryBehind(T, *Context, Query);
               if (Closure)
                 What = "'" + Query + "'";
               return Closure;
             }))
      Instantiated.push_back(
          {Site.Loc, Site.Closure, Site.What, false, Callee, At});
  // std::invoke_result and std::result_of that clang instantiated for a
  // closure without a 'type': read from the class templates' lists of
  // specializations (clang-tidy does not match inside system headers).
  if (!Lambdas.empty())
    if (const auto *Std = dyn_cast_or_null<NamespaceDecl>(
            lookupOne(*Context->getTranslationUnitDecl(), "std")))
      for (StringRef Name : {"invoke_result", "result_of"})
        if (const auto *Template =
                dyn_cast_or_null<ClassTemplateDecl>(lookupOne(*Std, Name)))
          for (const ClassTemplateSpecializationDecl *Spec :
               Template->specializations()) {
            std::string Query;
            if (const CXXRecordDecl *Closure = failedQuery(*Spec, Query))
              if (Lambdas.count(Closure))
                Instantiated.push_back({Spec->getPointOfInstantiation(),
                                        Closure, "'" + Query + "'", true});
          }
  llvm::SmallVector<Query, 8> Written;
  for (const Query &Q : Queries) {
    if (!Index.climb(Q.Loc, *Q.Closure, SM).Steps.empty())
      Instantiated.push_back({Q.Loc, Q.Closure, Q.What, false});
    else
      Written.push_back(Q);
  }
  llvm::SmallVector<DynTypedNode, 8> Places;
  for (const Query &Q : Written)
    Places.push_back(Q.Where);
  // Device code may ask: the device pass knows the type.
  const llvm::DenseSet<DynTypedNode> InDeviceCode =
      DeviceCode.containing(Places);
  auto AddFix = [&](DiagnosticBuilder &Diag, const LambdaExpr &Lambda,
                    const std::string &Spelled) {
    const CompoundStmt *Body = Lambda.getCompoundStmtBody();
    if (!Spelled.empty() && Body && Lambda.hasExplicitParameters() &&
        Lambda.getBeginLoc().isFileID() && Body->getLBracLoc().isFileID() &&
        Fixed.insert(&Lambda).second)
      Diag << FixItHint::CreateInsertion(Body->getLBracLoc(),
                                         "-> " + Spelled + " ");
  };
  for (const Query &Q : Written) {
    const LambdaExpr *Lambda = Lambdas.lookup(Q.Closure);
    if (!Lambda || InDeviceCode.contains(Q.Where) ||
        utils::extendedLambdaKindOf(*Lambda) != utils::ExtendedLambdaKind::Device ||
        !returnTypeHidden(*Lambda))
      continue;
    if (!Reported.insert({Q.Loc.getRawEncoding(), Q.Closure}).second)
      continue;
    ReportedLambdas.insert(Lambda);
    const auto [Spelled, Name] = describe(*Lambda, *Q.Closure, *Context);
    {
      auto Diag =
          diag(Q.Loc, "host code asks %0 for the return type of extended "
                      "__device__ lambda%1, which nvcc's host pass does not "
                      "know (it sees 'int'); give the lambda a trailing "
                      "return type%select{| '-> %3'}2")
          << Q.What << Name << (Spelled.empty() ? 0 : 1) << Spelled;
      AddFix(Diag, *Lambda, Spelled);
    }
    diag(Lambda->getBeginLoc(),
         "extended __device__ lambda%0 defined here; its return type is "
         "deduced from the body, which only the device pass sees",
         DiagnosticIDs::Note)
        << Name;
  }

  // Questions asked inside instantiations: followed back through the
  // instantiations clang made to the line the user wrote, and reported at
  // the lambda when that line is host code.
  if (!Instantiated.empty()) {
    auto InDeviceRange = [&](SourceLocation Loc) {
      return DeviceRanges.contains(Loc, SM);
    };
    std::set<std::pair<unsigned, const LambdaExpr *>> ReportedOrigins;
    for (const Asked &A : Instantiated) {
      const LambdaExpr *Lambda = Lambdas.lookup(A.Closure);
      if (!Lambda || ReportedLambdas.contains(Lambda) ||
          utils::extendedLambdaKindOf(*Lambda) !=
              utils::ExtendedLambdaKind::Device ||
          !returnTypeHidden(*Lambda))
        continue;
      const utils::InstantiationChain Chain =
          Index.climb(A.Entry ? A.EntryLoc : A.Loc, *A.Closure, SM);
      // Asked only by device code, or the way back is lost in a library
      // (an alias template, a class member): nothing to show the user.
      if (Chain.ThroughDeviceCode || InDeviceRange(Chain.Origin) ||
          InDeviceRange(A.Entry ? A.EntryLoc : A.Loc))
        continue;
      if (!A.Failed && (Chain.Origin.isInvalid() ||
                        SM.isInSystemHeader(SM.getExpansionLoc(Chain.Origin))))
        continue;
      if (!ReportedOrigins
               .insert({SM.getExpansionLoc(Chain.Origin).getRawEncoding(),
                        Lambda})
               .second)
        continue;
      std::string Through;
      if (A.Entry)
        Through = utils::instantiatedName(*A.Entry);
      if (!Chain.Steps.empty())
        Through = utils::instantiatedName(*Chain.Steps.back().Instantiated);
      const auto [Spelled, Name] = describe(*Lambda, *A.Closure, *Context);
      {
        auto Diag = diag(Lambda->getBeginLoc(),
                         "host code asks %0 for the return type of extended "
                         "__device__ lambda%1%select{| through '%5'}4, which "
                         "nvcc's host pass does not know (it sees "
                         "'int')%select{| and clang cannot form}6; give the "
                         "lambda a trailing return type%select{| '-> %3'}2")
                    << A.What << Name << (Spelled.empty() ? 0 : 1) << Spelled
                    << (Through.empty() ? 0 : 1) << Through
                    << (A.Failed ? 1 : 0);
        AddFix(Diag, *Lambda, Spelled);
      }
      diag(A.Loc, "%0 asks for the return type here", DiagnosticIDs::Note)
          << A.What;
      if (A.Entry)
        diag(A.EntryLoc, "in instantiation of '%0' requested here",
             DiagnosticIDs::Note)
            << utils::instantiatedName(*A.Entry);
      for (const utils::InstantiationStep &Step : Chain.Steps)
        if (!SM.isInSystemHeader(SM.getExpansionLoc(Step.RequestedAt)))
          diag(Step.RequestedAt, "in instantiation of '%0' requested here",
               DiagnosticIDs::Note)
              << utils::instantiatedName(*Step.Instantiated);
    }
  }
  Queries.clear();
  Instantiated.clear();
  LibraryCalls.clear();
  Library.clear();
  Index.clear();
  DeviceRanges.clear();
  Lambdas.clear();
  DeviceCode.clear();
}

} // namespace clang::tidy::cuda

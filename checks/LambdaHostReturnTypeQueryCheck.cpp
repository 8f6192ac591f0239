//===--- LambdaHostReturnTypeQueryCheck.cpp - cuda-lambda-tidy ----------===//

#include "LambdaHostReturnTypeQueryCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/InstantiationChain.h"
#include "utils/NodeDispatch.h"
#include "utils/ReturnTypeQuestion.h"
#include "utils/SourceText.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include <set>
#include <tuple>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using utils::closureOrResultCallee;
using utils::returnTypeHidden;

namespace {

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

/// A `decltype` type location outside system headers, as
/// typeLoc(loc(decltypeType()), unless(isExpansionInSystemHeader())) finds
/// it, or a template specialization's anywhere, system headers included
/// (a library's own question about a closure is followed back to the
/// user's code at the end): one matcher, since every type location of the
/// unit is tried.
AST_MATCHER(TypeLoc, isDecltypeOrSpecialization) {
  if (Node.getAs<TemplateSpecializationTypeLoc>())
    return true;
  return isa<DecltypeType>(Node.getType().getTypePtr()) &&
         !utils::isExpansionInSystemHeader(
             Node.getBeginLoc(), Finder->getASTContext().getSourceManager());
}

/// A name or a member naming a function (every reference of the host pass
/// is tested).
bool namesAFunction(const DeclRefExpr &Ref, ASTContext &) {
  return isa<FunctionDecl>(Ref.getDecl());
}
bool namesAMemberFunction(const MemberExpr &Member, ASTContext &) {
  return isa<FunctionDecl>(Member.getMemberDecl());
}

/// A call outside system headers of a function named
/// make_transform_iterator: the qualified names are asked in check().
bool callsMakeTransformIterator(const CallExpr &Call, ASTContext &Context) {
  const auto *Callee = dyn_cast_or_null<NamedDecl>(Call.getCalleeDecl());
  return Callee && Callee->getDeclName().isIdentifier() &&
         Callee->getName() == "make_transform_iterator" &&
         !utils::isExpansionInSystemHeader(Call.getBeginLoc(),
                                           Context.getSourceManager());
}

} // namespace

void LambdaHostReturnTypeQueryCheck::registerMatchers(MatchFinder *Finder) {
  NodeMatches.push_back(utils::matchNodes<LambdaExpr>(
      *Finder, this, utils::anyNode<LambdaExpr>, "lambda"));
  Callables = utils::matchCallables(*Finder, this);
  Finder->addMatcher(typeLoc(isDecltypeOrSpecialization()).bind("typeloc"),
                     this);
  Instantiations = utils::matchInstantiations(*Finder, this);
  NodeMatches.push_back(utils::matchNodes<CallExpr>(
      *Finder, this, callsMakeTransformIterator, "library"));
  // Calls from the user's code into a library (whose own code clang-tidy
  // does not match): walked at the end, in the host pass only (see
  // onEndOfTranslationUnit). Not matched in the device pass, where they are
  // among the commonest nodes.
  if (getLangOpts().CUDAIsDevice)
    return;
  NodeMatches.push_back(utils::matchNodes<DeclRefExpr>(
      *Finder, this, namesAFunction, "call"));
  NodeMatches.push_back(utils::matchNodes<MemberExpr>(
      *Finder, this, namesAMemberFunction, "call"));
  NodeMatches.push_back(utils::matchNodes<CXXConstructExpr>(
      *Finder, this, utils::anyNode<CXXConstructExpr>, "call"));
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
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library")) {
    // thrust's and libcu++'s, through their inline namespaces.
    static const auto LibraryCallee = callExpr(callee(
        functionDecl(hasAnyName("::thrust::make_transform_iterator",
                                "::cuda::make_transform_iterator"))));
    if (match(LibraryCallee, *Call, *Result.Context).empty())
      return;
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
    return;
  }
  const auto *Located = Result.Nodes.getNodeAs<TypeLoc>("typeloc");
  if (!Located)
    return;
  if (const auto Specialization =
          Located->getAs<TemplateSpecializationTypeLoc>()) {
    const TemplateSpecializationTypeLoc *Loc = &Specialization;
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
              utils::returnTypeQuestion(QualType(Spec, 0), *Result.Context,
                                         Query))
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
  {
    const TypeLoc *Loc = Located;
    const auto *Decltype = Loc->getTypePtr()->getAs<DecltypeType>();
    if (!Decltype)
      return;
    const CXXRecordDecl *Closure =
        calledClosureIn(Decltype->getUnderlyingExpr());
    if (Closure)
      Queries.push_back({Loc->getBeginLoc(), Closure, "'decltype'",
                         DynTypedNode::create(*Loc)});
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
                   utils::returnTypeQuestion(T, *Context, Query);
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
    // Once per lambda and line that led there: clang 19 finds cub's
    // question twice (through the dispatcher's default argument and through
    // the alias it names), with the call's column apart.
    std::set<std::tuple<unsigned, unsigned, const LambdaExpr *>> ReportedOrigins;
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
      const SourceLocation Origin = SM.getExpansionLoc(Chain.Origin);
      if (!ReportedOrigins
               .insert({SM.getFileID(Origin).getHashValue(),
                        Origin.isValid() ? SM.getExpansionLineNumber(Origin)
                                         : 0,
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

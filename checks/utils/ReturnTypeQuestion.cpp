//===--- ReturnTypeQuestion.cpp - cuda-lambda-tidy -----------------------===//

#include "ReturnTypeQuestion.h"
#include "ClangVersions.h"
#include "ExecutionSpace.h"
#include "ExtendedLambda.h"
#include "InstantiationChain.h"
#include "TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda::utils {

const CXXRecordDecl *closureOrResultCallee(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getCanonicalType().getNonReferenceType();
  if (const auto *Fn = T->getAs<FunctionProtoType>())
    T = Fn->getReturnType().getCanonicalType().getNonReferenceType();
  const auto *Record = T->getAsCXXRecordDecl();
  return Record && Record->isLambda() ? Record : nullptr;
}

namespace {

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

} // namespace

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

namespace {

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
  const Type *Ty = withoutElaboration(T.getTypePtr());
  if (const auto *Dependent = dyn_cast<DependentNameType>(Ty)) {
    if (const Type *Qualifier = qualifierType(Dependent->getQualifier()))
      askedParameters(QualType(Qualifier, 0), Depth, Out, Level + 1);
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
    const TypeSourceInfo *Default = defaultArgumentOf(*TypeParam);
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
    if (const Type *Qualifier = typedefQualifierType(Ty))
      if (const CXXRecordDecl *Closure = queriedClosure(Qualifier, Name))
        return Closure;
    if (const auto *Typedef = dyn_cast<TypedefType>(Ty)) {
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

} // namespace

const CXXRecordDecl *returnTypeQuestion(QualType T, const ASTContext &Context,
                                        std::string &Name) {
  return queryBehind(T, Context, Name);
}

namespace {

/// The user's host code: the extended `__device__` lambdas with a hidden
/// return type it defines, and its calls into library instantiations.
class UserHostCode : public RecursiveASTVisitor<UserHostCode> {
public:
  explicit UserHostCode(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    // Device code calls what the device pass sees.
    if (const auto *Function = dyn_cast<FunctionDecl>(D)) {
      const ExecutionSpace Space = executionSpaceOf(*Function);
      if (Space == ExecutionSpace::Device || Space == ExecutionSpace::Global)
        return true;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    const ExtendedLambdaKind Kind = extendedLambdaKindOf(*Lambda);
    if (Kind == ExtendedLambdaKind::Device && returnTypeHidden(*Lambda))
      Lambdas.try_emplace(Lambda->getLambdaClass(), Lambda);
    // The body of a `__device__` lambda is device code.
    if (Kind == ExtendedLambdaKind::Device)
      return true;
    return RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *Function = dyn_cast<FunctionDecl>(E->getDecl()))
      call(*Function, E->getBeginLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *Function = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      call(*Function, E->getMemberLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    call(*E->getConstructor(), E->getBeginLoc());
    return true;
  }

  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> Lambdas;
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls;

private:
  void call(const FunctionDecl &Callee, SourceLocation At) {
    if (isHostLibraryInstantiation(Callee))
      Calls.emplace_back(&Callee, At);
  }
  const SourceManager &SM;
};

} // namespace

std::optional<std::string> hiddenReturnTypeAskedByLibrary(ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  UserHostCode Code(SM);
  Code.TraverseDecl(Context.getTranslationUnitDecl());
  if (Code.Lambdas.empty() || Code.Calls.empty())
    return std::nullopt;
  HostLibraryWalk Walk;
  for (const auto &[Callee, At] : Code.Calls)
    for (const HostLibraryWalk::Site &Site : Walk.sitesOf(
             *Callee, [&](QualType T, std::string &What) {
               return returnTypeQuestion(T, Context, What);
             })) {
      const LambdaExpr *Lambda = Code.Lambdas.lookup(Site.Closure);
      if (!Lambda)
        continue;
      const PresumedLoc Defined =
          SM.getPresumedLoc(SM.getExpansionLoc(Lambda->getBeginLoc()));
      const PresumedLoc Called = SM.getPresumedLoc(SM.getExpansionLoc(At));
      if (Defined.isInvalid() || Called.isInvalid())
        continue;
      return std::string(Defined.getFilename()) + ":" +
             std::to_string(Defined.getLine()) +
             ": extended __device__ lambda without a trailing return type "
             "handed to '" + instantiatedName(*Callee) + "' (line " +
             std::to_string(Called.getLine()) + "), whose host code asks '" +
             Site.What + "' for its return type";
    }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::utils

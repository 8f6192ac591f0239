//===--- LambdaEnclosingTemplateCheck.cpp - cuda-lambda-tidy ------------===//

#include "LambdaEnclosingTemplateCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/LocalType.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaEnclosingTemplateCheck::registerMatchers(MatchFinder *Finder) {
  // The template parameter lists are read from the pattern; the template
  // arguments only exist in instantiations, so both are matched.
  Finder->addMatcher(lambdaExpr(utils::isExtendedLambda(),
                                unless(isExpansionInSystemHeader()),
                                unless(utils::isInTemplateInstantiation()))
                         .bind("pattern"),
                     this);
  Finder->addMatcher(lambdaExpr(utils::isExtendedLambda(),
                                unless(isExpansionInSystemHeader()),
                                utils::isInTemplateInstantiation())
                         .bind("instance"),
                     this);
}

void LambdaEnclosingTemplateCheck::check(
    const MatchFinder::MatchResult &Result) {
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("pattern")) {
    if (const FunctionDecl *F = utils::enclosingFunctionOf(*Lambda).Function)
      checkParameters(*Lambda, *F);
    return;
  }
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("instance"))
    if (const FunctionDecl *F = utils::enclosingFunctionOf(*Lambda).Function)
      checkInstantiation(*Lambda, *F);
}

namespace {
enum class ParameterProblem { SecondPack, PackNotLast, Unnamed };
} // namespace

void LambdaEnclosingTemplateCheck::checkParameters(
    const LambdaExpr &Lambda, const FunctionDecl &Function) {
  // nvcc spells the enclosing function's own template parameters in the code
  // it generates; those of the classes around it do not matter (measured).
  const FunctionTemplateDecl *Template =
      Function.getDescribedFunctionTemplate();
  if (!Template)
    return;
  const TemplateParameterList *Params = Template->getTemplateParameters();
  const NamedDecl *Offender = nullptr;
  ParameterProblem Problem = ParameterProblem::Unnamed;
  const NamedDecl *FirstPack = nullptr;
  for (const NamedDecl *Param : *Params) {
    // Parameters invented for `auto` function parameters (C++20) are never
    // spelled by the user; leave them alone.
    if (Param->isImplicit())
      continue;
    if (Param->isParameterPack()) {
      if (FirstPack) {
        Offender = Param;
        Problem = ParameterProblem::SecondPack;
        break;
      }
      FirstPack = Param;
    }
    if (!Param->getIdentifier()) {
      Offender = Param;
      Problem = ParameterProblem::Unnamed;
      break;
    }
  }
  if (!Offender && FirstPack && FirstPack != Params->asArray().back()) {
    Offender = FirstPack;
    Problem = ParameterProblem::PackNotLast;
  }
  if (!Offender)
    return;
  diag(Lambda.getBeginLoc(),
       "extended %0 lambda is defined in function template %1, "
       "%select{which has more than one template parameter pack|whose "
       "template parameter pack is not its last template parameter|which has "
       "an unnamed template parameter}2, and nvcc's generated code cannot name "
       "such a function; %select{keep a single pack, as the last template "
       "parameter|make the pack the last template parameter|give every "
       "template parameter a name}2")
      << utils::spelling(utils::extendedLambdaKindOf(Lambda)) << &Function
      << static_cast<int>(Problem);
  // An unnamed parameter's location is where its name would be.
  diag(Problem == ParameterProblem::Unnamed ? Offender->getBeginLoc()
                                            : Offender->getLocation(),
       "%select{second template parameter pack|template parameter pack|"
       "unnamed template parameter}0 declared here",
       DiagnosticIDs::Note)
      << static_cast<int>(Problem);
}

namespace {

enum class TypeProblem {
  Local,
  PlainClosure,
  Private,
  Protected,
  PrivateTemplate,
  ProtectedTemplate,
};

/// A type in a template argument that nvcc cannot spell at namespace scope.
struct Unnameable {
  TypeProblem Problem;
  const TagDecl *Decl;
};

} // namespace

/// Why nvcc cannot name \p Tag from namespace scope, if it cannot: it (or a
/// class around it) is local to a function, or it (or a class around it) is a
/// private or protected member. The closure type of an annotated lambda is
/// replaced by nvcc with a type it can name (measured), so it is fine.
static std::optional<Unnameable> problemOfTag(const TagDecl &Tag) {
  if (const auto *Record = dyn_cast<CXXRecordDecl>(&Tag);
      Record && Record->isLambda()) {
    const CXXMethodDecl *Call = Record->getLambdaCallOperator();
    if (Call && utils::hasExplicitDeviceAttr(*Call))
      return std::nullopt;
    if (Record->getDeclContext()->isFunctionOrMethod())
      return Unnameable{TypeProblem::PlainClosure, Record};
    return std::nullopt;
  }
  std::optional<Unnameable> Restricted;
  for (const Decl *D = &Tag; D;) {
    const DeclContext *Parent = D->getDeclContext();
    if (Parent->isFunctionOrMethod())
      return Unnameable{TypeProblem::Local, &Tag};
    if (!Restricted && isa<CXXRecordDecl>(Parent)) {
      // A member class template's specialization has its template's access.
      const AccessSpecifier Access = utils::memberAccessOf(*D);
      if (Access == AS_private)
        Restricted = Unnameable{TypeProblem::Private, cast<TagDecl>(D)};
      else if (Access == AS_protected)
        Restricted = Unnameable{TypeProblem::Protected, cast<TagDecl>(D)};
    }
    D = dyn_cast<TagDecl>(Parent);
  }
  return Restricted;
}

static std::optional<Unnameable> findUnnameable(QualType Written);

static std::optional<Unnameable>
findUnnameable(ArrayRef<TemplateArgument> Args) {
  for (const TemplateArgument &Arg : Args) {
    std::optional<Unnameable> Found;
    if (Arg.getKind() == TemplateArgument::Type)
      Found = findUnnameable(Arg.getAsType());
    else if (Arg.getKind() == TemplateArgument::Pack)
      Found = findUnnameable(Arg.pack_elements());
    if (Found)
      return Found;
  }
  return std::nullopt;
}

static std::optional<Unnameable> findUnnameable(const TagDecl &Tag) {
  if (auto Found = problemOfTag(Tag))
    return Found;
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(&Tag))
    return findUnnameable(Specialization->getTemplateArgs().asArray());
  return std::nullopt;
}

/// The first type nvcc cannot name inside \p Written: the type itself, or
/// one it is built from (pointee, element, parameter, template argument).
static std::optional<Unnameable> findUnnameable(QualType Written) {
  if (Written.isNull())
    return std::nullopt;
  const Type *T = Written.getCanonicalType().getTypePtr();
  if (const auto *Pointer = dyn_cast<PointerType>(T))
    return findUnnameable(Pointer->getPointeeType());
  if (const auto *Reference = dyn_cast<ReferenceType>(T))
    return findUnnameable(Reference->getPointeeType());
  if (const auto *Array = dyn_cast<ArrayType>(T))
    return findUnnameable(Array->getElementType());
  if (const auto *Member = dyn_cast<MemberPointerType>(T)) {
    if (auto Found = findUnnameable(Member->getPointeeType()))
      return Found;
    if (const CXXRecordDecl *Class = Member->getMostRecentCXXRecordDecl())
      return findUnnameable(*Class);
    return std::nullopt;
  }
  if (const auto *Function = dyn_cast<FunctionProtoType>(T)) {
    if (auto Found = findUnnameable(Function->getReturnType()))
      return Found;
    for (QualType Param : Function->getParamTypes())
      if (auto Found = findUnnameable(Param))
        return Found;
    return std::nullopt;
  }
  if (const TagDecl *Tag = T->getAsTagDecl())
    return findUnnameable(*Tag);
  return std::nullopt;
}

void LambdaEnclosingTemplateCheck::checkInstantiation(
    const LambdaExpr &Lambda, const FunctionDecl &Function) {
  // The function's own template arguments: nvcc rejects the instantiation.
  // Those of a class template around it: nvcc's generated code fails once
  // the lambda reaches a kernel (measured).
  const Decl *Specialization = nullptr;
  const NamedDecl *Template = nullptr;
  std::optional<Unnameable> Found;
  SourceLocation Where;
  bool IsClass = false;
  if (const TemplateArgumentList *Args =
          Function.getTemplateSpecializationArgs()) {
    Found = findUnnameable(Args->asArray());
    // A private member class template as a template template argument of
    // the function (not of a class template around it: accepted, measured).
    for (const TemplateArgument &Arg : Args->asArray()) {
      if (Found || Arg.getKind() != TemplateArgument::Template)
        continue;
      const auto *Class = dyn_cast_or_null<ClassTemplateDecl>(
          Arg.getAsTemplate().getAsTemplateDecl());
      if (!Class || !isa<CXXRecordDecl>(Class->getDeclContext()))
        continue;
      if (Class->getAccess() == AS_private)
        Found = Unnameable{TypeProblem::PrivateTemplate, Class->getTemplatedDecl()};
      else if (Class->getAccess() == AS_protected)
        Found = Unnameable{TypeProblem::ProtectedTemplate,
                           Class->getTemplatedDecl()};
    }
    Specialization = &Function;
    Template = Function.getPrimaryTemplate();
    Where = Function.getPointOfInstantiation();
  }
  for (const DeclContext *Context = Function.getDeclContext();
       !Found && Context && !Context->isFunctionOrMethod();
       Context = Context->getParent()) {
    const auto *Class = dyn_cast<ClassTemplateSpecializationDecl>(Context);
    if (!Class)
      continue;
    Found = findUnnameable(Class->getTemplateArgs().asArray());
    Specialization = Class;
    Template = Class->getSpecializedTemplate();
    Where = Class->getPointOfInstantiation();
    IsClass = true;
  }
  if (!Found || !Reported.insert(Specialization).second)
    return;
  if (Where.isInvalid())
    Where = Lambda.getBeginLoc();

  const auto Problem = static_cast<int>(Found->Problem);
  diag(Where, "%select{function|class}0 template %1 is instantiated here with "
              "%select{%2, a type local to a function|the closure type of a "
              "lambda that is not extended|%2, a private member type|%2, a "
              "protected member type|%2, a private member template|%2, a "
              "protected member template}3, which nvcc cannot name in the "
              "code it generates for an extended %4 lambda inside it; "
              "%select{declare the type outside any function|annotate that "
              "lambda __device__ or __host__ __device__, or use a functor "
              "declared outside any function|make the type public|make the "
              "type public|make the template public|make the template "
              "public}3")
      << IsClass << Template << Found->Decl << Problem
      << utils::spelling(utils::extendedLambdaKindOf(Lambda));
  diag(Lambda.getBeginLoc(), "extended %0 lambda defined here",
       DiagnosticIDs::Note)
      << utils::spelling(utils::extendedLambdaKindOf(Lambda));
  // A closure type has no name worth printing: point at its lambda instead.
  if (Found->Problem == TypeProblem::PlainClosure)
    diag(Found->Decl->getLocation(), "lambda that is not extended defined here",
         DiagnosticIDs::Note);
  else
    diag(Found->Decl->getLocation(),
         "%select{local type|lambda|private type|protected type|private "
         "template|protected template}0 %1 declared here",
         DiagnosticIDs::Note)
        << Problem << Found->Decl;
}

} // namespace clang::tidy::cuda

//===--- LambdaEnclosingTemplateCheck.cpp - cuda-lambda-tidy ------------===//

#include "LambdaEnclosingTemplateCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/LocalType.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaEnclosingTemplateCheck::registerMatchers(MatchFinder *Finder) {
  // The template parameter lists are read from the pattern; the template
  // arguments only exist in instantiations, so both are matched.
  NodeMatches.push_back(utils::matchNodes<LambdaExpr>(
      *Finder, this,
      [](const LambdaExpr &Lambda, ASTContext &Context) {
        return utils::isExtendedLambda(Lambda) &&
               !utils::isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                                 Context.getSourceManager()) &&
               !utils::isInTemplateInstantiation(Lambda);
      },
      "pattern"));
  NodeMatches.push_back(utils::matchNodes<LambdaExpr>(
      *Finder, this,
      [](const LambdaExpr &Lambda, ASTContext &Context) {
        return utils::isExtendedLambda(Lambda) &&
               !utils::isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                                 Context.getSourceManager()) &&
               utils::isInTemplateInstantiation(Lambda);
      },
      "instance"));
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

/// A type in a template argument that nvcc cannot spell at namespace scope,
/// in the order of this check's diagnostics. Unnamed types are left out
/// (not measured in an extended lambda's enclosing template).
static std::optional<utils::UnnameableType>
findUnnameable(ArrayRef<TemplateArgument> Args) {
  std::optional<utils::UnnameableType> Found = utils::findUnnameableType(Args);
  if (Found && Found->Kind == utils::UnnameableKind::Unnamed)
    return std::nullopt;
  return Found;
}

static int problemIndex(utils::UnnameableKind Kind) {
  switch (Kind) {
  case utils::UnnameableKind::Local:
    return 0;
  case utils::UnnameableKind::PlainClosure:
    return 1;
  case utils::UnnameableKind::Private:
    return 2;
  case utils::UnnameableKind::Protected:
  case utils::UnnameableKind::Unnamed:
    return 3;
  }
  return 0;
}

void LambdaEnclosingTemplateCheck::checkInstantiation(
    const LambdaExpr &Lambda, const FunctionDecl &Function) {
  // The function's own template arguments: nvcc rejects the instantiation.
  // Those of a class template around it: nvcc's generated code fails once
  // the lambda reaches a kernel (measured).
  const Decl *Specialization = nullptr;
  const NamedDecl *Template = nullptr;
  std::optional<utils::UnnameableType> Found;
  SourceLocation Where;
  bool IsClass = false;
  std::optional<int> TemplateProblem;
  if (const TemplateArgumentList *Args =
          Function.getTemplateSpecializationArgs()) {
    Found = findUnnameable(Args->asArray());
    // A private or protected member class template as a template template
    // argument of the function (not of a class template around it:
    // accepted, measured): the diagnostic's problems 4 and 5.
    for (const TemplateArgument &Arg : Args->asArray()) {
      if (Found || Arg.getKind() != TemplateArgument::Template)
        continue;
      const auto *Class = dyn_cast_or_null<ClassTemplateDecl>(
          Arg.getAsTemplate().getAsTemplateDecl());
      if (!Class || !isa<CXXRecordDecl>(Class->getDeclContext()) ||
          (Class->getAccess() != AS_private &&
           Class->getAccess() != AS_protected))
        continue;
      const bool Private = Class->getAccess() == AS_private;
      Found = utils::UnnameableType{Private ? utils::UnnameableKind::Private
                                            : utils::UnnameableKind::Protected,
                                    Class->getTemplatedDecl()};
      TemplateProblem = Private ? 4 : 5;
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

  const int Problem = TemplateProblem.value_or(problemIndex(Found->Kind));
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
  if (Found->Kind == utils::UnnameableKind::PlainClosure)
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

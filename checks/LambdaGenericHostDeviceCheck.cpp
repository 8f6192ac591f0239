//===--- LambdaGenericHostDeviceCheck.cpp - cuda-lambda-tidy ------------===//

#include "LambdaGenericHostDeviceCheck.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaGenericHostDeviceCheck::registerMatchers(MatchFinder *Finder) {
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

namespace {
/// How a lambda became generic, in the order of the diagnostic's %select.
enum class GenericForm {
  NamedAuto,
  UnnamedAuto,
  NamedPack,
  UnnamedPack,
  TemplateList
};
} // namespace

void LambdaGenericHostDeviceCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (utils::extendedLambdaKindOf(*Lambda) !=
          utils::ExtendedLambdaKind::HostDevice ||
      !Lambda->isGenericLambda())
    return;
  const TemplateParameterList *Params = Lambda->getTemplateParameterList();
  if (!Params)
    return;

  SourceLocation Loc;
  GenericForm Form = GenericForm::TemplateList;
  const ParmVarDecl *Parameter = nullptr;
  if (!Lambda->getExplicitTemplateParameters().empty()) {
    // `[] __host__ __device__ <typename T> (T x)`: the list comes first.
    Loc = Params->getLAngleLoc();
  } else {
    // Each `auto` parameter invents an implicit template parameter that
    // begins at its `auto`; the first one is where the lambda turned generic.
    const NamedDecl *Invented = Params->getParam(0);
    Loc = Invented->getBeginLoc();
    const SourceManager &SM = *Result.SourceManager;
    for (const ParmVarDecl *Candidate : Lambda->getCallOperator()->parameters())
      if (SM.isPointWithin(Loc, Candidate->getBeginLoc(),
                           Candidate->getEndLoc())) {
        Parameter = Candidate;
        break;
      }
    const bool Named = Parameter && !Parameter->getName().empty();
    const bool Pack = Invented->isParameterPack();
    Form = Pack ? (Named ? GenericForm::NamedPack : GenericForm::UnnamedPack)
                : (Named ? GenericForm::NamedAuto : GenericForm::UnnamedAuto);
  }

  auto Diag = diag(Loc, "extended __host__ __device__ lambda has "
                        "%select{'auto' parameter %1|an unnamed 'auto' "
                        "parameter|'auto...' parameter pack %1|an unnamed "
                        "'auto...' parameter pack|a template parameter list}0, "
                        "but nvcc rejects generic __host__ __device__ lambdas; "
                        "%select{give it a concrete type|give it a concrete "
                        "type|replace it with parameters of concrete types|"
                        "replace it with parameters of concrete types|use "
                        "concrete parameter types}0, or annotate the lambda "
                        "__device__ alone if it never runs on the host")
              << static_cast<int>(Form);
  if (Parameter)
    Diag << Parameter;
  else
    Diag << "";
}

} // namespace clang::tidy::cuda

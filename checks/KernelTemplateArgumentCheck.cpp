//===--- KernelTemplateArgumentCheck.cpp - cuda-lambda-tidy -------------===//

#include "KernelTemplateArgumentCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/LocalType.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// ast_matchers::isTemplateInstantiation()'s test.
template <typename DeclT> bool isInstantiation(const DeclT &D) {
  const TemplateSpecializationKind Kind = D.getTemplateSpecializationKind();
  return Kind == TSK_ImplicitInstantiation ||
         Kind == TSK_ExplicitInstantiationDefinition ||
         Kind == TSK_ExplicitInstantiationDeclaration;
}

/// Whether a variable in \p Space is one of the device's that the host
/// registers by name: `__device__`, `__constant__` or `__managed__`.
bool isRegisteredDeviceVariable(utils::VariableSpace Space) {
  return Space == utils::VariableSpace::Device ||
         Space == utils::VariableSpace::Constant ||
         Space == utils::VariableSpace::Managed;
}

// Every function and variable of the unit (parameters included) is
// tested. A kernel's attribute first; a variable's instantiation first, as
// variableSpaceOf() reads a declaration's text.
bool isKernelInstantiation(const FunctionDecl &Function, ASTContext &) {
  return utils::isKernel(Function) && isInstantiation(Function);
}
bool isDeviceVariableInstantiation(const VarDecl &Var, ASTContext &) {
  return isInstantiation(Var) &&
         isRegisteredDeviceVariable(utils::variableSpaceOf(Var));
}

} // namespace

void KernelTemplateArgumentCheck::registerMatchers(MatchFinder *Finder) {
  // The template arguments exist only in the specializations; the kernel
  // template itself may be anyone's (a library's), the point of
  // instantiation decides whose code it is.
  NodeMatches.push_back(utils::matchNodes<FunctionDecl>(
      *Finder, this, isKernelInstantiation, "kernel"));
  NodeMatches.push_back(utils::matchNodes<VarDecl>(
      *Finder, this, isDeviceVariableInstantiation, "variable"));
}

/// Whether \p D lies inside a `__device__` or `__global__` function, where
/// nvcc names types without help.
static bool isInDeviceFunction(const Decl &D) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(D.getParentFunctionOrMethod());
  if (!Function)
    return false;
  return !utils::runsOnHost(utils::executionSpaceOf(*Function));
}

void KernelTemplateArgumentCheck::check(
    const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const NamedDecl *Template = nullptr;
  ArrayRef<TemplateArgument> Args;
  SourceLocation Where;
  bool IsVariable = false;
  if (const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel")) {
    const TemplateArgumentList *List = Kernel->getTemplateSpecializationArgs();
    if (!List)
      return;
    Template = Kernel->getPrimaryTemplate();
    Args = List->asArray();
    Where = Kernel->getPointOfInstantiation();
  } else if (const auto *Var = dyn_cast_or_null<VarTemplateSpecializationDecl>(
                 Result.Nodes.getNodeAs<VarDecl>("variable"))) {
    // Written `__device__`/`__constant__`/`__managed__`: clang also marks
    // constexpr variables (libcu++'s `is_..._v` traits) implicitly, which
    // nvcc keeps on the host.
    if (!isRegisteredDeviceVariable(
            utils::variableSpaceOf(*Var, utils::AttributePolicy::AsWritten)))
      return;
    Template = Var->getSpecializedTemplate();
    Args = Var->getTemplateArgs().asArray();
    Where = Var->getPointOfInstantiation();
    IsVariable = true;
  }
  if (!Template || Where.isInvalid() ||
      utils::isExpansionInSystemHeader(Where, SM))
    return;
  const std::optional<utils::UnnameableType> Found =
      utils::findUnnameableType(Args);
  if (!Found || isInDeviceFunction(*Found->Decl))
    return;
  // A plain lambda's closure type handed to a kernel is
  // cuda-lambda-missing-annotation's, which can also fix it.
  if (Found->Kind == utils::UnnameableKind::PlainClosure && !IsVariable)
    return;
  if (!Reported.insert({SM.getFileLoc(Where), Template->getCanonicalDecl()})
           .second)
    return;

  int Shape = 0;
  switch (Found->Kind) {
  case utils::UnnameableKind::Local:
    Shape = 0;
    break;
  case utils::UnnameableKind::Unnamed:
    Shape = 1;
    break;
  case utils::UnnameableKind::Private:
    Shape = 2;
    break;
  case utils::UnnameableKind::Protected:
    Shape = 3;
    break;
  case utils::UnnameableKind::PlainClosure:
    Shape = 4;
    break;
  }
  diag(Where, "%select{__global__ function|__device__ variable}0 template %1 "
              "is instantiated with %select{%3, a type defined inside a host "
              "function|an unnamed type|%3, a private member type|%3, a "
              "protected member type|the closure type of a lambda that is not "
              "extended}2, which nvcc rejects: its generated code must name "
              "the type from namespace scope; %select{declare %3 outside the "
              "function|give the type a name|make %3 public|make %3 "
              "public|annotate the lambda '__device__' or '__host__ "
              "__device__'}2")
      << IsVariable << Template << Shape << Found->Decl;
  diag(Found->Decl->getLocation(),
       "%select{type %1|unnamed type|private type %1|protected type %1|"
       "lambda}0 declared here",
       DiagnosticIDs::Note)
      << Shape << Found->Decl;
}

} // namespace clang::tidy::cuda

//===--- TemplateInstantiation.cpp - cuda-lambda-tidy -------------------===//

#include "TemplateInstantiation.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::cuda::utils {

bool isTemplateInstantiation(const Decl &D) {
  TemplateSpecializationKind Kind = TSK_Undeclared;
  if (const auto *Function = dyn_cast<FunctionDecl>(&D))
    Kind = Function->getTemplateSpecializationKind();
  else if (const auto *Var = dyn_cast<VarDecl>(&D))
    Kind = Var->getTemplateSpecializationKind();
  else if (const auto *Record = dyn_cast<CXXRecordDecl>(&D))
    Kind = Record->getTemplateSpecializationKind();
  return Kind == TSK_ImplicitInstantiation ||
         Kind == TSK_ExplicitInstantiationDefinition ||
         Kind == TSK_ExplicitInstantiationDeclaration;
}

/// Whether a declaration around \p D (not \p D itself) is an
/// instantiation.
static bool isInsideInstantiation(const Decl &D) {
  // A closure type lies where its lambda is written; in an initializer, that
  // is the declaration it initializes (a variable template specialization, a
  // static data member), which the closure type's context (the namespace,
  // the class) does not show.
  if (const auto *Closure = dyn_cast<CXXRecordDecl>(&D);
      Closure && Closure->isLambda())
    if (const Decl *Initialized = Closure->getLambdaContextDecl();
        Initialized && isInstantiated(*Initialized))
      return true;
  const DeclContext *Around = D.getLexicalDeclContext();
  return Around && isInstantiated(*Decl::castFromDeclContext(Around));
}

bool isInstantiated(const Decl &D) {
  return isTemplateInstantiation(D) || isInsideInstantiation(D);
}

bool isInTemplateInstantiation(const LambdaExpr &Lambda) {
  return isInsideInstantiation(*Lambda.getLambdaClass());
}

} // namespace clang::tidy::cuda::utils

//===--- LambdaCaptureTypeCheck.cpp - cuda-lambda-tidy ------------------===//

#include "LambdaCaptureTypeCheck.h"
#include "utils/EnclosingVariableUses.h"
#include "utils/ExtendedLambda.h"
#include "utils/LocalType.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void LambdaCaptureTypeCheck::registerMatchers(MatchFinder *Finder) {
  // Instantiations too: a capture's type may become local only once a
  // template argument is substituted (`g(Local{})` with `[t]`).
  Finder->addMatcher(
      lambdaExpr(utils::isExtendedLambda(), unless(isExpansionInSystemHeader()))
          .bind("lambda"),
      this);
}

bool LambdaCaptureTypeCheck::firstReport(SourceLocation Loc, Problem Kind) {
  return Reported.insert({Loc, static_cast<unsigned>(Kind)}).second;
}

static bool isStdInitializerList(QualType Type) {
  const auto *Record = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType()->getAsCXXRecordDecl());
  return Record && Record->getName() == "initializer_list" &&
         Record->isInStdNamespace();
}

static bool isParameterPack(const VarDecl *Var) {
  return Var && isa<ParmVarDecl>(Var) && Var->isParameterPack();
}

void LambdaCaptureTypeCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(*Lambda);
  const StringRef KindName = utils::spelling(Kind);

  auto ReportPack = [&](SourceLocation Loc, const VarDecl &Pack) {
    if (firstReport(Loc, Problem::PackElement))
      diag(Loc, "extended %0 lambda captures an element of the function "
                "parameter pack '%1', which nvcc rejects; copy the pack into "
                "a local 'cuda::std::tuple' and capture that")
          << KindName << Pack.getName();
  };

  // nvcc rejects pack elements in the template itself, even an
  // instantiation with an empty pack, so read the pattern's source.
  if (Lambda->getCallOperator()->isDependentContext()) {
    for (const LambdaCapture &Capture : Lambda->explicit_captures())
      if (Capture.isPackExpansion() && Capture.capturesVariable())
        ReportPack(Capture.getLocation(),
                   *cast<VarDecl>(Capture.getCapturedVar()));
    if (Lambda->getCaptureDefault() != LCD_None)
      for (const utils::EnclosingVariableUse &Use :
           utils::enclosingVariableUsesOf(*Lambda))
        if (isParameterPack(Use.Var))
          ReportPack(Use.Loc, *Use.Var);
  }

  for (const LambdaCapture &Capture : Lambda->captures()) {
    if (!Capture.capturesVariable() || Capture.isPackExpansion())
      continue;
    const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar());
    if (!Var)
      continue;
    const SourceLocation Loc = Capture.getLocation();
    // Init-captures of __host__ __device__ lambdas are rejected whatever
    // their type; cuda-lambda-init-capture reports them.
    if (Var->isInitCapture() && Kind == utils::ExtendedLambdaKind::Device &&
        isStdInitializerList(Var->getType())) {
      if (firstReport(Loc, Problem::InitializerList))
        diag(Loc, "extended __device__ lambda init-captures '%0' as a "
                  "'std::initializer_list', which nvcc rejects, and whose "
                  "elements would stay on the host; copy the values into an "
                  "array and capture that")
            << Var->getName();
      continue;
    }
    const TagDecl *Local = utils::findFunctionLocalType(Var->getType());
    if (!Local || !firstReport(Loc, Problem::LocalType))
      continue;
    // What to call the type: its name, or what it is when it has none.
    const auto *Record = dyn_cast<CXXRecordDecl>(Local);
    const unsigned Shape = Record && Record->isLambda() ? 2
                           : Local->getName().empty()   ? 1
                                                        : 0;
    diag(Loc, "extended %0 lambda captures '%1', whose type uses "
              "%select{'%3', a type local to a function,|an unnamed type "
              "local to a function,|the closure type of a lambda that is not "
              "extended,}2 which nvcc cannot name in the code it generates; "
              "%select{declare '%3' outside the function|name the type and "
              "declare it outside the function|make that lambda '__host__ "
              "__device__' or a named function object}2")
        << KindName << Var->getName() << Shape << Local->getName();
    diag(Local->getLocation(),
         "%select{'%1' declared here|unnamed type declared here|lambda that "
         "is not extended defined here}0",
         DiagnosticIDs::Note)
        << Shape << Local->getName();
  }
}

} // namespace clang::tidy::cuda

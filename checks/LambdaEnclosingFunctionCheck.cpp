//===--- LambdaEnclosingFunctionCheck.cpp - cuda-lambda-tidy ------------===//

#include "LambdaEnclosingFunctionCheck.h"
#include "utils/BoolOption.h"
#include "utils/ClangVersions.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

LambdaEnclosingFunctionCheck::LambdaEnclosingFunctionCheck(
    StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      WindowsLinkage(utils::getBoolOption(Options, "WindowsLinkage", false)) {}

void LambdaEnclosingFunctionCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  utils::storeBoolOption(Options, Opts, "WindowsLinkage", WindowsLinkage);
}

void LambdaEnclosingFunctionCheck::registerMatchers(MatchFinder *Finder) {
  // Every rule here is about the lambda's place in the source, which each
  // instantiation shares with its pattern: match the pattern only. Lambdas
  // outside any function are never extended, so annotated ones are matched
  // too and sorted out in check().
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::AsWritten);
}

namespace {

/// Why nvcc cannot use the classes around the enclosing function.
enum class ClassProblem { None, Local, Unnamed, Private, Protected };

struct ClassFinding {
  ClassProblem Problem = ClassProblem::None;
  const CXXRecordDecl *Class = nullptr;
};

} // namespace

/// The first class around \p Function that nvcc cannot name from namespace
/// scope: one local to a function wins over an unnamed one, which wins over a
/// private or protected nested one.
static ClassFinding classProblemOf(const FunctionDecl &Function) {
  ClassFinding Unnamed, Restricted;
  const CXXRecordDecl *Outermost = nullptr;
  for (const DeclContext *Context = Function.getDeclContext(); Context;
       Context = Context->getParent()) {
    if (Context->isFunctionOrMethod())
      return Outermost ? ClassFinding{ClassProblem::Local, Outermost}
                       : ClassFinding{};
    const auto *Record = dyn_cast<CXXRecordDecl>(Context);
    if (!Record)
      continue;
    Outermost = Record;
    if (!Record->getIdentifier() && !Unnamed.Class)
      Unnamed = {ClassProblem::Unnamed, Record};
    if (isa<CXXRecordDecl>(Record->getDeclContext()) && !Restricted.Class) {
      if (Record->getAccess() == AS_private)
        Restricted = {ClassProblem::Private, Record};
      else if (Record->getAccess() == AS_protected)
        Restricted = {ClassProblem::Protected, Record};
    }
  }
  return Unnamed.Class ? Unnamed : Restricted;
}

void LambdaEnclosingFunctionCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda");
  const SourceLocation Loc = Lambda->getBeginLoc();
  const utils::EnclosingFunction Around = utils::enclosingFunctionOf(*Lambda);

  // Nested in a lambda outside any function: nvcc has no enclosing function
  // to name. The lambda is not extended (there is no function), so its kind
  // is what is written; inside a __device__ lambda it is device code.
  if (!Around.Function) {
    const utils::ExtendedLambdaKind Written = utils::annotationOf(*Lambda);
    if (Written == utils::ExtendedLambdaKind::None ||
        Around.LambdasBetween.empty())
      return;
    for (const CXXMethodDecl *Between : Around.LambdasBetween)
      if (utils::hasExplicitDeviceAttr(*Between) &&
          !utils::hasExplicitHostAttr(*Between))
        return;
    diag(Loc, "%0 lambda is nested in a lambda that is outside any function, "
              "so nvcc has no enclosing function to name and rejects it; "
              "define the outer lambda inside a function")
        << utils::spelling(Written);
    diag(Around.LambdasBetween.back()->getParent()->getLocation(),
         "outermost lambda, outside any function, defined here",
         DiagnosticIDs::Note);
    return;
  }

  const utils::ExtendedLambdaKind Kind = utils::extendedLambdaKindOf(*Lambda);
  if (Kind == utils::ExtendedLambdaKind::None)
    return;
  const StringRef KindName = utils::spelling(Kind);

  // Between the lambda and its enclosing function, innermost first. Any
  // annotated lambda left here is an extended __host__ __device__ one: a
  // __device__ one would have made this lambda device code.
  for (const CXXMethodDecl *Between : Around.LambdasBetween) {
    const CXXRecordDecl *Closure = Between->getParent();
    if (utils::hasExplicitDeviceAttr(*Between)) {
      diag(Loc, "extended %0 lambda is defined inside an extended __host__ "
                "__device__ lambda, which nvcc rejects; define it outside "
                "that lambda, in the enclosing function")
          << KindName;
      diag(Closure->getLocation(),
           "enclosing extended __host__ __device__ lambda defined here",
           DiagnosticIDs::Note);
      return;
    }
    if (Closure->isGenericLambda()) {
      diag(Loc, "extended %0 lambda is defined inside a generic lambda, which "
                "nvcc rejects even when it is never called; give that "
                "lambda concrete parameter types or define this one outside "
                "it")
          << KindName;
      diag(Closure->getLocation(), "enclosing generic lambda defined here",
           DiagnosticIDs::Note);
      return;
    }
  }

  const FunctionDecl *Function = Around.Function;
  if (isa<CXXConstructorDecl, CXXDestructorDecl>(Function)) {
    const bool IsDestructor = isa<CXXDestructorDecl>(Function);
    diag(Loc, "extended %0 lambda is defined in %select{constructor|"
              "destructor}1 %2, but nvcc must take the address of the "
              "enclosing function; move the lambda into a member or free "
              "function that the %select{constructor|destructor}1 calls")
        << KindName << IsDestructor << Function;
    diag(Function->getLocation(),
         "%select{constructor|destructor}0 declared here", DiagnosticIDs::Note)
        << IsDestructor;
    return;
  }

  const ClassFinding Classes = classProblemOf(*Function);
  switch (Classes.Problem) {
  case ClassProblem::Local:
    diag(Loc, "extended %0 lambda is defined in %1, inside %2, a class local "
              "to a function, which nvcc cannot name; move %2 out of the "
              "function")
        << KindName << Function << Classes.Class;
    diag(Classes.Class->getLocation(), "local class %0 defined here",
         DiagnosticIDs::Note)
        << Classes.Class;
    return;
  case ClassProblem::Unnamed:
    diag(Loc, "extended %0 lambda is defined in %1, a member function of an "
              "unnamed class, which nvcc cannot name; give the class a name")
        << KindName << Function;
    diag(Classes.Class->getLocation(), "unnamed class defined here",
         DiagnosticIDs::Note);
    return;
  case ClassProblem::Private:
  case ClassProblem::Protected:
    break;
  case ClassProblem::None:
    break;
  }

  // A member function's access is that of its first declaration (an
  // out-of-line definition repeats it), or of its template.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function)) {
    const CXXMethodDecl *Declared = Method->getCanonicalDecl();
    AccessSpecifier Access = Declared->getAccess();
    if (const FunctionTemplateDecl *Template =
            Declared->getDescribedFunctionTemplate())
      Access = Template->getAccess();
    if (Access == AS_private || Access == AS_protected) {
      const bool IsProtected = Access == AS_protected;
      diag(Loc, "extended %0 lambda is defined in %select{private|protected}1 "
                "member function %2, but nvcc must name its enclosing function "
                "from outside the class; make %2 public")
          << KindName << IsProtected << Function;
      diag(Declared->getLocation(),
           "%0 declared %select{private|protected}1 "
           "here",
           DiagnosticIDs::Note)
          << Function << IsProtected;
      return;
    }
  }

  if (Classes.Problem == ClassProblem::Private ||
      Classes.Problem == ClassProblem::Protected) {
    const bool IsProtected = Classes.Problem == ClassProblem::Protected;
    diag(Loc, "extended %0 lambda is defined in %1, inside %2, a "
              "%select{private|protected}3 nested class, but nvcc "
              "must name its enclosing function from outside the class; make "
              "%2 public")
        << KindName << Function << Classes.Class << IsProtected;
    diag(Classes.Class->getLocation(),
         "%0 declared %select{private|protected}1 here", DiagnosticIDs::Note)
        << Classes.Class << IsProtected;
    return;
  }

  // nvcc on Windows (only there: Linux accepts, measured) needs an enclosing
  // function with external linkage: not 'static', not in an anonymous
  // namespace or a class inside one.
  if (WindowsLinkage && !isExternalFormalLinkage(Function->getFormalLinkage())) {
    const bool NoLinkage = utils::isNoLinkage(Function->getFormalLinkage());
    diag(Loc, "extended %0 lambda is defined in %1, which has %select{internal|"
              "no}2 linkage, and nvcc on Windows rejects such an enclosing "
              "function; give %1 external linkage (no "
              "'static', outside any anonymous namespace)")
        << KindName << Function << NoLinkage;
    diag(Function->getLocation(), "%0 declared here", DiagnosticIDs::Note)
        << Function;
  }
}

} // namespace clang::tidy::cuda

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
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::Extended);
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

/// nvcc copies a captured array into its closure element by element: it
/// default-constructs the closure's array and assigns each element, on the
/// host. These say whether that code compiles for \p Record, from outside the
/// class (nvcc rejects a private default constructor too, measured). A class
/// without a definition here, a union or a class with constructor templates
/// gets the benefit of the doubt.
static bool isDefaultConstructibleOnHost(const CXXRecordDecl *Record,
                                         const ASTContext &Context);
static bool isCopyAssignableOnHost(const CXXRecordDecl *Record,
                                   const ASTContext &Context);

static bool givesBenefitOfDoubt(const CXXRecordDecl *&Record) {
  Record = Record ? Record->getDefinition() : nullptr;
  return !Record || Record->isUnion() || Record->isLambda() ||
         Record->isDependentType();
}

static bool hasConstructorTemplate(const CXXRecordDecl &Record) {
  for (const Decl *D : Record.decls())
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      if (isa<CXXConstructorDecl>(Template->getTemplatedDecl()))
        return true;
  return false;
}

static bool isDefaultConstructibleOnHost(const CXXRecordDecl *Record,
                                         const ASTContext &Context) {
  if (givesBenefitOfDoubt(Record) || hasConstructorTemplate(*Record))
    return true;
  bool Declared = false;
  for (const CXXConstructorDecl *Constructor : Record->ctors()) {
    if (!Constructor->isDefaultConstructor())
      continue;
    Declared = true;
    if (!Constructor->isDeleted() && Constructor->getAccess() != AS_private &&
        Constructor->getAccess() != AS_protected)
      return true;
  }
  if (Declared || Record->hasUserDeclaredConstructor())
    return false;
  // The implicit default constructor, deleted when a base or a member
  // without an initializer cannot be default constructed.
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (!isDefaultConstructibleOnHost(Base.getType()->getAsCXXRecordDecl(),
                                      Context))
      return false;
  for (const FieldDecl *Field : Record->fields()) {
    if (Field->hasInClassInitializer())
      continue;
    const QualType Type = Field->getType();
    if (Type->isReferenceType())
      return false;
    const QualType Element = Context.getBaseElementType(Type);
    if (const CXXRecordDecl *Class = Element->getAsCXXRecordDecl()) {
      if (!isDefaultConstructibleOnHost(Class, Context))
        return false;
    } else if (Element.isConstQualified()) {
      return false;
    }
  }
  return true;
}

static bool isCopyAssignableOnHost(const CXXRecordDecl *Record,
                                   const ASTContext &Context) {
  if (givesBenefitOfDoubt(Record))
    return true;
  bool Declared = false;
  for (const CXXMethodDecl *Method : Record->methods()) {
    if (!Method->isCopyAssignmentOperator())
      continue;
    Declared = true;
    if (!Method->isDeleted() && Method->getAccess() != AS_private &&
        Method->getAccess() != AS_protected)
      return true;
  }
  if (Declared || Record->hasUserDeclaredMoveConstructor() ||
      Record->hasUserDeclaredMoveAssignment())
    return false;
  // The implicit copy assignment, deleted by a const or reference member or
  // a base or member that cannot be assigned.
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (!isCopyAssignableOnHost(Base.getType()->getAsCXXRecordDecl(), Context))
      return false;
  for (const FieldDecl *Field : Record->fields()) {
    const QualType Type = Field->getType();
    if (Type->isReferenceType())
      return false;
    const QualType Element = Context.getBaseElementType(Type);
    if (Element.isConstQualified())
      return false;
    if (!isCopyAssignableOnHost(Element->getAsCXXRecordDecl(), Context))
      return false;
  }
  return true;
}

/// nvcc 13 compiles an extended lambda with 1022 captured variables and
/// stops with an internal error at 1023 (measured), though its message says
/// 1023.
static constexpr unsigned MaxCapturedVariables = 1022;
/// nvcc's limit on the dimensions of a captured array.
static constexpr unsigned MaxCapturedArrayRank = 7;

void LambdaCaptureTypeCheck::checkCapturedArray(const VarDecl &Var,
                                                SourceLocation Loc,
                                                StringRef KindName) {
  const ASTContext &Context = Var.getASTContext();
  const QualType Type = Var.getType();
  if (Type->isDependentType() || !Context.getAsConstantArrayType(Type))
    return;
  unsigned Rank = 0;
  for (const ArrayType *Array = Context.getAsArrayType(Type); Array;
       Array = Context.getAsArrayType(Array->getElementType()))
    ++Rank;
  if (Rank > MaxCapturedArrayRank) {
    if (firstReport(Loc, Problem::ArrayRank))
      diag(Loc, "extended %0 lambda captures the array '%1' of %2 "
                "dimensions, but nvcc accepts at most %3 in a captured array; "
                "use fewer dimensions, or wrap the array in a struct and "
                "capture that")
          << KindName << Var.getName() << Rank << MaxCapturedArrayRank;
    return;
  }
  // Qualifiers do not matter: nvcc accepts a captured 'const int[N]'.
  const QualType Element =
      Context.getBaseElementType(Type).getUnqualifiedType();
  const CXXRecordDecl *Record = Element->getAsCXXRecordDecl();
  if (!Record)
    return;
  const bool Constructible = isDefaultConstructibleOnHost(Record, Context);
  const bool Assignable = isCopyAssignableOnHost(Record, Context);
  if (!Constructible && firstReport(Loc, Problem::ArrayDefaultConstruct))
    diag(Loc, "extended %0 lambda captures the array '%1', whose element "
              "type %2 is not default constructible on the host, and nvcc "
              "builds the closure's copy of an array by default-constructing "
              "it; give %2 a public default constructor, or wrap the array in "
              "a struct and capture that")
        << KindName << Var.getName() << Element;
  if (!Assignable && firstReport(Loc, Problem::ArrayAssign))
    diag(Loc, "extended %0 lambda captures the array '%1', whose element "
              "type %2 is not copy assignable on the host, and nvcc fills "
              "the closure's copy of an array by assigning each element; "
              "give %2 a public copy assignment operator, or wrap the array "
              "in a struct and capture that")
        << KindName << Var.getName() << Element;
}

/// The array an init-capture is initialized from, as written: an expression
/// of array type (the capture itself holds a pointer to its first element).
/// String literals are accepted by nvcc (measured).
static const Expr *arrayInitializerOf(const VarDecl &Var) {
  const Expr *Init = Var.getInit();
  if (!Init || Var.getType()->isReferenceType())
    return nullptr;
  Init = Init->IgnoreParenImpCasts();
  if (const auto *List = dyn_cast<InitListExpr>(Init);
      List && List->getNumInits() == 1)
    Init = List->getInit(0)->IgnoreParenImpCasts();
  if (const auto *Paren = dyn_cast<ParenListExpr>(Init);
      Paren && Paren->getNumExprs() == 1)
    Init = Paren->getExpr(0)->IgnoreParenImpCasts();
  if (isa<StringLiteral, PredefinedExpr>(Init) || !Init->getType()->isArrayType())
    return nullptr;
  return Init;
}

void LambdaCaptureTypeCheck::reportRestricted(SourceLocation Loc,
                                              const TagDecl &Restricted,
                                              StringRef KindName,
                                              const std::string &What) {
  diag(Loc, "extended %0 lambda %1, whose type uses %2, a %select{private|"
            "protected}3 member type, which nvcc cannot name in the code it "
            "generates; make %2 public")
      << KindName << What << &Restricted
      << (Restricted.getAccess() == AS_protected);
  diag(Restricted.getLocation(), "%select{private|protected}0 type %1 declared "
                                 "here",
       DiagnosticIDs::Note)
      << (Restricted.getAccess() == AS_protected) << &Restricted;
}

/// nvcc writes the operator() of an extended __host__ __device__ lambda into
/// its generated wrapper, so it must name its parameter and return types
/// (a __device__ lambda's are not written there: nvcc accepts them,
/// measured).
void LambdaCaptureTypeCheck::checkSignature(const LambdaExpr &Lambda) {
  const CXXMethodDecl *Call = Lambda.getCallOperator();
  auto CheckType = [&](QualType Type, SourceLocation Loc, bool IsReturn,
                       StringRef ParamName) {
    const std::string What =
        IsReturn ? std::string("returns a value")
                 : "takes the parameter '" + ParamName.str() + "'";
    if (const TagDecl *Local = utils::findFunctionLocalType(Type)) {
      if (!firstReport(Loc, Problem::SignatureType))
        return;
      diag(Loc, "extended __host__ __device__ lambda %0, whose type uses %1, "
                "a type local to a function, which nvcc cannot name in the "
                "code it generates for the lambda's operator(); declare %1 "
                "outside the function")
          << What << Local;
      diag(Local->getLocation(), "%0 declared here", DiagnosticIDs::Note)
          << Local;
    } else if (const TagDecl *Restricted =
                   utils::findRestrictedMemberType(Type)) {
      if (firstReport(Loc, Problem::SignatureType))
        reportRestricted(Loc, *Restricted, "__host__ __device__",
                         What);
    }
  };
  for (const ParmVarDecl *Param : Call->parameters())
    CheckType(Param->getType(), Param->getLocation(), false, Param->getName());
  CheckType(Call->getReturnType(), Lambda.getBeginLoc(), true, "");
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

  if (Kind == utils::ExtendedLambdaKind::HostDevice)
    checkSignature(*Lambda);

  unsigned CapturedVariables = 0;
  for (const LambdaCapture &Capture : Lambda->captures())
    CapturedVariables += Capture.capturesVariable();
  if (CapturedVariables > MaxCapturedVariables &&
      firstReport(Lambda->getBeginLoc(), Problem::CaptureCount))
    diag(Lambda->getBeginLoc(),
         "extended %0 lambda captures %1 variables, more than the %2 that "
         "nvcc can compile (it stops with an internal error); gather them "
         "into a struct and capture that")
        << KindName << CapturedVariables << MaxCapturedVariables;

  for (const LambdaCapture &Capture : Lambda->captures()) {
    if (!Capture.capturesVariable() || Capture.isPackExpansion())
      continue;
    const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar());
    if (!Var)
      continue;
    const SourceLocation Loc = Capture.getLocation();
    if (Capture.getCaptureKind() == LCK_ByCopy) {
      if (!Var->isInitCapture()) {
        checkCapturedArray(*Var, Loc, KindName);
      } else if (Kind == utils::ExtendedLambdaKind::Device) {
        // (Init-captures of __host__ __device__ lambdas are rejected
        // whatever they are; cuda-lambda-init-capture reports them.)
        if (const Expr *Array = arrayInitializerOf(*Var);
            Array && firstReport(Loc, Problem::ArrayInitCapture)) {
          const auto *Named = dyn_cast<DeclRefExpr>(Array);
          diag(Loc, "extended __device__ lambda init-captures '%0' from "
                    "%select{the array '%2'|an array}1, which nvcc rejects, "
                    "and '%0' would point to the host's copy; capture "
                    "%select{the array by copy with '[%2]'|a named array "
                    "variable by copy}1 instead")
              << Var->getName() << (Named == nullptr)
              << (Named ? Named->getDecl()->getName() : StringRef());
        }
      }
    }
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
    if (!Local) {
      if (const TagDecl *Restricted =
              utils::findRestrictedMemberType(Var->getType());
          Restricted && firstReport(Loc, Problem::RestrictedType))
        reportRestricted(Loc, *Restricted, KindName,
                         "captures '" + Var->getName().str() + "'");
      continue;
    }
    if (!firstReport(Loc, Problem::LocalType))
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

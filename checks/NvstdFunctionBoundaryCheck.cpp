//===--- NvstdFunctionBoundaryCheck.cpp - cuda-lambda-tidy --------------===//

#include "NvstdFunctionBoundaryCheck.h"
#include "utils/CallableCode.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/SourceText.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// What an nvstd::function is initialized with.
struct Target {
  enum KindT { Function, Lambda, Functor } Kind;
  const FunctionDecl *Callee; // the function, or the call operator
  std::string Name;           // function, lambda variable, Class::operator()
};

/// The one call operator of \p Record, or null when there is none or several.
const FunctionDecl *callOperatorOf(const CXXRecordDecl &Record) {
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition)
    return nullptr;
  const FunctionDecl *Found = nullptr;
  const DeclarationName Name =
      Definition->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  for (const NamedDecl *D : Definition->lookup(Name)) {
    const FunctionDecl *FD = D->getAsFunction();
    if (!FD || Found)
      return nullptr;
    Found = FD;
  }
  return Found;
}

/// The function, lambda or functor \p E stands for, seen through casts,
/// temporaries, `&` and copies of a closure.
std::optional<Target> targetOf(const Expr *E) {
  const VarDecl *Variable = nullptr;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = Temp->getSubExpr();
    } else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(E);
               Unary && Unary->getOpcode() == UO_AddrOf) {
      E = Unary->getSubExpr();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
               Construct && Construct->getNumArgs() == 1 &&
               Construct->getConstructor()->isCopyOrMoveConstructor()) {
      E = Construct->getArg(0);
    } else {
      break;
    }
  }
  if (!E)
    return std::nullopt;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return Target{Target::Function, Function, Function->getNameAsString()};
    Variable = dyn_cast<VarDecl>(Ref->getDecl());
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
    return Target{Target::Lambda, Lambda->getCallOperator(), ""};
  const CXXRecordDecl *Record = E->getType()->getAsCXXRecordDecl();
  if (!Record || utils::isNvstdFunctionClass(*Record))
    return std::nullopt;
  if (Record->isLambda())
    return Target{Target::Lambda, Record->getLambdaCallOperator(),
                  Variable ? Variable->getNameAsString() : ""};
  const FunctionDecl *Operator = callOperatorOf(*Record);
  if (!Operator)
    return std::nullopt;
  return Target{Target::Functor, Operator,
                Record->getNameAsString() + "::operator()"};
}

/// `nvstd::function<...> f(callable)` or `= callable`: a construction from
/// a callable by the converting constructor template, or an assignment of
/// one. The callable, and the nvstd::function type it goes into.
struct Initialization {
  const Expr *Callable = nullptr;
  QualType FunctionType;
};
std::optional<Initialization> initializationOf(const Expr &E) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&E)) {
    const CXXConstructorDecl *Constructor = Construct->getConstructor();
    if (Construct->getNumArgs() == 1 && Constructor &&
        !Constructor->isCopyConstructor() &&
        !Constructor->isMoveConstructor() &&
        utils::isNvstdFunction(Construct->getType()))
      return Initialization{Construct->getArg(0), Construct->getType()};
    return std::nullopt;
  }
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(&E)) {
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Assign->getCalleeDecl());
    if (Assign->getOperator() == OO_Equal && Method &&
        utils::isNvstdFunctionClass(*Method->getParent()) &&
        Assign->getNumArgs() == 2)
      return Initialization{Assign->getArg(1), Assign->getArg(0)->getType()};
  }
  return std::nullopt;
}

} // namespace

void NvstdFunctionBoundaryCheck::registerMatchers(MatchFinder *Finder) {
  // Initializations and kernel launches are found in the code of each
  // function and lambda, which check() walks.
  Callables = utils::matchCallables(*Finder, this);
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::Extended);
}

void NvstdFunctionBoundaryCheck::check(const MatchFinder::MatchResult &Result) {
  // Every initialization, launch and capture it reports holds an
  // nvstd::function, which needs <nvfunctional>'s namespace.
  if (!NvstdDeclared)
    NvstdDeclared = utils::declaresNvstdNamespace(*Result.Context);
  if (!*NvstdDeclared)
    return;
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda")) {
    checkCaptures(*Lambda);
    return;
  }
  const std::optional<utils::Callable> Code = utils::matchedCallable(Result);
  if (!Code)
    return;
  const SourceManager &SM = *Result.SourceManager;
  Code->forEachStmt([&](const Stmt &S, const DynTypedNode &,
                        utils::AncestorList) {
    const auto *E = dyn_cast<Expr>(&S);
    if (!E)
      return;
    // What is looked for first, the system header (a costlier question) then.
    if (std::optional<Initialization> Init = initializationOf(*E)) {
      if (!utils::isExpansionInSystemHeader(E->getBeginLoc(), SM))
        checkInitialization(*Init->Callable, Init->FunctionType,
                            Code->function());
    } else if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(E)) {
      if (!utils::isExpansionInSystemHeader(E->getBeginLoc(), SM))
        checkLaunch(*Launch, Code->function());
    }
  });
}

void NvstdFunctionBoundaryCheck::checkInitialization(
    const Expr &Callable, QualType FunctionType, const FunctionDecl &Context) {
  const utils::ExecutionSpace Side = utils::executionSpaceOf(Context);
  // A __host__ __device__ body initializes on both sides; nvcc judges each
  // call to it, which this check does not follow.
  if (Side == utils::ExecutionSpace::HostDevice)
    return;
  const bool OnDevice = utils::runsOnDevice(Side);
  std::optional<Target> T = targetOf(&Callable);
  if (!T)
    return;
  const utils::ExecutionSpace Space = utils::executionSpaceOf(*T->Callee);
  const utils::ExecutionSpace Wrong =
      OnDevice ? utils::ExecutionSpace::Host : utils::ExecutionSpace::Device;
  if (Space != Wrong)
    return;
  const SourceLocation Loc = Callable.getBeginLoc();
  if (!Reported.insert(Loc).second)
    return;
  const QualType Spelled =
      utils::findNvstdFunctionIn(FunctionType)
          ? utils::findNvstdFunctionIn(FunctionType)->FunctionType
          : FunctionType;
  diag(Loc, "%0 initialized in %select{host|device}1 code with "
            "%select{%select{__device__|__host__}1 function '%3'|"
            "%select{extended __device__|__host__}1 lambda%select{| '%3'}4|"
            "functor whose '%3' is %select{__device__|__host__}1}2, which the "
            "%select{host|device}1 cannot call; initialize it in "
            "%select{device|host}1 code, or make %select{'%3'|the lambda|"
            "'%3'}2 __host__ __device__")
      << Spelled << OnDevice << T->Kind << T->Name << !T->Name.empty();
  diag(T->Callee->getLocation(),
       "%select{function '%1'|lambda|'%1'}0 declared %select{__device__|"
       "__host__}2 here",
       DiagnosticIDs::Note)
      << T->Kind << T->Name << OnDevice;
}

void NvstdFunctionBoundaryCheck::checkCaptures(const LambdaExpr &Lambda) {
  const CXXRecordDecl *Closure = Lambda.getLambdaClass();
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  Closure->getCaptureFields(Fields, ThisField);
  for (const LambdaCapture &Capture : Lambda.captures()) {
    if (!Capture.capturesVariable())
      continue;
    const FieldDecl *Field = Fields.lookup(Capture.getCapturedVar());
    if (!Field || Field->getType()->isReferenceType())
      continue;
    std::optional<utils::StdFunctionInType> Found =
        utils::findNvstdFunctionIn(Field->getType());
    if (!Found || Found->How == utils::StdFunctionInType::Pointee)
      continue;
    if (!Reported.insert(Capture.getLocation()).second)
      continue;
    diag(Capture.getLocation(),
         "extended %0 lambda captures '%1', which %select{is|holds}2 a "
         "%3%select{| in member '%4'}2 created in host code, and an "
         "'nvstd::function' cannot be passed from host to device; capture the "
         "callable itself, and create the 'nvstd::function' in device code")
        << utils::spelling(utils::extendedLambdaKindOf(Lambda))
        << Capture.getCapturedVar()->getName() << Found->isMember()
        << Found->FunctionType << Found->memberPath();
  }
}

void NvstdFunctionBoundaryCheck::checkLaunch(const CUDAKernelCallExpr &Launch,
                                             const FunctionDecl &Context) {
  // A launch from device code (dynamic parallelism) stays on the device.
  if (utils::runsOnDevice(utils::executionSpaceOf(Context)) &&
      utils::executionSpaceOf(Context) != utils::ExecutionSpace::HostDevice)
    return;
  const FunctionDecl *Kernel = Launch.getDirectCallee();
  if (!Kernel)
    return;
  const unsigned Count =
      std::min<unsigned>(Launch.getNumArgs(), Kernel->getNumParams());
  for (unsigned I = 0; I < Count; ++I) {
    const ParmVarDecl *Param = Kernel->getParamDecl(I);
    std::optional<utils::StdFunctionInType> Found =
        utils::findNvstdFunctionIn(Param->getType());
    if (!Found || Found->How == utils::StdFunctionInType::Pointee)
      continue;
    // An extended lambda's captures are reported at the lambda.
    if (llvm::any_of(Found->Members, [](const FieldDecl *Member) {
          return Member->getParent()->isLambda();
        }))
      continue;
    const Expr *Arg = Launch.getArg(I);
    if (!Reported.insert(Arg->getBeginLoc()).second)
      continue;
    diag(Arg->getBeginLoc(),
         "%0 passed from host code to kernel '%1'%select{| in member '%3'}2; "
         "an 'nvstd::function' cannot be passed from host to device: pass the "
         "callable itself, and create the 'nvstd::function' in the kernel")
        << Found->FunctionType << Kernel->getNameAsString() << Found->isMember()
        << Found->memberPath();
    const ParmVarDecl *Declared = Param;
    if (const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
        Pattern && I < Pattern->getNumParams())
      Declared = Pattern->getParamDecl(I);
    diag(Declared->getLocation(), "parameter '%0' of kernel '%1' declared here",
         DiagnosticIDs::Note)
        << Declared->getName() << Kernel->getNameAsString();
  }
}

} // namespace clang::tidy::cuda

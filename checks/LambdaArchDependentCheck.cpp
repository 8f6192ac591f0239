//===--- LambdaArchDependentCheck.cpp - cuda-lambda-tidy ----------------===//

#include "LambdaArchDependentCheck.h"
#include "utils/PassDependence.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

static constexpr llvm::StringLiteral ConditionalNote =
    "the conditional on '%0' is here";

/// How a message names the branch's macro: `__CUDA_ARCH__` itself, or a
/// project's macro and where it comes from.
static std::string conditionOn(const utils::ArchBranch &Branch) {
  if (Branch.Macro.empty() || Branch.Macro == "__CUDA_ARCH__")
    return "'__CUDA_ARCH__'";
  return "'" + Branch.Macro.str() + "' (which depends on '__CUDA_ARCH__')";
}

static StringRef macroOf(const utils::ArchBranch &Branch) {
  return Branch.Macro.empty() ? StringRef("__CUDA_ARCH__") : Branch.Macro;
}

void LambdaArchDependentCheck::registerPPCallbacks(const SourceManager &SM,
                                                   Preprocessor *PP,
                                                   Preprocessor *) {
  Conditionals = &utils::passDependenceOf(*PP).conditionals();
}

/// A function definition as written outside system headers, not a lambda's
/// call operator (the lambdas are matched themselves).
static bool isWrittenFunctionDefinition(const FunctionDecl &Function,
                                        ASTContext &Context) {
  if (!Function.isThisDeclarationADefinition() ||
      utils::isTemplateInstantiation(Function))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
      Method && Method->getParent() && Method->getParent()->isLambda())
    return false;
  return !utils::isExpansionInSystemHeader(Function.getBeginLoc(),
                                           Context.getSourceManager());
}

void LambdaArchDependentCheck::registerMatchers(MatchFinder *Finder) {
  NodeMatches.push_back(utils::matchNodes<FunctionDecl>(
      *Finder, this, isWrittenFunctionDefinition, "function"));
  MatchedLambdas = utils::matchLambdas(
      *Finder, this, utils::LambdaSelection::ExtendedAsWritten);
}

void LambdaArchDependentCheck::check(const MatchFinder::MatchResult &Result) {
  if (!Conditionals || Conditionals->branches().empty())
    return;
  if (const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function"))
    checkFunction(*Function, *Result.Context);
  if (const auto *Lambda = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
    if (Lambda->getCaptureDefault() != LCD_None)
      checkCaptures(*Lambda, *Result.Context);
}

/// The '#' of the directive at \p Loc (its name), where the note goes.
static SourceLocation hashOf(SourceLocation Loc, const SourceManager &SM) {
  return utils::findPrecedingToken(Loc, '#', SM).value_or(Loc);
}

static bool within(SourceLocation Loc, SourceRange R, const SourceManager &SM) {
  Loc = SM.getFileLoc(Loc);
  return SM.isPointWithin(Loc, SM.getFileLoc(R.getBegin()),
                          SM.getFileLoc(R.getEnd()));
}

/// (a) Extended lambdas that exist in only some passes of \p Function.
void LambdaArchDependentCheck::checkFunction(const FunctionDecl &Function,
                                             ASTContext &Ctx) {
  const Stmt *Body = Function.getBody();
  if (!Body || !utils::runsOnHost(utils::executionSpaceOf(Function)))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Branches = Conditionals->branchesWithin(Body->getSourceRange(), SM);
  if (Branches.empty())
    return;

  // The extended lambdas whose enclosing function is Function.
  llvm::SmallVector<const LambdaExpr *, 8> Lambdas;
  for (const BoundNodes &Node :
       match(stmt(forEachDescendant(
                 lambdaExpr(utils::isExtendedLambda()).bind("l"))),
             *Body, Ctx)) {
    const auto *L = Node.getNodeAs<LambdaExpr>("l");
    if (utils::enclosingFunctionOf(*L).Function == &Function)
      Lambdas.push_back(L);
  }
  // Code inside an extended lambda's body is device code: a lambda there is
  // not extended, whatever it is annotated with.
  auto InDeviceBody = [&](SourceLocation Loc) {
    for (const LambdaExpr *L : Lambdas)
      if (within(Loc, L->getBody()->getSourceRange(), SM))
        return true;
    return false;
  };
  auto Report = [&](SourceLocation At, utils::ExtendedLambdaKind Kind,
                    const utils::ArchBranch &Branch) {
    diag(At, "extended %0 lambda is defined under a conditional on "
             "%2, so nvcc's host and device passes see different "
             "extended lambdas in %1 and can launch the wrong one; move the "
             "'#if %3' inside the lambda's body without changing "
             "which lambdas exist")
        << utils::spelling(Kind) << &Function << conditionOn(Branch)
        << macroOf(Branch);
    diag(hashOf(Branch.Range.getBegin(), SM), ConditionalNote,
         DiagnosticIDs::Note)
        << macroOf(Branch);
  };

  for (const LambdaExpr *L : Lambdas) {
    const utils::ArchBranch *Branch =
        Conditionals->takenBranchAt(L->getBeginLoc(), SM);
    if (Branch && within(Branch->Range.getBegin(), Body->getSourceRange(), SM))
      Report(L->getBeginLoc(), utils::extendedLambdaKindOf(*L), *Branch);
  }
  for (const utils::ArchBranch *Branch : Branches) {
    if (Branch->Taken || InDeviceBody(Branch->Range.getBegin()))
      continue;
    for (const utils::RawAnnotatedLambda &Raw : utils::findAnnotatedLambdas(
             utils::rawTokensOfBranch(*Branch, SM, getLangOpts())))
      Report(Raw.Introducer,
             Raw.HostDevice ? utils::ExtendedLambdaKind::HostDevice
                            : utils::ExtendedLambdaKind::Device,
             *Branch);
  }
}

/// (b) Variables that a capture default captures in only some passes.
void LambdaArchDependentCheck::checkCaptures(const LambdaExpr &Lambda,
                                             ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = Lambda.getBody();
  auto Branches = Conditionals->branchesWithin(Body->getSourceRange(), SM);
  if (Branches.empty())
    return;
  const StringRef Kind = utils::spelling(utils::extendedLambdaKindOf(Lambda));

  // The identifiers of the branches this pass skipped, with the branch.
  llvm::StringMap<const utils::ArchBranch *> SkippedNames;
  for (const utils::ArchBranch *Branch : Branches) {
    if (Branch->Taken)
      continue;
    for (const Token &Tok :
         utils::rawTokensOfBranch(*Branch, SM, getLangOpts()))
      if (Tok.is(tok::raw_identifier))
        SkippedNames.try_emplace(Tok.getRawIdentifier(), Branch);
  }

  auto Report = [&](StringRef Name, const utils::ArchBranch &Branch) {
    diag(Lambda.getCaptureDefaultLoc(),
         "extended %0 lambda's capture default captures '%1' in only some of "
         "nvcc's compilation passes, because '%1' is used under a conditional "
         "on %2; capture '%1' explicitly")
        << Kind << Name << conditionOn(Branch);
    diag(hashOf(Branch.Range.getBegin(), SM), ConditionalNote,
         DiagnosticIDs::Note)
        << macroOf(Branch);
  };

  // Captured here, but only through uses in taken arch-dependent branches.
  llvm::StringSet<> Captured;
  for (const LambdaCapture &Capture : Lambda.captures()) {
    if (!Capture.capturesVariable())
      continue;
    const ValueDecl *Var = Capture.getCapturedVar();
    Captured.insert(Var->getName());
    if (Capture.isExplicit() || SkippedNames.count(Var->getName()))
      continue;
    const utils::ArchBranch *Only = nullptr;
    bool AllConditional = true;
    for (const BoundNodes &Node :
         match(stmt(forEachDescendant(
                   declRefExpr(to(varDecl(equalsNode(Var)))).bind("ref"))),
               *Body, Ctx)) {
      const auto *Ref = Node.getNodeAs<DeclRefExpr>("ref");
      const utils::ArchBranch *Branch =
          Conditionals->takenBranchAt(Ref->getLocation(), SM);
      if (!Branch ||
          !within(Branch->Range.getBegin(), Body->getSourceRange(), SM)) {
        AllConditional = false;
        break;
      }
      if (!Only)
        Only = Branch;
    }
    if (AllConditional && Only)
      Report(Var->getName(), *Only);
  }

  if (SkippedNames.empty())
    return;
  // Named only in a skipped branch: a local of the enclosing function that
  // the other pass captures.
  const FunctionDecl *Enclosing = utils::enclosingFunctionOf(Lambda).Function;
  if (!Enclosing || !Enclosing->getBody())
    return;
  // Names this pass uses in the body: captured here too (in a template's
  // pattern, implicit captures of dependent uses are not listed yet).
  for (const BoundNodes &Node :
       match(stmt(forEachDescendant(declRefExpr(to(varDecl().bind("v"))))),
             *Body, Ctx))
    Captured.insert(Node.getNodeAs<VarDecl>("v")->getName());
  llvm::StringSet<> OwnNames;
  for (const ParmVarDecl *Param : Lambda.getCallOperator()->parameters())
    OwnNames.insert(Param->getName());
  for (const BoundNodes &Node :
       match(stmt(forEachDescendant(varDecl().bind("v"))), *Body, Ctx))
    OwnNames.insert(Node.getNodeAs<VarDecl>("v")->getName());

  llvm::SmallVector<const VarDecl *, 8> Locals(Enclosing->parameters().begin(),
                                               Enclosing->parameters().end());
  for (const BoundNodes &Node :
       match(stmt(forEachDescendant(varDecl(hasLocalStorage()).bind("v"))),
             *Enclosing->getBody(), Ctx))
    Locals.push_back(Node.getNodeAs<VarDecl>("v"));

  llvm::StringSet<> Reported;
  for (const VarDecl *Var : Locals) {
    StringRef Name = Var->getName();
    auto It = SkippedNames.find(Name);
    if (Name.empty() || It == SkippedNames.end() || Captured.count(Name) ||
        OwnNames.count(Name) || Reported.count(Name))
      continue;
    if (!SM.isBeforeInTranslationUnit(Var->getLocation(),
                                      Lambda.getBeginLoc()) ||
        within(Var->getLocation(), Lambda.getSourceRange(), SM))
      continue;
    // A constant read by value is not captured in either pass.
    if (!Var->getType()->isReferenceType() &&
        Var->isUsableInConstantExpressions(Ctx))
      continue;
    Reported.insert(Name);
    Report(Name, *It->second);
  }
}

} // namespace clang::tidy::cuda

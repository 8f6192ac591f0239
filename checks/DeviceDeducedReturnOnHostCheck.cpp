//===--- DeviceDeducedReturnOnHostCheck.cpp - cuda-lambda-tidy ----------===//

#include "DeviceDeducedReturnOnHostCheck.h"
#include "utils/PassDependence.h"
#include "utils/ExecutionSpace.h"
#include "utils/NodeDispatch.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// A `__device__` function, not constexpr, whose return type is deduced:
/// nvcc's host side never deduces it. Lambdas' call operators are
/// cuda-lambda-host-return-type-query's concern.
bool isDeviceWithDeducedReturnType(const ValueDecl *D) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(D);
  if (!Function || Function->isConstexpr())
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method && Method->getParent()->isLambda())
    return false;
  // The return type first: few functions deduce theirs, and the execution
  // space is a question about attributes, costlier on every reference.
  const QualType Declared = Function->getDeclaredReturnType();
  if (Declared.isNull() || !Declared->getContainedDeducedType())
    return false;
  return utils::executionSpaceOf(*Function) == utils::ExecutionSpace::Device;
}

// Every reference of the unit is tested: the system header last.
bool namesDeviceWithDeducedReturnType(const DeclRefExpr &Ref,
                                      ASTContext &Context) {
  return isDeviceWithDeducedReturnType(Ref.getDecl()) &&
         !utils::isExpansionInSystemHeader(Ref.getBeginLoc(),
                                           Context.getSourceManager());
}
bool namesDeviceMemberWithDeducedReturnType(const MemberExpr &Member,
                                            ASTContext &Context) {
  return isDeviceWithDeducedReturnType(Member.getMemberDecl()) &&
         !utils::isExpansionInSystemHeader(Member.getBeginLoc(),
                                           Context.getSourceManager());
}

} // namespace

void DeviceDeducedReturnOnHostCheck::registerPPCallbacks(
    const SourceManager &SM, Preprocessor *PP, Preprocessor *) {
  Conditionals = &utils::passDependenceOf(*PP).conditionals();
}

void DeviceDeducedReturnOnHostCheck::registerMatchers(MatchFinder *Finder) {
  // Instantiations too: a dependent call names the function only there,
  // and nvcc misses those (the host compiler then sees `void`).
  NodeMatches.push_back(utils::matchNodes<DeclRefExpr>(
      *Finder, this, namesDeviceWithDeducedReturnType, "ref"));
  NodeMatches.push_back(utils::matchNodes<MemberExpr>(
      *Finder, this, namesDeviceMemberWithDeducedReturnType, "ref"));
  Callables = utils::matchCallables(*Finder, this);
}

void DeviceDeducedReturnOnHostCheck::check(
    const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  LangOpts = Result.Context->getLangOpts();
  DevicePass = LangOpts.CUDAIsDevice;
  if (const std::optional<utils::Callable> Code =
          utils::matchedCallable(Result)) {
    DeviceCode.add(*Code);
    return;
  }
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("ref"))
    References.push_back({DynTypedNode::create(*Ref), Ref->getLocation(),
                          cast<FunctionDecl>(Ref->getDecl())});
  else if (const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("ref"))
    References.push_back({DynTypedNode::create(*Member),
                          Member->getMemberLoc(),
                          cast<FunctionDecl>(Member->getMemberDecl())});
}

void DeviceDeducedReturnOnHostCheck::onEndOfTranslationUnit() {
  std::vector<DynTypedNode> Nodes;
  Nodes.reserve(References.size());
  for (const Reference &Ref : References)
    Nodes.push_back(Ref.Node);
  const llvm::DenseSet<DynTypedNode> InDevice =
      DeviceCode.bodiesContaining(Nodes);
  llvm::DenseSet<SourceLocation> Reported;
  for (const Reference &Ref : References) {
    if (InDevice.contains(Ref.Node))
      continue;
    // The device pass sees the tokens of `#ifdef __CUDA_ARCH__`, which the
    // host side never compiles: nvcc accepts the reference there.
    if (DevicePass && ((Conditionals && Conditionals->takenBranchAt(Ref.Loc, *SM)) ||
                       utils::isInTargetDispatchMacro(Ref.Loc, *SM, LangOpts)))
      continue;
    if (!Reported.insert(SM->getFileLoc(Ref.Loc)).second)
      continue;
    const FunctionDecl *Callee = Ref.Callee;
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
      Callee = Pattern;
    diag(Ref.Loc,
         "__device__ function %0 has a deduced return type and is named "
         "outside the body of a device function; nvcc deduces the type only "
         "in device code, so it rejects this (in a template instantiation "
         "the host compiler sees 'void'); write the return type explicitly "
         "or make the function constexpr")
        << Callee;
    diag(Callee->getLocation(), "%0 declared here", DiagnosticIDs::Note)
        << Callee;
  }
  References.clear();
  DeviceCode.clear();
}

} // namespace clang::tidy::cuda

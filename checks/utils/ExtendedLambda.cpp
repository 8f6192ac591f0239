//===--- ExtendedLambda.cpp - cuda-lambda-tidy --------------------------===//

#include "ExtendedLambda.h"
#include "UnitFacts.h"
#include "ExecutionSpace.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda::utils {

ExtendedLambdaKind annotationOf(const LambdaExpr &Lambda) {
  const CXXMethodDecl *CallOperator = Lambda.getCallOperator();
  if (!CallOperator || !hasExplicitDeviceAttr(*CallOperator))
    return ExtendedLambdaKind::None;
  return hasExplicitHostAttr(*CallOperator) ? ExtendedLambdaKind::HostDevice
                                            : ExtendedLambdaKind::Device;
}

EnclosingFunction enclosingFunctionOf(const LambdaExpr &Lambda) {
  EnclosingFunction Result;
  const DeclContext *Context = Lambda.getLambdaClass()->getDeclContext();
  while (const auto *Function = dyn_cast_or_null<FunctionDecl>(Context)) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Function);
    if (!Method || !isLambdaCallOperator(Method)) {
      Result.Function = Function;
      break;
    }
    Result.LambdasBetween.push_back(Method);
    Context = Method->getParent()->getDeclContext();
  }
  return Result;
}

static ExtendedLambdaKind judgeExtendedLambda(const LambdaExpr &Lambda) {
  ExtendedLambdaKind Annotation = annotationOf(Lambda);
  if (Annotation == ExtendedLambdaKind::None)
    return Annotation;
  EnclosingFunction Around = enclosingFunctionOf(Lambda);
  const FunctionDecl *Enclosing = Around.Function;
  if (!Enclosing)
    return ExtendedLambdaKind::None;
  // The body of a `__device__` lambda is device code: an annotated lambda
  // inside it is an ordinary device lambda (nvcc accepts it, and
  // __nv_is_extended_device_lambda_closure_type is false for it).
  for (const CXXMethodDecl *Between : Around.LambdasBetween)
    if (hasExplicitDeviceAttr(*Between) && !hasExplicitHostAttr(*Between))
      return ExtendedLambdaKind::None;
  ExecutionSpace Space = executionSpaceOf(*Enclosing);
  if (Space == ExecutionSpace::Device || Space == ExecutionSpace::Global)
    return ExtendedLambdaKind::None;
  return Annotation;
}

namespace {

/// The kinds of the lambdas of one unit judged so far: about twenty checks
/// ask of each lambda, most of them in their matchers.
struct JudgedLambdas {
  llvm::DenseMap<const LambdaExpr *, ExtendedLambdaKind> Kinds;
};

} // namespace

ExtendedLambdaKind extendedLambdaKindOf(const LambdaExpr &Lambda) {
  const CXXRecordDecl *Closure = Lambda.getLambdaClass();
  if (!Closure)
    return judgeExtendedLambda(Lambda);
  JudgedLambdas &Judged =
      UnitFacts::of(Closure->getASTContext()).get<JudgedLambdas>();
  auto [It, New] = Judged.Kinds.try_emplace(&Lambda, ExtendedLambdaKind::None);
  if (New)
    It->second = judgeExtendedLambda(Lambda);
  return It->second;
}

llvm::StringRef spelling(ExtendedLambdaKind Kind) {
  switch (Kind) {
  case ExtendedLambdaKind::Device:
    return "__device__";
  case ExtendedLambdaKind::HostDevice:
    return "__host__ __device__";
  case ExtendedLambdaKind::None:
    return "";
  }
  llvm_unreachable("unknown lambda kind");
}

} // namespace clang::tidy::cuda::utils

//===--- ExecutionSpace.cpp - cuda-lambda-tidy --------------------------===//

#include "ExecutionSpace.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda::utils {

template <typename AttrT> static bool hasExplicit(const FunctionDecl &FD) {
  for (const auto *A : FD.specific_attrs<AttrT>())
    if (!A->isImplicit())
      return true;
  return false;
}

bool hasExplicitDeviceAttr(const FunctionDecl &Function) {
  return hasExplicit<CUDADeviceAttr>(Function);
}

bool hasExplicitHostAttr(const FunctionDecl &Function) {
  return hasExplicit<CUDAHostAttr>(Function);
}

/// The function whose body contains the closure class of \p CallOperator, or
/// null for a lambda outside any function (namespace or class scope).
static const FunctionDecl *functionAround(const CXXMethodDecl &CallOperator) {
  return dyn_cast<FunctionDecl>(CallOperator.getParent()->getDeclContext());
}

ExecutionSpace executionSpaceOf(const FunctionDecl &Function) {
  const FunctionDecl *FD = &Function;
  // An unannotated lambda runs where the code around it runs; clang's
  // implicit host-device attributes on it are an implementation detail.
  while (const auto *Method = dyn_cast<CXXMethodDecl>(FD)) {
    if (!isLambdaCallOperator(Method) || hasExplicitDeviceAttr(*Method) ||
        hasExplicitHostAttr(*Method))
      break;
    const FunctionDecl *Around = functionAround(*Method);
    if (!Around)
      return ExecutionSpace::Host;
    FD = Around;
  }
  if (FD->hasAttr<CUDAGlobalAttr>())
    return ExecutionSpace::Global;
  bool Host = FD->hasAttr<CUDAHostAttr>();
  bool Device = FD->hasAttr<CUDADeviceAttr>();
  if (Device && Host)
    return ExecutionSpace::HostDevice;
  if (Device)
    return ExecutionSpace::Device;
  return ExecutionSpace::Host;
}

bool runsOnDevice(ExecutionSpace Space) {
  return Space != ExecutionSpace::Host;
}

bool runsOnHost(ExecutionSpace Space) {
  return Space == ExecutionSpace::Host || Space == ExecutionSpace::HostDevice;
}

llvm::StringRef spelling(ExecutionSpace Space) {
  switch (Space) {
  case ExecutionSpace::Host:
    return "__host__";
  case ExecutionSpace::Device:
    return "__device__";
  case ExecutionSpace::HostDevice:
    return "__host__ __device__";
  case ExecutionSpace::Global:
    return "__global__";
  }
  llvm_unreachable("unknown execution space");
}

} // namespace clang::tidy::cuda::utils

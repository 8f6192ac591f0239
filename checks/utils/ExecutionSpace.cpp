//===--- ExecutionSpace.cpp - cuda-lambda-tidy --------------------------===//

#include "ExecutionSpace.h"
#include "SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda::utils {

/// Whether \p D carries an attribute \p AttrT that counts under \p Policy.
template <typename AttrT, typename DeclT>
static bool has(const DeclT &D, AttributePolicy Policy) {
  if (Policy == AttributePolicy::WithImplicit)
    return D.template hasAttr<AttrT>();
  for (const auto *A : D.template specific_attrs<AttrT>())
    if (!A->isImplicit())
      return true;
  return false;
}

bool hasExplicitDeviceAttr(const FunctionDecl &Function) {
  return has<CUDADeviceAttr>(Function, AttributePolicy::AsWritten);
}

bool hasExplicitHostAttr(const FunctionDecl &Function) {
  return has<CUDAHostAttr>(Function, AttributePolicy::AsWritten);
}

bool isKernel(const FunctionDecl &Function) {
  return Function.hasAttr<CUDAGlobalAttr>();
}

/// The function whose body contains the closure class of \p CallOperator, or
/// null for a lambda outside any function (namespace or class scope).
static const FunctionDecl *functionAround(const CXXMethodDecl &CallOperator) {
  return dyn_cast<FunctionDecl>(CallOperator.getParent()->getDeclContext());
}

static ExecutionSpace spaceOf(bool Host, bool Device) {
  if (Device && Host)
    return ExecutionSpace::HostDevice;
  if (Device)
    return ExecutionSpace::Device;
  return ExecutionSpace::Host;
}

namespace {
/// The execution-space attributes of one function, read in one pass over
/// its attributes (each hasAttr<>() looks the list up again): every check
/// asks for every callable's space.
struct SpaceAttrs {
  bool Global = false;
  bool Host = false, Device = false;               // written or implicit
  bool WrittenHost = false, WrittenDevice = false; // written only
};
} // namespace

static SpaceAttrs spaceAttrsOf(const FunctionDecl &Function) {
  SpaceAttrs Found;
  if (!Function.hasAttrs())
    return Found;
  for (const Attr *A : Function.getAttrs()) {
    if (isa<CUDAGlobalAttr>(A)) {
      Found.Global = true;
    } else if (isa<CUDAHostAttr>(A)) {
      Found.Host = true;
      Found.WrittenHost |= !A->isImplicit();
    } else if (isa<CUDADeviceAttr>(A)) {
      Found.Device = true;
      Found.WrittenDevice |= !A->isImplicit();
    }
  }
  return Found;
}

ExecutionSpace executionSpaceOf(const FunctionDecl &Function,
                                AttributePolicy Policy) {
  const FunctionDecl *FD = &Function;
  SpaceAttrs Attrs = spaceAttrsOf(*FD);
  // An unannotated lambda runs where the code around it runs; clang's
  // implicit host-device attributes on it are an implementation detail.
  while (const auto *Method = dyn_cast<CXXMethodDecl>(FD)) {
    if (!isLambdaCallOperator(Method) || Attrs.WrittenDevice ||
        Attrs.WrittenHost)
      break;
    const FunctionDecl *Around = functionAround(*Method);
    if (!Around)
      return ExecutionSpace::Host;
    FD = Around;
    Attrs = spaceAttrsOf(*FD);
  }
  if (Attrs.Global)
    return ExecutionSpace::Global;
  if (Policy == AttributePolicy::WithImplicit)
    return spaceOf(Attrs.Host, Attrs.Device);
  return spaceOf(Attrs.WrittenHost, Attrs.WrittenDevice);
}

ExecutionSpace executionSpaceSpelledBy(llvm::ArrayRef<const Attr *> Attrs) {
  bool Host = false, Device = false;
  for (const Attr *A : Attrs) {
    Host |= isa<CUDAHostAttr>(A);
    Device |= isa<CUDADeviceAttr>(A);
  }
  return spaceOf(Host, Device);
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

/// Whether a declaration of \p Var is written with `__managed__`, which
/// clang drops in CUDA (it knows the attribute for HIP only): the text from
/// the declaration's start to its name says so.
static bool isWrittenManaged(const VarDecl &Var) {
  if (Var.hasAttr<HIPManagedAttr>())
    return true;
  const ASTContext &Ctx = Var.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const VarDecl *Redecl : Var.redecls()) {
    CharSourceRange Range = CharSourceRange::getCharRange(
        SM.getExpansionLoc(Redecl->getBeginLoc()),
        SM.getExpansionLoc(Redecl->getLocation()));
    bool Invalid = false;
    llvm::StringRef Text =
        Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
    if (!Invalid && Text.contains("__managed__"))
      return true;
  }
  return false;
}

VariableSpace variableSpaceOf(const VarDecl &Var, AttributePolicy Policy) {
  // Like __global__, clang never adds __shared__ by itself.
  if (Var.hasAttr<CUDASharedAttr>())
    return VariableSpace::Shared;
  if (has<CUDAConstantAttr>(Var, Policy))
    return VariableSpace::Constant;
  if (isWrittenManaged(Var))
    return VariableSpace::Managed;
  if (has<CUDADeviceAttr>(Var, Policy))
    return VariableSpace::Device;
  return VariableSpace::Host;
}

bool isHostOnlyDefinitionOutsideSystemHeader(const FunctionDecl &Function,
                                             ASTContext &Context) {
  return Function.isThisDeclarationADefinition() &&
         !Function.isDependentContext() &&
         executionSpaceOf(Function) == ExecutionSpace::Host &&
         !isExpansionInSystemHeader(Function.getBeginLoc(),
                                    Context.getSourceManager());
}

} // namespace clang::tidy::cuda::utils

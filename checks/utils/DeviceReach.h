//===--- DeviceReach.h - cuda-lambda-tidy -------------------------------===//
//
// What reaches the device from a host function: the crossing sites written
// in its own code, and, through the functions it calls whose bodies the
// translation unit holds, which of its parameters get to the device. A
// launch wrapper (`forall(n, body)` that launches `body` in a kernel on
// some run-time branch) hands its callable parameter to the device; a
// helper (`scale(float *p, int n) { k<<<g, b>>>(p, n); }`) hands its pointer
// parameter to a kernel that dereferences it. The answers are summaries of
// each function, computed on demand, once per translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_DEVICEREACH_H
#define CUDA_LAMBDA_TIDY_UTILS_DEVICEREACH_H

#include "KernelBoundary.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>

namespace clang::tidy::cuda::utils {

/// The crossing sites written in a host function's own code (its launches,
/// its extended lambdas' captures, its device algorithm calls) and its other
/// calls of functions with a body here, not those inside the bodies of the
/// lambdas it defines (other functions, with other flows).
struct HostCodeSites {
  llvm::SmallVector<BoundaryCrossing, 8> Crossings;
  llvm::SmallVector<const CallExpr *, 8> Calls;
};

/// How a parameter (or a lambda) gets to the device: the calls that hand it
/// on, from the function asked about down, and the crossing in the last one.
struct DeviceReachPath {
  llvm::SmallVector<ReachStep, 2> Steps;
  BoundaryCrossing Crossing;
};

/// The variable a pointer expression is computed from: `p`, `p + i`,
/// `(float *)p`, `++p`.
const ValueDecl *pointerRoot(const Expr *E);

/// The lambda expression \p E is or names (a local variable initialized
/// with one), through copies and temporaries.
const LambdaExpr *lambdaOf(const Expr *E);

/// Whether \p E names \p Var (a copy of it, `std::move(v)`,
/// `std::forward<F>(f)`, or a local variable initialized with one of those).
bool namesVariable(const Expr *E, const ValueDecl *Var);

/// The parameter \p E names (as `namesVariable` sees it) when the parameter
/// belongs to a template's instantiation and its type depends on the
/// template's arguments in the pattern: what such a parameter holds is
/// whatever the instantiating caller passed (a launch wrapper's callable).
const ParmVarDecl *forwardedTemplateParameter(const Expr *E);

/// The parameter of the kind `forwardedTemplateParameter` finds, held by
/// value in the object \p E constructs: a launch wrapper that wraps its
/// caller's callable before the launch (`k<<<1, n>>>(Wrapped<F>{n, f})`,
/// cub's `__op_wrapper_t{first, op}`). Only a class-typed parameter, named
/// as one of the construction's own arguments; null otherwise.
const ParmVarDecl *wrappedTemplateParameter(const Expr *E);

/// Whether \p E constructs an object holding \p Var by value, as one of
/// the construction's own arguments (`Wrapped<F>{n, f}` holds `f`).
bool wrapsVariable(const Expr *E, const ValueDecl *Var);

/// Whether \p Arg, a class value, is what a template's caller passed in:
/// it is computed from the locals of a template's instantiation whose
/// template arguments hold its type (a framework's `auto body =
/// get_lambda(params...)` inside its own `forall`). Not a call of the user's.
bool isPassedInByCaller(const Expr &Arg);

/// How many of \p Call's arguments come before the callee's parameters: 1
/// for a member operator call, whose first argument is the object (`fn(i,
/// p)` passes `fn` to `operator()(int, float *)`), else 0.
unsigned objectArguments(const CallExpr &Call);

/// Whether \p Call is `std::move(x)` or `std::forward<T>(x)`: the same
/// object as its argument to whatever holds the call.
bool isMoveOrForward(const CallExpr &Call);

/// Whether \p Code dereferences \p Var (indexes it, reads through it,
/// passes it on to a function), directly or through a local pointer copied
/// from it.
bool dereferencesPointer(const Stmt *Code, const ValueDecl *Var);

/// The summaries of one translation unit's functions. Owned by a check for
/// the unit it is matching (facts about nodes of one AST only).
class DeviceReach {
public:
  DeviceReach();
  ~DeviceReach();

  /// The crossing sites and calls of \p Function's own code.
  const HostCodeSites &sitesOf(const FunctionDecl &Function);

  /// `dereferencesPointer`, cached per pair.
  bool dereferences(const Stmt *Code, const ValueDecl *Var);

  /// A member function of \p Record that runs on the device (`__device__`,
  /// `__host__ __device__`: a functor's `operator()`) and dereferences
  /// pointer member \p Field; null when none does.
  const FunctionDecl *deviceCodeDereferencing(const CXXRecordDecl &Record,
                                              const FieldDecl &Field);

  /// How pointer parameter \p Index of \p Function is dereferenced on the
  /// device: passed to a kernel that dereferences it, captured by an
  /// extended lambda that dereferences it and gets to the device, passed to
  /// a device algorithm, or passed on to a function of the user's that does
  /// one of those (a call chain). Null when it is not, when \p Function
  /// assigns the parameter or asks the runtime where it points
  /// (`cudaPointerGetAttributes`), or when \p Function is a library's.
  const DeviceReachPath *pointerParameter(const FunctionDecl &Function,
                                          unsigned Index);

  /// How callable parameter \p Index of \p Function (a closure, a functor)
  /// is copied to the device: passed to a kernel or a device algorithm,
  /// captured by an extended lambda that gets there, or passed on to a
  /// function that does one of those, whatever run-time branch it is on.
  /// Library functions (launch wrappers in system headers) count.
  const DeviceReachPath *callableParameter(const FunctionDecl &Function,
                                           unsigned Index);

  /// How \p Lambda, written in \p Function's own code, gets to the device:
  /// passed there to a kernel or a device algorithm, or to a function whose
  /// parameter gets there (a launch wrapper). Null when it is not.
  const DeviceReachPath *lambda(const FunctionDecl &Function,
                                const LambdaExpr &Lambda);

  /// The kernel instantiated with \p Type (a closure, a functor) in its
  /// template arguments, directly or inside a class template's arguments
  /// (a framework's driver `ParallelFor<Closure, Policy>`) or a closure's
  /// captures: the specialization the device runs, however the host
  /// launches it (a function pointer, a run-time branch). Null when no
  /// kernel template of the unit is instantiated with it.
  const FunctionDecl *kernelInstantiatedWith(const CXXRecordDecl &Type);

  /// A kernel specialization holding \p Type (as `kernelInstantiatedWith`
  /// reads it) that \p Function's code refers to, or the code of the host
  /// functions it uses, a few calls deep (a driver object's constructor and
  /// members, a launch helper taking the kernel's address): where a value
  /// of \p Type handed to \p Function goes. Null when there is none.
  const FunctionDecl *kernelUnder(const FunctionDecl &Function,
                                  const CXXRecordDecl &Type);

private:
  struct Impl;
  std::unique_ptr<Impl> State;
};

} // namespace clang::tidy::cuda::utils

#endif

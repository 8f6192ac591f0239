//===--- KernelBoundary.h - cuda-lambda-tidy ----------------------------===//
//
// Where values cross from the host to the device. Every kernel argument is
// copied to the device as raw bytes, and so is everything that becomes one:
//
//   - an argument of a launch `k<<<g, b>>>(args)`: the __global__
//     parameter's type crosses;
//   - a by-copy capture of an extended lambda (`[x] __device__ (…) {…}`):
//     the closure is a kernel argument, the capture one of its members;
//   - an argument of a thrust algorithm run on the device (a device
//     execution policy such as `thrust::device` or `thrust::cuda::par`, or,
//     with no policy, an iterator of device memory such as a
//     `device_vector`'s) or of a `cub::Device*` algorithm: thrust and cub
//     copy functors, iterators and values into their kernels.
//
// The crossing sites are matched once (`matchCrossingSites`) and listed
// (`crossingsOf`); what crosses is judged by each check.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARY_H
#define CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARY_H

#include "SharedDispatch.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/LambdaCapture.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::utils {

/// How a value reaches the device.
enum class CrossingKind {
  /// An argument of a kernel launch `k<<<g, b>>>(args)`.
  KernelArgument,
  /// A by-copy capture (also `[*this]` and init-captures) of an extended
  /// `__device__` or `__host__ __device__` lambda.
  LambdaCapture,
  /// An argument of a thrust algorithm run on the device or of a
  /// `cub::Device*` algorithm (the execution policy itself is left out).
  AlgorithmArgument,
};

/// A call that hands a value on to a function, on the way to the device.
struct ReachStep {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
};

/// One value copied from the host to the device.
struct BoundaryCrossing {
  CrossingKind Kind = CrossingKind::KernelArgument;
  /// The expression whose value is copied, as written: the launch's or the
  /// algorithm's argument; for a capture, the capture's initializer (a
  /// reference to the captured variable, an init-capture's initializer, or
  /// `*this`).
  const Expr *Value = nullptr;
  /// The type of the bytes that cross: the __global__ parameter's type (as
  /// instantiated), the closure member's type, or the algorithm's
  /// parameter type without reference and qualifiers. Never dependent:
  /// sites in a template's pattern list only what is already known there.
  QualType Type;
  /// Where the user wrote the value: the argument, or the capture (for an
  /// implicit capture, its first use in the lambda's body).
  SourceLocation Loc;
  /// KernelArgument, AlgorithmArgument: the call (a CUDAKernelCallExpr or
  /// the algorithm's CallExpr), the kernel or algorithm called, and the
  /// argument's index among the call's arguments (the policy counts).
  const CallExpr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  unsigned ArgIndex = 0;
  /// LambdaCapture: the lambda, its capture, and the captured variable
  /// (the init-capture's own variable for `[v = e]`; null for `*this`).
  const LambdaExpr *Lambda = nullptr;
  const LambdaCapture *Capture = nullptr;
  const ValueDecl *CapturedVar = nullptr;
  /// A value the user hands to a launch wrapper (a template that passes
  /// its parameter on to the site, whatever its type): the user's calls down
  /// to the function holding the site, outermost first. Value and Loc are
  /// then the user's argument, SiteLoc where the site copies it; the other
  /// fields describe the site. Empty for a value written at its site.
  llvm::SmallVector<ReachStep, 1> HandedOnBy;
  SourceLocation SiteLoc;
};

/// The arguments of a kernel launch. Empty when the kernel is not known
/// (a dependent call in a template's pattern).
llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfLaunch(const CUDAKernelCallExpr &Launch);

/// The by-copy captures of \p Lambda, empty unless it is extended. By-
/// reference captures are not crossings (the closure holds an address;
/// cuda-lambda-reference-capture reports them).
llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfCaptures(const LambdaExpr &Lambda);

/// Which device algorithm a call runs, if any.
enum class DeviceAlgorithm {
  None,
  /// `thrust::f(policy, …)` with a device execution policy.
  ThrustWithDevicePolicy,
  /// `thrust::f(first, …)` with no policy and an iterator of device memory.
  ThrustOnDeviceIterators,
  /// `cub::DeviceX::F(…)`.
  Cub,
};

DeviceAlgorithm deviceAlgorithmOf(const CallExpr &Call);

/// The arguments of a device algorithm's call, the policy left out, and
/// for cub the host-side ones (`temp_storage_bytes`, the stream); empty
/// when \p Call runs no device algorithm.
llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfAlgorithmCall(const CallExpr &Call);

/// Whether \p Type is a thrust execution policy (or system tag) of the CUDA
/// system: `thrust::device` (with the default device system),
/// `thrust::cuda::par`, `par_nosync`, `par.on(stream)`, with an allocator…
bool isDeviceExecutionPolicy(QualType Type);

/// Whether \p Type is, or is built from (template arguments, bases), a type
/// of the CUDA system: `device_ptr`, a `device_vector`'s iterator.
bool isDeviceSystemType(QualType Type);

/// Whether \p Record is the closure type of a lambda annotated `__device__`
/// (an extended lambda when written in host code): its captures are
/// crossings of their own, found at the lambda.
bool isDeviceLambdaClosure(const CXXRecordDecl &Record);

/// Whether \p Record belongs to a library rather than to the user: declared
/// in a system header, or in namespace `std`, `thrust`, `cub`, `cuda`,
/// `nv` or `cooperative_groups` (also when the library itself is the project
/// being linted, and its headers are not system headers). What a library
/// type does with its own members is the library's design: checks look
/// through it at the user's types it holds, or skip it, but do not judge it.
bool isLibraryType(const CXXRecordDecl &Record);

/// Registers with \p Finder, for \p Callback, the matchers of every crossing
/// site outside system headers: launches, extended lambdas and device
/// algorithm calls, in templates' instantiations too (where the types are
/// known; a site in several instantiations is listed once per
/// instantiation, at the same location). Use with `crossingsOf`.
void matchCrossingSites(ast_matchers::MatchFinder &Finder,
                        SharedDispatchCallback &Dispatch);

/// The crossings of the site that a matcher of `matchCrossingSites`
/// matched; empty for a match of another matcher.
llvm::SmallVector<BoundaryCrossing, 4>
crossingsOf(const ast_matchers::MatchFinder::MatchResult &Result);

/// The crossings of \p Site, a node `matchCrossingSites` binds: a launch, an
/// extended lambda or a device algorithm call.
llvm::SmallVector<BoundaryCrossing, 4> crossingsOfSite(const Stmt &Site);

/// A class held by value inside a crossing type, and how it is reached.
struct ByValuePart {
  const CXXRecordDecl *Record = nullptr;
  /// The data members from the outer type down to \c Record (bases and
  /// array elements add none); empty for the type itself.
  llvm::SmallVector<const FieldDecl *, 2> Members;
  /// "inner.buffer": the member path, for diagnostics.
  std::string memberPath() const;
};

/// What to do with a class met by `findByValuePart`.
enum class PartVerdict {
  Descend, ///< not it: look at its bases and members held by value
  Skip,    ///< not it, and nothing below it matters
  Found,   ///< this one
};

/// The first class held by value in \p Type (the type itself or its array
/// element, then, depth first, its bases and its data members held by value
/// or in arrays) for which \p Visit says Found. Pointers and references are
/// not followed: what they point to stays where it is.
std::optional<ByValuePart>
findByValuePart(QualType Type,
                llvm::function_ref<PartVerdict(const CXXRecordDecl &)> Visit);

/// The opening of a diagnostic about \p C, whose arguments %0 to %3 come
/// from `addCrossingArgs`: "kernel 'k' receives 'T'", "extended __device__
/// lambda captures 'x' as 'T'", "device algorithm 'thrust::for_each'
/// receives 'T'"; for a value handed on through a launch wrapper, "kernel
/// 'k' receives 'T' (handed on by 'forall')". \p Rest follows it.
std::string crossingMessage(llvm::StringRef Rest);

/// The name diagnostics give a kernel or a device algorithm:
/// `cub::DeviceReduce::Reduce`, `thrust::for_each`, `apply`.
std::string deviceCalleeName(const FunctionDecl &Callee);

/// Streams %0 to %3 of `crossingMessage` for \p C into \p Diag.
void addCrossingArgs(DiagnosticBuilder &Diag, const BoundaryCrossing &C);

/// A project's list of type names that may cross whatever a check thinks
/// of them: an option holding regular expressions separated by ';', each
/// matched against the whole qualified name (`ns::Type`, inline namespaces
/// left out) when it contains "::", else against the whole unqualified name,
/// as clang-tidy's own `AllowedTypes` options are.
class AllowedTypeNames {
public:
  explicit AllowedTypeNames(llvm::StringRef Option);
  bool allows(const CXXRecordDecl &Record) const;
  bool empty() const { return Patterns.empty(); }

private:
  struct Pattern {
    std::string Text;
    bool Qualified;
  };
  llvm::SmallVector<Pattern, 2> Patterns;
};

/// A call, not a launch, to a device algorithm, outside system headers:
/// the test of the crossing sites' calls, tried on every call of the unit.
/// The system header last.
bool isDeviceAlgorithmCallOutsideSystemHeader(const CallExpr &Call,
                                              const ASTContext &Context);

} // namespace clang::tidy::cuda::utils

#endif

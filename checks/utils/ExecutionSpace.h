//===--- ExecutionSpace.h - cuda-lambda-tidy ----------------------------===//
//
// Where a function runs (host, device, both, or a kernel) and where a
// variable lives (host, device, constant, shared or managed memory): the one
// place that reads clang's CUDA attributes, with an explicit policy on which
// of them count.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_EXECUTIONSPACE_H
#define CUDA_LAMBDA_TIDY_UTILS_EXECUTIONSPACE_H

#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchersMacros.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda::utils {

/// Which CUDA attributes count. Under both, a lambda's call operator
/// without a written `__host__`/`__device__` runs where the code around it
/// runs (clang's implicit `__host__ __device__` on every unannotated lambda
/// does not count), and `__global__` and `__shared__`, which clang never
/// adds by itself, count wherever they are.
enum class AttributePolicy {
  /// The attributes clang adds by itself count too: a constexpr function is
  /// `__host__ __device__`, a special member takes its members' space, a
  /// constexpr or const namespace-scope variable is `__constant__` in the
  /// device pass. Where code can run as clang compiles it.
  WithImplicit,
  /// Only the attributes written in the source: nvcc does not make a
  /// constexpr function (or any unannotated function) `__host__ __device__`
  /// without --expt-relaxed-constexpr, nor a constexpr variable
  /// `__constant__`.
  AsWritten,
};

enum class ExecutionSpace { Host, Device, HostDevice, Global };

/// The execution space of \p Function under \p Policy.
ExecutionSpace
executionSpaceOf(const FunctionDecl &Function,
                 AttributePolicy Policy = AttributePolicy::WithImplicit);

/// Whether \p Function is a kernel (`__global__`, which is always written).
bool isKernel(const FunctionDecl &Function);

/// The execution space that the `__host__`/`__device__` attributes \p Attrs
/// spell together (host when there are none); other attributes are ignored.
ExecutionSpace executionSpaceSpelledBy(llvm::ArrayRef<const Attr *> Attrs);

/// Whether code in \p Space can run on the device (device, host-device, global).
bool runsOnDevice(ExecutionSpace Space);
/// Whether code in \p Space can run on the host (host, host-device).
bool runsOnHost(ExecutionSpace Space);

/// "__host__", "__device__", "__host__ __device__" or "__global__".
llvm::StringRef spelling(ExecutionSpace Space);

/// Whether \p Function carries a `__device__`/`__host__` attribute written
/// in the source (as opposed to one clang added implicitly).
bool hasExplicitDeviceAttr(const FunctionDecl &Function);
bool hasExplicitHostAttr(const FunctionDecl &Function);

/// Where a variable lives. One variable, one space: `__device__` written
/// with `__shared__`, `__constant__` or `__managed__` is that space.
enum class VariableSpace { Host, Device, Constant, Shared, Managed };

/// The memory space of \p Var under \p Policy. `__managed__` counts as
/// written on any declaration of \p Var: clang drops that attribute in CUDA
/// (it knows it for HIP only), so it is read from the declaration's text,
/// where it is spelled `__managed__` (not through a macro of another name).
VariableSpace
variableSpaceOf(const VarDecl &Var,
                AttributePolicy Policy = AttributePolicy::WithImplicit);

/// A definition outside system headers of a function that runs on the host
/// only (written or implicit attributes), outside a template's pattern:
/// where `new` and `&local` make host memory.
bool isHostOnlyDefinitionOutsideSystemHeader(const FunctionDecl &Function,
                                             ASTContext &Context);

} // namespace clang::tidy::cuda::utils

#endif

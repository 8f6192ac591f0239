//===--- LambdaReach.h - cuda-lambda-tidy -------------------------------===//
//
// Where a lambda's closure type reaches device code, and whether its call
// operator is called from host code, across one translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_LAMBDAREACH_H
#define CUDA_LAMBDA_TIDY_UTILS_LAMBDAREACH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::utils {

/// One place where a closure type enters device code.
struct DeviceEntry {
  /// The reference in code that does not itself depend on the closure type:
  /// the kernel named at a launch (`k<<<...>>>(l)`, `k<decltype(l)>`), or the
  /// function called with the lambda (`launch(l)`, `thrust::transform(...)`).
  const Expr *Site = nullptr;
  /// The `__global__` function template specialization whose template
  /// arguments name the closure type (directly or nested, as in
  /// `k<Wrapper<decltype(l)>>`).
  const FunctionDecl *Kernel = nullptr;
  /// The function called at \c Site when the kernel is reached through it (a
  /// host wrapper template, a thrust algorithm); null when \c Site names the
  /// kernel itself.
  const FunctionDecl *Through = nullptr;
};

/// nvcc rejects a closure type that appears in the template arguments of a
/// `__global__` function template specialization unless the lambda is
/// extended or defined in device code. This collects, for every closure type
/// in the translation unit, the sites through which it gets there.
///
/// The rule follows the closure type through template instantiations: a
/// kernel reference inside a function whose template arguments (or whose
/// enclosing class template's arguments) name the closure type is traced to
/// the calls of that function, until a call in code that does not depend on
/// the closure type, the user's own function. Because a closure type is
/// unique to its lambda, every specialization that names it was instantiated
/// for it, so the walk is exact; it is also how a thrust or cub algorithm
/// called with a device execution policy or device iterators is recognised:
/// its implementation launches a kernel templated on the functor. Not
/// followed: generic lambdas used as wrappers, type-erased wrappers
/// (`std::function`), and more than \c MaxDepth calls.
class LambdaReach {
public:
  static constexpr unsigned MaxDepth = 64;

  /// Traverses the whole translation unit, template instantiations included.
  explicit LambdaReach(ASTContext &Context);

  /// The entries of \p Closure into device code, in source order of their
  /// sites, one per site; empty when the closure type never reaches a
  /// `__global__` function's template arguments.
  llvm::SmallVector<DeviceEntry, 2>
  entriesOf(const CXXRecordDecl &Closure) const;

  /// Whether the call operator of \p Closure is called (or named) in host
  /// code: a function whose execution space is `__host__`, as
  /// \c executionSpaceOf decides, including host library templates such as
  /// `std::sort` that call it. Calls from `__host__ __device__` code do not
  /// count.
  bool isCalledOnHost(const CXXRecordDecl &Closure) const;

  /// One reference to a function whose template arguments name a closure.
  struct Reference {
    const Expr *Site;
    const FunctionDecl *Callee;
    /// The innermost function (or lambda call operator) around the site.
    const FunctionDecl *Caller;
  };

private:
  ASTContext &Context;
  std::vector<Reference> Kernels;
  llvm::DenseMap<const FunctionDecl *, std::vector<Reference>> CallsTo;
  llvm::DenseSet<const CXXRecordDecl *> CalledOnHost;

  friend class LambdaReachCollector;
};

/// The closure classes named anywhere in \p Type: itself, a pointer or
/// reference to it, a template argument of a class, nested to any depth.
void collectClosureTypes(QualType Type,
                         llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out);

/// The closure classes named in the template arguments of \p Function or of
/// any class template specialization or function template specialization
/// around it.
void collectClosureTypes(const FunctionDecl &Function,
                         llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out);

} // namespace clang::tidy::cuda::utils

#endif

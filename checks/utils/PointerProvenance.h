//===--- PointerProvenance.h - cuda-lambda-tidy -------------------------===//
//
// Where the pointers of a host function point: host memory (a host
// variable, `new`, `malloc`, a `std::vector`'s buffer ...), device-accessible
// memory (`cudaMalloc` and its relatives), or unknown. The memory space of a
// pointer is not in its type; it is decided by a forward dataflow analysis
// over clang's CFG of the function, so that reassignment, branches and loops
// are followed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_POINTERPROVENANCE_H
#define CUDA_LAMBDA_TIDY_UTILS_POINTERPROVENANCE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace clang::tidy::cuda::utils {

/// Where host memory behind a pointer comes from.
struct HostSource {
  enum KindT {
    Allocation,    ///< `new`, `new[]`, `malloc`, `calloc`, `alloca` ...
    Variable,      ///< the address of a host variable
    Array,         ///< a host array, decayed to a pointer
    Container,     ///< `std::vector::data()`, `std::unique_ptr::get()` ...
    StringLiteral, ///< a string literal
  } Kind = Allocation;
  /// The expression that yields the pointer (the allocation, the call of
  /// `data()`, the literal), or null for a variable.
  const Expr *Site = nullptr;
  /// The host variable, for Variable and Array; for Container, the
  /// container's variable when the pointer is taken from a named one.
  const VarDecl *Var = nullptr;
  /// What allocates or holds the memory, as written in a diagnostic:
  /// "malloc", "new[]", "std::vector", "std::unique_ptr".
  std::string What;
  /// The object a Container pointer is taken from ("v"), empty when it is not
  /// a named variable.
  std::string Object;

  /// Where to point a note: the allocation, or the variable's declaration.
  SourceLocation location() const;
  /// Identity of the memory: the variable (`v.data()` twice is one
  /// buffer), else the allocation.
  const void *key() const { return Var ? static_cast<const void *>(Var) : Site; }
};

enum class MemorySpace {
  Unknown, ///< not known, or host on some paths and device on others
  Host,    ///< host memory on every path
  Device,  ///< device-accessible memory on every path
};

struct Provenance {
  MemorySpace Space = MemorySpace::Unknown;
  /// Set when Space is Host.
  HostSource Source;

  bool isHost() const { return Space == MemorySpace::Host; }
};

/// A pointer-valued expression whose provenance is asked for, as it is when
/// \c Anchor (an expression of the function's code: a kernel launch, a call,
/// a lambda expression) is evaluated.
struct ProvenanceQuery {
  const Stmt *Anchor = nullptr;
  const Expr *Value = nullptr;
};

/// The provenance of each query's value, joined over every path of
/// \p Function's body that reaches the query's anchor: Host only when it is
/// host memory on all of them. Local variables and parameters of pointer
/// type are followed through assignments; one whose address escapes
/// (other than to a CUDA runtime call, which allocates into it) or that a
/// reference or a by-reference capture aliases is Unknown from then on.
/// An anchor the CFG does not reach (dead code, the body of a nested lambda)
/// leaves its queries Unknown.
llvm::DenseMap<const Expr *, Provenance>
analyzePointerProvenance(const FunctionDecl &Function, ASTContext &Ctx,
                         llvm::ArrayRef<ProvenanceQuery> Queries);

/// The provenance of \p E on its own, with every variable it reads Unknown:
/// enough for `malloc(n)`, `v.data()` or `&x` written at the crossing, and a
/// cheap test of whether a flow analysis can say more.
Provenance provenanceOfExpr(const Expr &E, const ASTContext &Ctx);

/// Whether \p E, after casts, pointer arithmetic and `?:`, reads a local
/// variable or parameter of \p Function (whose value only the flow analysis
/// knows).
bool readsLocalPointer(const Expr &E);

/// Whether \p Function's code may give a local pointer variable or parameter
/// a value: it initializes one, assigns one, or has posix_memalign allocate
/// into one. Where none is, every variable stays Unknown on every path, and
/// analyzePointerProvenance answers no more than provenanceOfExpr: a query
/// that is not host memory as written is not host memory at all.
bool mayGiveLocalPointerAValue(const FunctionDecl &Function);

} // namespace clang::tidy::cuda::utils

#endif

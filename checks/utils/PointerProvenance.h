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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::utils {

/// A function or a member the host memory passed through on its way to the
/// expression asked about.
struct ProvenanceStep {
  enum KindT {
    Returned,      ///< returned by a call of a function of the unit
    StoredInMember ///< read from a pointer member, set to it here
  } Kind = Returned;
  /// The call, or the value stored into the member.
  const Expr *Site = nullptr;
  /// The function called, or the member.
  const NamedDecl *Decl = nullptr;
};

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
  /// The calls and members between the expression asked about and the
  /// source, nearest first; empty when the source is in the same function.
  llvm::SmallVector<ProvenanceStep, 1> Via;

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

/// What the functions and pointer members of one translation unit hold,
/// for the flow analysis to follow a pointer through a helper's return
/// value (`float *w = make_weights(n);`) or a member set elsewhere (a
/// constructor's `ptr_(buf_.data())`, read by a launch in another member
/// function). Computed on first use and kept for the unit's lifetime.
class ProvenanceSummaries {
public:
  explicit ProvenanceSummaries(ASTContext &Ctx) : Ctx(Ctx) {}

  /// What \p Function returns: host memory when every return statement
  /// that is not a null pointer returns host memory on every path. Unknown
  /// for a function of a library (system headers, `std`), without a body
  /// here, virtual, or recursive.
  Provenance returnOf(const FunctionDecl &Function);
  /// What pointer member \p Field holds: host memory when every value the
  /// unit stores into it (constructors' initializers, default member
  /// initializers, assignments, aggregate initialization) that is not a
  /// null pointer is host memory. Unknown when its address is taken or it
  /// is bound to a reference, when its class has member functions whose
  /// bodies are not in the unit, or when nothing stores into it.
  Provenance fieldOf(const FieldDecl &Field);
  /// fieldOf(Field), with its source moved to a store that \p Function
  /// makes when fieldOf is host memory and \p Function stores host memory
  /// into the member: the note then points at the object that crosses in
  /// \p Function, not at the unit's first store. With \p Before (where the
  /// object crosses), the last such store before it: two objects crossing
  /// in one function each get their own.
  Provenance fieldOf(const FieldDecl &Field, const FunctionDecl &Function,
                     SourceLocation Before = SourceLocation());

  /// A store into a pointer member: the value, and the function whose code
  /// makes it (null for a default member initializer).
  struct StoredValue {
    const FunctionDecl *Function = nullptr;
    const Expr *Value = nullptr;
  };
  /// Every value the unit stores into pointer member \p Field, null
  /// pointers and copies from the same member left out; std::nullopt when
  /// they cannot all be known (fieldOf's conditions: a library's class, a
  /// member function without its body here, the member's address taken or
  /// bound to a reference) or there is none. For a question other than the
  /// memory space (what kind of object the member points to).
  std::optional<llvm::SmallVector<StoredValue, 2>>
  storesInto(const FieldDecl &Field);

  ASTContext &context() const { return Ctx; }

private:
  void collectFieldStores();

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, Provenance> Returns;
  llvm::DenseMap<const FieldDecl *, Provenance> Fields;
  /// Every store into a pointer member: the function it is in (null for a
  /// default member initializer), the statement to ask at, and the value.
  struct FieldStore {
    const FunctionDecl *Function;
    const Stmt *Anchor;
    const Expr *Value;
  };
  llvm::DenseMap<const FieldDecl *, llvm::SmallVector<FieldStore, 2>> Stores;
  /// The stores into \p Field when the unit shows them all, else null.
  const llvm::SmallVector<FieldStore, 2> *knownStoresInto(const FieldDecl &Field);
  /// What one store puts into \p Field.
  Provenance storedProvenance(const FieldStore &Store, const FieldDecl &Field);
  llvm::DenseSet<const FieldDecl *> Escaped;
  bool StoresCollected = false;
  unsigned Depth = 0;
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
/// With \p Summaries, a pointer returned by a function of the unit or read
/// from a pointer member is followed there.
llvm::DenseMap<const Expr *, Provenance>
analyzePointerProvenance(const FunctionDecl &Function, ASTContext &Ctx,
                         llvm::ArrayRef<ProvenanceQuery> Queries,
                         ProvenanceSummaries *Summaries = nullptr);

/// The provenance of \p E on its own, with every variable it reads Unknown:
/// enough for `malloc(n)`, `v.data()` or `&x` written at the crossing, and a
/// cheap test of whether a flow analysis can say more.
Provenance provenanceOfExpr(const Expr &E, const ASTContext &Ctx,
                            ProvenanceSummaries *Summaries = nullptr);

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

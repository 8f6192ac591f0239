//===--- TypeFacts.h - cuda-lambda-tidy ---------------------------------===//
//
// Facts about types that decide whether a value can live on the device.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_TYPEFACTS_H
#define CUDA_LAMBDA_TIDY_UTILS_TYPEFACTS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::utils {

/// Whether \p Type, after sugar and qualifiers, is a specialization of
/// `std::function` (also a dependent one, `std::function<T(T)>`, in a
/// template's pattern). libc++'s inline namespace counts as `std`.
bool isStdFunction(QualType Type);

/// Whether \p Record is a specialization of `std::function`.
bool isStdFunctionClass(const CXXRecordDecl &Record);

/// Where a `std::function` sits inside a type.
struct StdFunctionInType {
  /// The `std::function` specialization found.
  QualType FunctionType;
  /// How the type reaches it.
  enum HowT {
    Itself,  ///< the type is the std::function, or a reference to it
    Pointee, ///< through pointers or arrays
    Member,  ///< a data member of a class held by value
  } How = Itself;
  /// The data members from the outer type down to the `std::function`,
  /// empty unless \c How is \c Member.
  llvm::SmallVector<const FieldDecl *, 2> Members;

  bool isMember() const { return How == Member; }
  /// "inner.fn": the member path, for diagnostics.
  std::string memberPath() const;
};

/// The first `std::function` in \p Type: the type itself, through
/// references, pointers and arrays; or, in a class held by value (or an
/// array of it), a data member or base class member, recursively through
/// members held by value. A class reached only through a reference or a
/// pointer does not count: its members stay where they are.
std::optional<StdFunctionInType> findStdFunctionIn(QualType Type);

/// Whether \p Type, after sugar and qualifiers, is a specialization of
/// `nvstd::function` (`<nvfunctional>`), also a dependent one.
bool isNvstdFunction(QualType Type);

/// Whether \p Record is a specialization of `nvstd::function`.
bool isNvstdFunctionClass(const CXXRecordDecl &Record);

/// The first `nvstd::function` in \p Type, found as `findStdFunctionIn`
/// finds a `std::function` (the result's \c FunctionType is the
/// `nvstd::function` specialization).
std::optional<StdFunctionInType> findNvstdFunctionIn(QualType Type);

/// Whether the translation unit declares the namespace `nvstd` at global
/// scope, without which it has no `nvstd::function` (isNvstdFunction and
/// findNvstdFunctionIn find nothing): a check can skip looking for one.
bool declaresNvstdNamespace(const ASTContext &Context);

/// Whether \p Record itself owns host heap memory: a class template
/// specialization with a `std::allocator<T>` type argument (the standard
/// containers and `std::basic_string` with their default allocator,
/// `thrust::host_vector`, a framework's container built on `std::allocator`,
/// and the standard library's own bases of those), `std::unique_ptr` with
/// `std::default_delete`, or `std::shared_ptr`. A container with another
/// allocator (managed or pinned memory, `std::pmr`) does not count: where its
/// memory lives is the allocator's business.
bool isHostOwningClass(const CXXRecordDecl &Record);

/// Where a type owns host heap memory.
struct HostOwningPart {
  /// The host-owning class (isHostOwningClass), as diagnostics name it.
  QualType OwningType;
  const CXXRecordDecl *Owner = nullptr;
  /// One step from a class to a part of it held by value.
  struct Step {
    /// The class the step starts from.
    const CXXRecordDecl *Within = nullptr;
    /// A data member of \c Within (null for a base).
    const FieldDecl *Member = nullptr;
    /// A base class of \c Within (null for a member).
    const CXXBaseSpecifier *Base = nullptr;
  };
  /// From the outer type down to the owning class; empty when the type
  /// itself (or its array element) is the owning class.
  llvm::SmallVector<Step, 2> Steps;

  bool isItself() const { return Steps.empty(); }
  /// "inner.buffer": the data members on the way, bases left out.
  std::string memberPath() const;
};

/// The first host-owning class held by value in \p Type: the type itself or
/// its array element, else, depth first and at most eight classes deep, its
/// bases and then its data members held by value or in arrays (`struct
/// Params { std::vector<float> w; int n; }`, `class Vec : public
/// std::vector<T>`). Pointers and references are not followed: the memory
/// they reach is not the object's own. Nothing for a dependent type.
std::optional<HostOwningPart> findHostOwningPart(QualType Type);

/// A pointer member of an object, as the object names it: `weights`, or
/// `table.values` for a pointer of a member object.
struct PointerMember {
  const FieldDecl *Field = nullptr;
  std::string Name;
};

/// The pointer members of \p Record and of its member objects, two levels
/// deep, in declaration order, depth first (a member object's pointers
/// where it is declared). A library's class (system headers: a
/// `std::vector` member) and a closure type are not looked into.
llvm::SmallVector<PointerMember, 4> pointerMembers(const CXXRecordDecl &Record);

/// `ns::name` of \p D with inline namespaces (libc++'s `__1`, libcu++'s
/// `__4`) left out, so that `cuda::std::__4::invoke_result` reads
/// `cuda::std::invoke_result`; empty for a declaration nested in a class or
/// function (not a library name).
std::string qualifiedNameWithoutInline(const NamedDecl &D);

/// Whether \p D is declared directly in the namespace \p Name at global scope,
/// inline namespaces aside (`thrust::reduce` in `thrust::THRUST_NS_QUALIFIER`'s
/// inline namespace): qualifiedNameWithoutInline(D) == Name + "::" + D's
/// name, without building the string.
bool isDirectlyInNamespace(const Decl &D, llvm::StringRef Name);

} // namespace clang::tidy::cuda::utils

#endif

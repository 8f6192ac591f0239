//===--- LocalType.h - cuda-lambda-tidy ---------------------------------===//
//
// Types local to a function, which nvcc cannot name in the code it generates
// for an extended lambda's captures.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_LOCALTYPE_H
#define CUDA_LAMBDA_TIDY_UTILS_LOCALTYPE_H

#include "clang/AST/Decl.h"
#include "clang/AST/TemplateBase.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace clang::tidy::cuda::utils {

/// Whether \p Tag is declared inside a function (also inside a class that is
/// itself inside a function), as is the closure type of a lambda written in
/// a function.
bool isFunctionLocalType(const TagDecl &Tag);

/// The first type local to a function that nvcc would have to name when it
/// writes \p Type into its generated code, or null. Looks through typedefs,
/// pointers, references, arrays, member pointers (both the class and the
/// member's type), template arguments and the classes around a nested class,
/// but not into function types: nvcc 13 accepts `void (*)(Local *)`.
/// Closure types of lambdas annotated `__device__` are not counted: nvcc
/// replaces them with its own wrapper templates and accepts them.
/// Dependent types have no answer yet: null.
const TagDecl *findFunctionLocalType(QualType Type);

/// Why nvcc cannot spell a type from namespace scope, which it must do when
/// the type is a template argument of a `__global__` function template, of a
/// `__device__` variable template, or of the function around an extended
/// lambda.
enum class UnnameableKind {
  /// Declared inside a function (or inside a class inside one).
  Local,
  /// The closure type of a lambda not annotated `__device__` or `__host__
  /// __device__` (nvcc names annotated ones through its own wrappers).
  PlainClosure,
  /// A private member type, or one nested in a private member type.
  Private,
  /// The same, protected.
  Protected,
  /// A class or enumeration without a name (and without a typedef name for
  /// linkage: `typedef struct {...} S;` is named).
  Unnamed,
};

struct UnnameableType {
  UnnameableKind Kind;
  /// The type that cannot be named: the local, closure or unnamed type
  /// itself, or the private or protected member type (which may be a class
  /// around the type found).
  const TagDecl *Decl;
};

/// The first type inside \p Type that nvcc cannot name: the type itself or
/// one it is built from (pointee, element, member pointer's class, function
/// parameter and return types, template arguments). A local type counts
/// before an access restriction on a class around it. Dependent types have
/// no answer yet: nullopt.
std::optional<UnnameableType> findUnnameableType(QualType Type);

/// The first such type among template arguments (packs included).
std::optional<UnnameableType>
findUnnameableType(llvm::ArrayRef<TemplateArgument> Args);

/// The access of \p D as a member: a class template specialization has that
/// of its template.
AccessSpecifier memberAccessOf(const Decl &D);

/// Whether \p Tag, or a class around it, is a private or protected member of
/// a class: the declaration that is, or null.
const TagDecl *restrictedMemberOf(const TagDecl &Tag);

/// The first private or protected member type (or a type nested in one) that
/// nvcc would have to name when it writes \p Type into its generated code,
/// looked for as findFunctionLocalType looks for local types; the declaration
/// with the restricted access is returned. Dependent types: null.
const TagDecl *findRestrictedMemberType(QualType Type);

} // namespace clang::tidy::cuda::utils

#endif

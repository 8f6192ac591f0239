//===--- ClangVersions.h - cuda-lambda-tidy -------------------------------===//
//
// The few Clang APIs that differ between the LLVM versions the plugin is
// built for (22; 19 for the clang-tidy-19 of Debian 12 and Ubuntu 24.04,
// tested in CI; 16, which builds but cannot parse CUDA 13's libraries;
// CMakeLists.txt's CUDA_LAMBDA_TIDY_LLVM). Everything else in the checks is
// the same source for all of them. Each helper says what it answers, so a
// check never spells a version test itself (AncestorWalk.cpp's traversal
// hook, whose signature differs, is the one exception).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_CLANGVERSIONS_H
#define CUDA_LAMBDA_TIDY_UTILS_CLANGVERSIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/NestedNameSpecifier.h"
#include "clang/AST/Type.h"
#include "clang/Basic/Version.h"

namespace clang::tidy::cuda::utils {

/// The type a written qualifier names (`T` of `T::value`), or null for a
/// namespace, the global scope or no qualifier. Clang 22 made
/// NestedNameSpecifier a value; before, it was a pointer that may be null.
#if CLANG_VERSION_MAJOR >= 22
inline const Type *qualifierType(NestedNameSpecifier Qualifier) {
  return Qualifier.getKind() == NestedNameSpecifier::Kind::Type
             ? Qualifier.getAsType()
             : nullptr;
}
#else
inline const Type *qualifierType(const NestedNameSpecifier *Qualifier) {
  return Qualifier ? Qualifier->getAsType() : nullptr;
}
#endif

/// The type named by the qualifier written on a typedef's use
/// (`Traits<F>::type`), when \p Ty is that use: clang 22 keeps the qualifier
/// on the TypedefType, older clangs on the ElaboratedType around it.
inline const Type *typedefQualifierType(const Type *Ty) {
#if CLANG_VERSION_MAJOR >= 22
  if (const auto *Typedef = dyn_cast<TypedefType>(Ty))
    return qualifierType(Typedef->getQualifier());
#else
  if (const auto *Elaborated = dyn_cast<ElaboratedType>(Ty))
    if (isa<TypedefType>(Elaborated->getNamedType()))
      return qualifierType(Elaborated->getQualifier());
#endif
  return nullptr;
}

/// \p Ty without the elaboration older clangs wrap around a qualified name
/// as written (`cuda::std::invoke_result_t<F>`); clang 22 has none.
inline const Type *withoutElaboration(const Type *Ty) {
#if CLANG_VERSION_MAJOR < 22
  while (const auto *Elaborated = dyn_cast<ElaboratedType>(Ty))
    Ty = Elaborated->getNamedType().getTypePtr();
#endif
  return Ty;
}

/// The type a template type parameter's default argument names, as written
/// (`class F = invoke_result_t<Op>`), or null. Clang 19 made it a
/// TemplateArgumentLoc.
inline const TypeSourceInfo *defaultArgumentOf(const TemplateTypeParmDecl &P) {
  if (!P.hasDefaultArgument())
    return nullptr;
#if CLANG_VERSION_MAJOR >= 19
  return P.getDefaultArgument().getTypeSourceInfo();
#else
  return P.getDefaultArgumentInfo();
#endif
}

/// A non-type template parameter's default argument as written, or null.
inline Expr *defaultArgumentOf(const NonTypeTemplateParmDecl &P) {
  if (!P.hasDefaultArgument())
    return nullptr;
#if CLANG_VERSION_MAJOR >= 19
  return P.getDefaultArgument().getSourceExpression();
#else
  return P.getDefaultArgument();
#endif
}

/// Whether \p L is "no linkage" (a local, or a member of a local class).
inline bool isNoLinkage(Linkage L) {
#if CLANG_VERSION_MAJOR >= 18
  return L == Linkage::None;
#else
  return L == NoLinkage;
#endif
}

/// Whether \p Method is pure virtual (`= 0`).
inline bool isPureVirtual(const CXXMethodDecl &Method) {
#if CLANG_VERSION_MAJOR >= 18
  return Method.isPureVirtual();
#else
  return Method.isPure();
#endif
}

/// The canonical type of the class \p Tag.
inline QualType canonicalTagType(const ASTContext &Context, const TagDecl *Tag) {
#if CLANG_VERSION_MAJOR >= 22
  return Context.getCanonicalTagType(Tag);
#else
  return Context.getTypeDeclType(Tag).getCanonicalType();
#endif
}

} // namespace clang::tidy::cuda::utils

#endif

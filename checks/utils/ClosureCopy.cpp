//===--- ClosureCopy.cpp - cuda-lambda-tidy -----------------------------===//

#include "ClosureCopy.h"
#include "ClangVersions.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::tidy::cuda::utils {

/// Whether \p Type's triviality and size are known in a template pattern:
/// a non-dependent type, or a pointer to anything.
static bool isKnownInPattern(QualType Type) {
  return !Type->isDependentType() || Type->isPointerType();
}

static bool hasReferenceMember(const CXXRecordDecl &Record) {
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition)
    return false;
  for (const FieldDecl *Field : Definition->fields()) {
    QualType Type = Field->getType();
    if (Type->isReferenceType())
      return true;
    // A member object carries its own references along.
    if (const CXXRecordDecl *Member =
            Type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      if (hasReferenceMember(*Member))
        return true;
  }
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseDecl = Base.getType()->getAsCXXRecordDecl())
      if (hasReferenceMember(*BaseDecl))
        return true;
  return false;
}

/// For a class template's pattern whose members depend on its parameters:
/// the verdict shared by every instantiation in this translation unit, or
/// Dependent when there is none or they disagree about being copyable.
static ClosureCopyBlocker
blockerOfInstantiations(const CXXRecordDecl &Pattern,
                        const ASTContext &Context) {
  const ClassTemplateDecl *Template = Pattern.getDescribedClassTemplate();
  if (!Template)
    return ClosureCopyBlocker::Dependent;
  bool Any = false;
  for (const ClassTemplateSpecializationDecl *Instance :
       Template->specializations()) {
    if (!Instance->hasDefinition() || Instance->isDependentContext())
      continue;
    ClosureCopyBlocker Blocker = closureCopyBlockerOf(*Instance, Context);
    if (Blocker != ClosureCopyBlocker::None)
      return Blocker;
    Any = true;
  }
  return Any ? ClosureCopyBlocker::None : ClosureCopyBlocker::Dependent;
}

ClosureCopyBlocker closureCopyBlockerOf(const CXXRecordDecl &Record,
                                        const ASTContext &Context) {
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition)
    return ClosureCopyBlocker::Incomplete;
  uint64_t Bytes = 0;
  if (Definition->isDependentContext()) {
    for (const CXXBaseSpecifier &Base : Definition->bases())
      if (Base.getType()->isDependentType())
        return blockerOfInstantiations(*Definition, Context);
    for (const FieldDecl *Field : Definition->fields()) {
      if (!isKnownInPattern(Field->getType()))
        return blockerOfInstantiations(*Definition, Context);
      if (!Field->getType()->isDependentType() &&
          Field->getType()->isIncompleteType())
        return ClosureCopyBlocker::Incomplete;
    }
  }
  if (hasReferenceMember(*Definition))
    return ClosureCopyBlocker::ReferenceMember;
  if (!Definition->isTriviallyCopyable())
    return ClosureCopyBlocker::NotTriviallyCopyable;
  if (Definition->isDependentContext()) {
    // No layout for a pattern: add up what is known (bases are not
    // dependent here, fields are pointers or non-dependent).
    for (const CXXBaseSpecifier &Base : Definition->bases())
      Bytes += Context.getTypeSizeInChars(Base.getType()).getQuantity();
    for (const FieldDecl *Field : Definition->fields())
      Bytes += Field->getType()->isDependentType()
                   ? Context.getTypeSizeInChars(Context.VoidPtrTy).getQuantity()
                   : Context.getTypeSizeInChars(Field->getType()).getQuantity();
  } else {
    Bytes = Context.getTypeSizeInChars(canonicalTagType(Context, Definition))
                .getQuantity();
  }
  if (Bytes > MaxClosureCopyBytes)
    return ClosureCopyBlocker::TooLarge;
  return ClosureCopyBlocker::None;
}

} // namespace clang::tidy::cuda::utils

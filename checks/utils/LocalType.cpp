//===--- LocalType.cpp - cuda-lambda-tidy -------------------------------===//

#include "LocalType.h"
#include "ExecutionSpace.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::tidy::cuda::utils {

bool isFunctionLocalType(const TagDecl &Tag) {
  return Tag.getParentFunctionOrMethod() != nullptr;
}

/// Extended lambdas' closure types are named through nvcc's wrappers.
static bool isNamedByNvcc(const TagDecl &Tag) {
  const auto *Record = dyn_cast<CXXRecordDecl>(&Tag);
  if (!Record || !Record->isLambda())
    return false;
  const CXXMethodDecl *CallOperator = Record->getLambdaCallOperator();
  return CallOperator && hasExplicitDeviceAttr(*CallOperator);
}

static const TagDecl *findInTemplateArguments(ArrayRef<TemplateArgument> Args);

static const TagDecl *findInTag(const TagDecl &Tag) {
  if (isFunctionLocalType(Tag) && !isNamedByNvcc(Tag))
    return &Tag;
  // `Outer<Local>::Inner`: the classes around a nested class are named too.
  for (const DeclContext *Context = Tag.getDeclContext(); Context;
       Context = Context->getParent()) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Context))
      if (const TagDecl *Found =
              findInTemplateArguments(Spec->getTemplateArgs().asArray()))
        return Found;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Tag))
    return findInTemplateArguments(Spec->getTemplateArgs().asArray());
  return nullptr;
}

static const TagDecl *findInTemplateArguments(ArrayRef<TemplateArgument> Args) {
  for (const TemplateArgument &Arg : Args) {
    if (Arg.getKind() == TemplateArgument::Type) {
      if (const TagDecl *Found = findFunctionLocalType(Arg.getAsType()))
        return Found;
    } else if (Arg.getKind() == TemplateArgument::Pack) {
      if (const TagDecl *Found = findInTemplateArguments(Arg.pack_elements()))
        return Found;
    }
  }
  return nullptr;
}

const TagDecl *findFunctionLocalType(QualType Type) {
  if (Type.isNull() || Type->isDependentType())
    return nullptr;
  const clang::Type *Canonical = Type.getCanonicalType().getTypePtr();
  if (const auto *Pointer = dyn_cast<PointerType>(Canonical))
    return Pointer->getPointeeType()->isFunctionType()
               ? nullptr
               : findFunctionLocalType(Pointer->getPointeeType());
  if (const auto *Reference = dyn_cast<ReferenceType>(Canonical))
    return Reference->getPointeeType()->isFunctionType()
               ? nullptr
               : findFunctionLocalType(Reference->getPointeeType());
  if (const auto *Array = dyn_cast<ArrayType>(Canonical))
    return findFunctionLocalType(Array->getElementType());
  if (const auto *MemberPointer = dyn_cast<MemberPointerType>(Canonical)) {
    if (const CXXRecordDecl *Class =
            MemberPointer->getMostRecentCXXRecordDecl())
      if (const TagDecl *Found = findInTag(*Class))
        return Found;
    return MemberPointer->getPointeeType()->isFunctionType()
               ? nullptr
               : findFunctionLocalType(MemberPointer->getPointeeType());
  }
  if (const TagDecl *Tag = Canonical->getAsTagDecl())
    return findInTag(*Tag);
  return nullptr;
}

} // namespace clang::tidy::cuda::utils

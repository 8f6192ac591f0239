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

namespace {
/// What the traversal looks for: the offending declaration of a tag, if any.
using TagProblem = const TagDecl *(*)(const TagDecl &);
} // namespace

static const TagDecl *findIn(QualType Type, TagProblem Problem);

static const TagDecl *localProblem(const TagDecl &Tag) {
  return isFunctionLocalType(Tag) && !isNamedByNvcc(Tag) ? &Tag : nullptr;
}

static const TagDecl *findInTemplateArguments(ArrayRef<TemplateArgument> Args,
                                              TagProblem Problem);

static const TagDecl *findInTag(const TagDecl &Tag, TagProblem Problem) {
  if (const TagDecl *Found = Problem(Tag))
    return Found;
  // `Outer<Local>::Inner`: the classes around a nested class are named too.
  for (const DeclContext *Context = Tag.getDeclContext(); Context;
       Context = Context->getParent()) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Context))
      if (const TagDecl *Found =
              findInTemplateArguments(Spec->getTemplateArgs().asArray(),
                                      Problem))
        return Found;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Tag))
    return findInTemplateArguments(Spec->getTemplateArgs().asArray(), Problem);
  return nullptr;
}

static const TagDecl *findInTemplateArguments(ArrayRef<TemplateArgument> Args,
                                              TagProblem Problem) {
  for (const TemplateArgument &Arg : Args) {
    if (Arg.getKind() == TemplateArgument::Type) {
      if (const TagDecl *Found = findIn(Arg.getAsType(), Problem))
        return Found;
    } else if (Arg.getKind() == TemplateArgument::Pack) {
      if (const TagDecl *Found =
              findInTemplateArguments(Arg.pack_elements(), Problem))
        return Found;
    }
  }
  return nullptr;
}

const TagDecl *findFunctionLocalType(QualType Type) {
  return findIn(Type, localProblem);
}

AccessSpecifier memberAccessOf(const Decl &D) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&D))
    return Spec->getSpecializedTemplate()->getAccess();
  return D.getAccess();
}

const TagDecl *restrictedMemberOf(const TagDecl &Tag) {
  for (const TagDecl *D = &Tag; D; D = dyn_cast<TagDecl>(D->getDeclContext()))
    if (isa<CXXRecordDecl>(D->getDeclContext()) &&
        (memberAccessOf(*D) == AS_private || memberAccessOf(*D) == AS_protected))
      return D;
  return nullptr;
}

const TagDecl *findRestrictedMemberType(QualType Type) {
  return findIn(Type, [](const TagDecl &Tag) -> const TagDecl * {
    return isNamedByNvcc(Tag) ? nullptr : restrictedMemberOf(Tag);
  });
}

static const TagDecl *findIn(QualType Type, TagProblem Problem) {
  if (Type.isNull() || Type->isDependentType())
    return nullptr;
  const clang::Type *Canonical = Type.getCanonicalType().getTypePtr();
  if (const auto *Pointer = dyn_cast<PointerType>(Canonical))
    return Pointer->getPointeeType()->isFunctionType()
               ? nullptr
               : findIn(Pointer->getPointeeType(), Problem);
  if (const auto *Reference = dyn_cast<ReferenceType>(Canonical))
    return Reference->getPointeeType()->isFunctionType()
               ? nullptr
               : findIn(Reference->getPointeeType(), Problem);
  if (const auto *Array = dyn_cast<ArrayType>(Canonical))
    return findIn(Array->getElementType(), Problem);
  if (const auto *MemberPointer = dyn_cast<MemberPointerType>(Canonical)) {
    if (const CXXRecordDecl *Class =
            MemberPointer->getMostRecentCXXRecordDecl())
      if (const TagDecl *Found = findInTag(*Class, Problem))
        return Found;
    return MemberPointer->getPointeeType()->isFunctionType()
               ? nullptr
               : findIn(MemberPointer->getPointeeType(), Problem);
  }
  if (const TagDecl *Tag = Canonical->getAsTagDecl())
    return findInTag(*Tag, Problem);
  return nullptr;
}

/// Why nvcc cannot name \p Tag from namespace scope, if it cannot: it (or a
/// class around it) is local to a function, it is unnamed, or it (or a class
/// around it) is a private or protected member.
static std::optional<UnnameableType> problemOfTag(const TagDecl &Tag) {
  if (const auto *Record = dyn_cast<CXXRecordDecl>(&Tag);
      Record && Record->isLambda()) {
    if (isNamedByNvcc(Tag))
      return std::nullopt;
    if (Record->getDeclContext()->isFunctionOrMethod())
      return UnnameableType{UnnameableKind::PlainClosure, Record};
    return std::nullopt;
  }
  std::optional<UnnameableType> Restricted;
  for (const Decl *D = &Tag; D;) {
    const DeclContext *Parent = D->getDeclContext();
    if (Parent->isFunctionOrMethod())
      return UnnameableType{UnnameableKind::Local, &Tag};
    if (!Restricted && isa<CXXRecordDecl>(Parent)) {
      // A member class template's specialization has its template's access.
      if (memberAccessOf(*D) == AS_private)
        Restricted = UnnameableType{UnnameableKind::Private, cast<TagDecl>(D)};
      else if (memberAccessOf(*D) == AS_protected)
        Restricted =
            UnnameableType{UnnameableKind::Protected, cast<TagDecl>(D)};
    }
    D = dyn_cast<TagDecl>(Parent);
  }
  if (!Restricted && Tag.getDeclName().isEmpty() &&
      !Tag.getTypedefNameForAnonDecl())
    return UnnameableType{UnnameableKind::Unnamed, &Tag};
  return Restricted;
}

static std::optional<UnnameableType> findUnnameableInTag(const TagDecl &Tag) {
  if (auto Found = problemOfTag(Tag))
    return Found;
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(&Tag))
    return findUnnameableType(Specialization->getTemplateArgs().asArray());
  return std::nullopt;
}

std::optional<UnnameableType>
findUnnameableType(ArrayRef<TemplateArgument> Args) {
  for (const TemplateArgument &Arg : Args) {
    std::optional<UnnameableType> Found;
    if (Arg.getKind() == TemplateArgument::Type)
      Found = findUnnameableType(Arg.getAsType());
    else if (Arg.getKind() == TemplateArgument::Pack)
      Found = findUnnameableType(Arg.pack_elements());
    if (Found)
      return Found;
  }
  return std::nullopt;
}

std::optional<UnnameableType> findUnnameableType(QualType Type) {
  if (Type.isNull() || Type->isDependentType())
    return std::nullopt;
  const clang::Type *T = Type.getCanonicalType().getTypePtr();
  if (const auto *Pointer = dyn_cast<PointerType>(T))
    return findUnnameableType(Pointer->getPointeeType());
  if (const auto *Reference = dyn_cast<ReferenceType>(T))
    return findUnnameableType(Reference->getPointeeType());
  if (const auto *Array = dyn_cast<ArrayType>(T))
    return findUnnameableType(Array->getElementType());
  if (const auto *Member = dyn_cast<MemberPointerType>(T)) {
    if (auto Found = findUnnameableType(Member->getPointeeType()))
      return Found;
    if (const CXXRecordDecl *Class = Member->getMostRecentCXXRecordDecl())
      return findUnnameableInTag(*Class);
    return std::nullopt;
  }
  if (const auto *Function = dyn_cast<FunctionProtoType>(T)) {
    if (auto Found = findUnnameableType(Function->getReturnType()))
      return Found;
    for (QualType Param : Function->getParamTypes())
      if (auto Found = findUnnameableType(Param))
        return Found;
    return std::nullopt;
  }
  if (const TagDecl *Tag = T->getAsTagDecl())
    return findUnnameableInTag(*Tag);
  return std::nullopt;
}

} // namespace clang::tidy::cuda::utils

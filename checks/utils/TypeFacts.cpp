//===--- TypeFacts.cpp - cuda-lambda-tidy -------------------------------===//

#include "TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::utils {

static bool isStdFunctionTemplate(const TemplateDecl *Template) {
  return Template && Template->getName() == "function" &&
         Template->isInStdNamespace();
}

bool declaresNvstdNamespace(const ASTContext &Context) {
  const TranslationUnitDecl *TU = Context.getTranslationUnitDecl();
  for (const NamedDecl *D :
       TU->lookup(DeclarationName(&Context.Idents.get("nvstd"))))
    if (isa<NamespaceDecl>(D))
      return true;
  return false;
}

static bool isNvstdFunctionTemplate(const TemplateDecl *Template) {
  if (!Template || Template->getName() != "function")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(
      Template->getDeclContext()->getRedeclContext());
  return NS && NS->getName() == "nvstd" &&
         NS->getParent()->getRedeclContext()->isTranslationUnit();
}

bool isNvstdFunctionClass(const CXXRecordDecl &Record) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Record);
  return Spec && isNvstdFunctionTemplate(Spec->getSpecializedTemplate());
}

bool isNvstdFunction(QualType Type) {
  if (Type.isNull())
    return false;
  if (const auto *Record = Type->getAsCXXRecordDecl())
    return isNvstdFunctionClass(*Record);
  if (const auto *Spec = Type->getAs<TemplateSpecializationType>())
    return isNvstdFunctionTemplate(Spec->getTemplateName().getAsTemplateDecl());
  return false;
}

bool isStdFunctionClass(const CXXRecordDecl &Record) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Record);
  return Spec && isStdFunctionTemplate(Spec->getSpecializedTemplate());
}

bool isStdFunction(QualType Type) {
  if (Type.isNull())
    return false;
  if (const auto *Record = Type->getAsCXXRecordDecl())
    return isStdFunctionClass(*Record);
  // A dependent specialization has no record yet.
  if (const auto *Spec = Type->getAs<TemplateSpecializationType>())
    return isStdFunctionTemplate(Spec->getTemplateName().getAsTemplateDecl());
  return false;
}

std::string StdFunctionInType::memberPath() const {
  std::string Path;
  for (const FieldDecl *Member : Members) {
    if (!Path.empty())
      Path += '.';
    Path += Member->getName();
  }
  return Path;
}

/// The type as diagnostics should name it: without aliases, except in a
/// template's pattern, where the canonical form would name the template
/// parameters by position.
static QualType spelledType(QualType Type) {
  if (Type->isDependentType())
    return Type.getLocalUnqualifiedType();
  return Type.getCanonicalType().getUnqualifiedType();
}

static QualType stripArrays(QualType Type) {
  while (const ArrayType *Array = Type->getAsArrayTypeUnsafe())
    Type = Array->getElementType();
  return Type;
}

using TypePredicate = bool (*)(QualType);

static bool findInClass(const CXXRecordDecl *Record, StdFunctionInType &Found,
                        llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Visited,
                        TypePredicate IsWanted) {
  if (!Record || !Record->hasDefinition())
    return false;
  Record = Record->getDefinition();
  if (!Visited.insert(Record).second)
    return false;
  for (const FieldDecl *Field : Record->fields()) {
    QualType FieldType = stripArrays(Field->getType());
    Found.Members.push_back(Field);
    if (IsWanted(FieldType)) {
      Found.FunctionType = spelledType(FieldType);
      return true;
    }
    if (findInClass(FieldType->getAsCXXRecordDecl(), Found, Visited,
                    IsWanted))
      return true;
    Found.Members.pop_back();
  }
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (findInClass(Base.getType()->getAsCXXRecordDecl(), Found, Visited,
                    IsWanted))
      return true;
  return false;
}

static std::optional<StdFunctionInType> findIn(QualType Type,
                                               TypePredicate IsWanted) {
  if (Type.isNull())
    return std::nullopt;
  QualType Pointee = Type.getNonReferenceType();
  bool Indirect = false;
  while (true) {
    if (const ArrayType *Array = Pointee->getAsArrayTypeUnsafe())
      Pointee = Array->getElementType();
    else if (const auto *Pointer = Pointee->getAs<PointerType>())
      Pointee = Pointer->getPointeeType();
    else
      break;
    Indirect = true;
  }
  if (IsWanted(Pointee))
    return StdFunctionInType{spelledType(Pointee),
                             Indirect ? StdFunctionInType::Pointee
                                      : StdFunctionInType::Itself,
                             {}};
  if (Type->isReferenceType())
    return std::nullopt;
  StdFunctionInType Found;
  Found.How = StdFunctionInType::Member;
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Visited;
  if (findInClass(stripArrays(Type)->getAsCXXRecordDecl(), Found, Visited,
                  IsWanted))
    return Found;
  return std::nullopt;
}

std::optional<StdFunctionInType> findStdFunctionIn(QualType Type) {
  return findIn(Type, isStdFunction);
}

std::optional<StdFunctionInType> findNvstdFunctionIn(QualType Type) {
  return findIn(Type, isNvstdFunction);
}

/// Whether \p Type is `std::allocator<T>`.
static bool isStdAllocator(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type->getAsCXXRecordDecl());
  return Spec && Spec->getName() == "allocator" && Spec->isInStdNamespace();
}

bool isHostOwningClass(const CXXRecordDecl &Record) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Record);
  if (!Spec)
    return false;
  llvm::ArrayRef<TemplateArgument> Args = Spec->getTemplateArgs().asArray();
  if (Spec->isInStdNamespace() && Spec->getIdentifier()) {
    if (Spec->getName() == "shared_ptr")
      return true;
    if (Spec->getName() == "unique_ptr") {
      if (Args.size() != 2 || Args[1].getKind() != TemplateArgument::Type)
        return false;
      const auto *Deleter = Args[1].getAsType()->getAsCXXRecordDecl();
      return Deleter && Deleter->getName() == "default_delete" &&
             Deleter->isInStdNamespace();
    }
  }
  for (const TemplateArgument &Arg : Args)
    if (Arg.getKind() == TemplateArgument::Type &&
        isStdAllocator(Arg.getAsType()))
      return true;
  return false;
}

std::string HostOwningPart::memberPath() const {
  std::string Path;
  for (const Step &S : Steps) {
    if (!S.Member)
      continue;
    if (!Path.empty())
      Path += '.';
    Path += S.Member->getName();
  }
  return Path;
}

/// Classes followed below the outer type: a framework's container nests a
/// few levels (a struct holding a class deriving from std::vector).
constexpr unsigned MaxHostOwningDepth = 8;

static bool
findOwningIn(QualType Type, HostOwningPart &Part, unsigned Depth,
             llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Visited) {
  if (Depth > MaxHostOwningDepth || Type.isNull() ||
      Type->isReferenceType() || Type->isDependentType())
    return false;
  Type = stripArrays(Type);
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  // Told by the template arguments, without the definition.
  if (isHostOwningClass(*Record)) {
    Part.OwningType = spelledType(Type);
    Part.Owner = Record;
    return true;
  }
  if (!Record->hasDefinition())
    return false;
  Record = Record->getDefinition();
  if (!Visited.insert(Record).second)
    return false;
  for (const CXXBaseSpecifier &Base : Record->bases()) {
    Part.Steps.push_back({Record, nullptr, &Base});
    if (findOwningIn(Base.getType(), Part, Depth + 1, Visited))
      return true;
    Part.Steps.pop_back();
  }
  for (const FieldDecl *Field : Record->fields()) {
    Part.Steps.push_back({Record, Field, nullptr});
    if (findOwningIn(Field->getType(), Part, Depth + 1, Visited))
      return true;
    Part.Steps.pop_back();
  }
  return false;
}

std::optional<HostOwningPart> findHostOwningPart(QualType Type) {
  HostOwningPart Part;
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Visited;
  if (findOwningIn(Type, Part, 0, Visited))
    return Part;
  return std::nullopt;
}

std::string qualifiedNameWithoutInline(const NamedDecl &D) {
  std::string Result = D.getNameAsString();
  for (const DeclContext *C = D.getDeclContext(); C; C = C->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(C);
    if (!NS) {
      if (!C->isTranslationUnit() && !C->isTransparentContext())
        return "";
      continue;
    }
    if (!NS->isInline())
      Result = NS->getNameAsString() + "::" + Result;
  }
  return Result;
}

static const DeclContext *skipInlineAndTransparent(const DeclContext *C) {
  while (C && (C->isTransparentContext() || C->isInlineNamespace()))
    C = C->getParent();
  return C;
}

bool isDirectlyInNamespace(const Decl &D, llvm::StringRef Name) {
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(
      skipInlineAndTransparent(D.getDeclContext()));
  if (!NS || NS->getName() != Name)
    return false;
  const DeclContext *Outer = skipInlineAndTransparent(NS->getParent());
  return Outer && Outer->isTranslationUnit();
}

static void addPointerMembers(const CXXRecordDecl &Record, llvm::StringRef Prefix,
                              unsigned Depth,
                              llvm::SmallVectorImpl<PointerMember> &Into) {
  const SourceManager &SM = Record.getASTContext().getSourceManager();
  for (const FieldDecl *Field : Record.fields()) {
    std::string Name = (Prefix + Field->getName()).str();
    QualType Type = Field->getType();
    if (Type->isPointerType()) {
      Into.push_back({Field, std::move(Name)});
      continue;
    }
    const CXXRecordDecl *Inner = Type->getAsCXXRecordDecl();
    if (Depth < 2 && Inner && Inner->hasDefinition() && !Inner->isLambda() &&
        !SM.isInSystemHeader(Inner->getLocation()))
      addPointerMembers(*Inner->getDefinition(), Name + ".", Depth + 1, Into);
  }
}

llvm::SmallVector<PointerMember, 4> pointerMembers(const CXXRecordDecl &Record) {
  llvm::SmallVector<PointerMember, 4> Members;
  addPointerMembers(Record, "", 0, Members);
  return Members;
}

} // namespace clang::tidy::cuda::utils

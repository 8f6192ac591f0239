//===--- ReservedNamespaceCheck.cpp - cuda-lambda-tidy ------------------===//

#include "ReservedNamespaceCheck.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void ReservedNamespaceCheck::registerMatchers(MatchFinder *Finder) {
  // Each `namespace cuda {` block written at global scope (or in `extern
  // "C++"`), in the user's files.
  Finder->addMatcher(
      namespaceDecl(anyOf(hasName("::cuda"), hasName("::nv"),
                          hasName("::cooperative_groups")),
                    unless(isExpansionInSystemHeader()))
          .bind("namespace"),
      this);
  Finder->addMatcher(usingDirectiveDecl(hasDeclContext(translationUnitDecl()),
                                        unless(isExpansionInSystemHeader()))
                         .bind("using"),
                     this);
}

void ReservedNamespaceCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Namespace = Result.Nodes.getNodeAs<NamespaceDecl>("namespace"))
    checkNamespace(*Namespace, *Result.SourceManager);
  else if (const auto *Using =
               Result.Nodes.getNodeAs<UsingDirectiveDecl>("using"))
    checkUsingDirective(*Using);
}

/// Whether \p D declares something of its own rather than naming what the
/// toolkit declared: an explicit specialization of one of its templates, or
/// a redeclaration of one of its entities.
static bool isNewEntity(const Decl &D, const SourceManager &SM) {
  if (D.isImplicit())
    return false;
  if (const auto *Record = dyn_cast<ClassTemplateSpecializationDecl>(&D))
    return Record->getSpecializationKind() == TSK_Undeclared;
  if (const auto *Var = dyn_cast<VarTemplateSpecializationDecl>(&D))
    return Var->getSpecializationKind() == TSK_Undeclared;
  if (const auto *Function = dyn_cast<FunctionDecl>(&D))
    if (Function->getTemplateSpecializationKind() != TSK_Undeclared)
      return false;
  return !utils::isExpansionInSystemHeader(
      D.getCanonicalDecl()->getLocation(), SM);
}

/// The first declaration of the user's own in \p Context, looking into
/// nested namespaces; null when every one is a specialization or
/// redeclaration of the toolkit's.
static const NamedDecl *firstNewDeclaration(const DeclContext &Context,
                                            const SourceManager &SM) {
  for (const Decl *D : Context.decls()) {
    if (const auto *Nested = dyn_cast<NamespaceDecl>(D)) {
      if (const NamedDecl *Found = firstNewDeclaration(*Nested, SM))
        return Found;
      continue;
    }
    if (isa<UsingDirectiveDecl>(D) || isa<StaticAssertDecl>(D))
      continue;
    if (const auto *Named = dyn_cast<NamedDecl>(D);
        Named && Named->getDeclName() && isNewEntity(*Named, SM))
      return Named;
  }
  return nullptr;
}

/// Whether \p Loc is in one of the toolkit's own headers reached without
/// -isystem, as when a project builds against a CCCL checkout (thrust's
/// tests include libcu++ with -I): a file under an `include/cuda/`,
/// `include/nv/` or `include/cooperative_groups` tree, or under libcu++'s
/// `libcudacxx/include/`.
static bool isInToolkitTree(SourceLocation Loc, const SourceManager &SM) {
  const StringRef File = SM.getFilename(SM.getFileLoc(Loc));
  return File.contains("/libcudacxx/include/") ||
         File.contains("/include/cuda/") || File.contains("/include/nv/") ||
         File.contains("/include/cooperative_groups");
}

void ReservedNamespaceCheck::checkNamespace(const NamespaceDecl &Namespace,
                                            const SourceManager &SM) {
  if (isInToolkitTree(Namespace.getLocation(), SM))
    return;
  const NamedDecl *First = firstNewDeclaration(Namespace, SM);
  if (!First)
    return;
  diag(Namespace.getLocation(),
       "namespace %0 belongs to the CUDA toolkit, and this block adds '%1' to "
       "it; a toolkit header that declares the same name, now or in a later "
       "release, breaks the build or silently changes which one is called; "
       "move the declaration into a namespace of your own")
      << &Namespace << First->getQualifiedNameAsString();
  diag(First->getLocation(), "'%0' declared here", DiagnosticIDs::Note)
      << First->getQualifiedNameAsString();
}

/// A namespace or namespace alias named `cuda` declared directly in
/// \p Namespace (any of its blocks), or in the namespaces it nominates with
/// `using namespace` in turn.
static const NamedDecl *
findNestedCuda(const NamespaceDecl &Namespace,
               llvm::SmallPtrSetImpl<const NamespaceDecl *> &Seen) {
  if (!Seen.insert(Namespace.getCanonicalDecl()).second)
    return nullptr;
  for (const NamespaceDecl *Block : Namespace.redecls())
    for (const Decl *D : Block->decls()) {
      const auto *Named = dyn_cast<NamedDecl>(D);
      if (Named &&
          (isa<NamespaceDecl>(Named) || isa<NamespaceAliasDecl>(Named)) &&
          Named->getIdentifier() && Named->getIdentifier()->isStr("cuda"))
        return Named;
      // Lookup sees through inline namespaces (thrust's ABI namespace).
      if (const auto *Inline = dyn_cast<NamespaceDecl>(D);
          Inline && Inline->isInline())
        if (const NamedDecl *Found = findNestedCuda(*Inline, Seen))
          return Found;
      if (const auto *Using = dyn_cast<UsingDirectiveDecl>(D))
        if (const NamespaceDecl *Nominated = Using->getNominatedNamespace())
          if (const NamedDecl *Found = findNestedCuda(*Nominated, Seen))
            return Found;
    }
  return nullptr;
}

void ReservedNamespaceCheck::checkUsingDirective(
    const UsingDirectiveDecl &Using) {
  const NamespaceDecl *Nominated = Using.getNominatedNamespace();
  if (!Nominated)
    return;
  llvm::SmallPtrSet<const NamespaceDecl *, 4> Seen;
  const NamedDecl *Cuda = findNestedCuda(*Nominated, Seen);
  if (!Cuda)
    return;
  diag(Using.getBeginLoc(),
       "'using namespace %0' at global scope brings '%1' into the global "
       "namespace, where every later use of libcu++'s 'cuda::' becomes "
       "ambiguous; qualify the names instead, or move the directive into a "
       "function or namespace")
      << Nominated->getQualifiedNameAsString()
      << Cuda->getQualifiedNameAsString();
  diag(Cuda->getLocation(), "'%0' declared here", DiagnosticIDs::Note)
      << Cuda->getQualifiedNameAsString();
}

} // namespace clang::tidy::cuda

//===--- ReservedNamespaceCheck.cpp - cuda-lambda-tidy ------------------===//

#include "ReservedNamespaceCheck.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

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
    checkUsingDirective(*Using, *Result.SourceManager,
                        Result.Context->getLangOpts());
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

/// The first unqualified `cuda ::` written after \p Using in the file that
/// holds it: a name whose lookup of `cuda` sees both the namespace the
/// directive brings in and libcu++'s `::cuda`. A raw token scan, since the
/// ambiguous use leaves no name behind in the AST: `::cuda::`, `x.cuda::`,
/// `ns::cuda::` and `namespace cuda::` are not such lookups.
static std::optional<SourceLocation>
findLaterCudaUse(const UsingDirectiveDecl &Using, const SourceManager &SM,
                 const LangOptions &LangOpts) {
  const SourceLocation End = Lexer::getLocForEndOfToken(
      SM.getExpansionLoc(Using.getEndLoc()), 0, SM, LangOpts);
  if (End.isInvalid())
    return std::nullopt;
  const FileID File = SM.getFileID(End);
  bool Invalid = false;
  const StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  Lexer Raw(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(),
            Buffer.begin() + SM.getFileOffset(End), Buffer.end());
  Token Previous, Current, Next;
  Previous.startToken();
  Raw.LexFromRawLexer(Current);
  while (Current.isNot(tok::eof)) {
    Raw.LexFromRawLexer(Next);
    const bool IsCuda = Current.is(tok::raw_identifier) &&
                        Current.getRawIdentifier() == "cuda";
    const bool Qualified =
        Previous.isOneOf(tok::coloncolon, tok::period, tok::arrow) ||
        (Previous.is(tok::raw_identifier) &&
         Previous.getRawIdentifier() == "namespace");
    if (IsCuda && Next.is(tok::coloncolon) && !Qualified)
      return Current.getLocation();
    Previous = Current;
    Current = Next;
  }
  return std::nullopt;
}

void ReservedNamespaceCheck::checkUsingDirective(
    const UsingDirectiveDecl &Using, const SourceManager &SM,
    const LangOptions &LangOpts) {
  const NamespaceDecl *Nominated = Using.getNominatedNamespace();
  if (!Nominated)
    return;
  llvm::SmallPtrSet<const NamespaceDecl *, 4> Seen;
  const NamedDecl *Cuda = findNestedCuda(*Nominated, Seen);
  if (!Cuda)
    return;
  // The directive alone is latent: only a later unqualified 'cuda::' breaks.
  const std::optional<SourceLocation> Use =
      findLaterCudaUse(Using, SM, LangOpts);
  if (!Use)
    return;
  // Whether libcu++'s (or anyone's) '::cuda' is declared in this
  // translation unit already, which makes the use ambiguous today.
  const DeclContext *Global =
      Using.getASTContext().getTranslationUnitDecl();
  const bool GlobalCuda = llvm::any_of(
      Global->lookup(&Using.getASTContext().Idents.get("cuda")),
      [](const NamedDecl *D) { return isa<NamespaceDecl>(D); });
  diag(Using.getBeginLoc(),
       "'using namespace %0' at global scope brings '%1' into the global "
       "namespace next to libcu++'s 'cuda', and a later unqualified 'cuda::' "
       "%select{becomes ambiguous as soon as a toolkit header declares "
       "'::cuda'|is ambiguous}2; qualify the names instead, or move the "
       "directive into a function or namespace")
      << Nominated->getQualifiedNameAsString()
      << Cuda->getQualifiedNameAsString() << GlobalCuda;
  diag(*Use, "unqualified 'cuda::' used here", DiagnosticIDs::Note);
  diag(Cuda->getLocation(), "'%0' declared here", DiagnosticIDs::Note)
      << Cuda->getQualifiedNameAsString();
}

} // namespace clang::tidy::cuda

//===--- InstantiationChain.cpp - cuda-lambda-tidy ----------------------===//

#include "InstantiationChain.h"
#include "NodeDispatch.h"
#include "TemplateInstantiation.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

static void closuresIn(QualType T,
                       llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out,
                       int Depth) {
  if (T.isNull() || Depth > 4)
    return;
  T = T.getCanonicalType();
  if (const auto *P = T->getAs<PointerType>())
    return closuresIn(P->getPointeeType(), Out, Depth);
  if (T->isReferenceType())
    return closuresIn(T.getNonReferenceType(), Out, Depth);
  if (const auto *A = dyn_cast<ArrayType>(T.getTypePtr()))
    return closuresIn(A->getElementType(), Out, Depth);
  if (const auto *Fn = T->getAs<FunctionProtoType>()) {
    closuresIn(Fn->getReturnType(), Out, Depth + 1);
    for (QualType Param : Fn->getParamTypes())
      closuresIn(Param, Out, Depth + 1);
    return;
  }
  const auto *Record = T->getAsCXXRecordDecl();
  if (!Record)
    return;
  if (Record->isLambda()) {
    Out.insert(Record);
    return;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
      if (Arg.getKind() == TemplateArgument::Type)
        closuresIn(Arg.getAsType(), Out, Depth + 1);
      else if (Arg.getKind() == TemplateArgument::Pack)
        for (const TemplateArgument &Element : Arg.pack_elements())
          if (Element.getKind() == TemplateArgument::Type)
            closuresIn(Element.getAsType(), Out, Depth + 1);
    }
}

void closuresIn(QualType T, llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out) {
  closuresIn(T, Out, 0);
}

static void closuresInArguments(ArrayRef<TemplateArgument> Args,
                                llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out) {
  for (const TemplateArgument &Arg : Args) {
    if (Arg.getKind() == TemplateArgument::Type)
      closuresIn(Arg.getAsType(), Out);
    else if (Arg.getKind() == TemplateArgument::Pack)
      closuresInArguments(Arg.pack_elements(), Out);
  }
}

/// The closures named by the template arguments of \p D and of the class
/// template specializations around it.
static void closuresAround(const Decl &D,
                           llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out) {
  if (const auto *Function = dyn_cast<FunctionDecl>(&D)) {
    if (const TemplateArgumentList *Args =
            Function->getTemplateSpecializationArgs())
      closuresInArguments(Args->asArray(), Out);
    // A generic lambda's or a member's parameters may name the closure
    // without any template argument doing so.
    for (const ParmVarDecl *Param : Function->parameters())
      closuresIn(Param->getType(), Out);
  }
  for (const DeclContext *Around = isa<DeclContext>(&D)
                                       ? cast<DeclContext>(&D)
                                       : D.getDeclContext();
       Around; Around = Around->getParent())
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Around))
      closuresInArguments(Spec->getTemplateArgs().asArray(), Out);
}

std::string instantiatedName(const NamedDecl &D) {
  std::string Result = D.getNameAsString();
  for (const DeclContext *C = D.getDeclContext(); C; C = C->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (!NS->isInline())
        Result = NS->getNameAsString() + "::" + Result;
    } else if (const auto *Record = dyn_cast<CXXRecordDecl>(C)) {
      Result = Record->getNameAsString() + "::" + Result;
    } else if (!C->isTranslationUnit() && !C->isTransparentContext()) {
      break;
    }
  }
  return Result;
}

SourceLocation pointOfInstantiation(const Decl &D) {
  if (const auto *Function = dyn_cast<FunctionDecl>(&D))
    return Function->getPointOfInstantiation();
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&D))
    return Spec->getPointOfInstantiation();
  if (const auto *Spec = dyn_cast<VarTemplateSpecializationDecl>(&D))
    return Spec->getPointOfInstantiation();
  if (const auto *Record = dyn_cast<CXXRecordDecl>(&D))
    if (const MemberSpecializationInfo *Info =
            Record->getMemberSpecializationInfo())
      return Info->getPointOfInstantiation();
  if (const auto *Var = dyn_cast<VarDecl>(&D))
    return Var->getPointOfInstantiation();
  return {};
}

void InstantiationIndex::add(const Decl &D, const SourceManager &SM) {
  const auto *Named = dyn_cast<NamedDecl>(&D);
  if (!Named || !isTemplateInstantiation(D))
    return;
  const auto *Function = dyn_cast<FunctionDecl>(&D);
  if (Function ? !Function->doesThisDeclarationHaveABody()
               : !cast<CXXRecordDecl>(D).isThisDeclarationADefinition())
    return;
  SourceLocation RequestedAt = pointOfInstantiation(D);
  if (RequestedAt.isInvalid())
    return;
  llvm::SmallPtrSet<const CXXRecordDecl *, 4> Closures;
  closuresAround(D, Closures);
  if (Closures.empty())
    return;
  const SourceLocation Begin = SM.getExpansionLoc(D.getBeginLoc());
  const SourceLocation End = SM.getExpansionRange(D.getEndLoc()).getEnd();
  const auto [File, BeginOffset] = SM.getDecomposedLoc(Begin);
  const auto [EndFile, EndOffset] = SM.getDecomposedLoc(End);
  if (File.isInvalid() || EndFile != File || EndOffset < BeginOffset)
    return;
  Entries.push_back({Named, File, BeginOffset, EndOffset, RequestedAt,
                     {Closures.begin(), Closures.end()}, Function});
}

InstantiationChain InstantiationIndex::climb(SourceLocation From,
                                             const CXXRecordDecl &Closure,
                                             const SourceManager &SM) const {
  InstantiationChain Chain;
  SourceLocation At = From;
  llvm::SmallPtrSet<const Decl *, 8> Seen;
  for (int Depth = 0; Depth < 48 && At.isValid(); ++Depth) {
    const auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(At));
    const Entry *Innermost = nullptr;
    for (const Entry &E : Entries) {
      if (E.File != File || Offset < E.Begin || Offset > E.End ||
          (Innermost && E.Begin <= Innermost->Begin) ||
          llvm::find(E.Closures, &Closure) == E.Closures.end() ||
          Seen.contains(E.D))
        continue;
      Innermost = &E;
    }
    if (!Innermost)
      break;
    Seen.insert(Innermost->D);
    if (Innermost->Function) {
      const ExecutionSpace Space = executionSpaceOf(*Innermost->Function);
      if (Space == ExecutionSpace::Device || Space == ExecutionSpace::Global)
        Chain.ThroughDeviceCode = true;
      else if (Space == ExecutionSpace::Host)
        Chain.ThroughHostOnlyCode = true;
    }
    Chain.Steps.push_back({Innermost->D, Innermost->RequestedAt});
    At = Innermost->RequestedAt;
  }
  Chain.Origin = At;
  return Chain;
}

void TextRanges::add(SourceRange Range, const SourceManager &SM) {
  const auto [File, Begin] =
      SM.getDecomposedLoc(SM.getExpansionLoc(Range.getBegin()));
  const auto [EndFile, End] =
      SM.getDecomposedLoc(SM.getExpansionRange(Range.getEnd()).getEnd());
  if (File.isValid() && File == EndFile && Begin <= End)
    Ranges.push_back({File, Begin, End});
}

bool TextRanges::contains(SourceLocation Loc, const SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  const auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  for (const Range &R : Ranges)
    if (R.File == File && R.Begin <= Offset && Offset <= R.End)
      return true;
  return false;
}

namespace {
struct InstantiationMatchers {
  static constexpr llvm::StringLiteral ID = "cuda-instantiations";
};
} // namespace

SharedRegistration matchInstantiations(MatchFinder &Finder,
                                       MatchFinder::MatchCallback *Check) {
  return shareMatchers<InstantiationMatchers>(
      Finder, Check, [&](SharedDispatchCallback &Dispatch) {
        Dispatch.NodeRegistrations.push_back(matchNodes<FunctionDecl>(
            Finder, &Dispatch,
            [](const FunctionDecl &Function, ASTContext &) {
              return isTemplateInstantiation(Function);
            },
            "instantiation"));
        Dispatch.NodeRegistrations.push_back(matchNodes<CXXRecordDecl>(
            Finder, &Dispatch,
            [](const CXXRecordDecl &Record, ASTContext &) {
              return isTemplateInstantiation(Record);
            },
            "instantiation"));
      });
}

const Decl *matchedInstantiation(const MatchFinder::MatchResult &Result) {
  return Result.Nodes.getNodeAs<Decl>("instantiation");
}

} // namespace clang::tidy::cuda::utils

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::cuda::utils {

bool isHostLibraryInstantiation(const FunctionDecl &Function) {
  if (!isInstantiated(Function) ||
      !Function.getASTContext().getSourceManager().isInSystemHeader(
          Function.getASTContext().getSourceManager().getExpansionLoc(
              Function.getLocation())))
    return false;
  const ExecutionSpace Space = executionSpaceOf(Function);
  if (Space == ExecutionSpace::Device || Space == ExecutionSpace::Global)
    return false;
  llvm::SmallPtrSet<const CXXRecordDecl *, 4> Closures;
  closuresAround(Function, Closures);
  return !Closures.empty();
}

namespace {

/// One function's code: the types written in it, and the library functions
/// it calls.
class LibraryCode : public RecursiveASTVisitor<LibraryCode> {
public:
  LibraryCode(HostLibraryWalk::Question Ask,
              llvm::function_ref<void(const FunctionDecl &, SourceLocation)>
                  Calls)
      : Ask(Ask), Calls(Calls) {}
  llvm::SmallVector<HostLibraryWalk::Site, 1> Found;
  /// Class template specializations named in the code, with closures.
  llvm::SmallVector<std::pair<const CXXRecordDecl *, SourceLocation>, 4> Classes;

  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc Loc) {
    llvm::SmallPtrSet<const CXXRecordDecl *, 2> Closures;
    for (const TemplateArgument &Arg : Loc.getTypePtr()->template_arguments())
      if (Arg.getKind() == TemplateArgument::Type)
        closuresIn(Arg.getAsType(), Closures);
    if (!Closures.empty()) {
      ask(QualType(Loc.getTypePtr(), 0), Loc.getTemplateNameLoc());
      if (!Loc.getTypePtr()->isTypeAlias())
        if (const CXXRecordDecl *Class =
                Loc.getTypePtr()->getAsCXXRecordDecl())
          Classes.emplace_back(Class, Loc.getTemplateNameLoc());
    }
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc Loc) {
    // A member typedef of a class template specialization for the closure
    // (`using AccumT = __accumulator_t<Op, T>;` in a dispatch class).
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(
        Loc.getTypePtr()->getDecl()->getDeclContext());
    if (!Spec)
      return true;
    llvm::SmallPtrSet<const CXXRecordDecl *, 2> Closures;
    closuresInArguments(Spec->getTemplateArgs().asArray(), Closures);
    if (!Closures.empty())
      ask(QualType(Loc.getTypePtr(), 0), Loc.getBeginLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *Function = dyn_cast<FunctionDecl>(E->getDecl()))
      Calls(*Function, E->getBeginLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *Function = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      Calls(*Function, E->getMemberLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Calls(*E->getConstructor(), E->getBeginLoc());
    return true;
  }

private:
  void ask(QualType T, SourceLocation Loc) {
    std::string What;
    const CXXRecordDecl *Closure = Ask(T, What);
    if (!Closure)
      return;
    for (const HostLibraryWalk::Site &S : Found)
      if (S.Closure == Closure)
        return;
    Found.push_back({Closure, Loc, What, {}});
  }
  HostLibraryWalk::Question Ask;
  llvm::function_ref<void(const FunctionDecl &, SourceLocation)> Calls;
};

} // namespace

const llvm::SmallVector<HostLibraryWalk::Site, 1> &
HostLibraryWalk::sitesOf(const FunctionDecl &Entry, Question Ask) {
  if (auto It = Memo.find(&Entry); It != Memo.end())
    return It->second;
  static const llvm::SmallVector<Site, 1> None;
  if (InProgress.lookup(&Entry) || Depth > 40)
    return None;
  InProgress[&Entry] = true;
  ++Depth;
  llvm::SmallVector<std::pair<const FunctionDecl *, SourceLocation>, 8> Callees;
  auto Collect = [&](const FunctionDecl &Callee, SourceLocation At) {
    if (&Callee != &Entry && isHostLibraryInstantiation(Callee) &&
        Callee.getDefinition())
      Callees.emplace_back(Callee.getDefinition(), At);
  };
  LibraryCode Code(Ask, Collect);
  const FunctionDecl *Definition = Entry.getDefinition();
  if (Definition)
    Code.TraverseDecl(const_cast<FunctionDecl *>(Definition));
  llvm::SmallVector<Site, 1> Sites = std::move(Code.Found);
  auto Merge = [&](const llvm::SmallVector<Site, 1> &Below,
                   const FunctionDecl *Callee, SourceLocation At) {
    for (const Site &S : Below) {
      if (llvm::any_of(Sites, [&](const Site &Mine) {
            return Mine.Closure == S.Closure;
          }))
        continue;
      Site Up = S;
      if (Callee)
        Up.Via.insert(Up.Via.begin(), {Callee, At});
      Sites.push_back(std::move(Up));
    }
  };
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Entry))
    Code.Classes.emplace_back(Method->getParent(), Entry.getLocation());
  for (const auto &[Class, At] : Code.Classes)
    Merge(sitesOf(*Class, Ask), nullptr, At);
  for (const auto &[Callee, At] : Callees)
    for (const Site &Below : sitesOf(*Callee, Ask)) {
      if (llvm::any_of(Sites,
                       [&](const Site &S) { return S.Closure == Below.Closure; }))
        continue;
      Site Up = Below;
      Up.Via.insert(Up.Via.begin(), {Callee, At});
      Sites.push_back(std::move(Up));
    }
  --Depth;
  InProgress[&Entry] = false;
  return Memo[&Entry] = std::move(Sites);
}

const llvm::SmallVector<HostLibraryWalk::Site, 1> &
HostLibraryWalk::sitesOf(const CXXRecordDecl &Class, Question Ask) {
  if (auto It = ClassMemo.find(&Class); It != ClassMemo.end())
    return It->second;
  ClassMemo[&Class]; // a class that names itself stops here
  llvm::SmallVector<Site, 1> Sites;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&Class);
  const SourceManager &SM = Class.getASTContext().getSourceManager();
  if (Spec && Spec->hasDefinition() &&
      SM.isInSystemHeader(SM.getExpansionLoc(Spec->getLocation()))) {
    auto Add = [&](QualType T, SourceLocation Loc) {
      std::string What;
      const CXXRecordDecl *Closure = Ask(T, What);
      if (Closure && llvm::none_of(Sites, [&](const Site &S) {
            return S.Closure == Closure;
          }))
        Sites.push_back({Closure, Loc, What, {}});
    };
    for (const Decl *Member : Spec->getDefinition()->decls())
      if (const auto *Typedef = dyn_cast<TypedefNameDecl>(Member))
        Add(Typedef->getUnderlyingType(), Typedef->getLocation());
    for (const CXXBaseSpecifier &Base : Spec->getDefinition()->bases())
      Add(Base.getType(), Base.getBeginLoc());
  }
  return ClassMemo[&Class] = std::move(Sites);
}

} // namespace clang::tidy::cuda::utils

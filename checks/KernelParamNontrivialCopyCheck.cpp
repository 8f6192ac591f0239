//===--- KernelParamNontrivialCopyCheck.cpp - cuda-lambda-tidy ----------===//

#include "KernelParamNontrivialCopyCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Why a class's copy or destruction matters across the boundary.
enum class Hazard {
  None,
  StoresAddress, ///< its copy constructor stores the new object's address
  Frees,         ///< its destructor frees memory; its copy is shallow
  WritesThrough, ///< its destructor writes through a pointer member
};

struct Finding {
  Hazard Kind = Hazard::None;
  SourceLocation Where;           ///< the store, the free, the write
  const FieldDecl *Member = nullptr; ///< WritesThrough: the pointer member
};

/// Whether \p E is a member of the object under construction or
/// destruction (`m`, `this->m`, `m.n`, `m[i]`).
bool isOwnMember(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base))
        return true;
      if (Member->isArrow())
        return false; // through a pointer: not the object's own storage
      E = Base;
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase()->IgnoreParenImpCasts();
    } else {
      return false;
    }
  }
}

/// Whether \p E computes an address inside the object under construction:
/// `this`, `&m`, `m` of array type, `&m[i]`, `m + 1`.
bool isAddressOfObject(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return isOwnMember(Cast->getSubExpr());
    return isAddressOfObject(Cast->getSubExpr());
  }
  if (isa<CXXThisExpr>(E))
    return true;
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return Unary->getOpcode() == UO_AddrOf && isOwnMember(Unary->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return Binary->isAdditiveOp() &&
           (isAddressOfObject(Binary->getLHS()) ||
            isAddressOfObject(Binary->getRHS()));
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return isAddressOfObject(Conditional->getTrueExpr()) ||
           isAddressOfObject(Conditional->getFalseExpr());
  return false;
}

/// The first place a copy constructor stores the new object's address
/// into one of its members.
class AddressStoreFinder : public RecursiveASTVisitor<AddressStoreFinder> {
public:
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign && isOwnMember(Op->getLHS()) &&
        Op->getLHS()->getType()->isPointerType() &&
        isAddressOfObject(Op->getRHS())) {
      Found = Op->getRHS()->getBeginLoc();
      return false;
    }
    return true;
  }
  SourceLocation Found;
};

std::optional<SourceLocation> storesOwnAddress(const CXXConstructorDecl &Copy) {
  const FunctionDecl *Definition = nullptr;
  if (!Copy.hasBody(Definition))
    return std::nullopt;
  const auto *Ctor = cast<CXXConstructorDecl>(Definition);
  for (const CXXCtorInitializer *Init : Ctor->inits())
    if (Init->isMemberInitializer() && Init->isWritten() &&
        Init->getMember()->getType()->isPointerType() &&
        isAddressOfObject(Init->getInit()))
      return Init->getInit()->getBeginLoc();
  AddressStoreFinder Finder;
  Finder.TraverseStmt(Ctor->getBody());
  if (Finder.Found.isValid())
    return Finder.Found;
  return std::nullopt;
}

bool isFreeingFunction(const FunctionDecl &Callee) {
  if (!Callee.getIdentifier())
    return false;
  static constexpr llvm::StringLiteral Freeing[] = {
      "cudaFree",  "cudaFreeHost",  "cudaFreeAsync",  "cudaFreeArray",
      "cudaFreeMipmappedArray", "cuMemFree", "cuMemFreeHost",
      "cuMemFreeAsync", "free"};
  return llvm::is_contained(Freeing, Callee.getName());
}

/// Calls followed from a destructor into the functions it calls.
constexpr unsigned MaxCallDepth = 2;

/// The first place a destructor (or a function it calls, whose code is
/// not in a system header) frees memory, or writes through a pointer
/// member of the object.
class DestructorFinder : public RecursiveASTVisitor<DestructorFinder> {
public:
  DestructorFinder(const SourceManager &SM, unsigned Depth)
      : SM(SM), Depth(Depth) {}

  bool VisitCXXDeleteExpr(CXXDeleteExpr *Delete) {
    return found(Hazard::Frees, Delete->getBeginLoc());
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (isFreeingFunction(*Callee))
      return found(Hazard::Frees, Call->getBeginLoc());
    const FunctionDecl *Definition = nullptr;
    if (Depth < MaxCallDepth && Callee->hasBody(Definition) &&
        !SM.isInSystemHeader(Definition->getLocation())) {
      DestructorFinder Inner(SM, Depth + 1);
      Inner.TraverseStmt(Definition->getBody());
      // What a called function writes is not known to be a member here.
      if (Inner.Result.Kind == Hazard::Frees)
        return found(Hazard::Frees, Call->getBeginLoc());
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      checkWrite(Op->getLHS(), Op->getOperatorLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp())
      checkWrite(Op->getSubExpr(), Op->getBeginLoc());
    return true;
  }

  Finding Result;

private:
  /// Freeing wins over a write seen earlier; the walk stops at it.
  bool found(Hazard Kind, SourceLocation Where) {
    Result.Kind = Kind;
    Result.Where = Where;
    return false;
  }
  /// A write whose target is reached through a pointer member of the
  /// object: `*p = …`, `p[i] = …`, `p->n = …`.
  void checkWrite(const Expr *Target, SourceLocation Where) {
    Target = Target->IgnoreParenImpCasts();
    const Expr *Pointer = nullptr;
    if (const auto *Deref = dyn_cast<UnaryOperator>(Target);
        Deref && Deref->getOpcode() == UO_Deref)
      Pointer = Deref->getSubExpr();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Target))
      Pointer = Subscript->getBase();
    else if (const auto *Member = dyn_cast<MemberExpr>(Target);
             Member && Member->isArrow() &&
             !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      Pointer = Member->getBase();
    if (!Pointer)
      return;
    const auto *Field = dyn_cast<MemberExpr>(Pointer->IgnoreParenImpCasts());
    if (!Field || !Field->getType()->isPointerType() ||
        !isa<CXXThisExpr>(Field->getBase()->IgnoreParenImpCasts()) ||
        !isa<FieldDecl>(Field->getMemberDecl()))
      return;
    if (Depth != 0 || Result.Kind != Hazard::None)
      return;
    Result.Kind = Hazard::WritesThrough;
    Result.Where = Where;
    Result.Member = cast<FieldDecl>(Field->getMemberDecl());
  }

  const SourceManager &SM;
  unsigned Depth;
};

/// Whether \p Record declares a copy or move constructor of its own (not
/// `= default`): its copies are its own business.
const CXXConstructorDecl *userCopyOrMove(const CXXRecordDecl &Record) {
  for (const CXXConstructorDecl *Ctor : Record.ctors())
    if ((Ctor->isCopyConstructor() || Ctor->isMoveConstructor()) &&
        Ctor->isUserProvided())
      return Ctor;
  return nullptr;
}

Finding hazardOf(const CXXRecordDecl &Record, const SourceManager &SM) {
  Finding Result;
  if (const CXXConstructorDecl *Copy = userCopyOrMove(Record)) {
    for (const CXXConstructorDecl *Ctor : Record.ctors())
      if (Ctor->isCopyConstructor() && Ctor->isUserProvided())
        if (std::optional<SourceLocation> Store = storesOwnAddress(*Ctor)) {
          Result.Kind = Hazard::StoresAddress;
          Result.Where = *Store;
        }
    (void)Copy;
    return Result;
  }
  const CXXDestructorDecl *Destructor = Record.getDestructor();
  const FunctionDecl *Definition = nullptr;
  if (!Destructor || !Destructor->isUserProvided() ||
      !Destructor->hasBody(Definition))
    return Result;
  DestructorFinder Finder(SM, 0);
  Finder.TraverseStmt(Definition->getBody());
  return Finder.Result;
}

} // namespace

void KernelParamNontrivialCopyCheck::check(
    const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  for (const utils::BoundaryCrossing &Crossing : crossingsOf(Result)) {
    if (alreadyReported(Crossing))
      continue;
    Finding Found;
    std::optional<utils::ByValuePart> Part = utils::findByValuePart(
        Crossing.Type, [&](const CXXRecordDecl &Record) {
          // Library types (iterators, device_ptr, span, containers) are
          // designed for what they do; closures of device lambdas have
          // their captures checked where they are written.
          if (Record.isTriviallyCopyable() ||
              utils::isLibraryType(Record) ||
              allowed(Record) ||
              utils::isDeviceLambdaClosure(Record))
            return utils::PartVerdict::Skip;
          Found = hazardOf(Record, SM);
          if (Found.Kind != Hazard::None)
            return utils::PartVerdict::Found;
          return userCopyOrMove(Record) ? utils::PartVerdict::Skip
                                        : utils::PartVerdict::Descend;
        });
    if (!Part)
      continue;
    markReported(Crossing);
    const bool InMember = !Part->Members.empty();
    switch (Found.Kind) {
    case Hazard::StoresAddress: {
      auto Diag = diag(
          Crossing.Loc,
          utils::crossingMessage(
              "%select{|, whose member '%5' is a %6}4, whose copy constructor "
              "stores the address of the new object, but the device's copy "
              "is made byte for byte without it and still points at the "
              "host's object; compute the address where it is used instead "
              "of storing it"));
      utils::addCrossingArgs(Diag, Crossing);
      Diag << InMember << Part->memberPath() << Part->Record;
      break;
    }
    case Hazard::Frees: {
      auto Diag = diag(
          Crossing.Loc,
          utils::crossingMessage(
              "%select{|, whose member '%5' is a %6}4, whose destructor frees "
              "memory while its copy constructor is the implicit shallow "
              "one: the copy made for the device is destroyed on the host "
              "and frees the memory the original still uses; pass a "
              "non-owning view (a pointer and a size), or give the class a "
              "copy constructor that shares ownership"));
      utils::addCrossingArgs(Diag, Crossing);
      Diag << InMember << Part->memberPath() << Part->Record;
      break;
    }
    case Hazard::WritesThrough: {
      auto Diag = diag(
          Crossing.Loc,
          utils::crossingMessage(
              "%select{|, whose member '%5' is a %6}4, whose destructor "
              "writes through member '%7' while its copy constructor is the "
              "implicit shallow one: the copy made for the device is "
              "destroyed on the host, possibly before the kernel reads what "
              "it changed; pass a non-owning view, or make the write "
              "explicit after the kernel is done"));
      utils::addCrossingArgs(Diag, Crossing);
      Diag << InMember << Part->memberPath() << Part->Record
           << Found.Member->getName();
      break;
    }
    case Hazard::None:
      break;
    }
    noteHandedOn(Crossing);
    static constexpr const char *Notes[] = {
        "", "the copy constructor stores the address here",
        "the destructor frees memory here",
        "the destructor writes through '%0' here"};
    auto Note = diag(Found.Where, Notes[static_cast<unsigned>(Found.Kind)],
                     DiagnosticIDs::Note);
    if (Found.Kind == Hazard::WritesThrough)
      Note << Found.Member->getName();
  }
}

} // namespace clang::tidy::cuda

//===--- KernelParamVirtualCheck.cpp - cuda-lambda-tidy -----------------===//

#include "KernelParamVirtualCheck.h"
#include "utils/DeviceReach.h"
#include "utils/ExecutionSpace.h"
#include "utils/PointerProvenance.h"
#include "utils/TypeFacts.h"
#include "utils/UnitFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

/// The first virtual function of \p Record (its own or inherited) that
/// device code can call: without one, the host's vtable pointer is never
/// followed on the device.
static const CXXMethodDecl *deviceVirtualOf(const CXXRecordDecl &Record,
                                            unsigned Depth = 0) {
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition || Depth > 16 || !Definition->isPolymorphic())
    return nullptr;
  for (const CXXMethodDecl *Method : Definition->methods())
    if (Method->isVirtual() && !isa<CXXDestructorDecl>(Method) &&
        utils::runsOnDevice(utils::executionSpaceOf(*Method)))
      return Method;
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseDecl = Base.getType()->getAsCXXRecordDecl())
      if (const CXXMethodDecl *Found = deviceVirtualOf(*BaseDecl, Depth + 1))
        return Found;
  return nullptr;
}

namespace {

/// Whether a local variable is written anywhere in its function other
/// than its initializer: every use must be a plain read of its value.
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  explicit WriteFinder(const VarDecl &Var) : Var(Var) {}
  bool shouldVisitLambdaBody() const { return true; }
  /// One form of a braced list: the semantic one, whose elements carry the
  /// conversions (the syntactic one would count each use twice, once
  /// without its read).
  bool TraverseInitListExpr(InitListExpr *List) {
    InitListExpr *Semantic =
        List->isSemanticForm() ? List : List->getSemanticForm();
    for (Stmt *Child : (Semantic ? Semantic : List)->children())
      if (!TraverseStmt(Child))
        return false;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == &Var)
      ++Uses;
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
        if (Ref->getDecl() == &Var)
          ++Reads;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    // A by-copy capture reads the value; a by-reference one may write it.
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCapturedVar() == &Var &&
          Capture.getCaptureKind() == LCK_ByRef)
        ++Uses;
    return true;
  }
  const VarDecl &Var;
  unsigned Uses = 0;
  unsigned Reads = 0;
};

} // namespace

/// Where the object \p Value points to (or refers to) was constructed on
/// the host, as far as the host function shows: the address of a host
/// variable of class type, or a local pointer initialized by a
/// new-expression (placement new into managed memory included) and never
/// assigned again. Where it was constructed; nothing when not provable.
static std::optional<SourceLocation> hostConstruction(const Expr *Value) {
  Value = Value->IgnoreParenCasts();
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(Value);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf)
    Value = AddressOf->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Value);
  if (!Ref)
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || isa<ParmVarDecl>(Var) || Var->isInitCapture())
    return std::nullopt;
  QualType Type = Var->getType();
  if (Type->isRecordType()) {
    // An object variable: constructed where it is defined, on the host
    // unless it is a device variable.
    if (utils::variableSpaceOf(*Var) != utils::VariableSpace::Host)
      return std::nullopt;
    const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
    if (Function && !utils::runsOnHost(utils::executionSpaceOf(*Function)))
      return std::nullopt;
    return Var->getLocation();
  }
  if (!Type->isPointerType() || !Var->isLocalVarDecl() || !Var->getInit())
    return std::nullopt;
  const auto *New = dyn_cast<CXXNewExpr>(Var->getInit()->IgnoreParenCasts());
  const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!New || !Function || !Function->getBody() ||
      !utils::runsOnHost(utils::executionSpaceOf(*Function)) ||
      utils::runsOnDevice(utils::executionSpaceOf(*Function)))
    return std::nullopt;
  WriteFinder Writes(*Var);
  Writes.TraverseStmt(Function->getBody());
  if (Writes.Uses != Writes.Reads)
    return std::nullopt;
  return New->getBeginLoc();
}

/// Where the object that \p Store puts into a pointer member was
/// constructed on the host: a new-expression stored by host code, or what
/// hostConstruction proves of the stored pointer.
static std::optional<SourceLocation>
hostConstruction(const utils::ProvenanceSummaries::StoredValue &Store) {
  if (const auto *New = dyn_cast<CXXNewExpr>(Store.Value->IgnoreParenCasts()))
    if (Store.Function &&
        utils::executionSpaceOf(*Store.Function) == utils::ExecutionSpace::Host)
      return New->getBeginLoc();
  return hostConstruction(Store.Value);
}

namespace {

/// A pointer member of an object crossing to the device, pointing to a
/// polymorphic object constructed on the host wherever the unit stores
/// into it, and followed by the device code.
struct HostConstructedMember {
  const FieldDecl *Field = nullptr;
  std::string Name; ///< `shape`, or `scene.shape` inside a member object
  const CXXRecordDecl *Pointee = nullptr;
  const CXXMethodDecl *Virtual = nullptr;
  const Expr *StoredAt = nullptr;
  SourceLocation ConstructedAt;
};

} // namespace

/// The pointer member of \p Object (or of its member objects, two levels,
/// not a library's class) that holds a polymorphic object constructed on
/// the host and that \p DeviceCode, or \p Object's own device code,
/// dereferences.
static std::optional<HostConstructedMember>
hostConstructedMember(const CXXRecordDecl &Object, const Stmt *DeviceCode,
                      utils::DeviceReach &Reach,
                      utils::ProvenanceSummaries &Summaries) {
  for (utils::PointerMember &Member : utils::pointerMembers(Object)) {
    const FieldDecl *Field = Member.Field;
    const CXXRecordDecl *Pointee =
        Field->getType()->getPointeeType()->getAsCXXRecordDecl();
    if (!Pointee || utils::isLibraryType(*Pointee))
      continue;
    const CXXMethodDecl *Virtual = deviceVirtualOf(*Pointee);
    if (!Virtual)
      continue;
    if (!Reach.deviceCodeDereferencing(Object, *Field) &&
        !(DeviceCode && Reach.dereferences(DeviceCode, Field)))
      continue;
    std::optional<llvm::SmallVector<utils::ProvenanceSummaries::StoredValue, 2>>
        Stores = Summaries.storesInto(*Field);
    if (!Stores)
      continue;
    std::optional<SourceLocation> First;
    bool Every = true;
    for (const utils::ProvenanceSummaries::StoredValue &Store : *Stores) {
      std::optional<SourceLocation> At = hostConstruction(Store);
      if (!At) {
        Every = false;
        break;
      }
      if (!First)
        First = At;
    }
    if (!Every || !First)
      continue;
    return HostConstructedMember{Field,   std::move(Member.Name),
                                 Pointee, Virtual,
                                 Stores->front().Value, *First};
  }
  return std::nullopt;
}

void KernelParamVirtualCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Function =
          Result.Nodes.getNodeAs<FunctionDecl>("h32-host-function")) {
    checkNewAtCrossings(
        *Function,
        utils::UnitFacts::of(*Result.Context).get<utils::DeviceReach>());
    return;
  }
  for (const utils::BoundaryCrossing &Crossing : crossingsOf(Result)) {
    if (alreadyReported(Crossing))
      continue;
    const CXXMethodDecl *Virtual = nullptr;
    auto Visit = [&](const CXXRecordDecl &Record) {
      if (allowed(Record) || utils::isDeviceLambdaClosure(Record))
        return utils::PartVerdict::Skip;
      if (utils::isLibraryType(Record))
        return utils::PartVerdict::Descend;
      Virtual = deviceVirtualOf(Record);
      return Virtual ? utils::PartVerdict::Found : utils::PartVerdict::Descend;
    };
    if (std::optional<utils::ByValuePart> Part =
            utils::findByValuePart(Crossing.Type, Visit)) {
      markReported(Crossing);
      {
        auto Diag = diag(
            Crossing.Loc,
            utils::crossingMessage(
                ", %select{|whose member '%5' is }4an object of polymorphic "
                "class %6: its virtual function table pointer is the host's, "
                "and a virtual call on the device faults; pass plain data "
                "and construct the object on the device, or dispatch "
                "without virtual functions"));
        utils::addCrossingArgs(Diag, Crossing);
        Diag << !Part->Members.empty() << Part->memberPath() << Part->Record;
      }
      noteHandedOn(Crossing);
      diag(Virtual->getLocation(), "virtual function %0 declared here",
           DiagnosticIDs::Note)
          << Virtual;
      continue;
    }
    // An object whose pointer member holds a polymorphic object
    // constructed on the host (a kernel's parameter struct, a functor).
    if (const CXXRecordDecl *Object = Crossing.Type->getAsCXXRecordDecl();
        Object && Object->hasDefinition() && !allowed(*Object) &&
        !utils::isLibraryType(*Object) &&
        !utils::isDeviceLambdaClosure(*Object)) {
      const Stmt *DeviceCode = nullptr;
      if (Crossing.Kind == utils::CrossingKind::KernelArgument &&
          Crossing.Callee && Crossing.Callee->getDefinition())
        DeviceCode = Crossing.Callee->getDefinition()->getBody();
      else if (Crossing.Kind == utils::CrossingKind::LambdaCapture &&
               Crossing.Lambda)
        DeviceCode = Crossing.Lambda->getBody();
      utils::ProvenanceSummaries &Summaries =
          utils::UnitFacts::of(*Result.Context)
              .get<utils::ProvenanceSummaries>();
      if (std::optional<HostConstructedMember> Member = hostConstructedMember(
              *Object->getDefinition(), DeviceCode, reach(), Summaries)) {
        markReported(Crossing);
        {
          auto Diag = diag(
              Crossing.Loc,
              utils::crossingMessage(
                  ", whose member '%4' points to an object of polymorphic "
                  "class %5 constructed on the host: its virtual function "
                  "table pointer is the host's, and a virtual call on the "
                  "device faults; construct the object on the device "
                  "(placement new in a kernel), or dispatch without virtual "
                  "functions"));
          utils::addCrossingArgs(Diag, Crossing);
          Diag << Member->Name << Member->Pointee;
        }
        noteHandedOn(Crossing);
        diag(Member->StoredAt->getBeginLoc(), "member %0 is set here",
             DiagnosticIDs::Note)
            << Member->Field;
        diag(Member->ConstructedAt, "constructed on the host here",
             DiagnosticIDs::Note);
        diag(Member->Virtual->getLocation(),
             "virtual function %0 declared here", DiagnosticIDs::Note)
            << Member->Virtual;
        continue;
      }
    }
    // A pointer or reference: only to an object provably constructed on
    // the host.
    QualType Pointee = Crossing.Type->getPointeeType();
    if (Pointee.isNull())
      Pointee = Crossing.Type.getNonReferenceType();
    const CXXRecordDecl *Record = Pointee->getAsCXXRecordDecl();
    if (!Record || Pointee == Crossing.Type || !Crossing.Value ||
        allowed(*Record) || utils::isLibraryType(*Record))
      continue;
    Virtual = deviceVirtualOf(*Record);
    if (!Virtual)
      continue;
    if (std::optional<SourceLocation> Construction =
            hostConstruction(Crossing.Value))
      reportHostConstructed(Crossing, *Record, *Virtual, *Construction);
  }
}

void KernelParamVirtualCheck::registerMatchers(MatchFinder *Finder) {
  KernelBoundaryCheck::registerMatchers(Finder);
  // `k<<<1, 1>>>(new Derived)`: where the new-expression runs decides
  // where the object is constructed, and a crossing site has no
  // declaration context to climb to its function. The host functions are
  // matched and their sites walked (DeviceReach lists them once per unit).
  NodeMatches.push_back(utils::matchNodes<FunctionDecl>(
      *Finder, this, utils::isHostOnlyDefinitionOutsideSystemHeader,
      "h32-host-function"));
}

void KernelParamVirtualCheck::checkNewAtCrossings(
    const FunctionDecl &Function, utils::DeviceReach &Reach) {
  for (const utils::BoundaryCrossing &Crossing :
       Reach.sitesOf(Function).Crossings) {
    if (!Crossing.Value || alreadyReported(Crossing))
      continue;
    const auto *New =
        dyn_cast<CXXNewExpr>(Crossing.Value->IgnoreParenCasts());
    if (!New)
      continue;
    QualType Pointee = Crossing.Type->getPointeeType();
    const CXXRecordDecl *Record =
        Pointee.isNull() ? nullptr : Pointee->getAsCXXRecordDecl();
    if (!Record || allowed(*Record) || utils::isLibraryType(*Record))
      continue;
    if (const CXXMethodDecl *Virtual = deviceVirtualOf(*Record))
      reportHostConstructed(Crossing, *Record, *Virtual, New->getBeginLoc());
  }
}

void KernelParamVirtualCheck::reportHostConstructed(
    const utils::BoundaryCrossing &Crossing, const CXXRecordDecl &Record,
    const CXXMethodDecl &Virtual, SourceLocation Construction) {
  markReported(Crossing);
  {
    auto Diag = diag(
        Crossing.Loc,
        utils::crossingMessage(
            ", which points to an object of polymorphic class %4 "
            "constructed on the host: its virtual function table pointer "
            "is the host's, and a virtual call on the device faults; "
            "construct the object on the device (placement new in a "
            "kernel), or dispatch without virtual functions"));
    utils::addCrossingArgs(Diag, Crossing);
    Diag << &Record;
  }
  noteHandedOn(Crossing);
  diag(Construction, "constructed on the host here", DiagnosticIDs::Note);
  diag(Virtual.getLocation(), "virtual function %0 declared here",
       DiagnosticIDs::Note)
      << &Virtual;
}

} // namespace clang::tidy::cuda

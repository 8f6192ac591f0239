//===--- HostPointerInDeviceCodeCheck.cpp - cuda-lambda-tidy ------------===//

#include "HostPointerInDeviceCodeCheck.h"
#include "utils/BoolOption.h"
#include "utils/DeviceReach.h"
#include "utils/KernelBoundaryCheck.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/KernelBoundary.h"
#include "utils/PointerProvenance.h"
#include "utils/TypeFacts.h"
#include "utils/UnitFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// What a crossing value is called in a diagnostic: the variable it reads,
/// or its text.
std::string nameOf(const utils::BoundaryCrossing &C, const ASTContext &Ctx) {
  if (C.CapturedVar)
    return C.CapturedVar->getNameAsString();
  const Expr *Value = C.Value->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
    return Ref->getDecl()->getNameAsString();
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Text =
      Lexer::getSourceText(SM.getExpansionRange(C.Value->getSourceRange()),
                           SM, Ctx.getLangOpts())
          .str();
  if (Text.size() > 40)
    Text = Text.substr(0, 37) + "...";
  return Text;
}

/// `thrust::for_each`, `cub::DeviceReduce::Sum`: the algorithm as written,
/// without its template arguments.
} // namespace

HostPointerInDeviceCodeCheck::HostPointerInDeviceCodeCheck(
    StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      HostMemoryIsDeviceAccessible(utils::getBoolOption(
          Options, "HostMemoryIsDeviceAccessible", false)) {}

void HostPointerInDeviceCodeCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  utils::storeBoolOption(Options, Opts, "HostMemoryIsDeviceAccessible",
                         HostMemoryIsDeviceAccessible);
}

void HostPointerInDeviceCodeCheck::registerMatchers(MatchFinder *Finder) {
  // With HMM or ATS the device reads pageable host memory: nothing to say.
  if (HostMemoryIsDeviceAccessible)
    return;
  // The flow analysis needs the whole host function: it is matched, and its
  // crossing sites are found by walking its code (a site has no declaration
  // context to climb to its function without the parent map).
  NodeMatches.push_back(utils::matchNodes<FunctionDecl>(
      *Finder, this, utils::isHostOnlyDefinitionOutsideSystemHeader,
      "function"));
}

void HostPointerInDeviceCodeCheck::noteSource(const utils::HostSource &Source,
                                              const Expr *Value) {
  for (const utils::ProvenanceStep &Step : Source.Via) {
    if (Step.Kind == utils::ProvenanceStep::Returned)
      diag(Step.Site->getBeginLoc(), "%0 returns host memory",
           DiagnosticIDs::Note)
          << Step.Decl;
    else
      diag(Step.Site->getBeginLoc(), "member %0 is set to host memory here",
           DiagnosticIDs::Note)
          << Step.Decl;
  }
  const ValueDecl *Root = Source.Via.empty() ? utils::pointerRoot(Value)
                                             : nullptr;
  switch (Source.Kind) {
  case utils::HostSource::Allocation:
    if (Root && Root->getType()->isPointerType())
      diag(Source.location(), "pointer '%0' is allocated with '%1' here",
           DiagnosticIDs::Note)
          << Root->getName() << Source.What;
    else
      diag(Source.location(), "the memory is allocated with '%0' here",
           DiagnosticIDs::Note)
          << Source.What;
    return;
  case utils::HostSource::Variable:
  case utils::HostSource::Array:
    diag(Source.location(), "'%0' is a host %select{variable|array}1, declared "
                            "here",
         DiagnosticIDs::Note)
        << Source.Object << (Source.Kind == utils::HostSource::Array ? 1 : 0);
    return;
  case utils::HostSource::Container:
    if (Source.Object.empty())
      diag(Source.location(), "this '%0' keeps its elements in host memory",
           DiagnosticIDs::Note)
          << Source.What;
    else
      diag(Source.location(), "'%0' is a '%1', which keeps its elements in "
                              "host memory",
           DiagnosticIDs::Note)
          << Source.Object << Source.What;
    return;
  case utils::HostSource::StringLiteral:
    diag(Source.location(), "a string literal is stored in host memory",
         DiagnosticIDs::Note);
    return;
  }
}

/// The functor or parameter object \p Value is, when it is one: a class of
/// the user's (a closure's captures are crossings of their own).
static const CXXRecordDecl *objectClassOf(const Expr *Value) {
  if (!Value)
    return nullptr;
  const auto *Record =
      Value->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || Record->isLambda() || !Record->hasDefinition())
    return nullptr;
  return Record->getDefinition();
}

/// What an object crossing is called in a diagnostic: the variable it
/// copies, or its class.
static std::string objectNameOf(const Expr *Value,
                                const CXXRecordDecl &Record) {
  const Expr *E = Value->IgnoreParenImpCasts();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E))
    if (Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor())
      E = Copy->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl()->getNameAsString();
  return Record.getNameAsString();
}

void HostPointerInDeviceCodeCheck::checkPointerMembers(
    const FunctionDecl &Function, const utils::HostCodeSites &Sites, utils::DeviceReach &Reach,
    utils::ProvenanceSummaries &Summaries) {
  // A pointer member of the object dereferenced by the object's device
  // code (a functor's operator()) or by the kernel, holding host memory
  // wherever the unit stores into it.
  struct HostMember {
    const FieldDecl *Field = nullptr;
    /// The member as the object names it: `weights`, or `w.values` for a
    /// pointer of a member object.
    std::string Name;
    const FunctionDecl *DereferencedBy = nullptr;
    utils::Provenance Memory;
  };
  // The object's pointer members, and those of its member objects (a
  // parameter struct inside a functor): the device code of the object's
  // class or the kernel dereferences them.
  auto HostMemberOf = [&](const CXXRecordDecl &Record, const FunctionDecl *Kernel,
                          SourceLocation Crosses) -> std::optional<HostMember> {
    for (utils::PointerMember &Member : utils::pointerMembers(Record)) {
      const FunctionDecl *By = Reach.deviceCodeDereferencing(Record, *Member.Field);
      if (!By && Kernel && Kernel->getBody() &&
          Reach.dereferences(Kernel->getBody(), Member.Field))
        By = Kernel;
      if (!By)
        continue;
      utils::Provenance Memory =
          Summaries.fieldOf(*Member.Field, Function, Crosses);
      if (Memory.isHost())
        return HostMember{Member.Field, std::move(Member.Name), By, Memory};
    }
    return std::nullopt;
  };
  // Where: 0 a kernel's argument, 1 a device algorithm's, 2 a launch
  // wrapper's.
  auto Report = [&](SourceLocation Loc, const Expr *Value,
                    const CXXRecordDecl &Record, const HostMember &Member,
                    unsigned Where, StringRef Callee) {
    diag(Loc, "'%0' holds host pointer '%1' and is passed to "
              "%select{kernel '%3'|'%3'|'%3', which hands it on to the "
              "device}2, where %q4 dereferences it and it is not a valid "
              "address; store a pointer to device memory (cudaMalloc, "
              "cudaMallocManaged, thrust::device_vector) in '%1' instead")
        << objectNameOf(Value, Record) << Member.Name << Where
        << Callee << Member.DereferencedBy;
  };

  for (const utils::BoundaryCrossing &C : Sites.Crossings) {
    if (C.Kind == utils::CrossingKind::LambdaCapture)
      continue;
    const CXXRecordDecl *Record = objectClassOf(C.Value);
    // A launch wrapper's own launch of what its caller hands in is
    // reported at that caller's call (below).
    if (!Record || Reported.count(C.Loc.getRawEncoding()) ||
        utils::forwardedTemplateParameter(C.Value) ||
        utils::wrappedTemplateParameter(C.Value))
      continue;
    const FunctionDecl *Kernel = nullptr;
    if (C.Kind == utils::CrossingKind::KernelArgument)
      Kernel = C.Callee ? C.Callee->getDefinition() : nullptr;
    std::optional<HostMember> Member = HostMemberOf(*Record, Kernel, C.Loc);
    if (!Member || !Reported.insert(C.Loc.getRawEncoding()).second)
      continue;
    const bool ToKernel = C.Kind == utils::CrossingKind::KernelArgument;
    Report(C.Loc, C.Value, *Record, *Member, ToKernel ? 0 : 1,
           ToKernel ? C.Callee->getNameAsString()
                    : utils::deviceCalleeName(*C.Callee));
    noteSource(Member->Memory.Source, C.Value);
  }
  for (const CallExpr *Call : Sites.Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const unsigned Offset = utils::objectArguments(*Call);
    for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I) {
      const Expr *Arg = Call->getArg(I);
      const CXXRecordDecl *Record = objectClassOf(Arg);
      if (!Record || Reported.count(Arg->getBeginLoc().getRawEncoding()) ||
          utils::forwardedTemplateParameter(Arg) ||
          utils::wrappedTemplateParameter(Arg) ||
          utils::isPassedInByCaller(*Arg))
        continue;
      // The wrapper passes it on to a kernel or an algorithm; or, with no
      // launch naming it, its code instantiates a kernel with the type (a
      // driver object launched through a kernel's address, Kokkos').
      const utils::DeviceReachPath *Path =
          Reach.callableParameter(*Callee, I - Offset);
      const FunctionDecl *Kernel = nullptr;
      if (Path) {
        const utils::BoundaryCrossing &End = Path->Crossing;
        if (End.Kind == utils::CrossingKind::KernelArgument && End.Callee)
          Kernel = End.Callee->getDefinition();
      } else if (!(Kernel = Reach.kernelUnder(*Callee, *Record))) {
        continue;
      }
      std::optional<HostMember> Member =
          HostMemberOf(*Record, Kernel, Arg->getBeginLoc());
      if (!Member || !Reported.insert(Arg->getBeginLoc().getRawEncoding()).second)
        continue;
      Report(Arg->getBeginLoc(), Arg, *Record, *Member, 2,
             Callee->getNameAsString());
      if (Path) {
        utils::noteHandedOn(*this, Path->Steps, Path->Crossing,
                            Path->Crossing.Loc, /*Lambda=*/false);
      } else {
        utils::BoundaryCrossing Instantiated;
        Instantiated.Kind = utils::CrossingKind::KernelArgument;
        Instantiated.Callee = Kernel;
        utils::noteHandedOn(*this, {{Call, Callee}}, Instantiated,
                            Kernel->getLocation(), /*Lambda=*/false);
      }
      noteSource(Member->Memory.Source, Arg);
    }
  }
}

/// What a path's crossing is, for "which hands it on to %0": 0 a kernel,
/// 1 an extended lambda's capture, 2 a device algorithm.
static unsigned endKind(const utils::BoundaryCrossing &C) {
  switch (C.Kind) {
  case utils::CrossingKind::KernelArgument:
    return 0;
  case utils::CrossingKind::LambdaCapture:
    return 1;
  case utils::CrossingKind::AlgorithmArgument:
    return 2;
  }
  return 0;
}

void HostPointerInDeviceCodeCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !Function->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  utils::UnitFacts &Facts = utils::UnitFacts::of(Ctx);
  utils::DeviceReach *Reach = &Facts.get<utils::DeviceReach>();
  utils::ProvenanceSummaries *Summaries =
      &Facts.get<utils::ProvenanceSummaries>();

  const utils::HostCodeSites &Sites = Reach->sitesOf(*Function);
  if (Sites.Crossings.empty() && Sites.Calls.empty())
    return;
  checkPointerMembers(*Function, Sites, *Reach, *Summaries);

  // The pointer crossings that device code dereferences: this function's
  // own crossings, and its calls that hand a pointer on to a function
  // whose parameter gets to the device (a helper that launches).
  struct Candidate {
    const utils::BoundaryCrossing *Crossing = nullptr;
    /// Set for a call handing the pointer on.
    const CallExpr *Call = nullptr;
    const Expr *Value = nullptr;
    const utils::DeviceReachPath *Path = nullptr;
    /// A __host__ __device__ lambda no path leads from: the kernel
    /// instantiated with its type.
    const FunctionDecl *Kernel = nullptr;
    SourceLocation Loc;
    /// Kernel is still to be found: asked only once the pointer is known to
    /// be host memory (the unit's kernels are indexed on the first
    /// question, which reads every declaration of a precompiled preamble).
    bool KernelToFind = false;
    const Stmt *anchor() const {
      if (Call)
        return Call;
      return Crossing->Kind == utils::CrossingKind::LambdaCapture
                 ? static_cast<const Stmt *>(Crossing->Lambda)
                 : Crossing->Call;
    }
  };
  llvm::SmallVector<Candidate, 4> Candidates;
  for (const utils::BoundaryCrossing &C : Sites.Crossings) {
    if (!C.Value || !C.Value->getType()->isPointerType())
      continue;
    if (Reported.count(C.Loc.getRawEncoding()))
      continue;
    const utils::DeviceReachPath *Path = nullptr;
    switch (C.Kind) {
    case utils::CrossingKind::KernelArgument: {
      const FunctionDecl *Kernel = C.Callee ? C.Callee->getDefinition() : nullptr;
      if (!Kernel || !Kernel->getBody() || C.ArgIndex >= Kernel->getNumParams() ||
          !Reach->dereferences(Kernel->getBody(),
                               Kernel->getParamDecl(C.ArgIndex)))
        continue;
      break;
    }
    case utils::CrossingKind::LambdaCapture: {
      if (!C.Lambda || !C.CapturedVar || !C.Lambda->getBody())
        continue;
      // A __host__ __device__ lambda may run on the host; it crosses when
      // it is handed to a kernel, a device algorithm or a launch wrapper,
      // or when a kernel is instantiated with its type however the host
      // gets there (a framework's driver object launched through a
      // function pointer: KernelToFind, asked once the pointer is host
      // memory).
      if (!Reach->dereferences(C.Lambda->getBody(), C.CapturedVar))
        continue;
      if (utils::extendedLambdaKindOf(*C.Lambda) ==
          utils::ExtendedLambdaKind::HostDevice)
        Path = Reach->lambda(*Function, *C.Lambda);
      break;
    }
    case utils::CrossingKind::AlgorithmArgument:
      // An algorithm run with a device policy (or cub's) dereferences its
      // iterators on the device; with no policy, a raw pointer makes thrust
      // pick the host system.
      if (!C.Call ||
          utils::deviceAlgorithmOf(*C.Call) ==
              utils::DeviceAlgorithm::ThrustOnDeviceIterators)
        continue;
      break;
    }
    const bool KernelToFind =
        C.Kind == utils::CrossingKind::LambdaCapture && !Path &&
        utils::extendedLambdaKindOf(*C.Lambda) ==
            utils::ExtendedLambdaKind::HostDevice;
    Candidates.push_back(
        {&C, nullptr, C.Value, Path, nullptr, C.Loc, KernelToFind});
  }
  for (const CallExpr *Call : Sites.Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const unsigned Offset = utils::objectArguments(*Call);
    for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I) {
      const Expr *Arg = Call->getArg(I);
      if (!Arg->getType()->isPointerType() ||
          Reported.count(Arg->getBeginLoc().getRawEncoding()))
        continue;
      if (const utils::DeviceReachPath *Path =
              Reach->pointerParameter(*Callee, I - Offset))
        Candidates.push_back(
            {nullptr, Call, Arg, Path, nullptr, Arg->getBeginLoc()});
    }
  }
  if (Candidates.empty())
    return;

  // The flow analysis runs only where a crossing is host memory as written
  // (`v.data()` may have been registered with cudaHostRegister before), or
  // reads a local pointer that the function's code gives a value (a
  // parameter it never assigns is the caller's, which it cannot know);
  // otherwise nothing can be reported.
  bool HostAsWritten = false;
  bool ReadsLocal = false;
  llvm::SmallVector<utils::ProvenanceQuery, 4> Queries;
  for (const Candidate &C : Candidates) {
    ReadsLocal |= utils::readsLocalPointer(*C.Value);
    HostAsWritten |=
        utils::provenanceOfExpr(*C.Value, Ctx, Summaries).isHost();
    Queries.push_back({C.anchor(), C.Value});
  }
  if (!HostAsWritten &&
      !(ReadsLocal && utils::mayGiveLocalPointerAValue(*Function)))
    return;
  llvm::DenseMap<const Expr *, utils::Provenance> Flow =
      utils::analyzePointerProvenance(*Function, Ctx, Queries,
                                      Summaries);

  llvm::DenseSet<std::pair<const Stmt *, const void *>> ReportedMemory;
  for (Candidate &C : Candidates) {
    utils::Provenance P;
    auto It = Flow.find(C.Value);
    if (It != Flow.end())
      P = It->second;
    if (!P.isHost())
      continue;
    if (C.KernelToFind &&
        !(C.Kernel = Reach->kernelInstantiatedWith(
              *C.Crossing->Lambda->getLambdaClass())))
      continue;
    if (!Reported.insert(C.Loc.getRawEncoding()).second)
      continue;
    // `h, h + n` handed to one algorithm: one finding for the memory.
    if (!ReportedMemory.insert({C.anchor(), P.Source.key()}).second)
      continue;
    if (C.Call) {
      std::string Name = utils::pointerRoot(C.Value)
                             ? utils::pointerRoot(C.Value)->getNameAsString()
                             : "";
      if (Name.empty())
        Name = Lexer::getSourceText(
                   Ctx.getSourceManager().getExpansionRange(
                       C.Value->getSourceRange()),
                   Ctx.getSourceManager(), Ctx.getLangOpts())
                   .str();
      const utils::BoundaryCrossing &End = C.Path->Crossing;
      std::string EndName;
      if (End.Kind == utils::CrossingKind::LambdaCapture)
        EndName = utils::spelling(utils::extendedLambdaKindOf(*End.Lambda));
      else if (End.Kind == utils::CrossingKind::AlgorithmArgument)
        EndName = utils::deviceCalleeName(*End.Callee);
      else
        EndName = End.Callee->getNameAsString();
      diag(C.Loc, "host pointer '%0' is passed to '%1', which hands it on to "
                  "%select{kernel '%3'|an extended %3 lambda|'%3'}2 that "
                  "dereferences it on the device, where it is not a valid "
                  "address; pass device memory (cudaMalloc, "
                  "cudaMallocManaged, thrust::device_vector) instead")
          << Name << C.Call->getDirectCallee()->getNameAsString()
          << endKind(End) << EndName;
      utils::noteHandedOn(*this, C.Path->Steps, C.Path->Crossing,
                          C.Path->Crossing.Loc, /*Lambda=*/false);
      noteSource(P.Source, C.Value);
      continue;
    }
    const utils::BoundaryCrossing &X = *C.Crossing;
    const std::string Name = nameOf(X, Ctx);
    switch (X.Kind) {
    case utils::CrossingKind::KernelArgument:
      diag(X.Loc, "host pointer '%0' is passed to kernel %1, which "
                   "dereferences it on the device, where it is not a valid "
                   "address; pass device memory (cudaMalloc, "
                   "cudaMallocManaged) holding a copy of the data instead")
          << Name << X.Callee;
      break;
    case utils::CrossingKind::LambdaCapture:
      diag(X.Loc, "extended %0 lambda captures host pointer '%1' and "
                   "dereferences it on the device, where it is not a valid "
                   "address; capture a pointer to device memory "
                   "(cudaMalloc, cudaMallocManaged, thrust::device_vector) "
                   "instead")
          << utils::spelling(utils::extendedLambdaKindOf(*X.Lambda)) << Name;
      break;
    case utils::CrossingKind::AlgorithmArgument:
      diag(X.Loc, "host pointer '%0' is passed to '%1'%select{ with a device "
                   "execution policy|}2, which dereferences it on the device, "
                   "where it is not a valid address; pass device memory "
                   "(thrust::device_vector, cudaMalloc) instead")
          << Name << utils::deviceCalleeName(*X.Callee)
          << (utils::deviceAlgorithmOf(*X.Call) == utils::DeviceAlgorithm::Cub
                  ? 1
                  : 0);
      break;
    }
    // A __host__ __device__ lambda handed to a launch wrapper: say how it
    // gets to the device.
    if (C.Path && !C.Path->Steps.empty())
      utils::noteHandedOn(*this, C.Path->Steps, C.Path->Crossing,
                          C.Path->Crossing.Loc, /*Lambda=*/true);
    else if (C.Kernel)
      diag(X.Lambda->getBeginLoc(),
           "kernel '%0' is instantiated with the lambda's type",
           DiagnosticIDs::Note)
          << C.Kernel->getNameAsString();
    noteSource(P.Source, C.Value);
  }
}

} // namespace clang::tidy::cuda

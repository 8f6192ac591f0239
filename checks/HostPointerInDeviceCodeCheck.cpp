//===--- HostPointerInDeviceCodeCheck.cpp - cuda-lambda-tidy ------------===//

#include "HostPointerInDeviceCodeCheck.h"
#include "utils/BoolOption.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/KernelBoundary.h"
#include "utils/PointerProvenance.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

AST_MATCHER(FunctionDecl, isHostFunction) {
  return !Node.isDependentContext() &&
         utils::executionSpaceOf(Node) == utils::ExecutionSpace::Host;
}

/// The crossing sites written in a host function's own code: its launches,
/// its extended lambdas and its device algorithm calls, not those inside the
/// bodies of the lambdas it defines (other functions, with other flows).
class CrossingSites : public RecursiveASTVisitor<CrossingSites> {
public:
  llvm::SmallVector<utils::BoundaryCrossing, 8> Crossings;

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (const utils::BoundaryCrossing &C : utils::crossingsOfCaptures(*Lambda))
      Crossings.push_back(C);
    for (Expr *Init : Lambda->capture_inits())
      if (Init)
        TraverseStmt(Init);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    for (const utils::BoundaryCrossing &C : utils::crossingsOfLaunch(*Launch))
      Crossings.push_back(C);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr>(Call))
      return true;
    for (const utils::BoundaryCrossing &C :
         utils::crossingsOfAlgorithmCall(*Call))
      Crossings.push_back(C);
    return true;
  }
};

/// The lambda expression \p E is or names (a local variable initialized
/// with one), through copies and temporaries.
const LambdaExpr *lambdaOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      E = Construct->getArg(0);
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Var->hasLocalStorage() || !Var->getInit())
        return nullptr;
      E = Var->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// The variable a pointer expression is computed from: `p`, `p + i`,
/// `(float *)p`, `++p`.
const ValueDecl *pointerRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (!Cast->getType()->isPointerType() &&
          Cast->getCastKind() != CK_LValueToRValue &&
          Cast->getCastKind() != CK_NoOp)
        return nullptr;
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (!Binary->isAdditiveOp() || !Binary->getType()->isPointerType())
        return nullptr;
      E = Binary->getLHS()->getType()->isPointerType() ? Binary->getLHS()
                                                        : Binary->getRHS();
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (!Unary->isIncrementDecrementOp())
        return nullptr;
      E = Unary->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// Finds a dereference of the pointers in Tainted: `*p`, `p[i]`, `p->m`, or
/// `p` passed on to a function (not through `...`). A local pointer
/// initialized or assigned from one joins them.
class DerefFinder : public RecursiveASTVisitor<DerefFinder> {
public:
  llvm::SmallPtrSet<const ValueDecl *, 4> Tainted;
  bool Found = false;
  bool Grew = false;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_Deref)
      note(Unary->getSubExpr());
    return !Found;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    // Either side: with a dependent index (a generic lambda's `p[i]`, `i`
    // an `auto` parameter) clang cannot tell which one is the base yet.
    note(Subscript->getLHS());
    note(Subscript->getRHS());
    return !Found;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    if (Member->isArrow())
      note(Member->getBase());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Named = Callee ? Callee->getNumParams() : Call->getNumArgs();
    for (unsigned I = 0, N = Call->getNumArgs(); I < N && I < Named; ++I)
      note(Call->getArg(I));
    return !Found;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->getType()->isPointerType() && Var->getInit())
      spread(Var->getInit(), Var);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->getOpcode() == BO_Assign)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Binary->getLHS()->IgnoreParens()))
        if (Ref->getType()->isPointerType())
          spread(Binary->getRHS(), Ref->getDecl());
    return true;
  }

private:
  void note(const Expr *E) {
    if (const ValueDecl *Root = pointerRoot(E))
      if (Tainted.count(Root))
        Found = true;
  }
  void spread(const Expr *From, const ValueDecl *To) {
    const ValueDecl *Root = pointerRoot(From);
    if (Root && Tainted.count(Root) && Tainted.insert(To).second)
      Grew = true;
  }
};

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
std::string algorithmName(const FunctionDecl &Callee) {
  std::string Name;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Callee)) {
    std::string Class = utils::qualifiedNameWithoutInline(*Method->getParent());
    if (!Class.empty())
      return Class + "::" + Method->getNameAsString();
  }
  Name = utils::qualifiedNameWithoutInline(Callee);
  return Name.empty() ? Callee.getNameAsString() : Name;
}

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
  Finder->addMatcher(functionDecl(isDefinition(), isHostFunction(),
                                  unless(isExpansionInSystemHeader()))
                         .bind("function"),
                     this);
}

void HostPointerInDeviceCodeCheck::noteSource(const utils::HostSource &Source,
                                              const Expr *Value) {
  const ValueDecl *Root = pointerRoot(Value);
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

bool HostPointerInDeviceCodeCheck::dereferences(const Stmt *Code,
                                                const ValueDecl *Var) {
  auto [It, Inserted] = DerefCache.try_emplace({Code, Var}, false);
  if (!Inserted)
    return It->second;
  DerefFinder Finder;
  Finder.Tainted.insert(Var);
  // Each round may add the local copies of the pointer; a few rounds reach
  // the copies of copies.
  for (int Round = 0; Round < 4; ++Round) {
    Finder.Grew = false;
    Finder.TraverseStmt(const_cast<Stmt *>(Code));
    if (Finder.Found || !Finder.Grew)
      break;
  }
  return DerefCache[{Code, Var}] = Finder.Found;
}

void HostPointerInDeviceCodeCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || !Function->getBody())
    return;
  ASTContext &Ctx = *Result.Context;

  CrossingSites Sites;
  Sites.TraverseStmt(Function->getBody());
  if (Sites.Crossings.empty())
    return;

  // A __host__ __device__ lambda may run on the host; it crosses when it is
  // handed to a kernel or a device algorithm here.
  llvm::SmallPtrSet<const LambdaExpr *, 4> HandedToDevice;
  for (const utils::BoundaryCrossing &C : Sites.Crossings)
    if (C.Kind != utils::CrossingKind::LambdaCapture)
      if (const LambdaExpr *Lambda = lambdaOf(C.Value))
        HandedToDevice.insert(Lambda);

  // The pointer crossings that device code dereferences.
  llvm::SmallVector<const utils::BoundaryCrossing *, 4> Candidates;
  for (const utils::BoundaryCrossing &C : Sites.Crossings) {
    if (!C.Value || !C.Value->getType()->isPointerType())
      continue;
    if (Reported.count(C.Loc.getRawEncoding()))
      continue;
    switch (C.Kind) {
    case utils::CrossingKind::KernelArgument: {
      const FunctionDecl *Kernel = C.Callee ? C.Callee->getDefinition() : nullptr;
      if (!Kernel || !Kernel->getBody() || C.ArgIndex >= Kernel->getNumParams() ||
          !dereferences(Kernel->getBody(), Kernel->getParamDecl(C.ArgIndex)))
        continue;
      break;
    }
    case utils::CrossingKind::LambdaCapture: {
      if (!C.Lambda || !C.CapturedVar || !C.Lambda->getBody())
        continue;
      if (utils::extendedLambdaKindOf(*C.Lambda) ==
              utils::ExtendedLambdaKind::HostDevice &&
          !HandedToDevice.count(C.Lambda))
        continue;
      if (!dereferences(C.Lambda->getBody(), C.CapturedVar))
        continue;
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
    Candidates.push_back(&C);
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
  llvm::DenseSet<std::pair<const Stmt *, const void *>> ReportedMemory;
  for (const utils::BoundaryCrossing *C : Candidates) {
    ReadsLocal |= utils::readsLocalPointer(*C->Value);
    HostAsWritten |= utils::provenanceOfExpr(*C->Value, Ctx).isHost();
    const Stmt *Anchor = C->Kind == utils::CrossingKind::LambdaCapture
                             ? static_cast<const Stmt *>(C->Lambda)
                             : C->Call;
    Queries.push_back({Anchor, C->Value});
  }
  if (!HostAsWritten &&
      !(ReadsLocal && utils::mayGiveLocalPointerAValue(*Function)))
    return;
  llvm::DenseMap<const Expr *, utils::Provenance> Flow =
      utils::analyzePointerProvenance(*Function, Ctx, Queries);

  for (const utils::BoundaryCrossing *C : Candidates) {
    utils::Provenance P;
    auto It = Flow.find(C->Value);
    if (It != Flow.end())
      P = It->second;
    if (!P.isHost())
      continue;
    if (!Reported.insert(C->Loc.getRawEncoding()).second)
      continue;
    // `h, h + n` handed to one algorithm: one finding for the memory.
    const Stmt *Site = C->Kind == utils::CrossingKind::LambdaCapture
                           ? static_cast<const Stmt *>(C->Lambda)
                           : C->Call;
    if (!ReportedMemory.insert({Site, P.Source.key()}).second)
      continue;
    const std::string Name = nameOf(*C, Ctx);
    switch (C->Kind) {
    case utils::CrossingKind::KernelArgument:
      diag(C->Loc, "host pointer '%0' is passed to kernel %1, which "
                   "dereferences it on the device, where it is not a valid "
                   "address; pass device memory (cudaMalloc, "
                   "cudaMallocManaged) holding a copy of the data instead")
          << Name << C->Callee;
      break;
    case utils::CrossingKind::LambdaCapture:
      diag(C->Loc, "extended %0 lambda captures host pointer '%1' and "
                   "dereferences it on the device, where it is not a valid "
                   "address; capture a pointer to device memory "
                   "(cudaMalloc, cudaMallocManaged, thrust::device_vector) "
                   "instead")
          << utils::spelling(utils::extendedLambdaKindOf(*C->Lambda)) << Name;
      break;
    case utils::CrossingKind::AlgorithmArgument:
      diag(C->Loc, "host pointer '%0' is passed to '%1'%select{ with a device "
                   "execution policy|}2, which dereferences it on the device, "
                   "where it is not a valid address; pass device memory "
                   "(thrust::device_vector, cudaMalloc) instead")
          << Name << algorithmName(*C->Callee)
          << (utils::deviceAlgorithmOf(*C->Call) == utils::DeviceAlgorithm::Cub
                  ? 1
                  : 0);
      break;
    }
    noteSource(P.Source, C->Value);
  }
}

} // namespace clang::tidy::cuda

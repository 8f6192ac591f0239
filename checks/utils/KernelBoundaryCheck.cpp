//===--- KernelBoundaryCheck.cpp - cuda-lambda-tidy ---------------------===//

#include "utils/KernelBoundaryCheck.h"
#include "utils/NodeDispatch.h"
#include "utils/SharedDispatch.h"
#include "utils/SourceText.h"
#include "utils/TemplateInstantiation.h"
#include "utils/UnitFacts.h"
#include "utils/ExtendedLambda.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

void noteHandedOn(ClangTidyCheck &Check, llvm::ArrayRef<ReachStep> Steps,
                  const BoundaryCrossing &Site, SourceLocation SiteLoc,
                  bool Lambda) {
  for (const ReachStep &Step : Steps)
    Check.diag(Step.Call->getBeginLoc(),
               "%select{it|the lambda}0 is handed to '%1' here",
               DiagnosticIDs::Note)
        << (Lambda ? 1 : 0) << Step.Callee->getNameAsString();
  switch (Site.Kind) {
  case CrossingKind::KernelArgument:
    // No launch in sight: the kernel the wrapper's code instantiates.
    Check.diag(SiteLoc,
               Site.Call ? "kernel '%0' receives it here"
                         : "kernel '%0' is instantiated with its type here",
               DiagnosticIDs::Note)
        << Site.Callee->getNameAsString();
    break;
  case CrossingKind::LambdaCapture:
    Check.diag(SiteLoc, "an extended %0 lambda captures it here",
               DiagnosticIDs::Note)
        << spelling(extendedLambdaKindOf(*Site.Lambda));
    break;
  case CrossingKind::AlgorithmArgument:
    Check.diag(SiteLoc, "'%0' receives it here", DiagnosticIDs::Note)
        << deviceCalleeName(*Site.Callee);
    break;
  }
}

KernelBoundaryCheck::KernelBoundaryCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AllowedTypesOption(Options.get("AllowedTypes", "")),
      AllowedTypes(AllowedTypesOption) {}

void KernelBoundaryCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedTypes", AllowedTypesOption);
}

namespace {
struct CrossingSiteMatchers {
  static constexpr llvm::StringLiteral ID = "cuda-crossing-sites";
};
} // namespace

/// A call outside system headers, not a launch, of a template's
/// instantiation: a launch wrapper's, whose arguments it may hand on.
static bool callsInstantiation(const CallExpr &Call, ASTContext &Context) {
  if (isa<CUDAKernelCallExpr>(Call))
    return false;
  const auto *Callee = dyn_cast_or_null<FunctionDecl>(Call.getCalleeDecl());
  return Callee && isTemplateInstantiation(*Callee) &&
         !isExpansionInSystemHeader(Call.getBeginLoc(),
                                    Context.getSourceManager());
}

void KernelBoundaryCheck::registerMatchers(MatchFinder *Finder) {
  // The boundary checks share the matchers: each node is tried once.
  Sites = shareMatchers<CrossingSiteMatchers>(
      *Finder, this, [&](SharedDispatchCallback &Dispatch) {
        matchCrossingSites(*Finder, Dispatch);
        // The user's calls of templates' instantiations: a launch wrapper's.
        Dispatch.NodeRegistrations.push_back(matchNodes<CallExpr>(
            *Finder, &Dispatch, callsInstantiation, "kb-handed-on"));
      });
}

namespace {
/// The crossings of the site matched last: the boundary checks are called
/// one after another with the same match, and each asks for them.
struct LastSiteCrossings {
  const void *Site = nullptr;
  llvm::StringRef ID;
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
};
} // namespace

llvm::SmallVector<BoundaryCrossing, 4>
KernelBoundaryCheck::crossingsOf(const MatchFinder::MatchResult &Result) {
  UnitFacts &Facts = UnitFacts::of(*Result.Context);
  Reach = &Facts.get<DeviceReach>();
  const Stmt *Site = nullptr;
  llvm::StringRef SiteID;
  for (llvm::StringRef ID :
       {"kb-handed-on", "kb-launch", "kb-lambda", "kb-algorithm"})
    if ((Site = Result.Nodes.getNodeAs<Stmt>(ID))) {
      SiteID = ID;
      break;
    }
  LastSiteCrossings &Last = Facts.get<LastSiteCrossings>();
  if (Site && Last.Site == Site && Last.ID == SiteID)
    return Last.Crossings;
  if (!Site)
    return {};
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
  if (SiteID == "kb-handed-on") {
    Crossings = handedOn(*cast<CallExpr>(Site));
  } else {
    Crossings = crossingsOfSite(*Site);
    llvm::erase_if(Crossings, [](const BoundaryCrossing &C) {
      return C.Value && C.Type.getNonReferenceType()->isRecordType() &&
             (forwardedTemplateParameter(C.Value) ||
              wrappedTemplateParameter(C.Value));
    });
  }
  Last.Site = Site;
  Last.ID = SiteID;
  Last.Crossings = Crossings;
  return Crossings;
}

llvm::SmallVector<BoundaryCrossing, 4>
KernelBoundaryCheck::handedOn(const CallExpr &Call) {
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return Crossings;
  const unsigned Offset = objectArguments(Call);
  for (unsigned I = Offset, N = Call.getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call.getArg(I);
    // A wrapper handing its own parameter on is a step of its caller's
    // path, not a call of the user's.
    if (!Arg->getType()->isRecordType() || forwardedTemplateParameter(Arg) ||
        wrappedTemplateParameter(Arg) || isPassedInByCaller(*Arg))
      continue;
    if (const DeviceReachPath *Path =
            Reach->callableParameter(*Callee, I - Offset)) {
      // Listed here only where the site leaves it to its caller: a site
      // whose type the wrapper fixes is judged where it is.
      if (!Path->Crossing.Value ||
          !(forwardedTemplateParameter(Path->Crossing.Value) ||
            wrappedTemplateParameter(Path->Crossing.Value)))
        continue;
      BoundaryCrossing Crossing = Path->Crossing;
      Crossing.SiteLoc = Crossing.Loc;
      Crossing.Value = Arg;
      Crossing.Loc = Arg->getBeginLoc();
      Crossing.HandedOnBy.push_back({&Call, Callee});
      Crossing.HandedOnBy.append(Path->Steps.begin(), Path->Steps.end());
      Crossings.push_back(std::move(Crossing));
      continue;
    }
    // No site in sight passes it on: a framework keeps it in a driver
    // object and launches that through a kernel's address. The kernel the
    // wrapper's code instantiates with its type receives it. A closure's
    // captures are crossings of their own, at the lambda.
    const CXXRecordDecl *Record = Arg->getType()->getAsCXXRecordDecl();
    if (!Record || Record->isLambda())
      continue;
    if (const FunctionDecl *Kernel = Reach->kernelUnder(*Callee, *Record)) {
      BoundaryCrossing Crossing;
      Crossing.Kind = CrossingKind::KernelArgument;
      Crossing.Value = Arg;
      Crossing.Type = Arg->getType().getNonReferenceType().getUnqualifiedType();
      Crossing.Loc = Arg->getBeginLoc();
      Crossing.Callee = Kernel;
      // Inside the kernel's parameter, if it has one: no single argument.
      Crossing.ArgIndex = Kernel->getNumParams();
      Crossing.HandedOnBy.push_back({&Call, Callee});
      Crossing.SiteLoc = Kernel->getLocation();
      Crossings.push_back(std::move(Crossing));
    }
  }
  return Crossings;
}

void KernelBoundaryCheck::noteHandedOn(const BoundaryCrossing &Crossing) {
  if (Crossing.HandedOnBy.empty())
    return;
  const CXXRecordDecl *Record =
      Crossing.Value->getType()->getAsCXXRecordDecl();
  utils::noteHandedOn(*this, Crossing.HandedOnBy, Crossing, Crossing.SiteLoc,
                      Record && Record->isLambda());
}

} // namespace clang::tidy::cuda::utils

//===--- KernelBoundaryCheck.h - cuda-lambda-tidy -----------------------===//
//
// The frame of the checks that judge what crosses to the device (H31, H32,
// H34, H39): the crossing sites matched once (utils/KernelBoundary.h), the
// values users hand to launch wrappers (utils/DeviceReach.h), the project's
// `AllowedTypes` option, and each crossing reported once. A check derives
// from it and says in `check` why a crossing is a hazard.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARYCHECK_H
#define CUDA_LAMBDA_TIDY_UTILS_KERNELBOUNDARYCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/DeviceReach.h"
#include "utils/KernelBoundary.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda::utils {

/// The notes that say how a value handed on through \p Steps gets to the
/// site \p Site, at \p SiteLoc: "it is handed to 'forall' here" for each
/// call, then "kernel 'k' receives it here". \p Lambda: the value is a
/// lambda ("the lambda is handed to ...").
void noteHandedOn(ClangTidyCheck &Check, llvm::ArrayRef<ReachStep> Steps,
                  const BoundaryCrossing &Site, SourceLocation SiteLoc,
                  bool Lambda);

class KernelBoundaryCheck : public ClangTidyCheck {
public:
  KernelBoundaryCheck(StringRef Name, ClangTidyContext *Context);
  /// The crossing sites' matchers; a check that needs more calls this
  /// first.
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) final;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const final {
    return LangOpts.CUDA;
  }
  void onStartOfTranslationUnit() override { Reported.clear(); }

protected:
  /// The crossings of a match. A site in a template's instantiation whose
  /// value is one of the template's parameters (a launch wrapper launching
  /// its callable) is left to the user's call that hands the value in: the
  /// crossing is listed there, at the user's argument, with the calls on
  /// the way in `HandedOnBy`.
  llvm::SmallVector<BoundaryCrossing, 4>
  crossingsOf(const ast_matchers::MatchFinder::MatchResult &Result);
  /// For a crossing handed on through a launch wrapper, the notes along
  /// the way (`noteHandedOn`); nothing for the others.
  void noteHandedOn(const BoundaryCrossing &Crossing);
  /// The launch wrappers' summaries of the unit of the last `crossingsOf`.
  DeviceReach &reach() { return *Reach; }
  /// Types the project lets cross whatever the check thinks of them.
  bool allowed(const CXXRecordDecl &Record) const {
    return AllowedTypes.allows(Record);
  }
  /// One finding a crossing site, whichever part of it is the hazard.
  bool alreadyReported(const BoundaryCrossing &Crossing) const {
    return Reported.contains(Crossing.Loc);
  }
  void markReported(const BoundaryCrossing &Crossing) {
    Reported.insert(Crossing.Loc);
  }

private:
  llvm::SmallVector<BoundaryCrossing, 4> handedOn(const CallExpr &Call);

  /// The crossing sites' matchers, shared by the boundary checks.
  std::shared_ptr<ast_matchers::MatchFinder::MatchCallback> Sites;
  const std::string AllowedTypesOption;
  const AllowedTypeNames AllowedTypes;
  llvm::DenseSet<SourceLocation> Reported;
  /// The launch wrappers' summaries of the unit being matched (UnitFacts).
  DeviceReach *Reach = nullptr;
};

} // namespace clang::tidy::cuda::utils

#endif

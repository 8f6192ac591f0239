//===--- PassProbe.cpp - cuda-lambda-tidy -------------------------------===//

#include "PassProbe.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"

namespace cuda_lambda_tidy {
namespace {

using namespace clang;

/// Macros clang predefines in one pass only.
bool isPassMacro(StringRef Name) {
  return Name.starts_with("__CUDA_ARCH") || Name.starts_with("__NVPTX") ||
         Name.starts_with("__nvptx") || Name.starts_with("__PTX");
}

/// Follows the preprocessor: which macros can differ between the passes
/// (predefined per pass, defined under a condition on one, or defined in
/// terms of one), and the first place where the user's own code reads one.
class PassDependence : public PPCallbacks {
public:
  PassDependence(const SourceManager &SM, PassVerdictHandler OnEnd,
                 std::function<void()> OnFound,
                 std::vector<std::string> *Collect = nullptr)
      : SM(SM), OnEnd(std::move(OnEnd)), OnFound(std::move(OnFound)),
        Collect(Collect) {
    for (const std::string &Name : seededMacros())
      DependentMacros.insert(Name);
  }

  static std::vector<std::string> &seededMacros() {
    static std::vector<std::string> Seeded;
    return Seeded;
  }

  void EndOfMainFile() override {
    if (!OnEnd)
      return;
    OnEnd(Reason.empty() ? std::nullopt : std::optional<std::string>(Reason));
  }

  void MacroExpands(const Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *) override {
    reference(Name, Range.getBegin());
  }
  void Defined(const Token &Name, const MacroDefinition &,
               SourceRange Range) override {
    reference(Name, Range.getBegin());
  }
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    bool Dependent = DependentDepth > 0;
    if (const MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr)
      for (const Token &T : Info->tokens())
        if (const IdentifierInfo *Id = T.getIdentifierInfo())
          Dependent = Dependent || isDependent(Id->getName());
    if (Dependent &&
        DependentMacros.insert(Name.getIdentifierInfo()->getName()).second &&
        Collect)
      Collect->push_back(Name.getIdentifierInfo()->getName().str());
  }

  void If(SourceLocation Loc, SourceRange Condition,
          ConditionValueKind) override {
    open(Loc, conditionReads(Condition));
  }
  void Elif(SourceLocation Loc, SourceRange Condition, ConditionValueKind,
            SourceLocation) override {
    branch(Loc, conditionReads(Condition));
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &) override {
    open(Loc, isDependent(Name.getIdentifierInfo()->getName()));
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &) override {
    open(Loc, isDependent(Name.getIdentifierInfo()->getName()));
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &) override {
    branch(Loc, isDependent(Name.getIdentifierInfo()->getName()));
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &) override {
    branch(Loc, isDependent(Name.getIdentifierInfo()->getName()));
  }
  void Endif(SourceLocation, SourceLocation IfLoc) override {
    // Conditionals nested in a skipped block open no entry; their #endif
    // finds none.
    for (size_t I = Open.size(); I-- > 0;)
      if (Open[I].IfLoc == IfLoc) {
        for (size_t J = I; J < Open.size(); ++J)
          DependentDepth -= Open[J].Dependent;
        Open.resize(I);
        return;
      }
  }

private:
  struct Conditional {
    SourceLocation IfLoc;
    bool Dependent;
  };

  bool isDependent(StringRef Name) const {
    return isPassMacro(Name) || DependentMacros.contains(Name);
  }

  /// The user's own code: a file that is not a system header, and neither
  /// the predefines nor the command line.
  bool isUserCode(SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc) &&
           !SM.isWrittenInBuiltinFile(Loc) &&
           !SM.isWrittenInCommandLineFile(Loc) &&
           SM.getFileEntryRefForID(SM.getFileID(Loc));
  }

  void reference(const Token &Name, SourceLocation Where) {
    if (!isDependent(Name.getIdentifierInfo()->getName()))
      return;
    LastReference = SM.getExpansionLoc(Where);
    if (isUserCode(Where))
      found(Where, "'" + Name.getIdentifierInfo()->getName().str() + "'");
  }

  /// Whether the condition just evaluated read a dependent macro (the
  /// preprocessor reports the condition's macros before the directive).
  bool conditionReads(SourceRange Condition) const {
    if (LastReference.isInvalid() || Condition.isInvalid())
      return false;
    SourceLocation Begin = SM.getExpansionLoc(Condition.getBegin());
    SourceLocation End = SM.getExpansionLoc(Condition.getEnd());
    return SM.getFileID(Begin) == SM.getFileID(LastReference) &&
           !SM.isBeforeInTranslationUnit(LastReference, Begin) &&
           !SM.isBeforeInTranslationUnit(End, LastReference);
  }

  void open(SourceLocation Loc, bool Dependent) {
    if (Dependent && isUserCode(Loc))
      found(Loc, "a conditional");
    Open.push_back({Loc, Dependent});
    DependentDepth += Dependent;
  }

  /// An #elif belongs to the innermost open conditional.
  void branch(SourceLocation Loc, bool Dependent) {
    if (Dependent && isUserCode(Loc))
      found(Loc, "a conditional");
    if (!Dependent || Open.empty() || Open.back().Dependent)
      return;
    Open.back().Dependent = true;
    ++DependentDepth;
  }

  void found(SourceLocation Where, const std::string &What) {
    if (!Reason.empty())
      return;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Where));
    Reason = (P.isValid() ? std::string(P.getFilename()) + ":" +
                                std::to_string(P.getLine())
                          : std::string("<unknown>")) +
             ": " + What + " differs between the passes";
    if (OnFound)
      OnFound();
    // A recorder over a preamble: the user's code read there is lost in
    // the PCH, so the preamble must not be used ('#' starts no macro).
    if (Collect)
      Collect->push_back("#" + Reason);
  }

  const SourceManager &SM;
  PassVerdictHandler OnEnd;
  std::function<void()> OnFound;
  std::vector<std::string> *Collect;
  std::string Reason;
  llvm::StringSet<> DependentMacros;
  std::vector<Conditional> Open;
  unsigned DependentDepth = 0;
  SourceLocation LastReference;
};

} // namespace

std::unique_ptr<clang::PPCallbacks>
passDependenceProbe(const clang::SourceManager &SM, PassVerdictHandler OnEnd,
                    std::function<void()> OnFound) {
  return std::make_unique<PassDependence>(SM, std::move(OnEnd),
                                          std::move(OnFound));
}

std::unique_ptr<clang::PPCallbacks>
passDependentMacrosRecorder(const clang::SourceManager &SM,
                            std::vector<std::string> *Macros) {
  return std::make_unique<PassDependence>(SM, nullptr, nullptr, Macros);
}

void seedPassDependentMacros(std::vector<std::string> Macros) {
  PassDependence::seededMacros() = std::move(Macros);
}

std::string passVerdictLine(const std::optional<std::string> &HostPassReason) {
  return HostPassReason ? "host-pass-needed " + *HostPassReason + "\n"
                        : std::string("device-pass-suffices\n");
}

std::optional<std::string> hostPassNeeded(llvm::StringRef ReportText) {
  // One line per translation unit the child linted; any that needs the
  // host pass decides for the group.
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  ReportText.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return std::string("the device pass gave no verdict");
  for (llvm::StringRef Line : Lines)
    if (Line.consume_front("host-pass-needed "))
      return Line.str();
  for (llvm::StringRef Line : Lines)
    if (Line != "device-pass-suffices")
      return std::string("the device pass gave no verdict");
  return std::nullopt;
}

} // namespace cuda_lambda_tidy

//===--- PassDependence.cpp - cuda-lambda-tidy --------------------------===//

#include "PassDependence.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::cuda::utils {

bool isPassMacro(llvm::StringRef Name) {
  return Name.starts_with("__CUDA_ARCH") || Name.starts_with("__NVPTX") ||
         Name.starts_with("__nvptx") || Name.starts_with("__PTX");
}

static std::vector<std::string> &seededMacros() {
  static std::vector<std::string> Seeded;
  return Seeded;
}

void seedPassDependentMacros(std::vector<std::string> Macros) {
  seededMacros() = std::move(Macros);
}

namespace {

class Recorder;

/// The recorder of each live preprocessor of this thread (clang-tidy parses
/// one translation unit per thread at a time); a recorder leaves it when its
/// preprocessor destroys it.
llvm::DenseMap<const Preprocessor *, Recorder *> &recorders() {
  thread_local llvm::DenseMap<const Preprocessor *, Recorder *> Map;
  return Map;
}

class Recorder : public PPCallbacks, public PassDependence {
public:
  explicit Recorder(Preprocessor &PP)
      : PP(PP), SM(PP.getSourceManager()), LO(PP.getLangOpts()) {
    for (const std::string &Name : seededMacros())
      DependentMacros.insert(Name);
  }
  ~Recorder() override { recorders().erase(&PP); }

  // PassDependence.
  const ArchConditionals &conditionals() const override { return Branches; }
  bool isDependentMacro(StringRef Name) const override {
    return isPassMacro(Name) || DependentMacros.contains(Name);
  }
  void onFirstUserRead(
      std::function<void(const std::string &)> OnRead) override {
    OnFirstRead = std::move(OnRead);
  }
  void onEndOfMainFile(
      std::function<void(const std::optional<std::string> &)> OnEnd) override {
    OnEndOfMain = std::move(OnEnd);
  }
  void collectInto(std::vector<std::string> *Out) override { Collect = Out; }

  // PPCallbacks.
  void EndOfMainFile() override {
    if (OnEndOfMain)
      OnEndOfMain(Reason.empty() ? std::nullopt
                                 : std::optional<std::string>(Reason));
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
    bool Dependent = llvm::any_of(Stack, [](const Chain &C) {
      return C.Dependent;
    });
    if (const MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr)
      for (const Token &T : Info->tokens())
        if (const IdentifierInfo *Id = T.getIdentifierInfo())
          Dependent = Dependent || isDependentMacro(Id->getName());
    StringRef Defined = Name.getIdentifierInfo()->getName();
    if (Dependent && DependentMacros.insert(Defined).second && Collect)
      Collect->push_back(Defined.str());
  }

  void If(SourceLocation Loc, SourceRange Condition,
          ConditionValueKind Value) override {
    open(Loc, conditionReads(Loc, Condition), Value == CVK_True);
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &MD) override {
    open(Loc, dependentName(Name), static_cast<bool>(MD));
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &MD) override {
    open(Loc, dependentName(Name), !static_cast<bool>(MD));
  }
  void Elif(SourceLocation Loc, SourceRange Condition,
            ConditionValueKind Value, SourceLocation IfLoc) override {
    next(Loc, IfLoc, conditionReads(Loc, Condition), Value == CVK_True);
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &MD) override {
    next(Loc, SourceLocation(), dependentName(Name), static_cast<bool>(MD));
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &MD) override {
    next(Loc, SourceLocation(), dependentName(Name), !static_cast<bool>(MD));
  }
  void Else(SourceLocation Loc, SourceLocation IfLoc) override {
    next(Loc, IfLoc, StringRef(), true);
  }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    // Only the outermost #endif of a skipped block is reported; the
    // conditionals nested in it opened no chain.
    for (size_t I = Stack.size(); I-- > 0;)
      if (Stack[I].IfLoc == IfLoc) {
        Stack.resize(I + 1);
        close(Loc);
        Stack.pop_back();
        return;
      }
  }

private:
  /// One #if ... #endif, at its current branch.
  struct Chain {
    SourceLocation IfLoc;
    SourceLocation BranchBegin;
    /// The pass-dependent macro this branch's condition, or an earlier one
    /// of the chain, reads (empty: none).
    StringRef Macro;
    bool Dependent = false;
    bool Taken = false;
    bool AnyTaken = false;
  };

  StringRef dependentName(const Token &Name) const {
    StringRef Spelled = Name.getIdentifierInfo()->getName();
    return isDependentMacro(Spelled) ? Spelled : StringRef();
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
    StringRef Spelled = Name.getIdentifierInfo()->getName();
    if (!isDependentMacro(Spelled))
      return;
    LastReference = SM.getExpansionLoc(Where);
    LastReferenceName = Spelled;
    if (isUserCode(Where))
      found(Where, "'" + Spelled.str() + "'");
  }

  /// The pass-dependent macro the condition of the directive at \p Loc
  /// reads, or empty. The user's conditions are read as written: a macro
  /// that this pass leaves undefined (`__CUDA_ARCH__` on the host) expands
  /// to nothing the callbacks see. Elsewhere, the macros the preprocessor
  /// just reported expanding (before the directive) tell.
  StringRef conditionReads(SourceLocation Loc, SourceRange Condition) const {
    if (Condition.isInvalid())
      return StringRef();
    if (isUserCode(Loc))
      return writtenDependentName(Condition);
    if (LastReference.isInvalid())
      return StringRef();
    SourceLocation Begin = SM.getExpansionLoc(Condition.getBegin());
    SourceLocation End = SM.getExpansionLoc(Condition.getEnd());
    if (SM.getFileID(Begin) == SM.getFileID(LastReference) &&
        !SM.isBeforeInTranslationUnit(LastReference, Begin) &&
        !SM.isBeforeInTranslationUnit(End, LastReference))
      return LastReferenceName;
    return StringRef();
  }

  /// The first pass-dependent macro named in the condition's text.
  StringRef writtenDependentName(SourceRange Condition) const {
    SourceLocation Begin = SM.getExpansionLoc(Condition.getBegin());
    SourceLocation LastTok = SM.getExpansionLoc(Condition.getEnd());
    SourceLocation End = Lexer::getLocForEndOfToken(LastTok, 0, SM, LO);
    if (End.isInvalid())
      End = LastTok.getLocWithOffset(1);
    for (const Token &Tok : rawTokens(Begin, End, SM, LO))
      if (Tok.is(tok::raw_identifier) &&
          isDependentMacro(Tok.getRawIdentifier()))
        // The identifier table's copy outlives the file buffer's tokens.
        return PP.getIdentifierInfo(Tok.getRawIdentifier())->getName();
    return StringRef();
  }

  void open(SourceLocation Loc, StringRef Macro, bool Taken) {
    if (!Macro.empty() && isUserCode(Loc))
      found(Loc, "a conditional");
    Stack.push_back({Loc, Loc, Macro, !Macro.empty(), Taken, Taken});
  }

  /// An #elif/#else belongs to the innermost open conditional (\p IfLoc,
  /// where the callback gives it).
  void next(SourceLocation Loc, SourceLocation IfLoc, StringRef Macro,
            bool Value) {
    if (Stack.empty() || (IfLoc.isValid() && Stack.back().IfLoc != IfLoc))
      return;
    if (!Macro.empty() && isUserCode(Loc))
      found(Loc, "a conditional");
    close(Loc);
    Chain &C = Stack.back();
    if (!C.Dependent && !Macro.empty()) {
      C.Dependent = true;
      C.Macro = Macro;
    }
    C.BranchBegin = Loc;
    C.Taken = !C.AnyTaken && Value;
    C.AnyTaken |= C.Taken;
  }

  /// Ends the innermost chain's current branch at \p End. A library's own
  /// conditionals cannot hold the user's code, and every question the
  /// checks ask is about the user's code: kept out, they cost nothing per
  /// function (the CUDA headers alone have dozens).
  void close(SourceLocation End) {
    const Chain &C = Stack.back();
    if (C.Dependent && !SM.isInSystemHeader(C.IfLoc))
      Branches.add({C.IfLoc, SourceRange(C.BranchBegin, End), C.Taken,
                    C.Macro});
  }

  void found(SourceLocation Where, const std::string &What) {
    if (!Reason.empty())
      return;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Where));
    Reason = (P.isValid() ? std::string(P.getFilename()) + ":" +
                                std::to_string(P.getLine())
                          : std::string("<unknown>")) +
             ": " + What + " differs between the passes";
    if (OnFirstRead)
      OnFirstRead(Reason);
    // '#' starts no macro's name.
    if (Collect)
      Collect->push_back("#" + Reason);
  }

  Preprocessor &PP;
  const SourceManager &SM;
  const LangOptions &LO;
  ArchConditionals Branches;
  llvm::StringSet<> DependentMacros;
  llvm::SmallVector<Chain, 8> Stack;
  SourceLocation LastReference;
  StringRef LastReferenceName;
  std::string Reason;
  std::function<void(const std::string &)> OnFirstRead;
  std::function<void(const std::optional<std::string> &)> OnEndOfMain;
  std::vector<std::string> *Collect = nullptr;
};

} // namespace

PassDependence &passDependenceOf(Preprocessor &PP) {
  Recorder *&Existing = recorders()[&PP];
  if (!Existing) {
    auto Owned = std::make_unique<Recorder>(PP);
    Existing = Owned.get();
    PP.addPPCallbacks(std::move(Owned));
  }
  return *Existing;
}

} // namespace clang::tidy::cuda::utils

//===--- ArchConditionals.cpp - cuda-lambda-tidy ------------------------===//

#include "ArchConditionals.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

namespace clang::tidy::cuda::utils {

static bool within(SourceLocation Loc, SourceRange R, const SourceManager &SM) {
  return SM.isPointWithin(Loc, R.getBegin(), R.getEnd());
}

llvm::SmallVector<const ArchBranch *, 4>
ArchConditionals::branchesWithin(SourceRange Outer,
                                 const SourceManager &SM) const {
  llvm::SmallVector<const ArchBranch *, 4> Result;
  SourceRange File(SM.getFileLoc(Outer.getBegin()),
                   SM.getFileLoc(Outer.getEnd()));
  for (const ArchBranch &B : Branches)
    if (within(B.Range.getBegin(), File, SM) &&
        within(B.Range.getEnd(), File, SM))
      Result.push_back(&B);
  return Result;
}

const ArchBranch *
ArchConditionals::takenBranchAt(SourceLocation Loc,
                                const SourceManager &SM) const {
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  const ArchBranch *Innermost = nullptr;
  for (const ArchBranch &B : Branches)
    if (B.Taken && within(FileLoc, B.Range, SM) &&
        (!Innermost || SM.isBeforeInTranslationUnit(Innermost->Range.getBegin(),
                                                    B.Range.getBegin())))
      Innermost = &B;
  return Innermost;
}

std::vector<Token> rawTokens(SourceLocation Begin, SourceLocation End,
                                    const SourceManager &SM,
                                    const LangOptions &LO) {
  std::vector<Token> Tokens;
  if (Begin.isInvalid() || End.isInvalid() || !Begin.isFileID() ||
      !End.isFileID())
    return Tokens;
  auto [FID, BeginOffset] = SM.getDecomposedLoc(Begin);
  auto [EndFID, EndOffset] = SM.getDecomposedLoc(End);
  if (FID != EndFID || EndOffset < BeginOffset)
    return Tokens;
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return Tokens;
  Lexer Lex(SM.getLocForStartOfFile(FID), LO, Buffer.begin(),
            Buffer.begin() + BeginOffset, Buffer.end());
  Lex.SetCommentRetentionState(false);
  Token Tok;
  while (!Lex.LexFromRawLexer(Tok)) {
    if (SM.getFileOffset(Tok.getLocation()) >= EndOffset)
      break;
    Tokens.push_back(Tok);
  }
  if (Tok.isNot(tok::eof) && SM.getFileOffset(Tok.getLocation()) < EndOffset)
    Tokens.push_back(Tok);
  return Tokens;
}

std::vector<Token> rawTokensOfBranch(const ArchBranch &Branch,
                                     const SourceManager &SM,
                                     const LangOptions &LO) {
  std::vector<Token> All =
      rawTokens(Branch.Range.getBegin(), Branch.Range.getEnd(), SM, LO);
  // Drop the directive's own line: the body starts at the next line.
  std::vector<Token> Body;
  bool InBody = false;
  for (const Token &Tok : All) {
    if (Tok.isAtStartOfLine())
      InBody = true;
    if (InBody)
      Body.push_back(Tok);
  }
  // The last token is the '#' of the directive that ends the branch.
  if (!Body.empty() && Body.back().is(tok::hash))
    Body.pop_back();
  return Body;
}

static bool isIdent(const Token &Tok, llvm::StringRef Name) {
  return Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == Name;
}

/// Index just past the bracket that closes the one at \p I, or npos.
static size_t skipBalanced(llvm::ArrayRef<Token> Tokens, size_t I,
                           tok::TokenKind Open, tok::TokenKind Close) {
  int Depth = 0;
  for (; I < Tokens.size(); ++I) {
    if (Tokens[I].is(Open))
      ++Depth;
    else if (Tokens[I].is(Close) && --Depth == 0)
      return I + 1;
  }
  return llvm::ArrayRef<Token>::size_type(-1);
}

/// Reads `__host__`/`__device__` annotations starting at \p I.
static bool readAnnotation(llvm::ArrayRef<Token> Tokens, size_t I,
                           bool &HostDevice) {
  bool Device = false, Host = false;
  for (; I < Tokens.size(); ++I) {
    if (isIdent(Tokens[I], "__device__"))
      Device = true;
    else if (isIdent(Tokens[I], "__host__"))
      Host = true;
    else
      break;
  }
  HostDevice = Host && Device;
  return Device;
}

std::vector<RawAnnotatedLambda>
findAnnotatedLambdas(llvm::ArrayRef<Token> Tokens) {
  std::vector<RawAnnotatedLambda> Found;
  const size_t NPos = size_t(-1);
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].isNot(tok::l_square))
      continue;
    // `[[attribute]]` is not a lambda introducer.
    if (I + 1 < Tokens.size() && Tokens[I + 1].is(tok::l_square)) {
      size_t After = skipBalanced(Tokens, I, tok::l_square, tok::r_square);
      if (After == NPos)
        break;
      I = After - 1;
      continue;
    }
    size_t After = skipBalanced(Tokens, I, tok::l_square, tok::r_square);
    if (After == NPos)
      break;
    bool HostDevice = false;
    bool Annotated = readAnnotation(Tokens, After, HostDevice);
    if (!Annotated && After < Tokens.size() && Tokens[After].is(tok::l_paren)) {
      size_t AfterParams =
          skipBalanced(Tokens, After, tok::l_paren, tok::r_paren);
      if (AfterParams != NPos)
        Annotated = readAnnotation(Tokens, AfterParams, HostDevice);
    }
    if (Annotated)
      Found.push_back({Tokens[I].getLocation(), HostDevice});
  }
  return Found;
}

bool isInTargetDispatchMacro(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LO) {
  while (Loc.isMacroID()) {
    const StringRef Name = Lexer::getImmediateMacroName(Loc, SM, LO);
    if (Name == "NV_IF_TARGET" || Name == "NV_IF_ELSE_TARGET" ||
        Name == "NV_DISPATCH_TARGET")
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

} // namespace clang::tidy::cuda::utils

//===--- LambdaSyntax.cpp - cuda-lambda-tidy ----------------------------===//

#include "LambdaSyntax.h"
#include "AncestorWalk.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda::utils {

std::string variableNameOf(const LambdaExpr &Lambda) {
  const LambdaSite Site = findLambda(*Lambda.getLambdaClass());
  DynTypedNode Node = DynTypedNode::create(Lambda);
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    Node = Site.Ancestors.parentOf(Node);
    if (const auto *Var = Node.get<VarDecl>())
      return Var->getName().str();
    const auto *E = Node.get<Expr>();
    if (!E)
      return "";
    // Only the wrappers that C++ puts around an initializer.
    if (!isa<ImplicitCastExpr, ExprWithCleanups, MaterializeTemporaryExpr,
             CXXBindTemporaryExpr, ConstantExpr>(E)) {
      const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      if (!Construct || Construct->getNumArgs() != 1)
        return "";
    }
  }
  return "";
}

std::optional<ParameterParens> parameterListOf(const LambdaExpr &Lambda) {
  if (!Lambda.hasExplicitParameters())
    return std::nullopt;
  const TypeSourceInfo *TSI = Lambda.getCallOperator()->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  auto Proto = TSI->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
  if (!Proto || Proto.getLParenLoc().isInvalid() ||
      Proto.getRParenLoc().isInvalid())
    return std::nullopt;
  return ParameterParens{Proto.getLParenLoc(), Proto.getRParenLoc()};
}

llvm::SmallVector<const Attr *, 2>
executionSpaceAttrsOf(const LambdaExpr &Lambda) {
  llvm::SmallVector<const Attr *, 2> Attrs;
  for (const Attr *A : Lambda.getCallOperator()->attrs())
    if (isa<CUDAHostAttr, CUDADeviceAttr>(A) && !A->isImplicit())
      Attrs.push_back(A);
  return Attrs;
}

SourceLocation writtenLocation(const Attr &A, const SourceManager &SM) {
  return SM.getExpansionLoc(A.getLocation());
}

bool isAfterParameterList(const Attr &A, const LambdaExpr &Lambda,
                          const SourceManager &SM) {
  std::optional<ParameterParens> Parens = parameterListOf(Lambda);
  if (!Parens)
    return false;
  // The common case first: the ')' in a file and the annotation a macro
  // (`__device__`) expanded in the same file. Its expansion is where the
  // annotation is written, never at the ')' itself, so the offsets tell
  // what isBeforeInTranslationUnit() would, which climbs the macro's
  // expansion for a few thousand instructions.
  const SourceLocation Written = SM.getExpansionLoc(A.getLocation());
  if (Parens->RParen.isFileID() && Written.isFileID()) {
    const auto [ParenFile, ParenOffset] = SM.getDecomposedLoc(Parens->RParen);
    const auto [AttrFile, AttrOffset] = SM.getDecomposedLoc(Written);
    if (ParenFile == AttrFile && ParenOffset != AttrOffset)
      return ParenOffset < AttrOffset;
  }
  // Both may lie in one macro expansion (a macro that writes the whole
  // lambda); the translation unit's order still tells which comes first.
  return SM.isBeforeInTranslationUnit(Parens->RParen, A.getLocation());
}

std::optional<CharSourceRange> annotationToken(const Attr &A,
                                               const SourceManager &SM,
                                               const LangOptions &LangOpts) {
  SourceLocation Written = writtenLocation(A, SM);
  if (Written.isInvalid())
    return std::nullopt;
  CharSourceRange Range = CharSourceRange::getTokenRange(Written, Written);
  StringRef Text = Lexer::getSourceText(Range, SM, LangOpts);
  StringRef Expected = isa<CUDAHostAttr>(A) ? "__host__" : "__device__";
  if (Text != Expected)
    return std::nullopt;
  return Range;
}

/// The character just before \p Loc in its file, or 0.
static char characterBefore(SourceLocation Loc, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset == 0 || Offset > Buffer.size())
    return 0;
  return Buffer[Offset - 1];
}

std::optional<FixItHint> insertAnnotation(const LambdaExpr &Lambda,
                                          llvm::StringRef Spelling,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts) {
  if (Lambda.getTemplateParameterList() || Lambda.getBeginLoc().isMacroID())
    return std::nullopt;
  if (std::optional<ParameterParens> Parens = parameterListOf(Lambda)) {
    if (Parens->LParen.isMacroID())
      return std::nullopt;
    std::string Text = (Spelling + " ").str();
    if (!isWhitespace(characterBefore(Parens->LParen, SM)))
      Text = " " + Text;
    return FixItHint::CreateInsertion(Parens->LParen, Text);
  }
  SourceLocation Bracket = Lambda.getIntroducerRange().getEnd();
  if (Bracket.isInvalid() || Bracket.isMacroID())
    return std::nullopt;
  return FixItHint::CreateInsertion(Bracket.getLocWithOffset(1),
                                    (" " + Spelling).str());
}

std::optional<FixItHint> widenHostAnnotation(const LambdaExpr &Lambda,
                                             const SourceManager &SM,
                                             const LangOptions &LangOpts) {
  llvm::SmallVector<const Attr *, 2> Attrs = executionSpaceAttrsOf(Lambda);
  if (Attrs.size() != 1 || !isa<CUDAHostAttr>(Attrs.front()) ||
      isAfterParameterList(*Attrs.front(), Lambda, SM))
    return std::nullopt;
  std::optional<CharSourceRange> Token =
      annotationToken(*Attrs.front(), SM, LangOpts);
  if (!Token)
    return std::nullopt;
  return FixItHint::CreateReplacement(*Token, "__host__ __device__");
}

std::optional<Token> constexprSpecifierOf(const LambdaExpr &Lambda,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts) {
  std::optional<ParameterParens> Parens = parameterListOf(Lambda);
  const Stmt *Body = Lambda.getCallOperator()->getBody();
  if (!Parens || !Body)
    return std::nullopt;
  SourceLocation From = Parens->RParen, To = Body->getBeginLoc();
  if (From.isMacroID() || To.isMacroID())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(From);
  auto [ToFile, End] = SM.getDecomposedLoc(To);
  if (File != ToFile || End <= Begin)
    return std::nullopt;
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  Lexer Lex(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(),
            Buffer.begin() + Begin + 1, Buffer.end());
  Token Tok;
  while (!Lex.LexFromRawLexer(Tok)) {
    if (SM.getFileOffset(Tok.getLocation()) >= End)
      break;
    if (Tok.is(tok::raw_identifier) && (Tok.getRawIdentifier() == "constexpr" ||
                                        Tok.getRawIdentifier() == "consteval"))
      return Tok;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::utils

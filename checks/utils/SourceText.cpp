//===--- SourceText.cpp - cuda-lambda-tidy ------------------------------===//

#include "SourceText.h"
#include "clang/Basic/CharInfo.h"

namespace clang::tidy::cuda::utils {

std::optional<SourceLocation> findPrecedingToken(SourceLocation Loc,
                                                 char Punctuator,
                                                 const SourceManager &SM) {
  if (Loc.isInvalid() || Loc.isMacroID())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  while (Offset > 0) {
    --Offset;
    char C = Buffer[Offset];
    if (isWhitespace(C))
      continue;
    if (C != Punctuator)
      return std::nullopt;
    return SM.getComposedLoc(File, Offset);
  }
  return std::nullopt;
}

bool isExpansionInSystemHeader(SourceLocation Loc, const SourceManager &SM) {
  const SourceLocation Expansion = SM.getExpansionLoc(Loc);
  return Expansion.isValid() && SM.isInSystemHeader(Expansion);
}

} // namespace clang::tidy::cuda::utils

//===--- KernelParamReferenceMemberCheck.cpp - cuda-lambda-tidy ---------===//

#include "KernelParamReferenceMemberCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

/// The first reference data member of \p Record itself.
static const FieldDecl *firstReferenceMember(const CXXRecordDecl &Record) {
  for (const FieldDecl *Field : Record.fields())
    if (Field->getType()->isReferenceType())
      return Field;
  return nullptr;
}

void KernelParamReferenceMemberCheck::check(
    const MatchFinder::MatchResult &Result) {
  for (const utils::BoundaryCrossing &Crossing : crossingsOf(Result)) {
    if (alreadyReported(Crossing))
      continue;
    const FieldDecl *Member = nullptr;
    std::optional<utils::ByValuePart> Part = utils::findByValuePart(
        Crossing.Type, [&](const CXXRecordDecl &Record) {
          // A device lambda's by-reference captures are reported at the
          // lambda (cuda-lambda-reference-capture).
          if (allowed(Record) ||
              utils::isDeviceLambdaClosure(Record))
            return utils::PartVerdict::Skip;
          if (utils::isLibraryType(Record))
            return utils::PartVerdict::Descend;
          Member = firstReferenceMember(Record);
          return Member ? utils::PartVerdict::Found
                        : utils::PartVerdict::Descend;
        });
    if (!Part)
      continue;
    markReported(Crossing);
    Part->Members.push_back(Member);
    const bool IsCapture = Part->Record->isLambda();
    std::string Path = Part->memberPath();
    if (IsCapture) {
      // Capture members have no names of their own: name the variable.
      llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
      FieldDecl *ThisField = nullptr;
      Part->Record->getCaptureFields(Fields, ThisField);
      for (const auto &[Var, Field] : Fields)
        if (Field == Member)
          Path = Var->getNameAsString();
    }
    {
      auto Diag = diag(
          Crossing.Loc,
          utils::crossingMessage(
              ", whose %select{member|capture}4 '%5' is a reference: the "
              "device receives the host's address and faults reading it; "
              "hold the value itself (or a pointer to device memory) "
              "instead"));
      utils::addCrossingArgs(Diag, Crossing);
      Diag << IsCapture << Path;
    }
    noteHandedOn(Crossing);
    if (IsCapture)
      diag(Member->getLocation(), "captured by reference here",
           DiagnosticIDs::Note);
    else
      diag(Member->getLocation(), "reference member '%0' declared here",
           DiagnosticIDs::Note)
          << Member->getName();
  }
}

} // namespace clang::tidy::cuda

//===--- PassProbe.cpp - cuda-lambda-tidy -------------------------------===//

#include "probe/PassProbe.h"
#include "utils/PassDependence.h"

namespace cuda_lambda_tidy {

using clang::tidy::cuda::utils::passDependenceOf;

void passDependenceProbe(clang::Preprocessor &PP, PassVerdictHandler OnEnd,
                         std::function<void()> OnFound) {
  clang::tidy::cuda::utils::PassDependence &Recorder = passDependenceOf(PP);
  Recorder.onEndOfMainFile(std::move(OnEnd));
  if (OnFound)
    Recorder.onFirstUserRead(
        [OnFound = std::move(OnFound)](const std::string &) { OnFound(); });
}

void passDependentMacrosRecorder(clang::Preprocessor &PP,
                                 std::vector<std::string> *Macros) {
  passDependenceOf(PP).collectInto(Macros);
}

void seedPassDependentMacros(std::vector<std::string> Macros) {
  clang::tidy::cuda::utils::seedPassDependentMacros(std::move(Macros));
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

//===--- ChildRequest.h - cuda-lambda-tidy ------------------------------===//
//
// What a parent asks of one child process (PassChildren.h) and what the
// child answers besides what it prints. The parent writes the request as
// JSON to a private file and starts the child with
// `--cuda-lambda-tidy-request=FILE`, its only private option: the rest of
// the child's command line is clang-tidy's (the group's sources, `-p` with
// the database the parent translated, `--export-fixes`). The child writes
// its reply, JSON too, to the file the request names. Plain data to text
// and back.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_CHILDREQUEST_H
#define CUDA_LAMBDA_TIDY_TOOL_CHILDREQUEST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cuda_lambda_tidy {

/// The private option that hands a child its request.
inline constexpr llvm::StringLiteral ChildRequestOption =
    "--cuda-lambda-tidy-request=";

/// One pass over the files of a child's command line.
struct ChildRequest {
  /// "device", "host", or "" (plain C++, or both sides at once).
  std::string Pass;
  bool AllowPlugins = false; ///< the user's `--allow-plugins`
  bool NoToolkit = false;    ///< the user's `--cuda-toolkit=none`
  /// `-p` names the database the parent translated (translateDatabase):
  /// lint with it as it is.
  bool Translated = false;
  /// A device pass that probes whether the host pass is needed
  /// (PassProbe.h): where the probe writes its verdict; "" for none.
  std::string ProbeFile;
  /// The preamble cache of the one file linted (PreambleCache.h); "" for
  /// none.
  std::string PreambleCacheDir;
  bool PreambleAtFirstLint = false; ///< `--preamble-at-first-lint`
  /// Where the child writes its ChildReply.
  std::string ReplyFile;
};

/// What a child answers.
struct ChildReply {
  /// What became of the preamble, as CUDA_LAMBDA_TIDY_EXPLAIN_CACHE says
  /// it: the parent prints it; "" when none was asked for.
  std::string Preamble;
  /// Why the pass parsed against the fallback headers (fallbackReason);
  /// "" when it did not. The parent prints the notice, first and once.
  std::string FallbackReason;
};

std::string writeChildRequest(const ChildRequest &Request);
llvm::Expected<ChildRequest> readChildRequest(llvm::StringRef Json);

std::string writeChildReply(const ChildReply &Reply);
/// A reply that is missing or unreadable (the child stopped early) reads as
/// the default: no preamble.
ChildReply readChildReply(llvm::StringRef Json);

} // namespace cuda_lambda_tidy

#endif

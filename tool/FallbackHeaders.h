//===--- FallbackHeaders.h - cuda-lambda-tidy ---------------------------===//
//
// Parsing CUDA without a toolkit: the small header bundled with the tool
// (tool/fallback/), compiled into the binary so that the binary works
// wherever it is copied, and written to a private directory of a run that
// needs it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_FALLBACKHEADERS_H
#define CUDA_LAMBDA_TIDY_TOOL_FALLBACKHEADERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cuda_lambda_tidy {

/// One bundled header: its path below the fallback directory, its text.
struct FallbackHeader {
  llvm::StringRef Path;
  llvm::StringRef Text;
};

/// The header force-included before every CUDA file parsed without a
/// toolkit; cuda_runtime.h, cuda_runtime_api.h, cuda.h and
/// device_launch_parameters.h include it.
constexpr const char *FallbackIncludeName = "cuda_lambda_tidy_fallback.h";

/// Every bundled header, the force-included one first.
llvm::ArrayRef<FallbackHeader> fallbackHeaders();

/// Writes every bundled header below \p Dir, which must exist.
llvm::Error writeFallbackHeaders(llvm::StringRef Dir);

/// The one line, first on stderr, that says a run parses CUDA against the
/// bundled header and what that costs; \p Reason says why there is no
/// toolkit, e.g. "no CUDA toolkit found (CUDA_PATH, nvcc on PATH,
/// /usr/local/cuda)".
std::string fallbackNotice(llvm::StringRef Reason);

/// Whether \p Line is a notice of fallbackNotice's.
bool isFallbackNotice(llvm::StringRef Line);

} // namespace cuda_lambda_tidy

#endif

//===--- FallbackHeaders.h - cuda-lambda-tidy ---------------------------===//
//
// The headers bundled with the tool, compiled into the binary so that the
// binary works wherever it is copied, and written to a private directory of
// a run that needs them: the small header for parsing CUDA without a
// toolkit (tool/fallback/), and the nvcc-compatibility layer force-included
// into every CUDA parse the tool sets up (tool/compat/).
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

/// Writes each of \p Headers below \p Dir, which must exist, creating the
/// directories they name.
llvm::Error writeBundledHeaders(llvm::StringRef Dir,
                                llvm::ArrayRef<FallbackHeader> Headers);

/// clang's resource headers (the builtin headers and the CUDA wrappers),
/// each with its path below a resource directory (`include/stddef.h`), as
/// the self-contained binary carries them (ResourceHeaders.cpp); empty in
/// the binary that uses the ones LLVM installed (NoResourceHeaders.cpp).
/// Defined by the binary, not by this library.
llvm::ArrayRef<FallbackHeader> embeddedResourceHeaders();

/// The nvcc-compatibility layer: what nvcc accepts and clang rejects for
/// want of a declaration (`__managed__`, host min/max). Force-included after
/// the toolkit's (or the fallback) headers into every CUDA parse the tool
/// sets up; plugin users pass it with `-include` themselves.
constexpr const char *NvccCompatIncludeName = "cuda_lambda_tidy_nvcc_compat.h";

/// The bundled nvcc-compatibility layer.
const FallbackHeader &nvccCompatHeader();

/// Writes the nvcc-compatibility layer into \p Dir, which must exist, and
/// returns its path there.
llvm::Expected<std::string> writeNvccCompatHeader(llvm::StringRef Dir);

/// The one line, first on stderr, that says a run parses CUDA against the
/// bundled header and what that costs; \p Reason says why there is no
/// toolkit, e.g. "no CUDA toolkit found (CUDA_PATH, nvcc on PATH,
/// /usr/local/cuda)".
std::string fallbackNotice(llvm::StringRef Reason);

/// Why a run parses against the fallback headers, for fallbackNotice:
/// `--cuda-toolkit=none` (\p NoToolkit); else no toolkit found, for the nvcc
/// \p Nvcc of a compile database entry, or, without one (\p Nvcc ""), in
/// the places searched (ToolkitSearchOrder).
std::string fallbackReason(bool NoToolkit, llvm::StringRef Nvcc = "");

} // namespace cuda_lambda_tidy

#endif

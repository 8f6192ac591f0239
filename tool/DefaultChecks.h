//===--- DefaultChecks.h - cuda-lambda-tidy -----------------------------===//
//
// Which checks run when nobody chose any. clang-tidy then enables
// `clang-diagnostic-*,clang-analyzer-*`; the drop-in links no analyzer, so
// that is no check at all ("Error: no checks enabled." and --help). The
// drop-in enables the `cuda-*` checks instead, and only then: a `--checks`,
// a `Checks` in `--config`/`--config-file`, or a `Checks` in a .clang-tidy
// file clang-tidy reads for a source is the user's choice and is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_DEFAULTCHECKS_H
#define CUDA_LAMBDA_TIDY_TOOL_DEFAULTCHECKS_H

#include "CudaInvocation.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// The checks the drop-in enables when none are configured.
constexpr const char *DefaultChecks = "-*,cuda-*";

/// Whether clang-tidy, run with the tool options \p Options on \p Sources,
/// would take its checks from the user: `--checks` given (even empty), or a
/// `Checks` key in the `--config` text, the `--config-file` file, or (without
/// those, or with their `InheritParentConfig`) in a `.clang-tidy` or
/// `_clang-tidy` file clang-tidy reads for one of \p Sources (relative paths
/// are taken from the current directory).
bool checksConfigured(llvm::ArrayRef<std::string> Options,
                      llvm::ArrayRef<std::string> Sources);

/// \p CommandLine with `--checks=-*,cuda-*` first when checksConfigured
/// says no for its sources, or, when it names none, for \p DatabaseSources
/// (the files of its compile database) and else the current directory.
ToolCommandLine
withDefaultChecks(ToolCommandLine CommandLine,
                  llvm::ArrayRef<std::string> DatabaseSources = {});

} // namespace cuda_lambda_tidy

#endif

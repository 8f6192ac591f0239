//===--- PassProbe.h - cuda-lambda-tidy ---------------------------------===//
//
// One pass when one pass sees everything. By default the drop-in lints the
// device pass of a CUDA file first, with this probe watching the
// preprocessor; the host pass runs after it only when the user's own code
// (files outside system headers) can read differently on the host: an
// `#if`/`#ifdef` on `__CUDA_ARCH__` and the like, or a macro whose
// definition depends on them (`NV_IF_TARGET`, a project's own
// `MY_IS_DEVICE`), used there; or where the AST of the device pass shows
// host code handing an extended `__device__` lambda with a deduced return
// type to a library whose host code asks for that return type (H13: the
// question sits in host branches of thrust/cub that only the host pass
// instantiates; PassProbeCheck.cpp with utils/ReturnTypeQuestion.h).
// Everything else the host pass would see in the user's code is what the
// device pass saw.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_PASSPROBE_H
#define CUDA_LAMBDA_TIDY_TOOL_PASSPROBE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace cuda_lambda_tidy {

/// Called once the main file is read: std::nullopt when the device pass saw
/// all the user's code reads, else where and why the host reads otherwise.
using PassVerdictHandler =
    std::function<void(const std::optional<std::string> &HostPassReason)>;

/// The preprocessor watcher: which macros differ between the passes
/// (predefined for one: `__CUDA_ARCH__`, `__NVPTX__`, ...; defined under a
/// condition on one, or in terms of one, in any header), and the first line
/// of the user's own code that reads one. \p OnFound, when given, is called
/// as soon as that line is read (what else would ask for the host pass need
/// not be looked for).
///
/// The watcher is the translation unit's one pass-dependence recorder
/// (checks/utils/PassDependence.h), which the checks read too.
void passDependenceProbe(clang::Preprocessor &PP, PassVerdictHandler OnEnd,
                         std::function<void()> OnFound = nullptr);

/// For a preamble about to be precompiled: a probe that only collects, into
/// \p Macros, the macros it finds pass-dependent (the probe over the rest
/// of the file sees no preprocessor event inside the PCH).
void passDependentMacrosRecorder(clang::Preprocessor &PP,
                                 std::vector<std::string> *Macros);

/// Makes every probe made afterwards in this process start with \p Macros
/// known to be pass-dependent (what the recorder found in a cached
/// preamble the file is linted with).
void seedPassDependentMacros(std::vector<std::string> Macros);

/// The line a probe writes for one translation unit (hostPassNeeded reads).
std::string passVerdictLine(const std::optional<std::string> &HostPassReason);

/// The probe's check name (PassProbeCheck.cpp, in the binary): internal, enabled only in a device-pass child
/// that its parent asked to probe (enablePassProbe).
inline constexpr llvm::StringLiteral PassProbeCheckName =
    "cuda-lambda-tidy-internal-pass-probe";

/// Makes the probe check known to clang-tidy in this process, writing its
/// verdict to \p ReportFile, and returns its name for the caller to enable
/// (withCheckEnabled).
llvm::StringRef enablePassProbe(llvm::StringRef ReportFile);

/// What a probe wrote: std::nullopt when the host pass adds nothing; else
/// why it is needed (also when the probe wrote nothing readable).
std::optional<std::string> hostPassNeeded(llvm::StringRef ReportText);

} // namespace cuda_lambda_tidy

#endif

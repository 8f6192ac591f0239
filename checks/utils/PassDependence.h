//===--- PassDependence.h - cuda-lambda-tidy ----------------------------===//
//
// What reads differently in nvcc's host and device passes, decided once per
// translation unit from the preprocessor. A macro depends on the pass when
// clang predefines it for one pass only (`__CUDA_ARCH__`, `__NVPTX__`, ...),
// when it is defined under a conditional that does, or when its definition
// names one (`#define MY_ON_DEVICE defined(__CUDA_ARCH__)`): frameworks spell
// these `*_DEVICE_COMPILE`, `*_IF_ON_DEVICE`. A conditional depends on the
// pass when its condition reads such a macro.
//
// One recorder per preprocessor serves every reader: the checks' branches
// (ArchConditionals, H06, H30, H37) and the drop-in's pass probe
// (checks/probe/PassProbe.h), so "depends on the pass" means the same thing in both.
// It is owned by the preprocessor's callbacks and lives as long as the
// preprocessor: what passDependenceOf returns is valid for one translation
// unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_PASSDEPENDENCE_H
#define CUDA_LAMBDA_TIDY_UTILS_PASSDEPENDENCE_H

#include "ArchConditionals.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace clang::tidy::cuda::utils {

/// Macros clang predefines in one pass only.
bool isPassMacro(llvm::StringRef Name);

/// What one translation unit's preprocessor showed to depend on the pass.
class PassDependence {
public:
  virtual ~PassDependence() = default;

  /// The pass-dependent branches outside system headers.
  virtual const ArchConditionals &conditionals() const = 0;

  /// Whether \p Name is a pass-dependent macro (as far as the preprocessor
  /// has read).
  virtual bool isDependentMacro(llvm::StringRef Name) const = 0;

  /// Calls \p OnFirstRead with "FILE:LINE: WHAT differs between the passes"
  /// when the user's own code (outside system headers) first reads a
  /// pass-dependent macro or conditional.
  virtual void
  onFirstUserRead(std::function<void(const std::string &Reason)> OnRead) = 0;

  /// Calls \p OnEnd when the main file ends, with the first read's reason,
  /// or std::nullopt when the user's code read nothing pass-dependent.
  virtual void onEndOfMainFile(
      std::function<void(const std::optional<std::string> &Reason)> OnEnd) = 0;

  /// Appends to \p Out the name of every macro found pass-dependent from now
  /// on, and "#REASON" for a first read in the user's code (a preamble's
  /// recorder: the preprocessor events inside a precompiled preamble are
  /// not seen again).
  virtual void collectInto(std::vector<std::string> *Out) = 0;
};

/// The recorder of \p PP, installed on the first call for that
/// preprocessor.
PassDependence &passDependenceOf(Preprocessor &PP);

/// Makes every recorder made afterwards in this process start with
/// \p Macros known to be pass-dependent (what a cached preamble's recorder
/// collected: its #defines are not read again).
void seedPassDependentMacros(std::vector<std::string> Macros);

} // namespace clang::tidy::cuda::utils

#endif

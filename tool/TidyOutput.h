//===--- TidyOutput.h - cuda-lambda-tidy --------------------------------===//
//
// clang-tidy's output in, ours out: the diagnostics it prints and the fixes
// it exports are parsed, merged across passes (each finding once) and written
// as clang-tidy text, SARIF 2.1.0 or GitHub annotations. Plain data to data;
// the caller runs the processes and reads the files.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_TIDYOUTPUT_H
#define CUDA_LAMBDA_TIDY_TOOL_TIDYOUTPUT_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// One `file:line:col: severity: message [check]` that clang-tidy printed,
/// with the source excerpt lines that followed it.
struct PrintedDiagnostic {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Severity; ///< "warning", "error", "note", "remark"
  std::string Message;  ///< without the trailing ` [check]`
  std::string Check;    ///< the first name in the brackets, or ""
  std::vector<std::string> Lines; ///< as printed: the header, then excerpt
  std::vector<PrintedDiagnostic> Notes; ///< notes printed after a warning

  /// What makes two findings the same: file, line, column, severity,
  /// message and check.
  std::string key() const;
};

/// The diagnostics in clang-tidy's stdout \p Text; a note belongs to the
/// warning or error before it (a note before any is kept on its own). Lines
/// before the first diagnostic go to \p Preamble when given.
std::vector<PrintedDiagnostic>
parseDiagnostics(llvm::StringRef Text,
                 std::vector<std::string> *Preamble = nullptr);

/// The findings of all \p Passes, each once (by key(), notes merged the
/// same way), ordered by file, line, column, severity, message.
std::vector<PrintedDiagnostic>
mergeDiagnostics(llvm::ArrayRef<std::vector<PrintedDiagnostic>> Passes);

/// The name in brackets of the line that stands for compiler errors on
/// syntax nvcc accepts and clang cannot parse (foldNvccOnlySyntax).
constexpr const char *NvccOnlySyntaxName = "nvcc-only-syntax";

/// Replaces the compiler errors that clang gives on syntax nvcc's front end
/// accepts, which no declaration can fix, by one warning per cause, so that
/// they do not bury the findings: today one cause, a macro whose body writes
/// `#pragma` (`#define UNROLL #pragma unroll`), recognised by the error's
/// "expanded from macro" note and the definition's text, which
/// \p DefinitionText gives for a file and line (with its continuation
/// lines). Returns how many errors were folded.
unsigned foldNvccOnlySyntax(
    std::vector<PrintedDiagnostic> &Diagnostics,
    const std::function<std::string(llvm::StringRef File, unsigned Line)>
        &DefinitionText);

/// Whether \p Diagnostics hold a compiler error, or a finding made an error
/// (`--warnings-as-errors`).
bool hasErrors(llvm::ArrayRef<PrintedDiagnostic> Diagnostics);

/// The diagnostics as clang-tidy prints them.
std::string renderText(llvm::ArrayRef<PrintedDiagnostic> Diagnostics);

/// One `::warning file=…,line=…,col=…,title=check::message` line (`::error`
/// for errors) per finding, notes folded into the message.
std::string renderGithub(llvm::ArrayRef<PrintedDiagnostic> Diagnostics);

/// Reads clang-tidy's `--export-fixes` YAML.
llvm::Expected<clang::tooling::TranslationUnitDiagnostics>
readExportedFixes(llvm::StringRef Yaml);

/// The exported diagnostics of all \p Parts in one document, each
/// diagnostic once (name, message, location and replacements identical).
clang::tooling::TranslationUnitDiagnostics
mergeExportedFixes(llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> Parts);

/// \p Fixes as `--export-fixes` YAML.
std::string writeExportedFixes(const clang::tooling::TranslationUnitDiagnostics &Fixes);

/// Where a rule's documentation is: \p DocsBase (ending in '/') plus
/// `<check>.md` for `cuda-*` checks, clang-tidy's web page for others.
std::string ruleHelpUri(llvm::StringRef Check, llvm::StringRef DocsBase);

/// A path as a SARIF artifact URI: `file://` plus the percent-encoded path
/// when absolute, the percent-encoded relative reference otherwise.
std::string artifactUri(llvm::StringRef Path);

/// A SARIF 2.1.0 log of one run: the findings as results (notes as related
/// locations), the exported fix-its of each finding as `fixes`.
std::string renderSarif(llvm::ArrayRef<PrintedDiagnostic> Diagnostics,
                        const clang::tooling::TranslationUnitDiagnostics &Fixes,
                        llvm::StringRef ToolVersion, llvm::StringRef DocsBase);

/// The text of a SARIF 2.1.0 log holding one run: \p Driver as its
/// `tool.driver`, \p Results as its results.
std::string writeSarifLog(
    llvm::json::Object Driver, llvm::json::Array Results,
    llvm::StringRef Schema = "https://json.schemastore.org/sarif-2.1.0.json",
    llvm::StringRef ColumnKind = "unicodeCodePoints");

} // namespace cuda_lambda_tidy

#endif

//===--- TidyOutput.cpp - cuda-lambda-tidy ------------------------------===//

#include "TidyOutput.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <tuple>

namespace cuda_lambda_tidy {

std::string PrintedDiagnostic::key() const {
  return File + "\x1f" + std::to_string(Line) + "\x1f" +
         std::to_string(Column) + "\x1f" + Severity + "\x1f" + Message +
         "\x1f" + Check;
}

static bool parseHeader(llvm::StringRef Line, PrintedDiagnostic &D) {
  static const llvm::Regex Header(
      "^(.+):([0-9]+):([0-9]+): (warning|error|note|remark|fatal error): "
      "(.*)$");
  llvm::SmallVector<llvm::StringRef, 6> M;
  if (!Header.match(Line, &M))
    return false;
  // One header reached through different include paths is one file:
  // `/b/core/../include/h.hpp` and `/b/include/h.hpp`.
  llvm::SmallString<256> File(M[1]);
  if (llvm::sys::path::is_absolute(File))
    llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  D.File = File.str().str();
  M[2].getAsInteger(10, D.Line);
  M[3].getAsInteger(10, D.Column);
  D.Severity = M[4].str();
  llvm::StringRef Message = M[5];
  static const llvm::Regex Check(" \\[([A-Za-z0-9_.,+-]+)\\]$");
  llvm::SmallVector<llvm::StringRef, 2> C;
  if (Check.match(Message, &C)) {
    D.Check = C[1].split(',').first.str();
    Message = Message.drop_back(C[0].size());
  }
  D.Message = Message.str();
  D.Lines = {Line.str()};
  return true;
}

std::vector<PrintedDiagnostic>
parseDiagnostics(llvm::StringRef Text, std::vector<std::string> *Preamble) {
  std::vector<PrintedDiagnostic> Result;
  PrintedDiagnostic *Last = nullptr;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim('\r');
    PrintedDiagnostic D;
    if (parseHeader(Line, D)) {
      if (D.Severity == "note" && !Result.empty()) {
        Result.back().Notes.push_back(std::move(D));
        Last = &Result.back().Notes.back();
      } else {
        Result.push_back(std::move(D));
        Last = &Result.back();
      }
      continue;
    }
    if (Last)
      Last->Lines.push_back(Line.str());
    else if (Preamble)
      Preamble->push_back(Line.str());
  }
  return Result;
}

static bool orderedBefore(const PrintedDiagnostic &A,
                          const PrintedDiagnostic &B) {
  return std::tie(A.File, A.Line, A.Column, A.Severity, A.Message, A.Check) <
         std::tie(B.File, B.Line, B.Column, B.Severity, B.Message, B.Check);
}

std::vector<PrintedDiagnostic>
mergeDiagnostics(llvm::ArrayRef<std::vector<PrintedDiagnostic>> Passes) {
  std::vector<PrintedDiagnostic> Result;
  std::map<std::string, size_t> Seen;
  for (const std::vector<PrintedDiagnostic> &Pass : Passes)
    for (const PrintedDiagnostic &D : Pass) {
      auto [It, New] = Seen.try_emplace(D.key(), Result.size());
      if (New) {
        Result.push_back(D);
        continue;
      }
      // The same finding from another pass: keep its notes, once.
      PrintedDiagnostic &Kept = Result[It->second];
      llvm::StringSet<> Notes;
      for (const PrintedDiagnostic &N : Kept.Notes)
        Notes.insert(N.key());
      for (const PrintedDiagnostic &N : D.Notes)
        if (Notes.insert(N.key()).second)
          Kept.Notes.push_back(N);
    }
  llvm::stable_sort(Result, orderedBefore);
  return Result;
}

static bool isError(const PrintedDiagnostic &D) {
  return D.Severity == "error" || D.Severity == "fatal error";
}

bool hasErrors(llvm::ArrayRef<PrintedDiagnostic> Diagnostics) {
  return llvm::any_of(Diagnostics, isError);
}

/// The macro whose expansion \p Error lies in, when the macro's body writes
/// `#pragma`: its "expanded from macro" note.
static const PrintedDiagnostic *pragmaMacroNote(
    const PrintedDiagnostic &Error,
    const std::function<std::string(llvm::StringRef, unsigned)> &Text) {
  static const llvm::Regex Expanded("^expanded from macro '([A-Za-z_0-9]+)'$");
  static const llvm::Regex PragmaInBody(
      "^[ \t]*#[ \t]*define[ \t]+[A-Za-z_0-9]+(\\([^)]*\\))?[ \t].*#[ "
      "\t]*pragma([ \t]|$)");
  for (const PrintedDiagnostic &Note : Error.Notes) {
    if (!Expanded.match(Note.Message))
      continue;
    std::string Definition = Text(Note.File, Note.Line);
    // One logical line: continuation lines joined.
    std::string Joined;
    for (llvm::StringRef Rest = Definition; !Rest.empty();) {
      auto [Line, Next] = Rest.split('\n');
      Joined += Line.rtrim().rtrim('\\').str() + " ";
      Rest = Next;
    }
    if (PragmaInBody.match(Joined))
      return &Note;
  }
  return nullptr;
}

unsigned foldNvccOnlySyntax(
    std::vector<PrintedDiagnostic> &Diagnostics,
    const std::function<std::string(llvm::StringRef, unsigned)>
        &DefinitionText) {
  // Each cause's line takes the place of its first error, so that the order
  // the caller chose (per file, in database order) stays.
  std::map<std::string, size_t> Causes; // by the macro definition's place
  std::vector<PrintedDiagnostic> Kept;
  unsigned Folded = 0;
  for (PrintedDiagnostic &D : Diagnostics) {
    const PrintedDiagnostic *Macro =
        isError(D) && (D.Check.empty() || D.Check == "clang-diagnostic-error")
            ? pragmaMacroNote(D, DefinitionText)
            : nullptr;
    if (!Macro) {
      Kept.push_back(std::move(D));
      continue;
    }
    ++Folded;
    if (!Causes.try_emplace(Macro->File + ":" + std::to_string(Macro->Line),
                            Kept.size())
             .second)
      continue;
    static const llvm::Regex Name("'([A-Za-z_0-9]+)'");
    llvm::SmallVector<llvm::StringRef, 2> M;
    Name.match(Macro->Message, &M);
    PrintedDiagnostic Line;
    Line.File = Macro->File;
    Line.Line = Macro->Line;
    Line.Column = Macro->Column;
    Line.Severity = "warning";
    Line.Check = NvccOnlySyntaxName;
    Line.Message =
        "clang cannot parse macro '" + M[1].str() +
        "', whose body writes '#pragma': nvcc accepts it, clang does not "
        "(write _Pragma(\"...\"), which both accept); cuda-* findings in "
        "the code that expands it may be incomplete";
    Line.Lines = {Line.File + ":" + std::to_string(Line.Line) + ":" +
                  std::to_string(Line.Column) + ": warning: " + Line.Message +
                  " [" + NvccOnlySyntaxName + "]"};
    Kept.push_back(std::move(Line));
  }
  Diagnostics = std::move(Kept);
  return Folded;
}

std::string renderText(llvm::ArrayRef<PrintedDiagnostic> Diagnostics) {
  std::string Out;
  for (const PrintedDiagnostic &D : Diagnostics) {
    for (const std::string &Line : D.Lines)
      Out += Line + "\n";
    for (const PrintedDiagnostic &N : D.Notes)
      for (const std::string &Line : N.Lines)
        Out += Line + "\n";
  }
  return Out;
}

/// GitHub's workflow-command escaping: data, and property values.
static std::string githubEscape(llvm::StringRef Text, bool Property) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '%': Out += "%25"; break;
    case '\r': Out += "%0D"; break;
    case '\n': Out += "%0A"; break;
    case ':': Out += Property ? "%3A" : ":"; break;
    case ',': Out += Property ? "%2C" : ","; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string renderGithub(llvm::ArrayRef<PrintedDiagnostic> Diagnostics) {
  std::string Out;
  for (const PrintedDiagnostic &D : Diagnostics) {
    std::string Message = D.Message;
    for (const PrintedDiagnostic &N : D.Notes)
      Message += "\nnote: " + N.File + ":" + std::to_string(N.Line) + ":" +
                 std::to_string(N.Column) + ": " + N.Message;
    llvm::StringRef Command =
        D.Severity == "error" || D.Severity == "fatal error" ? "error"
        : D.Severity == "warning"                              ? "warning"
                                                               : "notice";
    Out += "::" + Command.str() + " file=" + githubEscape(D.File, true) +
           ",line=" + std::to_string(D.Line) +
           ",col=" + std::to_string(D.Column);
    if (!D.Check.empty())
      Out += ",title=" + githubEscape(D.Check, true);
    Out += "::" + githubEscape(Message, false) + "\n";
  }
  return Out;
}

llvm::Expected<clang::tooling::TranslationUnitDiagnostics>
readExportedFixes(llvm::StringRef Yaml) {
  clang::tooling::TranslationUnitDiagnostics Result;
  if (Yaml.trim().empty())
    return Result;
  llvm::yaml::Input In(Yaml, /*Ctxt=*/nullptr,
                       [](const llvm::SMDiagnostic &, void *) {});
  In >> Result;
  if (In.error())
    return llvm::createStringError(In.error(),
                                   "malformed exported fixes: %s",
                                   In.error().message().c_str());
  return Result;
}

static std::string fixKey(const clang::tooling::Diagnostic &D) {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  OS << D.DiagnosticName << '\x1f' << D.Message.Message << '\x1f'
     << D.Message.FilePath << '\x1f' << D.Message.FileOffset;
  std::vector<std::string> Files;
  for (const auto &Entry : D.Message.Fix)
    Files.push_back(Entry.getKey().str());
  llvm::sort(Files);
  for (const std::string &File : Files)
    for (const clang::tooling::Replacement &R : D.Message.Fix.lookup(File))
      OS << '\x1f' << R.getFilePath() << ':' << R.getOffset() << ':'
         << R.getLength() << ':' << R.getReplacementText();
  return Key;
}

clang::tooling::TranslationUnitDiagnostics mergeExportedFixes(
    llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> Parts) {
  clang::tooling::TranslationUnitDiagnostics Result;
  llvm::StringSet<> Seen;
  for (const clang::tooling::TranslationUnitDiagnostics &Part : Parts) {
    if (Result.MainSourceFile.empty())
      Result.MainSourceFile = Part.MainSourceFile;
    else if (Part.MainSourceFile != Result.MainSourceFile &&
             !Part.MainSourceFile.empty())
      Result.MainSourceFile = "";
    for (const clang::tooling::Diagnostic &D : Part.Diagnostics)
      if (Seen.insert(fixKey(D)).second)
        Result.Diagnostics.push_back(D);
  }
  return Result;
}

std::string
writeExportedFixes(const clang::tooling::TranslationUnitDiagnostics &Fixes) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output Out(OS);
  auto Copy = Fixes; // yaml::Output needs a mutable object.
  Out << Copy;
  OS.flush();
  return Text;
}

std::string ruleHelpUri(llvm::StringRef Check, llvm::StringRef DocsBase) {
  if (Check.starts_with("cuda-"))
    return (DocsBase + Check + ".md").str();
  if (Check.starts_with("clang-diagnostic-") || Check.empty())
    return "https://clang.llvm.org/docs/DiagnosticsReference.html";
  auto [Module, Name] = Check.split('-');
  if (Module == "clang" && Name.starts_with("analyzer-"))
    return "https://clang.llvm.org/extra/clang-tidy/checks/clang-analyzer/" +
           Name.drop_front(strlen("analyzer-")).str() + ".html";
  return ("https://clang.llvm.org/extra/clang-tidy/checks/" + Module + "/" +
          Name + ".html")
      .str();
}

std::string artifactUri(llvm::StringRef Path) {
  std::string Out;
  bool Absolute = llvm::sys::path::is_absolute(Path, llvm::sys::path::Style::posix);
  if (Absolute)
    Out = "file://";
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else {
      static const char Hex[] = "0123456789ABCDEF";
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

/// Whether the printed path \p Printed and the exported \p Exported name
/// the same file (one may be relative to the build directory).
static bool samePath(llvm::StringRef Printed, llvm::StringRef Exported) {
  if (Printed == Exported)
    return true;
  llvm::StringRef Longer = Printed.size() > Exported.size() ? Printed : Exported;
  llvm::StringRef Shorter = Printed.size() > Exported.size() ? Exported : Printed;
  Shorter.consume_front("./");
  return Longer.ends_with(("/" + Shorter).str());
}

static llvm::json::Object physicalLocation(const PrintedDiagnostic &D) {
  return llvm::json::Object{
      {"artifactLocation", llvm::json::Object{{"uri", artifactUri(D.File)}}},
      {"region", llvm::json::Object{{"startLine", D.Line},
                                    {"startColumn", D.Column}}}};
}

std::string renderSarif(llvm::ArrayRef<PrintedDiagnostic> Diagnostics,
                        const clang::tooling::TranslationUnitDiagnostics &Fixes,
                        llvm::StringRef ToolVersion, llvm::StringRef DocsBase) {
  std::vector<std::string> RuleIds;
  for (const PrintedDiagnostic &D : Diagnostics)
    if (!D.Check.empty())
      RuleIds.push_back(D.Check);
  llvm::sort(RuleIds);
  RuleIds.erase(std::unique(RuleIds.begin(), RuleIds.end()), RuleIds.end());

  llvm::json::Array Rules;
  for (const std::string &Id : RuleIds)
    Rules.push_back(llvm::json::Object{
        {"id", Id},
        {"name", Id},
        {"helpUri", ruleHelpUri(Id, DocsBase)}});

  std::vector<bool> Used(Fixes.Diagnostics.size(), false);
  llvm::json::Array Results;
  for (const PrintedDiagnostic &D : Diagnostics) {
    llvm::json::Object Result;
    if (!D.Check.empty()) {
      Result["ruleId"] = D.Check;
      Result["ruleIndex"] = static_cast<int64_t>(
          llvm::lower_bound(RuleIds, D.Check) - RuleIds.begin());
    }
    Result["level"] = D.Severity == "warning" ? "warning"
                      : D.Severity == "note" || D.Severity == "remark"
                          ? "note"
                          : "error";
    Result["message"] = llvm::json::Object{{"text", D.Message}};
    Result["locations"] = llvm::json::Array{
        llvm::json::Object{{"physicalLocation", physicalLocation(D)}}};
    if (!D.Notes.empty()) {
      llvm::json::Array Related;
      int64_t Id = 0;
      for (const PrintedDiagnostic &N : D.Notes)
        Related.push_back(llvm::json::Object{
            {"id", Id++},
            {"physicalLocation", physicalLocation(N)},
            {"message", llvm::json::Object{{"text", N.Message}}}});
      Result["relatedLocations"] = std::move(Related);
    }
    // The exported diagnostic of this finding: same check, message, file.
    for (size_t I = 0; I < Fixes.Diagnostics.size(); ++I) {
      const clang::tooling::Diagnostic &E = Fixes.Diagnostics[I];
      if (Used[I] || E.DiagnosticName != D.Check ||
          E.Message.Message != D.Message ||
          !samePath(D.File, E.Message.FilePath))
        continue;
      Used[I] = true;
      llvm::json::Array Changes;
      std::vector<std::string> Files;
      for (const auto &Entry : E.Message.Fix)
        Files.push_back(Entry.getKey().str());
      llvm::sort(Files);
      for (const std::string &File : Files) {
        llvm::json::Array Replacements;
        for (const clang::tooling::Replacement &R : E.Message.Fix.lookup(File))
          Replacements.push_back(llvm::json::Object{
              {"deletedRegion",
               llvm::json::Object{{"charOffset", R.getOffset()},
                                  {"charLength", R.getLength()}}},
              {"insertedContent",
               llvm::json::Object{{"text", R.getReplacementText()}}}});
        if (Replacements.empty())
          continue;
        Changes.push_back(llvm::json::Object{
            {"artifactLocation", llvm::json::Object{{"uri", artifactUri(File)}}},
            {"replacements", std::move(Replacements)}});
      }
      if (!Changes.empty())
        Result["fixes"] = llvm::json::Array{llvm::json::Object{
            {"description", llvm::json::Object{{"text", D.Message}}},
            {"artifactChanges", std::move(Changes)}}};
      break;
    }
    Results.push_back(std::move(Result));
  }

  llvm::json::Object Driver{{"name", "cuda-lambda-tidy"},
                            {"rules", std::move(Rules)}};
  if (!ToolVersion.empty())
    Driver["version"] = ToolVersion;
  return writeSarifLog(std::move(Driver), std::move(Results));
}

std::string writeSarifLog(llvm::json::Object Driver, llvm::json::Array Results,
                          llvm::StringRef Schema, llvm::StringRef ColumnKind) {
  llvm::json::Object Log{
      {"$schema", Schema},
      {"version", "2.1.0"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
           {"columnKind", ColumnKind},
           {"results", std::move(Results)}}}}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
  OS.flush();
  return Text;
}

} // namespace cuda_lambda_tidy

//===--- TidyOutputTest.cpp - cuda-lambda-tidy --------------------------===//

#include "TidyOutput.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"
#include <functional>
#include <map>

using namespace cuda_lambda_tidy;

namespace {

const char *DevicePass =
    "/src/a.cu:12:7: warning: lambda captures 'x' by reference [cuda-lambda-reference-capture]\n"
    "   12 |   f([&] { x; });\n"
    "      |       ^\n"
    "/src/a.cu:10:3: note: 'x' declared here\n"
    "   10 |   int x;\n"
    "      |   ^\n"
    "/src/a.cu:20:1: warning: only on the device [cuda-foo]\n";

const char *HostPass =
    "/src/a.cu:12:7: warning: lambda captures 'x' by reference [cuda-lambda-reference-capture]\n"
    "   12 |   f([&] { x; });\n"
    "      |       ^\n"
    "/src/a.cu:10:3: note: 'x' declared here\n"
    "   10 |   int x;\n"
    "      |   ^\n"
    "/src/a.cu:5:2: error: only on the host [cuda-bar,-warnings-as-errors]\n";

TEST(TidyOutput, ParsesWarningsNotesAndExcerpts) {
  std::vector<std::string> Preamble;
  auto D = parseDiagnostics(std::string("banner\n") + DevicePass, &Preamble);
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(Preamble, std::vector<std::string>{"banner"});
  EXPECT_EQ(D[0].File, "/src/a.cu");
  EXPECT_EQ(D[0].Line, 12u);
  EXPECT_EQ(D[0].Column, 7u);
  EXPECT_EQ(D[0].Severity, "warning");
  EXPECT_EQ(D[0].Message, "lambda captures 'x' by reference");
  EXPECT_EQ(D[0].Check, "cuda-lambda-reference-capture");
  EXPECT_EQ(D[0].Lines.size(), 3u);
  ASSERT_EQ(D[0].Notes.size(), 1u);
  EXPECT_EQ(D[0].Notes[0].Message, "'x' declared here");
  EXPECT_EQ(D[0].Notes[0].Lines.size(), 3u);
  auto H = parseDiagnostics(HostPass);
  EXPECT_EQ(H[1].Check, "cuda-bar");
  EXPECT_EQ(H[1].Severity, "error");
}

TEST(TidyOutput, MergesPassesOnceInOrder) {
  auto Merged =
      mergeDiagnostics({parseDiagnostics(DevicePass), parseDiagnostics(HostPass)});
  ASSERT_EQ(Merged.size(), 3u);
  EXPECT_EQ(Merged[0].Line, 5u);
  EXPECT_EQ(Merged[1].Line, 12u);
  EXPECT_EQ(Merged[1].Notes.size(), 1u);
  EXPECT_EQ(Merged[2].Line, 20u);
  // Either order of passes gives the same text.
  EXPECT_EQ(renderText(Merged),
            renderText(mergeDiagnostics(
                {parseDiagnostics(HostPass), parseDiagnostics(DevicePass)})));
  std::string Text = renderText(Merged);
  EXPECT_EQ(Text.find("12:7: warning"), Text.rfind("12:7: warning"));
}

// A header included by many translation units, through include paths that
// spell it differently, is one finding, printed once.
TEST(TidyOutput, OneHeaderFindingFromManyTranslationUnitsIsOne) {
  const char *FirstUnit =
      "/p/core/src/../include/h.hpp:3:5: warning: w [cuda-foo]\n"
      "/p/core/a.cu:1:1: warning: a [cuda-foo]\n";
  const char *SecondUnit =
      "/p/core/include/h.hpp:3:5: warning: w [cuda-foo]\n"
      "/p/core/./include/h.hpp:3:5: warning: w [cuda-foo]\n"
      "/p/core/b.cu:1:1: warning: b [cuda-foo]\n";
  auto Merged = mergeDiagnostics(
      {parseDiagnostics(FirstUnit), parseDiagnostics(SecondUnit)});
  ASSERT_EQ(Merged.size(), 3u);
  EXPECT_EQ(Merged[2].File, "/p/core/include/h.hpp");
  EXPECT_EQ(Merged[0].File, "/p/core/a.cu");
}

/// The source text foldNvccOnlySyntax() reads, from lines keyed "FILE:LINE".
std::function<std::string(llvm::StringRef, unsigned)>
linesOf(std::map<std::string, std::string> Lines) {
  return [Lines = std::move(Lines)](llvm::StringRef File, unsigned Line) {
    auto Found = Lines.find(File.str() + ":" + std::to_string(Line));
    return Found == Lines.end() ? std::string() : Found->second;
  };
}

// `#define UNROLL #pragma unroll`: nvcc accepts it, clang reports an error at
// every expansion. One warning for the macro stands for them all; other
// errors stay.
TEST(TidyOutput, FoldsErrorsOnPragmaInMacroBodies) {
  const char *Printed =
      "/s/a.cu:10:3: error: expected expression [clang-diagnostic-error]\n"
      "   10 |   UNROLL\n"
      "/s/h.h:2:16: note: expanded from macro 'UNROLL'\n"
      "/s/a.cu:20:3: error: expected expression [clang-diagnostic-error]\n"
      "/s/h.h:2:16: note: expanded from macro 'UNROLL'\n"
      "/s/a.cu:30:3: error: expected expression [clang-diagnostic-error]\n"
      "/s/h.h:5:16: note: expanded from macro 'PLAIN'\n"
      "/s/a.cu:40:3: warning: a finding [cuda-foo]\n";
  const auto Text =
      linesOf({{"/s/h.h:2", "#define UNROLL \\\n  #pragma unroll\n"},
               {"/s/h.h:5", "#define PLAIN (1 +)\n"}});
  auto D = parseDiagnostics(Printed);
  EXPECT_EQ(foldNvccOnlySyntax(D, Text), 2u);
  // In the order given: the macro's line where its first error was.
  ASSERT_EQ(D.size(), 3u);
  EXPECT_EQ(D[0].File, "/s/h.h");
  EXPECT_EQ(D[0].Line, 2u);
  EXPECT_EQ(D[0].Severity, "warning");
  EXPECT_EQ(D[0].Check, NvccOnlySyntaxName);
  EXPECT_NE(D[0].Message.find("clang cannot parse macro 'UNROLL'"),
            std::string::npos);
  ASSERT_EQ(D[0].Lines.size(), 1u);
  EXPECT_EQ(D[0].Lines[0].rfind("/s/h.h:2:16: warning: clang cannot parse", 0),
            0u);
  EXPECT_EQ(D[1].File, "/s/a.cu");
  EXPECT_EQ(D[1].Line, 30u); // a real error stays an error
  EXPECT_TRUE(hasErrors(D));
  EXPECT_EQ(D[2].Line, 40u);
  // Without the real error, none is left.
  D = parseDiagnostics(Printed);
  D.erase(D.begin() + 2);
  foldNvccOnlySyntax(D, Text);
  EXPECT_FALSE(hasErrors(D));
}

// A function-like macro's parameter list before the body.
TEST(TidyOutput, FoldsErrorsOnPragmaInFunctionLikeMacroBodies) {
  const char *Printed =
      "/s/a.cu:10:3: error: expected expression [clang-diagnostic-error]\n"
      "/s/h.h:3:16: note: expanded from macro 'UNROLL_BY'\n";
  const auto Text =
      linesOf({{"/s/h.h:3",
                "#define UNROLL_BY(n, m) \\\n  #pragma unroll n\n"}});
  auto D = parseDiagnostics(Printed);
  EXPECT_EQ(foldNvccOnlySyntax(D, Text), 1u);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_NE(D[0].Message.find("clang cannot parse macro 'UNROLL_BY'"),
            std::string::npos);
  EXPECT_FALSE(hasErrors(D));
}

TEST(TidyOutput, GithubAnnotations) {
  auto D = parseDiagnostics(
      "/s/a,b.cu:3:4: warning: 100% wrong: x [cuda-foo]\n"
      "/s/a,b.cu:1:1: note: here\n"
      "/s/c.cu:9:2: error: bad [cuda-bar]\n");
  EXPECT_EQ(renderGithub(D),
            "::warning file=/s/a%2Cb.cu,line=3,col=4,title=cuda-foo::100%25 "
            "wrong: x%0Anote: /s/a,b.cu:1:1: here\n"
            "::error file=/s/c.cu,line=9,col=2,title=cuda-bar::bad\n");
}

const char *Exported = R"(---
MainSourceFile:  '/src/a.cu'
Diagnostics:
  - DiagnosticName:  cuda-foo
    DiagnosticMessage:
      Message:         only on the device
      FilePath:        '/src/a.cu'
      FileOffset:      40
      Replacements:
        - FilePath:        '/src/a.cu'
          Offset:          40
          Length:          3
          ReplacementText: '[=]'
    Level:           Warning
    BuildDirectory:  '/src'
...
)";

TEST(TidyOutput, ExportedFixesMergeOnce) {
  auto A = readExportedFixes(Exported);
  ASSERT_TRUE(static_cast<bool>(A));
  ASSERT_EQ(A->Diagnostics.size(), 1u);
  auto Merged = mergeExportedFixes({*A, *A});
  EXPECT_EQ(Merged.Diagnostics.size(), 1u);
  EXPECT_EQ(Merged.MainSourceFile, "/src/a.cu");
  auto Again = readExportedFixes(writeExportedFixes(Merged));
  ASSERT_TRUE(static_cast<bool>(Again));
  ASSERT_EQ(Again->Diagnostics.size(), 1u);
  EXPECT_EQ(Again->Diagnostics[0].Message.Fix.lookup("/src/a.cu").size(), 1u);
  EXPECT_FALSE(static_cast<bool>(readExportedFixes("Diagnostics: [")));
  auto Empty = readExportedFixes("");
  ASSERT_TRUE(static_cast<bool>(Empty));
  EXPECT_TRUE(Empty->Diagnostics.empty());
}

TEST(TidyOutput, RuleHelpAndUris) {
  EXPECT_EQ(ruleHelpUri("cuda-foo", "file:///d/"), "file:///d/cuda-foo.md");
  EXPECT_EQ(ruleHelpUri("bugprone-use-after-move", ""),
            "https://clang.llvm.org/extra/clang-tidy/checks/bugprone/"
            "use-after-move.html");
  EXPECT_EQ(artifactUri("/a b/c.cu"), "file:///a%20b/c.cu");
  EXPECT_EQ(artifactUri("src/c.cu"), "src/c.cu");
}

TEST(TidyOutput, SarifHasResultsRulesAndFixes) {
  auto Fixes = readExportedFixes(Exported);
  ASSERT_TRUE(static_cast<bool>(Fixes));
  auto Diags = mergeDiagnostics({parseDiagnostics(DevicePass)});
  llvm::Expected<llvm::json::Value> Log =
      llvm::json::parse(renderSarif(Diags, *Fixes, "", "file:///docs/"));
  ASSERT_TRUE(static_cast<bool>(Log));
  const llvm::json::Object *Root = Log->getAsObject();
  EXPECT_EQ(*Root->getString("version"), "2.1.0");
  const llvm::json::Object *Run = Root->getArray("runs")->front().getAsObject();
  const llvm::json::Array *Rules =
      Run->getObject("tool")->getObject("driver")->getArray("rules");
  ASSERT_EQ(Rules->size(), 2u);
  EXPECT_EQ(*(*Rules)[0].getAsObject()->getString("id"), "cuda-foo");
  EXPECT_EQ(*(*Rules)[0].getAsObject()->getString("helpUri"),
            "file:///docs/cuda-foo.md");
  const llvm::json::Array *Results = Run->getArray("results");
  ASSERT_EQ(Results->size(), 2u);
  const llvm::json::Object *First = (*Results)[0].getAsObject();
  EXPECT_EQ(*First->getString("ruleId"), "cuda-lambda-reference-capture");
  EXPECT_EQ(*First->getInteger("ruleIndex"), 1);
  EXPECT_EQ(First->getArray("relatedLocations")->size(), 1u);
  EXPECT_EQ(First->getArray("fixes"), nullptr);
  const llvm::json::Object *Region = First->getArray("locations")
                                         ->front()
                                         .getAsObject()
                                         ->getObject("physicalLocation")
                                         ->getObject("region");
  EXPECT_EQ(*Region->getInteger("startLine"), 12);
  EXPECT_EQ(*Region->getInteger("startColumn"), 7);
  const llvm::json::Object *Second = (*Results)[1].getAsObject();
  const llvm::json::Array *SecondFixes = Second->getArray("fixes");
  ASSERT_NE(SecondFixes, nullptr);
  const llvm::json::Object *Change = SecondFixes->front()
                                         .getAsObject()
                                         ->getArray("artifactChanges")
                                         ->front()
                                         .getAsObject();
  const llvm::json::Object *Replacement =
      Change->getArray("replacements")->front().getAsObject();
  EXPECT_EQ(*Replacement->getObject("deletedRegion")->getInteger("charOffset"),
            40);
  EXPECT_EQ(*Replacement->getObject("deletedRegion")->getInteger("charLength"),
            3);
  EXPECT_EQ(*Replacement->getObject("insertedContent")->getString("text"),
            "[=]");
}

} // namespace

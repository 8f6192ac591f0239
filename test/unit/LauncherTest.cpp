#include "Launcher.h"
#include "NvccTranslation.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace cuda_lambda_tidy;
using Args = std::vector<std::string>;

namespace {

TEST(LauncherTest, OptionsThenCommand) {
  LauncherOptions O = parseLauncherCommandLine(
      {"--mode=warn", "--checks=-*,cuda-lambda-*", "--tidy-arg=--cuda-pass=device",
       "ccache", "/usr/local/cuda/bin/nvcc", "-c", "a.cu"},
      std::nullopt, std::nullopt);
  EXPECT_EQ(O.Error, "");
  EXPECT_EQ(O.Mode, LauncherMode::Warn);
  EXPECT_EQ(O.TidyArgs, (Args{"--checks=-*,cuda-lambda-*", "--cuda-pass=device"}));
  EXPECT_EQ(O.Command, (Args{"ccache", "/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  // After `--`, a word starting with '-' is the command's.
  O = parseLauncherCommandLine({"--", "-weird", "x"}, std::nullopt, std::nullopt);
  EXPECT_EQ(O.Command, (Args{"-weird", "x"}));
}

TEST(LauncherTest, EnvironmentLosesToTheCommandLine) {
  LauncherOptions O = parseLauncherCommandLine(
      {"nvcc", "-c", "a.cu"}, std::string("warn"),
      std::string("--checks='-*,cuda-*' --warnings-as-errors=cuda-*"));
  EXPECT_EQ(O.Mode, LauncherMode::Warn);
  EXPECT_EQ(O.TidyArgs, (Args{"--checks=-*,cuda-*", "--warnings-as-errors=cuda-*"}));
  O = parseLauncherCommandLine({"--mode=error", "nvcc"}, std::string("off"),
                               std::nullopt);
  EXPECT_EQ(O.Mode, LauncherMode::Error);
  // An empty variable is no setting.
  O = parseLauncherCommandLine({"nvcc"}, std::string(""), std::nullopt);
  EXPECT_EQ(O.Mode, LauncherMode::Error);
}

TEST(LauncherTest, MalformedInput) {
  EXPECT_NE(parseLauncherCommandLine({"--mode=loud", "nvcc"}, std::nullopt,
                                     std::nullopt).Error, "");
  EXPECT_NE(parseLauncherCommandLine({"nvcc"}, std::string("strict"),
                                     std::nullopt).Error, "");
  EXPECT_NE(parseLauncherCommandLine({"--frobnicate", "nvcc"}, std::nullopt,
                                     std::nullopt).Error, "");
  EXPECT_NE(parseLauncherCommandLine({"--mode=warn"}, std::nullopt,
                                     std::nullopt).Error, "");
  EXPECT_TRUE(parseLauncherCommandLine({"--help"}, std::nullopt, std::nullopt).Help);
}

TEST(LauncherTest, FindsNvccAfterLaunchers) {
  EXPECT_EQ(nvccPosition({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}), 0u);
  EXPECT_EQ(nvccPosition({"ccache", "nvcc", "-c", "a.cu"}), 1u);
  EXPECT_EQ(nvccPosition({"distcc", "ccache", "nvcc.exe"}), 2u);
  EXPECT_EQ(nvccPosition({"kokkos/bin/nvcc_wrapper", "-c", "a.cpp"}), 0u);
  EXPECT_EQ(nvccPosition({"clang++", "-x", "cuda", "nvcc"}), std::nullopt);
  EXPECT_EQ(nvccPosition({"g++", "-c", "a.cpp"}), std::nullopt);
}

TEST(LauncherTest, CommandsThatCompileNothing) {
  EXPECT_TRUE(nvccCompilesNothing({"-dlink", "a.o", "-o", "d.o"}));
  EXPECT_TRUE(nvccCompilesNothing({"--device-link", "a.o"}));
  EXPECT_TRUE(nvccCompilesNothing({"-E", "a.cu"}));
  EXPECT_TRUE(nvccCompilesNothing({"--generate_dependencies", "a.cu"}));
  EXPECT_TRUE(nvccCompilesNothing({"--version"}));
  EXPECT_FALSE(nvccCompilesNothing({"-MD", "-MT", "a.o", "-MF", "a.d", "-x",
                                    "cu", "-c", "a.cu", "-o", "a.o"}));
}

TEST(LauncherTest, ObjectFileOfTheCommand) {
  using Out = std::optional<std::string>;
  // CMake's form.
  EXPECT_EQ(nvccOutputOf({"-MD", "-MT", "a.o", "-MF", "a.d", "-x", "cu", "-c",
                          "/s/a.cu", "-o", "CMakeFiles/a.o"},
                         {"/s/a.cu"}),
            Out("CMakeFiles/a.o"));
  EXPECT_EQ(nvccOutputOf({"-c", "a.cu", "-o=b.o"}, {"a.cu"}), Out("b.o"));
  EXPECT_EQ(nvccOutputOf({"-c", "a.cu", "--output-file", "c.o"}, {"a.cu"}),
            Out("c.o"));
  EXPECT_EQ(nvccOutputOf({"-c", "a.cu", "--output_file=d.o"}, {"a.cu"}),
            Out("d.o"));
  // -odir is another option.
  EXPECT_EQ(nvccOutputOf({"-c", "src/a.cu", "-odir", "x"}, {"src/a.cu"}),
            Out("a.o"));
  EXPECT_EQ(nvccOutputOf({"--compile", "src/k.cu"}, {"src/k.cu"}),
            Out("k.o"));
  // Not known: a link (a.out), several sources, a dangling -o.
  EXPECT_EQ(nvccOutputOf({"a.cu"}, {"a.cu"}), std::nullopt);
  EXPECT_EQ(nvccOutputOf({"-c", "a.cu", "b.cu"}, {"a.cu", "b.cu"}),
            std::nullopt);
  EXPECT_EQ(nvccOutputOf({"-c", "a.cu", "-o"}, {"a.cu"}), std::nullopt);
}

TEST(LauncherTest, CudaSourcesOfTheCommand) {
  NvccEnvironment Env;
  Env.ReadFile = [](llvm::StringRef) { return std::nullopt; };
  TranslatedCommand T = translateNvccCommand(
      {"nvcc", "-I", "inc", "-x", "cu", "-c", "/s/a.cpp", "-o", "a.o", "-MF", "a.d"},
      "/b", Env);
  EXPECT_EQ(T.Inputs, (Args{"/s/a.cpp"}));
  EXPECT_EQ(cudaSourcesOf(T.Inputs, true), (Args{"/s/a.cpp"}));
  EXPECT_EQ(cudaSourcesOf({"a.cu", "b.cpp", "c.o"}, false), (Args{"a.cu"}));
  EXPECT_EQ(cudaSourcesOf({"a.cu", "b.cpp", "c.o", "libd.a"}, true),
            (Args{"a.cu", "b.cpp"}));
}

TEST(LauncherTest, LintArguments) {
  EXPECT_EQ(launcherLintArgs({}), (Args{"--checks=-*,cuda-*", "--quiet",
                                        "--no-preamble-cache"}));
  EXPECT_EQ(launcherLintArgs({"--checks=cuda-lambda-*", "--cuda-pass=device"}),
            (Args{"--quiet", "--no-preamble-cache", "--checks=cuda-lambda-*",
                  "--cuda-pass=device"}));
}

TEST(LauncherTest, OneEntryPerSource) {
  std::string Json = launcherDatabase(
      "/b", {"nvcc", "-c", "a.cu", "b.cu", "-o", "x.o"}, {"a.cu", "b.cu"});
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V));
  const llvm::json::Array &Entries = *V->getAsArray();
  ASSERT_EQ(Entries.size(), 2u);
  const llvm::json::Object &Second = *Entries[1].getAsObject();
  EXPECT_EQ(*Second.getString("file"), "b.cu");
  EXPECT_EQ(*Second.getString("directory"), "/b");
  Args Arguments;
  for (const llvm::json::Value &A : *Second.getArray("arguments"))
    Arguments.push_back(A.getAsString()->str());
  EXPECT_EQ(Arguments, (Args{"nvcc", "-c", "b.cu", "-o", "x.o"}));
}

TEST(LauncherTest, FindingsAreChecksNotCompilerErrors) {
  std::vector<PrintedDiagnostic> D = parseDiagnostics(
      "a.cu:3:5: warning: x [cuda-lambda-this-capture]\n"
      "a.cu:4:5: note: y\n"
      "a.cu:9:1: error: z [clang-diagnostic-error]\n"
      "a.cu:10:1: warning: w [nvcc-only-syntax]\n"
      "a.cu:11:1: error: v [bugprone-foo,-warnings-as-errors]\n");
  EXPECT_EQ(countFindings(D), 2u);
}

TEST(LauncherTest, StatisticsAreChatter) {
  EXPECT_TRUE(isLintChatter("3 warnings generated."));
  EXPECT_TRUE(isLintChatter("1 warning and 2 errors generated."));
  EXPECT_TRUE(isLintChatter("Suppressed 12 warnings (12 in non-user code)."));
  EXPECT_TRUE(isLintChatter("Use -header-filter=.* to display errors from all "
                            "non-system headers. Use -system-headers to display "
                            "errors from system headers as well."));
  EXPECT_FALSE(isLintChatter("cuda-lambda-tidy: warning: dropped nvcc flag '-foo'"));
  EXPECT_FALSE(isLintChatter("Error while processing /s/a.cu."));
}

} // namespace

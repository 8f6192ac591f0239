//===--- DefaultChecksTest.cpp --------------------------------------------===//
//
// The drop-in enables the cuda-* checks only when nobody chose checks: not
// with --checks, a Checks in --config or --config-file, or in a .clang-tidy
// above a source (DefaultChecks.h).
//
//===----------------------------------------------------------------------===//

#include "DefaultChecks.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace cuda_lambda_tidy;

namespace {

class DefaultChecksTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("default-checks", Root));
    ASSERT_FALSE(llvm::sys::fs::create_directories(path("src/sub")));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  std::string path(llvm::StringRef Relative) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Relative);
    return P.str().str();
  }
  void write(llvm::StringRef Relative, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream Out(path(Relative), EC);
    ASSERT_FALSE(EC);
    Out << Text;
  }
  std::vector<std::string> args(std::vector<std::string> Options) {
    Options.push_back(path("src/sub/a.cu"));
    return Options;
  }
  /// withDefaultChecks on the command line \p Given, as an argument vector.
  static std::vector<std::string>
  withDefaults(const std::vector<std::string> &Given,
               llvm::ArrayRef<std::string> DatabaseSources = {}) {
    return withDefaultChecks(ToolCommandLine::parse(Given), DatabaseSources)
        .args();
  }
  llvm::SmallString<256> Root;
};

const std::string Default = "--checks=-*,cuda-*";

TEST_F(DefaultChecksTest, NothingConfiguredGivesTheCudaChecks) {
  std::vector<std::string> Result = withDefaults(args({"-p", "build"}));
  ASSERT_EQ(Result.size(), 4u);
  EXPECT_EQ(Result.front(), Default);
  EXPECT_EQ(Result[1], "-p");
}

TEST_F(DefaultChecksTest, ChecksOnTheCommandLineWin) {
  for (std::vector<std::string> Options :
       {std::vector<std::string>{"--checks=bugprone-*"},
        {"-checks=bugprone-*"},
        {"-checks", "bugprone-*"},
        {"--checks="}}) {
    std::vector<std::string> Given = args(Options);
    EXPECT_EQ(withDefaults(Given), Given) << Options.front();
  }
}

TEST_F(DefaultChecksTest, ClangTidyFileWithChecksWins) {
  write("src/.clang-tidy", "Checks: 'bugprone-*'\n");
  std::vector<std::string> Given = args({"--warnings-as-errors=cuda-*"});
  EXPECT_EQ(withDefaults(Given), Given);
}

TEST_F(DefaultChecksTest, ClangTidyFileWithoutChecksDoesNot) {
  write("src/.clang-tidy", "WarningsAsErrors: 'cuda-*'\n");
  EXPECT_EQ(withDefaults(args({})).front(), Default);
}

TEST_F(DefaultChecksTest, InheritParentConfigReadsTheParent) {
  write(".clang-tidy", "Checks: '-*,cuda-lambda-*'\n");
  write("src/sub/.clang-tidy", "InheritParentConfig: true\n");
  std::vector<std::string> Given = args({});
  EXPECT_EQ(withDefaults(Given), Given);
  // Without inheriting, the nearer file is the whole configuration.
  write("src/sub/.clang-tidy", "HeaderFilterRegex: '.*'\n");
  EXPECT_EQ(withDefaults(Given).front(), Default);
}

TEST_F(DefaultChecksTest, ConfigOptionAndConfigFile) {
  write("src/.clang-tidy", "Checks: 'bugprone-*'\n");
  // --config replaces the files: without Checks, nothing chose them.
  EXPECT_EQ(withDefaults(args({"--config={HeaderFilterRegex: '.*'}"}))
                .front(),
            Default);
  std::vector<std::string> Given = args({"--config={Checks: 'cuda-*'}"});
  EXPECT_EQ(withDefaults(Given), Given);
  write("tidy.yaml", "Checks: 'modernize-*'\n");
  Given = args({"--config-file", path("tidy.yaml")});
  EXPECT_EQ(withDefaults(Given), Given);
  write("tidy.yaml", "HeaderFilterRegex: '.*'\n");
  EXPECT_EQ(withDefaults(args({"--config-file=" + path("tidy.yaml")}))
                .front(),
            Default);
}

TEST_F(DefaultChecksTest, DatabaseSourcesWhenNoneAreNamed) {
  write("src/.clang-tidy", "Checks: 'bugprone-*'\n");
  std::vector<std::string> Given = {"-p", path("build")};
  EXPECT_EQ(withDefaults(Given, {path("src/sub/a.cu")}), Given);
  EXPECT_EQ(withDefaults(Given, {path("b.cu")}).front(), Default);
}

} // namespace

//===--- PreambleCacheTest.cpp - cuda-lambda-tidy -----------------------===//
//
// Where the preamble the cache precompiles ends (PreambleCache.h): after the
// leading #include lines, comments and blank lines, at the start of a line.
// Where the headers a cached preamble names are kept: below the cache
// directory, which is absolute even when given relative.
//
//===----------------------------------------------------------------------===//

#include "PreambleCache.h"
#include "ResultsCache.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using cuda_lambda_tidy::FallbackHeader;
using cuda_lambda_tidy::includeLinesPrefix;

namespace {

TEST(PreambleCacheTest, IncludeLinesAndComments) {
  std::string Head = "// A file.\n/* more */\n\n#include <a.h>\n"
                     "  #  include \"b.h\" // why\n";
  EXPECT_EQ(includeLinesPrefix(Head + "int x;\n"), Head.size());
  EXPECT_EQ(includeLinesPrefix(Head), Head.size());
}

TEST(PreambleCacheTest, EndsBeforeOtherDirectives) {
  std::string Head = "#include <a.h>\n";
  EXPECT_EQ(includeLinesPrefix(Head + "#define X 1\n#include <b.h>\n"),
            Head.size());
  EXPECT_EQ(includeLinesPrefix(Head + "#ifdef __CUDA_ARCH__\n#endif\n"),
            Head.size());
  EXPECT_EQ(includeLinesPrefix(Head + "#include MACRO_HEADER\n"), Head.size());
  EXPECT_EQ(includeLinesPrefix(Head + "#include <b.h> int y;\n"), Head.size());
}

TEST(PreambleCacheTest, NoIncludeFirst) {
  EXPECT_EQ(includeLinesPrefix("int x;\n#include <a.h>\n"), 0u);
  EXPECT_EQ(includeLinesPrefix("// only a comment\n"), 0u);
  EXPECT_EQ(includeLinesPrefix("#pragma once\n#include <a.h>\n"), 0u);
  EXPECT_EQ(includeLinesPrefix("/* unterminated\n#include <a.h>\n"), 0u);
  EXPECT_EQ(includeLinesPrefix(""), 0u);
}

/// Runs the test's body in a fresh temporary directory as the working
/// directory, then goes back and removes it.
class InTemporaryDirectory : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::current_path(Before));
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("preamble-cache-test", Here));
    ASSERT_FALSE(llvm::sys::fs::set_current_path(Here));
  }
  void TearDown() override {
    llvm::sys::fs::set_current_path(Before);
    llvm::sys::fs::remove_directories(Here);
  }
  std::string read(llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  llvm::SmallString<256> Before, Here;
};

TEST_F(InTemporaryDirectory, CacheDirectoryIsAbsolute) {
  std::string Dir = cuda_lambda_tidy::cacheDirectory("relative/cache");
  EXPECT_TRUE(llvm::sys::path::is_absolute(Dir)) << Dir;
  EXPECT_TRUE(llvm::StringRef(Dir).ends_with("relative/cache")) << Dir;
}

TEST_F(InTemporaryDirectory, SupportDirectoryBelowARelativeCacheDir) {
  const FallbackHeader Headers[] = {{"include/a.h", "int a;\n"},
                                    {"b.h", "int b;\n"}};
  llvm::Expected<std::string> Dir =
      cuda_lambda_tidy::stableSupportDirectory("cache", "key 1", Headers);
  ASSERT_TRUE(bool(Dir)) << llvm::toString(Dir.takeError());
  EXPECT_TRUE(llvm::sys::path::is_absolute(*Dir)) << *Dir;
  // Below the cache directory named relative to the working directory, not
  // below the system's temporary directory.
  llvm::SmallString<256> Expected(Here);
  llvm::sys::path::append(Expected, "cache", "preambles", "support");
  EXPECT_EQ(llvm::sys::path::parent_path(*Dir), Expected.str());
  EXPECT_EQ(read(*Dir + "/include/a.h"), "int a;\n");
  EXPECT_EQ(read(*Dir + "/b.h"), "int b;\n");

  // Found again; another key, another directory.
  llvm::Expected<std::string> Again =
      cuda_lambda_tidy::stableSupportDirectory("cache", "key 1", Headers);
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(*Again, *Dir);
  llvm::Expected<std::string> Other =
      cuda_lambda_tidy::stableSupportDirectory("cache", "key 2", Headers);
  ASSERT_TRUE(bool(Other)) << llvm::toString(Other.takeError());
  EXPECT_NE(*Other, *Dir);

  // A header cut short is written again.
  {
    std::error_code EC;
    llvm::raw_fd_ostream Cut(*Dir + "/b.h", EC);
    ASSERT_FALSE(EC);
  }
  llvm::Expected<std::string> Mended =
      cuda_lambda_tidy::stableSupportDirectory("cache", "key 1", Headers);
  ASSERT_TRUE(bool(Mended)) << llvm::toString(Mended.takeError());
  EXPECT_EQ(*Mended, *Dir);
  EXPECT_EQ(read(*Dir + "/b.h"), "int b;\n");

  // No temporary directory left beside them.
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Expected, EC), End;
       !EC && It != End; It.increment(EC))
    EXPECT_FALSE(llvm::StringRef(It->path()).contains(".tmp")) << It->path();
}

TEST_F(InTemporaryDirectory, SupportFileBelowARelativeCacheDir) {
  llvm::Expected<std::string> Path =
      cuda_lambda_tidy::stableSupportFile("cache", "compat.h", "int c;\n");
  ASSERT_TRUE(bool(Path)) << llvm::toString(Path.takeError());
  EXPECT_TRUE(llvm::StringRef(*Path).starts_with(Here)) << *Path;
  EXPECT_TRUE(llvm::StringRef(*Path).ends_with("/compat.h")) << *Path;
  EXPECT_EQ(read(*Path), "int c;\n");
}

} // namespace

//===--- PreambleCacheTest.cpp - cuda-lambda-tidy -----------------------===//
//
// Where the preamble the cache precompiles ends (PreambleCache.h): after the
// leading #include lines, comments and blank lines, at the start of a line.
//
//===----------------------------------------------------------------------===//

#include "PreambleCache.h"
#include "gtest/gtest.h"

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

} // namespace

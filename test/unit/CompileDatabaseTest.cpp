#include "ChildRequest.h"
#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "llvm/Support/JSON.h"
#include <algorithm>
#include "gtest/gtest.h"

using namespace cuda_lambda_tidy;
using Args = std::vector<std::string>;

namespace {

NvccEnvironment env() {
  NvccEnvironment Env;
  Env.ReadFile = [](llvm::StringRef) { return std::nullopt; };
  Env.ToolkitOf = [](llvm::StringRef) {
    return std::optional<CudaToolkit>(CudaToolkit{"/usr/local/cuda", 13, 0});
  };
  return Env;
}

Args argumentsOf(const std::string &Json, size_t Index) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  EXPECT_TRUE(bool(V));
  Args Result;
  const llvm::json::Object *Entry = (*V->getAsArray())[Index].getAsObject();
  for (const llvm::json::Value &A : *Entry->getArray("arguments"))
    Result.push_back(A.getAsString()->str());
  return Result;
}

TEST(CompileDatabaseTest, TranslatesNvccEntriesOnly) {
  const char *Db = R"([
    {"directory": "/b", "file": "/s/a.cu",
     "command": "/usr/local/cuda/bin/nvcc -DX \"-DY=a b\" -arch=sm_90 -c /s/a.cu -o a.o"},
    {"directory": "/b", "file": "k.cu",
     "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_70", "-c", "k.cu"]},
    {"directory": "/b", "file": "/s/h.cpp", "command": "g++ -c /s/h.cpp"}
  ])";
  llvm::Expected<DatabaseTranslation> T =
      translateCompileDatabase(Db, env(), false);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->NvccEntries, 1u);
  EXPECT_TRUE(T->Warnings.empty());
  EXPECT_EQ(T->CudaFiles, (Args{"/s/a.cu", "/b/k.cu"}));
  Args First = argumentsOf(T->Json, 0);
  EXPECT_EQ(First.front(), "clang++");
  EXPECT_NE(std::find(First.begin(), First.end(), "-DY=a b"), First.end());
  EXPECT_NE(std::find(First.begin(), First.end(), "--cuda-gpu-arch=sm_90"),
            First.end());
  EXPECT_EQ(argumentsOf(T->Json, 1),
            (Args{"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_70", "-c",
                  "k.cu"}));
  EXPECT_EQ(argumentsOf(T->Json, 2), (Args{"g++", "-c", "/s/h.cpp"}));
}

TEST(CompileDatabaseTest, WarnsOncePerUnknownFlag) {
  const char *Db = R"([
    {"directory": "/b", "file": "a.cu", "command": "nvcc --bogus -c a.cu"},
    {"directory": "/b", "file": "b.cu", "command": "nvcc --bogus -c b.cu"}
  ])";
  llvm::Expected<DatabaseTranslation> T =
      translateCompileDatabase(Db, env(), false);
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(T->Warnings,
            Args{"dropped nvcc flag '--bogus': neither nvcc's table nor clang "
                 "knows it"});
}

TEST(CompileDatabaseTest, PluginFlags) {
  const char *Db = R"([
    {"directory": "/b", "file": "a.cu",
     "arguments": ["clang++", "-fplugin=/x.so", "-c", "a.cu"]}
  ])";
  llvm::Expected<DatabaseTranslation> T =
      translateCompileDatabase(Db, env(), false);
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(T->Warnings,
            Args{"removed '-fplugin=/x.so' from the command of 'a.cu': it "
                 "would load code into the tool (--allow-plugins keeps it)"});
  EXPECT_EQ(argumentsOf(T->Json, 0), (Args{"clang++", "-c", "a.cu"}));
  llvm::Expected<DatabaseTranslation> Kept =
      translateCompileDatabase(Db, env(), true);
  ASSERT_TRUE(bool(Kept));
  EXPECT_TRUE(Kept->Warnings.empty());
  EXPECT_EQ(argumentsOf(Kept->Json, 0),
            (Args{"clang++", "-fplugin=/x.so", "-c", "a.cu"}));
}

TEST(CompileDatabaseTest, BadDatabases) {
  for (const char *Db :
       {"", "[{", "{}", "[]", "[1]", R"([{"file": "a.cu", "command": "x"}])",
        R"([{"directory": "/", "file": "a.cu"}])",
        R"([{"directory": "/", "file": "a.cu", "arguments": [1]}])",
        R"([{"directory": "/", "file": "a.cu", "command": ""}])"}) {
    llvm::Expected<DatabaseTranslation> T =
        translateCompileDatabase(Db, env(), false);
    EXPECT_FALSE(bool(T)) << Db;
    if (!T) {
      std::string Message = llvm::toString(T.takeError());
      EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
    }
  }
}

// nvcc entries of a toolkit that is gone, on a machine with no other: the
// toolkit lookup is the real one, over an empty machine.
TEST(CompileDatabaseTest, EntriesWithoutAToolkitUseTheFallback) {
  ToolkitEnvironment Empty;
  Empty.GetEnv = [](llvm::StringRef) { return std::nullopt; };
  Empty.FindProgram = [](llvm::StringRef) { return std::nullopt; };
  Empty.IsToolkitRoot = [](llvm::StringRef) { return false; };
  Empty.ReadFile = [](llvm::StringRef) { return std::nullopt; };
  NvccEnvironment Env = env();
  Env.ToolkitOf = [Empty](llvm::StringRef Nvcc) {
    return toolkitOfNvcc(Nvcc, Empty);
  };
  Env.FallbackDir = "/tmp/fb";
  const char *Db = R"([
    {"directory": "/b", "file": "h.cpp", "command": "g++ -c h.cpp"},
    {"directory": "/b", "file": "a.cu",
     "command": "ccache /opt/cuda-12.1/bin/nvcc -c a.cu"},
    {"directory": "/b", "file": "b.cu", "command": "nvcc -c b.cu"}
  ])";
  llvm::Expected<DatabaseTranslation> T =
      translateCompileDatabase(Db, Env, false);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->FallbackNvcc, "/opt/cuda-12.1/bin/nvcc");
  EXPECT_TRUE(T->Warnings.empty());
  for (size_t Entry : {1, 2}) {
    Args A = argumentsOf(T->Json, Entry);
    EXPECT_NE(std::find(A.begin(), A.end(), "cuda_lambda_tidy_fallback.h"),
              A.end());
  }

  // The same database where the toolkit exists: no fallback.
  llvm::Expected<DatabaseTranslation> WithToolkit =
      translateCompileDatabase(Db, env(), false);
  ASSERT_TRUE(bool(WithToolkit));
  EXPECT_EQ(WithToolkit->FallbackNvcc, "");
}

TEST(CompileDatabaseTest, OwnOptionsAreTaken) {
  Args A = {"--allow-plugins", "-p", "b", "--", "--allow-plugins"};
  OwnOptions Own = takeOwnOptions(A);
  EXPECT_TRUE(Own.AllowPlugins);
  EXPECT_EQ(A, (Args{"-p", "b", "--", "--allow-plugins"}));
  Args B = {"a.cu"};
  EXPECT_FALSE(takeOwnOptions(B).AllowPlugins);
}

TEST(CompileDatabaseTest, CudaPass) {
  Args A = {"--cuda-pass=host", "a.cu"};
  OwnOptions Own = takeOwnOptions(A);
  EXPECT_EQ(Own.CudaPass, "host");
  EXPECT_TRUE(Own.Error.empty());
  EXPECT_EQ(withCudaPass(ToolCommandLine::parse(A), Own.CudaPass).args(),
            (Args{"--extra-arg=--cuda-host-only", "a.cu"}));
  Args B = {"--cuda-pass", "device", "a.cu"};
  Own = takeOwnOptions(B);
  EXPECT_EQ(B, Args{"a.cu"});
  EXPECT_EQ(withCudaPass(ToolCommandLine::parse(B), Own.CudaPass).args(),
            (Args{"--extra-arg=--cuda-device-only", "a.cu"}));
  EXPECT_EQ(withCudaPass(ToolCommandLine::parse(B), "").args(), B);
  Args C = {"--cuda-pass=both", "a.cu"};
  EXPECT_EQ(takeOwnOptions(C).CudaPass, "both");
  Args D = {"--cuda-pass=all", "a.cu"};
  EXPECT_EQ(takeOwnOptions(D).Error,
            "--cuda-pass takes 'device', 'host' or 'both', not 'all'");
}

TEST(CompileDatabaseTest, FormatJobsAndChild) {
  Args A = {"--format=sarif", "-j", "3", "--cuda-lambda-tidy-request=r.json",
            "a.cu", "--", "-j2"};
  OwnOptions Own = takeOwnOptions(A);
  EXPECT_EQ(Own.Format, "sarif");
  EXPECT_EQ(Own.Jobs, 3u);
  EXPECT_EQ(Own.RequestFile, "r.json");
  EXPECT_EQ(A, (Args{"a.cu", "--", "-j2"}));
  Args B = {"--format", "github", "-j4", "--format-style=llvm"};
  Own = takeOwnOptions(B);
  EXPECT_EQ(Own.Format, "github");
  EXPECT_EQ(Own.Jobs, 4u);
  EXPECT_EQ(B, Args{"--format-style=llvm"});
  Args C = {"--jobs=0"};
  EXPECT_EQ(takeOwnOptions(C).Error, "-j takes a positive number, not '0'");
  Args D = {"--format=xml"};
  EXPECT_EQ(takeOwnOptions(D).Error,
            "--format takes 'text', 'sarif' or 'github', not 'xml'");
  // Every spelling of every value-taking option, one helper behind them.
  Args E = {"--jobs", "2", "-jobs=5", "a.cu"};
  Own = takeOwnOptions(E);
  EXPECT_EQ(Own.Jobs, 5u);
  EXPECT_TRUE(Own.Error.empty());
  EXPECT_EQ(E, Args{"a.cu"});
  Args F = {"a.cu", "--cuda-toolkit"};
  EXPECT_EQ(takeOwnOptions(F).Error,
            "--cuda-toolkit takes only 'none' (CUDA_PATH chooses a toolkit), "
            "not ''");
  Args G = {"-cuda-toolkit", "none", "-format=github", "a.cu"};
  Own = takeOwnOptions(G);
  EXPECT_TRUE(Own.NoToolkit);
  EXPECT_EQ(Own.Format, "github");
  EXPECT_EQ(G, Args{"a.cu"});
}

TEST(CompileDatabaseTest, ExportFixesSourcesAndModes) {
  ToolCommandLine A = ToolCommandLine::parse(
      {"--export-fixes", "f.yaml", "-p", "b", "a.cu", "--", "-x"});
  EXPECT_EQ(takeExportFixes(A), "f.yaml");
  EXPECT_EQ(A.args(), (Args{"-p", "b", "a.cu", "--", "-x"}));
  ToolCommandLine B = ToolCommandLine::parse({"--export-fixes=g.yaml", "a.cu"});
  EXPECT_EQ(takeExportFixes(B), "g.yaml");
  EXPECT_EQ(B.args(), Args{"a.cu"});
  // A source named before an option goes after the options.
  ToolCommandLine C =
      ToolCommandLine::parse({"a.cu", "-p", "b", "c.cu", "--fix", "--", "d"});
  C.SourcePaths = {"x.cu"};
  EXPECT_EQ(C.args(), (Args{"-p", "b", "--fix", "x.cu", "--", "d"}));
  auto OptionsOf = [](const Args &Given) {
    return ToolCommandLine::parse(Given).Options;
  };
  EXPECT_TRUE(asksForFixes(OptionsOf({"--fix-errors", "a.cu"})));
  EXPECT_FALSE(asksForFixes(OptionsOf({"a.cu", "--", "--fix"})));
  EXPECT_TRUE(asksForInformation(OptionsOf({"--list-checks"})));
  EXPECT_FALSE(asksForInformation(OptionsOf({"--checks=-*", "a.cu"})));
}

TEST(CompileDatabaseTest, BuildPath) {
  auto BuildPathOf = [](const Args &Given) {
    return buildPathOf(ToolCommandLine::parse(Given).Options);
  };
  EXPECT_EQ(BuildPathOf({"-p", "build"}), std::optional<std::string>("build"));
  EXPECT_EQ(BuildPathOf({"-p=b2", "a.cu"}), std::optional<std::string>("b2"));
  EXPECT_EQ(BuildPathOf({"--p=b3"}), std::optional<std::string>("b3"));
  EXPECT_EQ(BuildPathOf({"a.cu", "--", "-p", "x"}), std::nullopt);
  auto WithBuildPath = [](const Args &Given, llvm::StringRef Path,
                          const Args &Extra) {
    return withBuildPath(ToolCommandLine::parse(Given), Path, Extra).args();
  };
  EXPECT_EQ(WithBuildPath({"--checks=-*", "-p", "build", "a.cu"}, "/tmp/t", {}),
            (Args{"--checks=-*", "-p", "/tmp/t", "a.cu"}));
  EXPECT_EQ(WithBuildPath({"-p=build"}, "/tmp/t", {"/s/a.cu", "/s/b.cu"}),
            (Args{"-p", "/tmp/t", "/s/a.cu", "/s/b.cu"}));
  EXPECT_EQ(WithBuildPath({"a.cu"}, "/tmp/t", {}),
            (Args{"-p", "/tmp/t", "a.cu"}));
}

} // namespace

// Issue 29: a file to lint that the database lacks borrows the command of
// the nearest entry, as clang's interpolating database chooses one.
TEST(CompileDatabaseTest, NearestEntryPrefersTheSameDirectory) {
  std::vector<EntryPlace> Entries = {{"/p/other/x.cu", true},
                                     {"/p/src/a.cu", true},
                                     {"/p/src/deep/y.cu", true}};
  EXPECT_EQ(nearestEntry(Entries, "/p/src/new.cu"), 1u);
  EXPECT_EQ(nearestEntry(Entries, "/p/src/deep/new.cu"), 2u);
  EXPECT_EQ(nearestEntry(Entries, "/p/other/new.cu"), 0u);
  // Closest path: /p/src/more shares /p/src with a.cu only.
  EXPECT_EQ(nearestEntry(Entries, "/p/src/more/new.cu"), 1u);
  EXPECT_EQ(nearestEntry({}, "/p/src/new.cu"), std::nullopt);
  // Its own directory before a subdirectory, whatever the names.
  EXPECT_EQ(nearestEntry({{"/p/src/deep/a.cu", true}, {"/p/src/z.cu", true}},
                         "/p/src/new.cu"),
            1u);
  EXPECT_EQ(nearestEntry({{"/p/src/z.cu", true}, {"/p/src/deep/a.cu", true}},
                         "/p/src/new.cu"),
            0u);
}

TEST(CompileDatabaseTest, NearestEntryPrefersTheSameLanguage) {
  // A host entry next to the file, a CUDA entry further away.
  std::vector<EntryPlace> Entries = {{"/p/src/host.cpp", false},
                                     {"/p/kernels/k.cu", true}};
  EXPECT_EQ(nearestEntry(Entries, "/p/src/new.cu"), 1u);
  EXPECT_EQ(nearestEntry(Entries, "/p/src/new.cuh"), 1u);
  EXPECT_EQ(nearestEntry(Entries, "/p/kernels/new.cpp"), 0u);
  // A .cpp compiled as CUDA (-x cu) counts as a .cpp: the same extension.
  std::vector<EntryPlace> Kokkos = {{"/k/tools/t.cpp", false},
                                    {"/k/src/a.cpp", true}};
  EXPECT_EQ(nearestEntry(Kokkos, "/k/src/new.cpp"), 1u);
  EXPECT_EQ(nearestEntry(Kokkos, "/k/tools/new.cpp"), 0u);
  // No entry of the language: the nearest of any.
  EXPECT_EQ(nearestEntry({{"/q/a.cpp", false}, {"/p/b.cpp", false}},
                         "/p/new.cu"),
            1u);
}

TEST(CompileDatabaseTest, NearestEntryIsDeterministic) {
  // Ties go to the smallest path, whatever the order of the database.
  std::vector<EntryPlace> Entries = {{"/p/src/b.cu", true},
                                     {"/p/src/a.cu", true},
                                     {"/p/src/c.cu", true}};
  EXPECT_EQ(nearestEntry(Entries, "/p/src/new.cu"), 1u);
  std::reverse(Entries.begin(), Entries.end());
  EXPECT_EQ(nearestEntry(Entries, "/p/src/new.cu"), 1u);
  // The same path twice: the first.
  EXPECT_EQ(nearestEntry({{"/p/a.cu", true}, {"/p/a.cu", true}}, "/p/n.cu"),
            0u);
}

TEST(CompileDatabaseTest, UnlistedFilesBorrowTheUntranslatedCommand) {
  const char *Db = R"([
    {"directory": "/b", "file": "/s/a.cpp",
     "command": "/usr/local/cuda/bin/nvcc -DX -x cu -arch=sm_90 -c /s/a.cpp -o a.o"},
    {"directory": "/b", "file": "/s/h.cpp", "command": "g++ -c /s/h.cpp"},
    {"directory": "/b", "file": "/t/k.cu",
     "command": "/usr/local/cuda/bin/nvcc -DK -c ../t/k.cu"}
  ])";
  llvm::Expected<DatabaseTranslation> T = translateCompileDatabase(
      Db, env(), false,
      {"/s/new.cpp", "/s/a.cpp", "/t/new.cuh", "/s/new.h"});
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  // Listed files and headers (left to clang-tidy) borrow nothing.
  ASSERT_EQ(T->Borrowed.size(), 2u);
  EXPECT_EQ(T->Borrowed[0].File, "/s/new.cpp");
  EXPECT_EQ(T->Borrowed[0].From, "/s/a.cpp");
  EXPECT_EQ(T->Borrowed[1].File, "/t/new.cuh");
  EXPECT_EQ(T->Borrowed[1].From, "/t/k.cu");
  EXPECT_EQ(borrowedNote("new.cu", "src/a.cu"),
            "'new.cu' is not in the compile database; using the command of "
            "'src/a.cu'");
  // The .cpp keeps nvcc's -x cu, translated: CUDA, not C++.
  Args New = argumentsOf(T->Json, 3);
  EXPECT_EQ(New.front(), "clang++");
  EXPECT_NE(std::find(New.begin(), New.end(), "/s/new.cpp"), New.end());
  EXPECT_EQ(std::find(New.begin(), New.end(), "/s/a.cpp"), New.end());
  EXPECT_NE(std::find(New.begin(), New.end(), "-DX"), New.end());
  EXPECT_NE(std::find(New.begin(), New.end(), "--cuda-gpu-arch=sm_90"),
            New.end());
  auto X = std::find(New.begin(), New.end(), "-x");
  ASSERT_NE(X, New.end());
  EXPECT_EQ(*(X + 1), "cuda");
  // The header is said to be CUDA: nvcc would not know a .cuh.
  Args Header = argumentsOf(T->Json, 4);
  EXPECT_NE(std::find(Header.begin(), Header.end(), "/t/new.cuh"),
            Header.end());
  EXPECT_NE(std::find(Header.begin(), Header.end(), "-DK"), Header.end());
  X = std::find(Header.begin(), Header.end(), "-x");
  ASSERT_NE(X, Header.end());
  EXPECT_EQ(*(X + 1), "cuda");
  // The database's own CUDA files are unchanged.
  EXPECT_EQ(T->CudaFiles, (Args{"/s/a.cpp", "/t/k.cu"}));
}

TEST(CompileDatabaseTest, WarningsAreAboutTheFilesLinted) {
  const char *Db = R"([
    {"directory": "/b", "file": "a.cu", "command": "nvcc --bogus-a -c a.cu"},
    {"directory": "/b", "file": "b.cu", "command": "nvcc --bogus-b -c b.cu"},
    {"directory": "/b", "file": "h.cpp", "command": "nvcc --bogus-h -c h.cpp"}
  ])";
  auto Dropped = [](const char *Flag) {
    return "dropped nvcc flag '" + std::string(Flag) +
           "': neither nvcc's table nor clang knows it";
  };
  llvm::Expected<DatabaseTranslation> One =
      translateCompileDatabase(Db, env(), false, {"/b/b.cu"});
  ASSERT_TRUE(bool(One));
  EXPECT_EQ(One->Warnings, Args{Dropped("--bogus-b")});
  EXPECT_EQ(One->FileWarnings["/b/a.cu"], Args{Dropped("--bogus-a")});
  // A borrowed entry says what its own translation says.
  llvm::Expected<DatabaseTranslation> New =
      translateCompileDatabase(Db, env(), false, {"/b/new.cu"});
  ASSERT_TRUE(bool(New));
  EXPECT_EQ(New->Warnings, Args{Dropped("--bogus-a")});
  // Without files: the CUDA entries, which `-p` alone lints.
  llvm::Expected<DatabaseTranslation> All =
      translateCompileDatabase(Db, env(), false);
  ASSERT_TRUE(bool(All));
  EXPECT_EQ(All->Warnings, (Args{Dropped("--bogus-a"), Dropped("--bogus-b")}));
}

TEST(CompileDatabaseTest, ChildRequestAndReplyRoundTrip) {
  ChildRequest Request;
  Request.Pass = "device";
  Request.NoToolkit = true;
  Request.Translated = true;
  Request.ProbeFile = "/t/probe";
  Request.PreambleAtFirstLint = true;
  Request.ReplyFile = "/t/reply";
  llvm::Expected<ChildRequest> Read =
      readChildRequest(writeChildRequest(Request));
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->Pass, "device");
  EXPECT_FALSE(Read->AllowPlugins);
  EXPECT_TRUE(Read->NoToolkit);
  EXPECT_TRUE(Read->Translated);
  EXPECT_EQ(Read->ProbeFile, "/t/probe");
  EXPECT_EQ(Read->PreambleCacheDir, "");
  EXPECT_TRUE(Read->PreambleAtFirstLint);
  EXPECT_EQ(Read->ReplyFile, "/t/reply");
  llvm::Expected<ChildRequest> Bad = readChildRequest("{\"pass\": \"both\"}");
  EXPECT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());

  ChildReply Reply;
  Reply.Preamble = "cuda-lambda-tidy: preamble cache built: a.cu (device)";
  Reply.FallbackReason = "--cuda-toolkit=none";
  ChildReply Back = readChildReply(writeChildReply(Reply));
  EXPECT_EQ(Back.Preamble, Reply.Preamble);
  EXPECT_EQ(Back.FallbackReason, Reply.FallbackReason);
  // A child that stopped early wrote nothing: no preamble to tell of.
  EXPECT_EQ(readChildReply("").Preamble, "");
  EXPECT_EQ(readChildReply("{\"preamble\": 3}").Preamble, "");
}

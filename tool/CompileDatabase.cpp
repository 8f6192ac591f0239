//===--- CompileDatabase.cpp - cuda-lambda-tidy -------------------------===//

#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "CudaToolkit.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <tuple>

namespace cuda_lambda_tidy {

std::vector<std::string> splitCommand(llvm::StringRef Command) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Tokens;
  llvm::cl::TokenizeGNUCommandLine(Command, Saver, Tokens);
  return std::vector<std::string>(Tokens.begin(), Tokens.end());
}

static llvm::Error malformed(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed compile database: " + Why);
}

/// Whether a clang (or other non-nvcc) entry compiles \p File as CUDA.
static bool clangEntryIsCuda(llvm::ArrayRef<std::string> Args,
                             llvm::StringRef File) {
  std::string Language = explicitLanguage(Args);
  if (!Language.empty())
    return Language == "cuda" || Language == "cu";
  return llvm::sys::path::extension(File) == ".cu";
}

/// The nvcc of the nvcc command \p Command, after any launcher.
static std::string nvccOf(llvm::ArrayRef<std::string> Command) {
  return isNvccCommand(Command.take_front(1)) ? Command[0] : Command[1];
}

llvm::Expected<std::vector<CompileEntry>>
parseCompileDatabase(llvm::StringRef JsonText) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(JsonText);
  if (!Parsed) {
    std::string Why = llvm::toString(Parsed.takeError());
    return malformed(Why);
  }
  const llvm::json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return malformed("not a JSON array");
  if (Entries->empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "empty compile database");

  std::vector<CompileEntry> Result;
  for (size_t Index = 0; Index < Entries->size(); ++Index) {
    const llvm::json::Object *Entry = (*Entries)[Index].getAsObject();
    std::string Where = "entry " + std::to_string(Index + 1);
    if (!Entry)
      return malformed(Where + " is not an object");
    std::optional<llvm::StringRef> Directory = Entry->getString("directory");
    std::optional<llvm::StringRef> File = Entry->getString("file");
    if (!Directory || !File)
      return malformed(Where + " lacks \"directory\" or \"file\"");

    CompileEntry E;
    E.Directory = Directory->str();
    E.File = File->str();
    if (const llvm::json::Array *Arguments = Entry->getArray("arguments")) {
      for (const llvm::json::Value &Arg : *Arguments) {
        std::optional<llvm::StringRef> S = Arg.getAsString();
        if (!S)
          return malformed(Where + " has a non-string argument");
        E.Arguments.push_back(S->str());
      }
    } else if (std::optional<llvm::StringRef> Command =
                   Entry->getString("command")) {
      E.Arguments = splitCommand(*Command);
    } else {
      return malformed(Where + " lacks \"command\" or \"arguments\"");
    }
    if (E.Arguments.empty())
      return malformed(Where + " has an empty command");
    if (std::optional<llvm::StringRef> Output = Entry->getString("output"))
      E.Output = Output->str();

    llvm::SmallString<256> Absolute(*File);
    if (!llvm::sys::path::is_absolute(Absolute)) {
      Absolute = *Directory;
      llvm::sys::path::append(Absolute, *File);
    }
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    E.AbsoluteFile = Absolute.str().str();
    Result.push_back(std::move(E));
  }
  return Result;
}

namespace {

enum class Language { Other, C, Cxx, Cuda };

/// The language of a source by its extension.
Language languageOf(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".cu" || Ext == ".cuh")
    return Language::Cuda;
  if (Ext == ".c")
    return Language::C;
  if (llvm::is_contained({".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP"},
                         Ext))
    return Language::Cxx;
  return Language::Other;
}

/// How many components the directories of \p A and \p B share.
size_t commonDirectoryComponents(llvm::StringRef A, llvm::StringRef B) {
  llvm::StringRef DirA = llvm::sys::path::parent_path(A);
  llvm::StringRef DirB = llvm::sys::path::parent_path(B);
  size_t Common = 0;
  for (auto I = llvm::sys::path::begin(DirA), E = llvm::sys::path::end(DirA),
            J = llvm::sys::path::begin(DirB), F = llvm::sys::path::end(DirB);
       I != E && J != F && *I == *J; ++I, ++J)
    ++Common;
  return Common;
}

/// One entry translated: its clang command and what to say about it.
struct TranslatedEntry {
  std::vector<std::string> Arguments;
  bool IsCuda = false;
  std::vector<std::string> Lines;
};

} // namespace

bool shouldBorrow(llvm::StringRef File) {
  return languageOf(File) != Language::Other;
}

std::optional<size_t> nearestEntry(llvm::ArrayRef<EntryPlace> Entries,
                                   llvm::StringRef File) {
  Language Wanted = languageOf(File);
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  auto Preferred = [&](const EntryPlace &E) {
    if (Wanted == Language::Other)
      return true;
    if (Wanted == Language::Cuda)
      return E.IsCuda;
    return llvm::sys::path::extension(E.AbsoluteFile) == Ext ||
           (!E.IsCuda && languageOf(E.AbsoluteFile) == Wanted);
  };
  auto Depth = [](llvm::StringRef Path) {
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    return size_t(std::distance(llvm::sys::path::begin(Dir),
                                llvm::sys::path::end(Dir)));
  };
  // Better is larger: the language, the directories shared, then the
  // fewest directories below them (its own directory before a
  // subdirectory's).
  using Score = std::tuple<bool, size_t, long>;
  std::optional<size_t> Best;
  Score BestScore;
  for (size_t I = 0; I < Entries.size(); ++I) {
    size_t Common = commonDirectoryComponents(Entries[I].AbsoluteFile, File);
    Score S{Preferred(Entries[I]), Common,
            -long(Depth(Entries[I].AbsoluteFile) - Common)};
    if (Best && (S < BestScore ||
                 (S == BestScore &&
                  Entries[I].AbsoluteFile >= Entries[*Best].AbsoluteFile)))
      continue; // ties: the smallest path, then the first
    Best = I;
    BestScore = S;
  }
  return Best;
}

CompileEntry borrowEntry(const CompileEntry &From, llvm::StringRef File,
                         bool FromIsCuda) {
  CompileEntry Result;
  Result.Directory = From.Directory;
  Result.File = File.str();
  Result.AbsoluteFile = File.str();
  Result.Arguments.push_back(From.Arguments.front());
  std::optional<size_t> At;
  for (size_t I = 1; I < From.Arguments.size(); ++I) {
    const std::string &Arg = From.Arguments[I];
    llvm::SmallString<256> Absolute(Arg);
    if (!llvm::sys::path::is_absolute(Absolute)) {
      Absolute = From.Directory;
      llvm::sys::path::append(Absolute, Arg);
    }
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    if (Arg == From.File || Absolute == From.AbsoluteFile) {
      if (!At)
        At = Result.Arguments.size();
      Result.Arguments.push_back(File.str());
    } else {
      Result.Arguments.push_back(Arg);
    }
  }
  if (!At) {
    At = Result.Arguments.size();
    Result.Arguments.push_back(File.str());
  }
  if (FromIsCuda && llvm::sys::path::extension(File) == ".cuh" &&
      explicitLanguage(Result.Arguments).empty()) {
    const char *Cuda = isNvccCommand(Result.Arguments) ? "cu" : "cuda";
    Result.Arguments.insert(Result.Arguments.begin() + *At, {"-x", Cuda});
  }
  return Result;
}

std::string borrowedNote(llvm::StringRef File, llvm::StringRef From) {
  return ("'" + File + "' is not in the compile database; using the command "
          "of '" + From + "'")
      .str();
}

NvccEnvironment realNvccEnvironment(bool NoToolkit) {
  NvccEnvironment Env;
  ToolkitEnvironment Toolkits = ToolkitEnvironment::real();
  Env.ReadFile = Toolkits.ReadFile;
  Env.ToolkitOf = [Toolkits, NoToolkit](llvm::StringRef Nvcc) {
    return NoToolkit ? std::nullopt : toolkitOfNvcc(Nvcc, Toolkits);
  };
  return Env;
}

llvm::Expected<DatabaseTranslation>
translateCompileDatabase(llvm::StringRef JsonText, const NvccEnvironment &Env,
                         bool AllowPlugins, llvm::ArrayRef<std::string> Linted) {
  llvm::Expected<std::vector<CompileEntry>> Parsed =
      parseCompileDatabase(JsonText);
  if (!Parsed)
    return Parsed.takeError();
  std::vector<CompileEntry> &Entries = *Parsed;

  DatabaseTranslation Result;
  auto Translate = [&](const CompileEntry &E) {
    TranslatedEntry T;
    T.Arguments = E.Arguments;
    llvm::StringSet<> Said;
    auto Say = [&](std::string Line) {
      if (Said.insert(Line).second)
        T.Lines.push_back(std::move(Line));
    };
    if (isNvccCommand(T.Arguments)) {
      ++Result.NvccEntries;
      TranslatedCommand N = translateNvccCommand(T.Arguments, E.Directory, Env);
      for (const std::string &Flag : N.UnknownFlags)
        Say("dropped nvcc flag '" + Flag +
            "': neither nvcc's table nor clang knows it");
      for (const std::string &Problem : N.Problems)
        Say(Problem);
      if (N.UsesFallback && Result.FallbackNvcc.empty())
        Result.FallbackNvcc = nvccOf(T.Arguments);
      T.Arguments = std::move(N.Arguments);
      T.IsCuda = N.IsCuda;
    } else {
      T.IsCuda = clangEntryIsCuda(T.Arguments, E.File);
    }
    if (!AllowPlugins)
      for (const std::string &Flag : stripPluginFlags(T.Arguments))
        Say("removed '" + Flag + "' from the command of '" + E.File +
            "': it would load code into the tool (--allow-plugins keeps it)");
    return T;
  };

  llvm::StringSet<> CudaFilesSeen, Listed;
  std::vector<EntryPlace> Places;
  // The files whose lines become Warnings, in the order of the entries.
  std::vector<std::pair<std::string, bool>> Said; // (file, linted)
  llvm::json::Array Out;
  auto Add = [&](const CompileEntry &E, TranslatedEntry T) {
    std::vector<std::string> &Lines = Result.FileWarnings[E.AbsoluteFile];
    for (std::string &Line : T.Lines)
      if (!llvm::is_contained(Lines, Line))
        Lines.push_back(std::move(Line));
    llvm::json::Object Translated{{"directory", E.Directory},
                                  {"file", E.File},
                                  {"arguments", llvm::json::Array(T.Arguments)}};
    if (E.Output)
      Translated["output"] = *E.Output;
    Out.push_back(std::move(Translated));
    Said.push_back({E.AbsoluteFile, T.IsCuda});
  };
  for (const CompileEntry &E : Entries) {
    TranslatedEntry T = Translate(E);
    Places.push_back({E.AbsoluteFile, T.IsCuda});
    Listed.insert(E.AbsoluteFile);
    if (T.IsCuda && CudaFilesSeen.insert(E.AbsoluteFile).second)
      Result.CudaFiles.push_back(E.AbsoluteFile);
    Add(E, std::move(T));
  }

  // The files to lint that the database lacks: the nearest entry's command,
  // untranslated, with the file substituted, then translated.
  auto ListedThroughALink = [&](llvm::StringRef File) {
    // As clang's database finds an entry (FileMatchTrie): the same file
    // under another path. Only entries of the same name are asked.
    return llvm::any_of(Entries, [&](const CompileEntry &E) {
      return llvm::sys::path::filename(E.AbsoluteFile) ==
                 llvm::sys::path::filename(File) &&
             llvm::sys::fs::equivalent(E.AbsoluteFile, File);
    });
  };
  for (const std::string &File : Linted) {
    if (Listed.contains(File) || !shouldBorrow(File) ||
        ListedThroughALink(File))
      continue;
    std::optional<size_t> From = nearestEntry(Places, File);
    if (!From)
      continue;
    CompileEntry Borrowed =
        borrowEntry(Entries[*From], File, Places[*From].IsCuda);
    Listed.insert(File);
    Result.Borrowed.push_back({File, Entries[*From].File});
    Add(Borrowed, Translate(Borrowed));
  }

  // What is said about the entries of the files linted.
  llvm::StringSet<> LintedFiles, Warned;
  for (const std::string &File : Linted)
    LintedFiles.insert(File);
  for (const auto &[File, IsCuda] : Said) {
    if (Linted.empty() ? !IsCuda : !LintedFiles.contains(File))
      continue;
    for (const std::string &Line : Result.FileWarnings[File])
      if (Warned.insert(Line).second)
        Result.Warnings.push_back(Line);
  }
  Result.Json =
      llvm::formatv("{0:2}", llvm::json::Value(std::move(Out))).str() + "\n";
  return Result;
}

/// The directory above \p Source holding a compile_commands.json (the
/// one clang-tidy would find by itself), or "".
static std::string compileDatabaseAbove(llvm::StringRef Source) {
  llvm::SmallString<256> Dir(Source);
  if (llvm::sys::fs::make_absolute(Dir))
    return "";
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Candidate(Current);
    llvm::sys::path::append(Candidate, "compile_commands.json");
    if (llvm::sys::fs::exists(Candidate))
      return Current.str();
  }
  return "";
}

std::string databaseDirOf(const ToolCommandLine &CommandLine) {
  if (CommandLine.HasCompilerArgs)
    return "";
  std::string DatabaseDir;
  if (std::optional<std::string> BuildPath =
          buildPathOf(CommandLine.Options)) {
    DatabaseDir = *BuildPath;
    if (llvm::sys::path::filename(DatabaseDir) == "compile_commands.json")
      DatabaseDir = llvm::sys::path::parent_path(DatabaseDir).str();
    if (DatabaseDir.empty())
      DatabaseDir = ".";
  } else if (!CommandLine.SourcePaths.empty()) {
    DatabaseDir = compileDatabaseAbove(CommandLine.SourcePaths.front());
  }
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  if (DatabaseDir.empty() || !llvm::sys::fs::exists(DatabaseFile))
    return "";
  return DatabaseDir;
}

/// The files of the compile database that \p CommandLine lints when it
/// names none (for the configuration they read), else nothing.
std::vector<std::string> databaseSourcesOf(const ToolCommandLine &CommandLine) {
  if (!CommandLine.SourcePaths.empty())
    return {};
  std::string DatabaseDir = databaseDirOf(CommandLine);
  if (DatabaseDir.empty())
    return {};
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  // Read quietly: a malformed database is reported once, later.
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer)
    return {};
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return {};
  }
  std::vector<std::string> Files;
  if (const llvm::json::Array *Entries = Parsed->getAsArray())
    for (const llvm::json::Value &Entry : *Entries) {
      const llvm::json::Object *Object = Entry.getAsObject();
      std::optional<llvm::StringRef> File =
          Object ? Object->getString("file") : std::nullopt;
      if (!File)
        continue;
      llvm::SmallString<256> Path(*File);
      std::optional<llvm::StringRef> Dir = Object->getString("directory");
      if (llvm::sys::path::is_relative(Path) && Dir) {
        Path = *Dir;
        llvm::sys::path::append(Path, *File);
      }
      Files.push_back(Path.str().str());
    }
  return Files;
}

std::vector<std::string> databaseCudaFiles(llvm::StringRef DatabaseDir,
                                           bool NoToolkit, bool AllowPlugins,
                                           std::string &Error) {
  llvm::SmallString<256> DatabaseFile(DatabaseDir);
  llvm::sys::path::append(DatabaseFile, "compile_commands.json");
  auto Buffer = llvm::MemoryBuffer::getFile(DatabaseFile);
  if (!Buffer) {
    Error = ("'" + DatabaseFile + "' cannot be read").str();
    return {};
  }
  llvm::Expected<DatabaseTranslation> Translated = translateCompileDatabase(
      (*Buffer)->getBuffer(), realNvccEnvironment(NoToolkit), AllowPlugins);
  if (!Translated) {
    Error = ("'" + DatabaseFile +
             "': " + llvm::toString(Translated.takeError()))
                .str();
    return {};
  }
  if (Translated->CudaFiles.empty())
    Error = ("'" + DatabaseFile + "' has no CUDA entries").str();
  return Translated->CudaFiles;
}

} // namespace cuda_lambda_tidy

//===--- CompileDatabase.cpp - cuda-lambda-tidy -------------------------===//

#include "CompileDatabase.h"
#include "CudaInvocation.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

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

llvm::Expected<DatabaseTranslation>
translateCompileDatabase(llvm::StringRef JsonText, const NvccEnvironment &Env,
                         bool AllowPlugins) {
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

  DatabaseTranslation Result;
  llvm::StringSet<> Warned, CudaFilesSeen;
  auto Warn = [&](std::string Line) {
    if (Warned.insert(Line).second)
      Result.Warnings.push_back(std::move(Line));
  };
  llvm::json::Array Out;
  for (size_t Index = 0; Index < Entries->size(); ++Index) {
    const llvm::json::Object *Entry = (*Entries)[Index].getAsObject();
    std::string Where = "entry " + std::to_string(Index + 1);
    if (!Entry)
      return malformed(Where + " is not an object");
    std::optional<llvm::StringRef> Directory = Entry->getString("directory");
    std::optional<llvm::StringRef> File = Entry->getString("file");
    if (!Directory || !File)
      return malformed(Where + " lacks \"directory\" or \"file\"");

    std::vector<std::string> Args;
    if (const llvm::json::Array *Arguments = Entry->getArray("arguments")) {
      for (const llvm::json::Value &Arg : *Arguments) {
        std::optional<llvm::StringRef> S = Arg.getAsString();
        if (!S)
          return malformed(Where + " has a non-string argument");
        Args.push_back(S->str());
      }
    } else if (std::optional<llvm::StringRef> Command =
                   Entry->getString("command")) {
      Args = splitCommand(*Command);
    } else {
      return malformed(Where + " lacks \"command\" or \"arguments\"");
    }
    if (Args.empty())
      return malformed(Where + " has an empty command");

    bool IsCuda;
    if (isNvccCommand(Args)) {
      ++Result.NvccEntries;
      TranslatedCommand T = translateNvccCommand(Args, *Directory, Env);
      for (const std::string &Flag : T.UnknownFlags)
        Warn("dropped nvcc flag '" + Flag +
             "': neither nvcc's table nor clang knows it");
      for (const std::string &Problem : T.Problems)
        Warn(Problem);
      if (T.UsesFallback && Result.FallbackNvcc.empty())
        Result.FallbackNvcc = nvccOf(Args);
      Args = std::move(T.Arguments);
      IsCuda = T.IsCuda;
    } else {
      IsCuda = clangEntryIsCuda(Args, *File);
    }

    if (!AllowPlugins)
      for (const std::string &Flag : stripPluginFlags(Args))
        Warn("removed '" + Flag + "' from the command of '" + File->str() +
             "': it would load code into the tool (--allow-plugins keeps it)");

    llvm::SmallString<256> Absolute(*File);
    if (!llvm::sys::path::is_absolute(Absolute)) {
      Absolute = *Directory;
      llvm::sys::path::append(Absolute, *File);
    }
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    if (IsCuda && CudaFilesSeen.insert(Absolute).second)
      Result.CudaFiles.push_back(Absolute.str().str());

    llvm::json::Object Translated{{"directory", *Directory},
                                  {"file", *File},
                                  {"arguments", llvm::json::Array(Args)}};
    if (std::optional<llvm::StringRef> Output = Entry->getString("output"))
      Translated["output"] = *Output;
    Out.push_back(std::move(Translated));
  }
  Result.Json =
      llvm::formatv("{0:2}", llvm::json::Value(std::move(Out))).str() + "\n";
  return Result;
}

} // namespace cuda_lambda_tidy

//===--- DefaultChecks.cpp - cuda-lambda-tidy ---------------------------===//

#include "DefaultChecks.h"
#include "CudaInvocation.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <memory>

namespace cuda_lambda_tidy {

using clang::tidy::ClangTidyOptions;
using clang::tidy::ClangTidyOptionsProvider;

bool checksConfigured(llvm::ArrayRef<std::string> Options,
                      llvm::ArrayRef<std::string> Sources) {
  if (lastValueOf(Options, "checks"))
    return true;
  // As clang-tidy's main: --config, else --config-file, replaces the
  // .clang-tidy files (unless it says InheritParentConfig).
  std::optional<std::string> Config = lastValueOf(Options, "config");
  if (!Config || Config->empty()) {
    Config.reset();
    if (std::optional<std::string> File = lastValueOf(Options, "config-file");
        File && !File->empty()) {
      auto Text = llvm::MemoryBuffer::getFile(*File);
      if (!Text) // clang-tidy reports it; its choice, not ours
        return true;
      Config = (*Text)->getBuffer().str();
    }
  }
  // Defaults with no Checks: whatever has one after merging was configured.
  ClangTidyOptions Defaults;
  std::unique_ptr<ClangTidyOptionsProvider> Provider;
  if (Config) {
    llvm::ErrorOr<ClangTidyOptions> Parsed = clang::tidy::parseConfiguration(
        llvm::MemoryBufferRef(*Config, "--config"));
    if (!Parsed) // clang-tidy reports the error
      return true;
    Provider = std::make_unique<clang::tidy::ConfigOptionsProvider>(
        clang::tidy::ClangTidyGlobalOptions(), Defaults, std::move(*Parsed),
        ClangTidyOptions());
  } else {
    Provider = std::make_unique<clang::tidy::FileOptionsProvider>(
        clang::tidy::ClangTidyGlobalOptions(), Defaults, ClangTidyOptions());
  }
  llvm::StringSet<> Seen;
  for (const std::string &Source : Sources) {
    llvm::SmallString<256> Absolute(Source);
    llvm::sys::fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, true);
    // Files of one directory read the same configuration files.
    if (!Seen.insert(llvm::sys::path::parent_path(Absolute)).second)
      continue;
    if (Provider->getOptions(Absolute).Checks)
      return true;
  }
  return false;
}

ToolCommandLine withDefaultChecks(ToolCommandLine CommandLine,
                                  llvm::ArrayRef<std::string> DatabaseSources) {
  std::vector<std::string> Sources = CommandLine.SourcePaths;
  if (Sources.empty())
    Sources = DatabaseSources;
  if (Sources.empty()) {
    llvm::SmallString<256> Here;
    llvm::sys::fs::current_path(Here);
    llvm::sys::path::append(Here, "-");
    Sources.push_back(Here.str().str());
  }
  if (checksConfigured(CommandLine.Options, Sources))
    return CommandLine;
  CommandLine.Options.insert(CommandLine.Options.begin(),
                             std::string("--checks=") + DefaultChecks);
  return CommandLine;
}

} // namespace cuda_lambda_tidy

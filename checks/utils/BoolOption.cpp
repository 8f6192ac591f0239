//===--- BoolOption.cpp - cuda-lambda-tidy ------------------------------===//

#include "BoolOption.h"

namespace clang::tidy::cuda::utils {

std::optional<bool> parseBoolOption(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.equals_insensitive("true"))
    return true;
  if (Text.equals_insensitive("false"))
    return false;
  long long Number = 0;
  if (!Text.getAsInteger(10, Number))
    return Number != 0;
  return std::nullopt;
}

bool getBoolOption(const ClangTidyCheck::OptionsView &Options,
                   llvm::StringRef Name, bool Default) {
  if (std::optional<llvm::StringRef> Text = Options.get(Name))
    if (std::optional<bool> Value = parseBoolOption(*Text))
      return *Value;
  return Default;
}

void storeBoolOption(const ClangTidyCheck::OptionsView &Options,
                     ClangTidyOptions::OptionMap &Opts, llvm::StringRef Name,
                     bool Value) {
  Options.store(Opts, Name, Value ? "true" : "false");
}

} // namespace clang::tidy::cuda::utils

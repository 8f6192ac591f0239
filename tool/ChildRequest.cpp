//===--- ChildRequest.cpp - cuda-lambda-tidy ----------------------------===//

#include "ChildRequest.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace cuda_lambda_tidy {

std::string writeChildRequest(const ChildRequest &Request) {
  llvm::json::Object Object{
      {"pass", Request.Pass},
      {"allow_plugins", Request.AllowPlugins},
      {"no_toolkit", Request.NoToolkit},
      {"translated", Request.Translated},
      {"probe_file", Request.ProbeFile},
      {"preamble_cache_dir", Request.PreambleCacheDir},
      {"preamble_at_first_lint", Request.PreambleAtFirstLint},
      {"reply_file", Request.ReplyFile}};
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(Object))).str();
}

llvm::Expected<ChildRequest> readChildRequest(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Json);
  if (!Parsed)
    return Parsed.takeError();
  ChildRequest Request;
  llvm::json::Path::Root Root("request");
  llvm::json::ObjectMapper Map(*Parsed, Root);
  if (!Map || !Map.map("pass", Request.Pass) ||
      !Map.map("allow_plugins", Request.AllowPlugins) ||
      !Map.map("no_toolkit", Request.NoToolkit) ||
      !Map.map("translated", Request.Translated) ||
      !Map.map("probe_file", Request.ProbeFile) ||
      !Map.map("preamble_cache_dir", Request.PreambleCacheDir) ||
      !Map.map("preamble_at_first_lint", Request.PreambleAtFirstLint) ||
      !Map.map("reply_file", Request.ReplyFile))
    return llvm::createStringError("malformed child request");
  if (Request.Pass != "" && Request.Pass != "device" && Request.Pass != "host")
    return llvm::createStringError("child request: unknown pass '" +
                                   Request.Pass + "'");
  return Request;
}

std::string writeChildReply(const ChildReply &Reply) {
  llvm::json::Object Object{{"preamble", Reply.Preamble},
                            {"fallback", Reply.FallbackReason}};
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(Object))).str();
}

ChildReply readChildReply(llvm::StringRef Json) {
  ChildReply Reply;
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Json);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return ChildReply();
  }
  llvm::json::Path::Root Root("reply");
  llvm::json::ObjectMapper Map(*Parsed, Root);
  if (!Map || !Map.map("preamble", Reply.Preamble) ||
      !Map.map("fallback", Reply.FallbackReason))
    return ChildReply();
  return Reply;
}

} // namespace cuda_lambda_tidy

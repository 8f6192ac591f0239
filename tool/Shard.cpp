//===--- Shard.cpp - cuda-lambda-tidy -----------------------------------===//

#include "Shard.h"
#include "TidyOutput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <tuple>

namespace cuda_lambda_tidy {

std::optional<Shard> parseShard(llvm::StringRef Text, std::string &Error) {
  auto [I, N] = Text.split('/');
  Shard S;
  if (I.getAsInteger(10, S.Index) || N.getAsInteger(10, S.Count) ||
      S.Count == 0 || S.Index == 0 || S.Index > S.Count) {
    Error = "--shard takes I/N with 1 <= I <= N (shard I of N), not '" +
            Text.str() + "'";
    return std::nullopt;
  }
  return S;
}

uint64_t fnv1a64(llvm::StringRef Bytes) {
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (unsigned char C : Bytes) {
    Hash ^= C;
    Hash *= 0x100000001b3ULL;
  }
  return Hash;
}

static llvm::SmallVector<std::string, 16> components(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  llvm::SmallVector<std::string, 16> Parts;
  for (auto It = llvm::sys::path::begin(Absolute),
            End = llvm::sys::path::end(Absolute);
       It != End; ++It)
    if (*It != "/")
      Parts.push_back(It->str());
  return Parts;
}

std::string shardPathKey(llvm::StringRef File, llvm::StringRef BaseDir) {
  auto F = components(File), B = components(BaseDir);
  size_t Common = 0;
  while (Common < F.size() && Common < B.size() && F[Common] == B[Common])
    ++Common;
  std::string Key;
  for (size_t I = Common; I < B.size(); ++I)
    Key += "../";
  for (size_t I = Common; I < F.size(); ++I)
    Key += F[I] + (I + 1 < F.size() ? "/" : "");
  return Key;
}

bool inShard(const Shard &S, llvm::StringRef File, llvm::StringRef BaseDir) {
  return fnv1a64(shardPathKey(File, BaseDir)) % S.Count == S.Index - 1;
}

namespace {

/// What orders and identifies a result: file, line, column, level, message,
/// then its whole text (notes, fixes).
using ResultKey = std::tuple<std::string, int64_t, int64_t, std::string,
                             std::string, std::string>;

ResultKey resultKey(const llvm::json::Object &Result) {
  std::string Uri, Level, Message;
  int64_t Line = 0, Column = 0;
  if (auto L = Result.getString("level"))
    Level = L->str();
  if (const auto *M = Result.getObject("message"))
    if (auto T = M->getString("text"))
      Message = T->str();
  if (const auto *Locations = Result.getArray("locations"))
    if (!Locations->empty())
      if (const auto *Loc = (*Locations)[0].getAsObject())
        if (const auto *Phys = Loc->getObject("physicalLocation")) {
          if (const auto *Art = Phys->getObject("artifactLocation"))
            if (auto U = Art->getString("uri"))
              Uri = U->str();
          if (const auto *Region = Phys->getObject("region")) {
            Line = Region->getInteger("startLine").value_or(0);
            Column = Region->getInteger("startColumn").value_or(0);
          }
        }
  llvm::json::Object Copy = Result;
  Copy.erase("ruleIndex");
  std::string Whole;
  llvm::raw_string_ostream OS(Whole);
  OS << llvm::json::Value(std::move(Copy));
  OS.flush();
  return {Uri, Line, Column, Level, Message, Whole};
}

} // namespace

llvm::Expected<std::string> mergeSarifLogs(llvm::ArrayRef<std::string> Logs) {
  std::map<std::string, llvm::json::Object> Rules; // by id
  std::map<ResultKey, llvm::json::Object> Results;
  std::optional<llvm::json::Object> Driver;
  std::string Schema = "https://json.schemastore.org/sarif-2.1.0.json";
  std::string ColumnKind = "unicodeCodePoints";
  for (size_t I = 0; I < Logs.size(); ++I) {
    auto What = [&](const llvm::Twine &Why) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "log " + llvm::Twine(I + 1) + ": " + Why);
    };
    llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Logs[I]);
    if (!Parsed)
      return What(llvm::toString(Parsed.takeError()));
    llvm::json::Object *Log = Parsed->getAsObject();
    if (!Log || Log->getString("version") != llvm::StringRef("2.1.0"))
      return What("not a SARIF 2.1.0 log");
    if (auto S = Log->getString("$schema"))
      Schema = S->str();
    llvm::json::Array *Runs = Log->getArray("runs");
    if (!Runs)
      return What("no 'runs'");
    for (llvm::json::Value &RunValue : *Runs) {
      llvm::json::Object *Run = RunValue.getAsObject();
      if (!Run)
        return What("a run is not an object");
      if (auto K = Run->getString("columnKind"))
        ColumnKind = K->str();
      std::vector<std::string> RuleIds;
      if (llvm::json::Object *Tool = Run->getObject("tool"))
        if (llvm::json::Object *D = Tool->getObject("driver")) {
          if (const llvm::json::Array *R = D->getArray("rules"))
            for (const llvm::json::Value &Rule : *R) {
              const llvm::json::Object *O = Rule.getAsObject();
              std::string Id;
              if (O)
                if (auto S = O->getString("id"))
                  Id = S->str();
              RuleIds.push_back(Id);
              if (O && !Id.empty())
                Rules.emplace(Id, *O);
            }
          if (!Driver) {
            Driver = *D;
            Driver->erase("rules");
          }
        }
      if (const llvm::json::Array *Rs = Run->getArray("results"))
        for (const llvm::json::Value &R : *Rs) {
          const llvm::json::Object *O = R.getAsObject();
          if (!O)
            return What("a result is not an object");
          llvm::json::Object Result = *O;
          // ruleId wins; where only ruleIndex is given, its rule's id.
          if (!Result.getString("ruleId"))
            if (auto Index = Result.getInteger("ruleIndex"))
              if (*Index >= 0 && static_cast<size_t>(*Index) < RuleIds.size())
                Result["ruleId"] = RuleIds[*Index];
          Results.emplace(resultKey(Result), std::move(Result));
        }
    }
  }
  if (!Driver)
    Driver = llvm::json::Object{{"name", "cuda-lambda-tidy"}};
  std::vector<std::string> Ids;
  llvm::json::Array RuleArray;
  for (auto &[Id, Rule] : Rules) {
    Ids.push_back(Id);
    RuleArray.push_back(std::move(Rule));
  }
  llvm::json::Array ResultArray;
  for (auto &[Key, Result] : Results) {
    Result.erase("ruleIndex");
    if (auto Id = Result.getString("ruleId")) {
      auto It = llvm::lower_bound(Ids, Id->str());
      if (It != Ids.end() && *It == *Id)
        Result["ruleIndex"] = static_cast<int64_t>(It - Ids.begin());
    }
    ResultArray.push_back(std::move(Result));
  }
  (*Driver)["rules"] = std::move(RuleArray);
  return writeSarifLog(std::move(*Driver), std::move(ResultArray), Schema,
                       ColumnKind);
}

} // namespace cuda_lambda_tidy

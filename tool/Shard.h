//===--- Shard.h - cuda-lambda-tidy -------------------------------------===//
//
// CI at scale: `--shard=I/N` splits the files of a run into N disjoint
// shards, stably, so that a CI matrix fans one compile database out over N
// runners; and the shards' SARIF logs are merged back into one
// (`--merge-sarif OUT IN...`). Plain data in, plain data out.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_SHARD_H
#define CUDA_LAMBDA_TIDY_TOOL_SHARD_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_lambda_tidy {

/// Shard \c Index (1-based) of \c Count.
struct Shard {
  unsigned Index = 1;
  unsigned Count = 1;
};

/// Parses `I/N` (1 <= I <= N); the message in \p Error otherwise.
std::optional<Shard> parseShard(llvm::StringRef Text, std::string &Error);

/// 64-bit FNV-1a of \p Bytes (offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3): the documented hash of the split.
uint64_t fnv1a64(llvm::StringRef Bytes);

/// What the split hashes for \p File: its path relative to \p BaseDir (the
/// compile database's directory), '/'-separated, with `..` where the file
/// is not below it, both made absolute and lexically normalised first. So
/// the split does not depend on where the checkout is, only on the layout
/// of the tree.
std::string shardPathKey(llvm::StringRef File, llvm::StringRef BaseDir);

/// Whether \p File belongs to \p S: fnv1a64(shardPathKey(...)) % Count ==
/// Index - 1.
bool inShard(const Shard &S, llvm::StringRef File, llvm::StringRef BaseDir);

/// The SARIF 2.1.0 logs \p Logs (one run each, as --format=sarif writes
/// them) as one log of one run: rules united (sorted by id, ruleIndex
/// renumbered), results of all logs ordered by file, line, column, level and
/// message, each result once.
llvm::Expected<std::string> mergeSarifLogs(llvm::ArrayRef<std::string> Logs);

} // namespace cuda_lambda_tidy

#endif

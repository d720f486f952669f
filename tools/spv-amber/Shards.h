//===- Shards.h - Split a suite over machines -------------------*- C++ -*-===//
//
// Shard I of N runs the scripts at positions p (in findScripts' order) with
// p % N == I: round robin, as GoogleTest shards, so that shards are balanced
// and a set of scripts is split the same way every time. The shard comes
// from --shard-index and --shard-count, or else from GTEST_SHARD_INDEX and
// GTEST_TOTAL_SHARDS, which CI systems already set for GoogleTest.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_SHARDS_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_SHARDS_H

#include "Expectations.h"
#include "Scripts.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace spvb::driver {

struct Shard {
  /// From 0, below count.
  unsigned index = 0;
  unsigned count = 1;
  /// What named the shard ("--shard-index/--shard-count" or
  /// "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS"), for messages.
  std::string source;
};

/// The shard the flags name (each std::nullopt when not given), or else the
/// one the environment variables name (each std::nullopt when unset or
/// empty), or none. An error starts with "error: " and names the flag or
/// variable and its value.
llvm::Expected<std::optional<Shard>>
getShard(std::optional<llvm::StringRef> indexFlag,
         std::optional<llvm::StringRef> countFlag,
         std::optional<llvm::StringRef> indexVariable,
         std::optional<llvm::StringRef> countVariable);

/// The scripts of \p set that \p shard runs; the common directory stays the
/// whole set's, so that keys and report names are those of an unsharded run.
ScriptSet selectShard(const ScriptSet &set, const Shard &shard);

/// The expectations \p shard compares: those of its scripts (\p selected),
/// and for shard 0 also those of scripts no shard runs (not in \p all), so
/// that a script gone from the suite is reported once.
Expectations selectShardExpectations(const Expectations &expected,
                                     const ScriptSet &all,
                                     const ScriptSet &selected,
                                     const Shard &shard);

/// Creates \p path, or updates its time: GoogleTest's way of telling the CI
/// system (which names the file in GTEST_SHARD_STATUS_FILE) that the runner
/// understands sharding.
llvm::Error touchShardStatusFile(llvm::StringRef path);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_SHARDS_H

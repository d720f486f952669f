//===- Shards.cpp - Split a suite over machines ---------------------------===//
#include "Shards.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace spvb::driver;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

/// The shard \p indexValue of \p countValue, which \p indexName and
/// \p countName (a flag or a variable, each set) give.
Expected<Shard> parseShard(StringRef indexName, StringRef indexValue,
                           StringRef countName, StringRef countValue) {
  unsigned count = 0;
  if (countValue.getAsInteger(10, count) || count == 0)
    return makeError(countName + " '" + countValue +
                     "': expected a positive integer");
  unsigned index = 0;
  if (indexValue.getAsInteger(10, index) || index >= count)
    return makeError(indexName + " '" + indexValue +
                     "': expected a number below " + countName + " " +
                     Twine(count));
  return Shard{index, count, (indexName + "/" + countName).str()};
}

} // namespace

Expected<std::optional<Shard>>
spvb::driver::getShard(std::optional<StringRef> indexFlag,
                       std::optional<StringRef> countFlag,
                       std::optional<StringRef> indexVariable,
                       std::optional<StringRef> countVariable) {
  std::optional<StringRef> index = indexFlag, count = countFlag;
  StringRef indexName = "--shard-index", countName = "--shard-count";
  if (indexFlag && !countFlag)
    return makeError("--shard-index needs --shard-count N");
  if (countFlag && !indexFlag)
    return makeError("--shard-count needs --shard-index I");
  // The flags win: a CI job may shard by hand inside an environment that
  // sets the variables for its GoogleTest binaries.
  if (!indexFlag) {
    index = indexVariable;
    count = countVariable;
    indexName = "GTEST_SHARD_INDEX";
    countName = "GTEST_TOTAL_SHARDS";
    if (!index && !count)
      return std::nullopt;
    if (!count)
      return makeError("GTEST_SHARD_INDEX is set but GTEST_TOTAL_SHARDS is "
                       "not (set both, or neither)");
    if (!index)
      return makeError("GTEST_TOTAL_SHARDS is set but GTEST_SHARD_INDEX is "
                       "not (set both, or neither)");
  }
  Expected<Shard> shard = parseShard(indexName, *index, countName, *count);
  if (!shard)
    return shard.takeError();
  return *shard;
}

ScriptSet spvb::driver::selectShard(const ScriptSet &set, const Shard &shard) {
  ScriptSet selected;
  selected.commonDirectory = set.commonDirectory;
  for (size_t i = shard.index; i < set.scripts.size(); i += shard.count)
    selected.scripts.push_back(set.scripts[i]);
  return selected;
}

Expectations spvb::driver::selectShardExpectations(const Expectations &expected,
                                                   const ScriptSet &all,
                                                   const ScriptSet &selected,
                                                   const Shard &shard) {
  StringSet<> allKeys, selectedKeys;
  for (const Script &script : all.scripts)
    allKeys.insert(script.key);
  for (const Script &script : selected.scripts)
    selectedKeys.insert(script.key);
  Expectations result;
  result.header = expected.header;
  for (const auto &[key, outcome] : expected.outcomes)
    if (selectedKeys.contains(key) ||
        (shard.index == 0 && !allKeys.contains(key)))
      result.outcomes.emplace(key, outcome);
  return result;
}

Error spvb::driver::touchShardStatusFile(StringRef path) {
  auto makeFileError = [&](std::error_code error) {
    return makeError("GTEST_SHARD_STATUS_FILE '" + path +
                     "': " + error.message());
  };
  // Appending keeps what is there; the CI system only looks whether the
  // file exists.
  int fd = -1;
  if (std::error_code error = sys::fs::openFileForWrite(
          path, fd, sys::fs::CD_OpenAlways, sys::fs::OF_Append))
    return makeFileError(error);
  std::error_code error = sys::fs::setLastAccessAndModificationTime(
      fd, std::chrono::time_point_cast<std::chrono::nanoseconds>(
              std::chrono::system_clock::now()));
  std::error_code closeError = sys::Process::SafelyCloseFileDescriptor(fd);
  if (error || closeError)
    return makeFileError(error ? error : closeError);
  return Error::success();
}

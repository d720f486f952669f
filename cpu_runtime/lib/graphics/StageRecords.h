//===- StageRecords.h - Stage input and output records ----------*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_STAGERECORDS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_STAGERECORDS_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace spvb::runtime {

/// Records for `count` invocations, 8-byte aligned (kernel_abi.h).
class StageRecords {
public:
  StageRecords(uint64_t recordSize, uint64_t count, uint8_t fill = 0)
      : recordSize(recordSize),
        words((recordSize * count + 7) / 8 + 1, fill ? ~uint64_t(0) : 0) {}
  /// Takes `words` (records from its start) as they are.
  StageRecords(uint64_t recordSize, std::vector<uint64_t> words)
      : recordSize(recordSize), words(std::move(words)) {}
  /// Records for `count` invocations in `storage`'s memory (filled as the
  /// constructor's): a thread's storage kept from one draw to the next
  /// costs no page faults. release() gives it back.
  static StageRecords reuse(std::vector<uint64_t> &storage, uint64_t recordSize,
                            uint64_t count, uint8_t fill = 0) {
    storage.assign((recordSize * count + 7) / 8 + 1, fill ? ~uint64_t(0) : 0);
    return StageRecords(recordSize, std::move(storage));
  }
  /// As reuse, but records kept from before keep their contents: for a
  /// caller that writes every record whole.
  static StageRecords reuseUncleared(std::vector<uint64_t> &storage,
                                     uint64_t recordSize, uint64_t count) {
    storage.resize((recordSize * count + 7) / 8 + 1);
    return StageRecords(recordSize, std::move(storage));
  }
  std::vector<uint64_t> release() && { return std::move(words); }
  /// Room for `count` records of `size` bytes in the memory these have,
  /// which never shrinks: those that were kept keep their contents, new
  /// ones are uncleared where the memory has room (for a caller that
  /// writes every record it reads).
  void grow(uint64_t size, uint64_t count) {
    recordSize = size;
    uint64_t needed = (recordSize * count + 7) / 8 + 1;
    if (words.size() < needed)
      words.resize(std::max<uint64_t>(needed, words.size() * 2));
  }
  uint8_t *data() { return reinterpret_cast<uint8_t *>(words.data()); }
  uint8_t *at(uint64_t index) { return data() + index * recordSize; }
  const uint8_t *at(uint64_t index) const {
    return reinterpret_cast<const uint8_t *>(words.data()) + index * recordSize;
  }
  uint64_t getRecordSize() const { return recordSize; }

  /// Fragment records are in blocks of SPVB_FRAGMENT_RECORD_LANES
  /// invocations, word by word (kernel_abi.h): where byte `offset` of
  /// invocation `index`'s record is. A quad's four values of a word are
  /// consecutive.
  uint8_t *inBlock(uint64_t index, uint64_t offset) {
    return data() + blockedOffset(index, offset);
  }
  const uint8_t *inBlock(uint64_t index, uint64_t offset) const {
    return reinterpret_cast<const uint8_t *>(words.data()) +
           blockedOffset(index, offset);
  }
  /// The distance from one word of a block's lanes to the next.
  static constexpr uint64_t kBlockRow = 4 * SPVB_FRAGMENT_RECORD_LANES;
  /// Copies invocation `index`'s blocked record to `record`, its bytes in
  /// order.
  void gatherBlocked(uint64_t index, uint8_t *record) const {
    for (uint64_t word = 0; word < recordSize; word += 4)
      std::memcpy(record + word, inBlock(index, word), 4);
  }
  /// The reverse of gatherBlocked.
  void scatterBlocked(uint64_t index, const uint8_t *record) {
    for (uint64_t word = 0; word < recordSize; word += 4)
      std::memcpy(inBlock(index, word), record + word, 4);
  }
  /// Fills the first `count` records. Outputs a shader never writes are
  /// undefined: --perturb-undefined fills them with ones
  /// (KernelEntry::workgroupFill).
  void clear(uint64_t count, uint8_t fill = 0) {
    uint64_t bytes =
        8 * std::min<uint64_t>(words.size(), (recordSize * count + 7) / 8);
    std::memset(words.data(), fill ? 0xff : 0, bytes);
  }

  /// Zeroes the first word of blocked records [begin, end) (a fragment
  /// output record's status), leaving the rest as it is.
  void clearFirstBlockedWords(uint64_t begin, uint64_t end) {
    constexpr uint64_t lanes = SPVB_FRAGMENT_RECORD_LANES;
    for (uint64_t first = begin; first < end;) {
      // A block's first words are consecutive.
      uint64_t last = std::min(end, (first / lanes + 1) * lanes);
      std::memset(inBlock(first, 0), 0, 4 * (last - first));
      first = last;
    }
  }

private:
  uint64_t blockedOffset(uint64_t index, uint64_t offset) const {
    constexpr uint64_t lanes = SPVB_FRAGMENT_RECORD_LANES;
    return index / lanes * lanes * recordSize + index % lanes * 4 +
           spvb_blocked_record_offset(offset, SPVB_FRAGMENT_RECORD_LANES);
  }

  uint64_t recordSize;
  std::vector<uint64_t> words;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_STAGERECORDS_H

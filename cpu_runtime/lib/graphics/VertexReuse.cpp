//===- VertexReuse.cpp - Each vertex of an indexed draw shaded once -------===//
#include "VertexReuse.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

using namespace spvb::runtime;

VertexReuse VertexReuse::deduplicate(llvm::ArrayRef<uint32_t> indices,
                                     llvm::ArrayRef<uint32_t> restarts) {
  VertexReuse reuse;
  reuse.slots.assign(indices.size(), 0);
  if (indices.size() == restarts.size())
    return reuse;
  // Positions that name a vertex: all but the restarts (ascending).
  auto forEachPosition = [&](auto body) {
    for (uint32_t i = 0, next = 0; i < indices.size(); ++i) {
      if (next < restarts.size() && restarts[next] == i) {
        ++next;
        continue;
      }
      body(i);
    }
  };
  uint32_t low = ~0u, high = 0;
  forEachPosition([&](uint32_t i) {
    low = std::min(low, indices[i]);
    high = std::max(high, indices[i]);
  });
  auto slotFor = [&](uint32_t index, uint32_t &slot) {
    if (slot == ~0u) {
      slot = reuse.shaded.size();
      reuse.shaded.push_back(index);
    }
    return slot;
  };
  // Indices usually span about as many vertices as they name: a table;
  // sparse ones a hash map (any 32-bit value may be an index).
  uint64_t range = uint64_t(high) - low + 1;
  if (range <= 4 * uint64_t(indices.size()) + 1024) {
    // Slots through plain pointers: push_back's checks took most of the
    // instructions.
    std::vector<uint32_t> table(range, ~0u);
    reuse.shaded.resize(std::min<uint64_t>(range, indices.size()));
    uint32_t *shaded = reuse.shaded.data(), *slots = reuse.slots.data();
    uint32_t count = 0;
    forEachPosition([&](uint32_t i) {
      uint32_t &slot = table[indices[i] - low];
      if (slot == ~0u) {
        slot = count;
        shaded[count++] = indices[i];
      }
      slots[i] = slot;
    });
    reuse.shaded.resize(count);
    return reuse;
  }
  std::unordered_map<uint32_t, uint32_t> map;
  forEachPosition([&](uint32_t i) {
    reuse.slots[i] =
        slotFor(indices[i], map.try_emplace(indices[i], ~0u).first->second);
  });
  return reuse;
}

VertexReuse VertexReuse::identity(llvm::ArrayRef<uint32_t> indices) {
  VertexReuse reuse;
  reuse.shaded.assign(indices.begin(), indices.end());
  reuse.slots.resize(indices.size());
  std::iota(reuse.slots.begin(), reuse.slots.end(), 0u);
  return reuse;
}

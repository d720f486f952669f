//===- VertexReuse.cpp - Each vertex of an indexed draw shaded once -------===//
#include "VertexReuse.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <numeric>

using namespace spvb::runtime;

VertexReuse VertexReuse::deduplicate(llvm::ArrayRef<uint32_t> indices) {
  VertexReuse reuse;
  reuse.slots.resize(indices.size());
  if (indices.empty())
    return reuse;
  auto [low, high] = std::minmax_element(indices.begin(), indices.end());
  uint64_t range = uint64_t(*high) - *low + 1;
  auto slotFor = [&](uint32_t index, uint32_t &slot) {
    if (slot == ~0u) {
      slot = reuse.shaded.size();
      reuse.shaded.push_back(index);
    }
    return slot;
  };
  // Indices usually span about as many vertices as they name: a table;
  // sparse ones (a restart value among small indices) a map.
  if (range <= 4 * uint64_t(indices.size()) + 1024) {
    std::vector<uint32_t> table(range, ~0u);
    for (size_t i = 0; i < indices.size(); ++i)
      reuse.slots[i] = slotFor(indices[i], table[indices[i] - *low]);
    return reuse;
  }
  llvm::DenseMap<uint32_t, uint32_t> map;
  for (size_t i = 0; i < indices.size(); ++i)
    reuse.slots[i] =
        slotFor(indices[i], map.try_emplace(indices[i], ~0u).first->second);
  return reuse;
}

VertexReuse VertexReuse::identity(llvm::ArrayRef<uint32_t> indices) {
  VertexReuse reuse;
  reuse.shaded.assign(indices.begin(), indices.end());
  reuse.slots.resize(indices.size());
  std::iota(reuse.slots.begin(), reuse.slots.end(), 0u);
  return reuse;
}

//===- TileBins.cpp - A draw's framebuffer region cut into tiles ----------===//
#include "TileBins.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace spvb::runtime;

TileBins::TileBins(PixelRect region, int32_t tileSize)
    : region(region), tileSize(tileSize),
      tileShift(llvm::countr_zero(uint32_t(tileSize))) {
  assert(llvm::isPowerOf2_32(uint32_t(tileSize)) && "tiles of 2^n pixels");
  if (region.empty())
    return;
  firstColumn = tileOf(region.x0);
  firstRow = tileOf(region.y0);
  columns = tileOf(region.x1 - 1) - firstColumn + 1;
  int32_t rows = tileOf(region.y1 - 1) - firstRow + 1;
  for (int32_t row = 0; row < rows; ++row)
    for (int32_t column = 0; column < columns; ++column) {
      int32_t x = (firstColumn + column) * tileSize;
      int32_t y = (firstRow + row) * tileSize;
      PixelRect pixels{std::max(x, region.x0), std::max(y, region.y0),
                       std::min(x + tileSize, region.x1),
                       std::min(y + tileSize, region.y1)};
      tiles.push_back({pixels, {}});
    }
}

void TileBins::addSpanning(uint32_t index, PixelRect bounds) {
  for (int32_t row = tileOf(bounds.y0); row <= tileOf(bounds.y1 - 1); ++row)
    for (int32_t column = tileOf(bounds.x0); column <= tileOf(bounds.x1 - 1);
         ++column) {
      Tile &tile =
          tiles[size_t(row - firstRow) * columns + (column - firstColumn)];
      tile.primitives.push_back(index);
      PixelRect covered = bounds.intersect(tile.pixels);
      tile.work += kSetupWork + uint64_t(covered.x1 - covered.x0) *
                                    uint64_t(covered.y1 - covered.y0);
    }
}

std::vector<size_t> TileBins::getBusiestFirst() const {
  std::vector<size_t> order;
  for (size_t index = 0; index < tiles.size(); ++index)
    if (!tiles[index].primitives.empty())
      order.push_back(index);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tiles[a].work > tiles[b].work;
  });
  return order;
}

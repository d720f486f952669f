//===- TileBins.h - A draw's framebuffer region cut into tiles --*- C++ -*-===//
//
// Threads take a draw's tiles one at a time and rasterize, shade and write
// each tile's pixels alone, so a pixel's fragments arrive in primitive
// order without locks. Each tile lists, in draw order, the primitives
// whose bounds touch it. Tiles are aligned to their size, which is even, so
// no 2x2 quad straddles two tiles. One thread takes larger tiles: a
// primitive across a tile's edge is set up once per tile it touches.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_TILEBINS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_TILEBINS_H

#include "Rasterizer.h"

#include <vector>

namespace spvb::runtime {

class TileBins {
public:
  static constexpr int32_t kTileSize = 64;
  /// The tiles' size for a single thread: still within the L2 cache for
  /// four-byte texels.
  static constexpr int32_t kSingleThreadTileSize = 256;

  struct Tile {
    PixelRect pixels;
    std::vector<uint32_t> primitives;
    /// An estimate of the tile's work: the pixels its primitives' bounds
    /// cover in it, plus a setup cost per primitive.
    uint64_t work = 0;
  };

  /// Tiles of `tileSize` (a power of two) over `region` (the scissor
  /// within the framebuffer).
  explicit TileBins(PixelRect region, int32_t tileSize = kTileSize);

  /// Lists primitive `index` in every tile `bounds` touches.
  void add(uint32_t index, PixelRect bounds) {
    bounds = bounds.intersect(region);
    if (bounds.empty())
      return;
    int32_t row = tileOf(bounds.y0), column = tileOf(bounds.x0);
    if (row != tileOf(bounds.y1 - 1) || column != tileOf(bounds.x1 - 1)) {
      addSpanning(index, bounds);
      return;
    }
    // Most primitives of a mesh lie in one tile.
    Tile &tile =
        tiles[size_t(row - firstRow) * columns + (column - firstColumn)];
    tile.primitives.push_back(index);
    tile.work += kSetupWork + uint64_t(bounds.x1 - bounds.x0) *
                                  uint64_t(bounds.y1 - bounds.y0);
  }

  size_t size() const { return tiles.size(); }
  /// The tiles with primitives, the most work first: threads that take
  /// tiles in this order finish together (the order of tiles changes no
  /// pixel: each is written by one tile).
  std::vector<size_t> getBusiestFirst() const;
  const Tile &operator[](size_t index) const { return tiles[index]; }

private:
  /// A primitive's setup in a tile costs about as much as shading this
  /// many pixels.
  static constexpr uint64_t kSetupWork = 16;
  int32_t tileOf(int32_t pixel) const {
    // Rounds down, for negative pixels too: an arithmetic shift, not a
    // division (add() finds four tiles per primitive).
    return pixel >> tileShift;
  }
  /// add() for bounds within the region that touch several tiles.
  void addSpanning(uint32_t index, PixelRect bounds);

  PixelRect region;
  int32_t tileSize;
  int32_t tileShift;
  int32_t firstColumn = 0, firstRow = 0, columns = 0;
  std::vector<Tile> tiles;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_TILEBINS_H

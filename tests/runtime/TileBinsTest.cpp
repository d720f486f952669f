//===- TileBinsTest.cpp - Primitives binned into square tiles -------------===//
#include "graphics/TileBins.h"

#include "gtest/gtest.h"

using namespace spvb::runtime;

namespace {

TEST(TileBins, TilesCoverTheRegionAlignedToTheirSize) {
  // 200x100 pixels from (0, 0): 4 columns (the last 8 pixels wide) and 2
  // rows (the last 36 high).
  TileBins bins(PixelRect{0, 0, 200, 100});
  ASSERT_EQ(bins.size(), 8u);
  EXPECT_EQ(bins[3].pixels.x0, 192);
  EXPECT_EQ(bins[3].pixels.x1, 200);
  EXPECT_EQ(bins[7].pixels.y0, 64);
  EXPECT_EQ(bins[7].pixels.y1, 100);
}

TEST(TileBins, APrimitiveIsListedInEveryTileItsBoundsTouch) {
  TileBins bins(PixelRect{0, 0, 200, 100});
  bins.add(0, PixelRect{60, 10, 70, 20});   // tiles 0 and 1
  bins.add(1, PixelRect{10, 10, 20, 20});   // tile 0 only
  bins.add(2, PixelRect{195, 60, 300, 90}); // tiles 3 and 7, clipped
  bins.add(3, PixelRect{300, 0, 400, 50});  // outside: nowhere
  EXPECT_EQ(bins[0].primitives, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(bins[1].primitives, (std::vector<uint32_t>{0}));
  EXPECT_EQ(bins[3].primitives, (std::vector<uint32_t>{2}));
  EXPECT_EQ(bins[7].primitives, (std::vector<uint32_t>{2}));
  for (size_t tile : {2, 4, 5, 6})
    EXPECT_TRUE(bins[tile].primitives.empty()) << "tile " << tile;
}

TEST(TileBins, OneThreadsLargerTilesHoldWhatSmallerOnesSplit) {
  // 300x200 pixels in 256x256 tiles: 2 columns (the last 44 pixels wide),
  // 1 row. A primitive across x = 64 is in one of them, not two.
  TileBins bins(PixelRect{0, 0, 300, 200}, TileBins::kSingleThreadTileSize);
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_EQ(bins[0].pixels.x1, 256);
  EXPECT_EQ(bins[1].pixels.x0, 256);
  EXPECT_EQ(bins[1].pixels.x1, 300);
  EXPECT_EQ(bins[1].pixels.y1, 200);
  bins.add(0, PixelRect{60, 60, 70, 70});
  bins.add(1, PixelRect{250, 10, 260, 20});
  EXPECT_EQ(bins[0].primitives, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(bins[1].primitives, (std::vector<uint32_t>{1}));
}

TEST(TileBins, BusiestTilesComeFirst) {
  TileBins bins(PixelRect{0, 0, 128, 64});
  bins.add(0, PixelRect{0, 0, 4, 4});    // tile 0: 16 + 16 pixels
  bins.add(1, PixelRect{64, 0, 96, 32}); // tile 1: 16 + 1024 pixels
  EXPECT_EQ(bins.getBusiestFirst(), (std::vector<size_t>{1, 0}));
  EXPECT_EQ(bins[0].work, 16u + 16u);
  EXPECT_EQ(bins[1].work, 16u + 32u * 32u);
}

} // namespace

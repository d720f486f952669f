//===- DrawGeometry.cpp - The vertices Amber's draw commands make ---------===//
#include "DrawGeometry.h"

using namespace spvb::amber;

std::vector<float> spvb::amber::makeDrawGeometry(const DrawCommand &draw,
                                                 uint32_t width,
                                                 uint32_t height) {
  float x = draw.x, y = draw.y, w = draw.width, h = draw.height;
  if (draw.ortho || draw.drawKind == DrawCommand::DrawKind::Grid) {
    const float frameWidth = static_cast<float>(width);
    const float frameHeight = static_cast<float>(height);
    x = ((x / frameWidth) * 2.0f) - 1.0f;
    y = ((y / frameHeight) * 2.0f) - 1.0f;
    w = (w / frameWidth) * 2.0f;
    h = (h / frameHeight) * 2.0f;
  }
  if (draw.drawKind == DrawCommand::DrawKind::Rect)
    return {x, y + h, x, y, x + w, y + h, x + w, y};
  std::vector<float> positions;
  const float cellWidth = w / static_cast<float>(draw.columns);
  const float cellHeight = h / static_cast<float>(draw.rows);
  for (uint32_t i = 0; i < draw.rows; ++i)
    for (uint32_t j = 0; j < draw.columns; ++j) {
      float x0 = x + cellWidth * static_cast<float>(j);
      float y0 = y + cellHeight * static_cast<float>(i);
      float x1 = x + cellWidth * static_cast<float>(j + 1);
      float y1 = y + cellHeight * static_cast<float>(i + 1);
      positions.insert(positions.end(),
                       {x1, y1, x0, y1, x0, y0, x1, y1, x0, y0, x1, y0});
    }
  return positions;
}

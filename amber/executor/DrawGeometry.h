//===- DrawGeometry.h - The vertices Amber's draw commands make -*- C++ -*-===//
//
// DRAW_RECT and DRAW_GRID draw vertices Amber computes itself (in float, as
// Amber's Vulkan engine does, so that edges land on the same samples):
// a rectangle is a triangle strip of (x, y + h), (x, y), (x + w, y + h),
// (x + w, y); a grid is two triangles per cell, row by row. Positions are
// R32G32_SFLOAT at Location 0.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_DRAWGEOMETRY_H
#define SPVBRIDGE_TOOLS_AMBER_DRAWGEOMETRY_H

#include "spvbridge/amber/AmberScript.h"

#include <vector>

namespace spvb::amber {

/// The positions (x, y pairs) of a Rect or Grid draw into a framebuffer of
/// `width` x `height` pixels.
std::vector<float> makeDrawGeometry(const DrawCommand &draw, uint32_t width,
                                    uint32_t height);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_DRAWGEOMETRY_H

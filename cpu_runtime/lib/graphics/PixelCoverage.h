//===- PixelCoverage.h - The primitives that cover one pixel ---*- C++ -*-===//
//
// --debug-pixel reaches back from the fragment shader to the vertex and
// geometry shader invocations behind the primitives that cover the pixel;
// this finds those primitives, rasterizing each alone within the pixel.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_PIXELCOVERAGE_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_PIXELCOVERAGE_H

#include "FragmentShading.h"

namespace spvb::runtime {

/// The indices of the primitives of `primitives` whose quads cover
/// `pixel`, in draw order.
std::vector<size_t>
findPixelPrimitives(const DebugPixel &pixel, const GraphicsState &state,
                    const RasterSetup &setup,
                    llvm::ArrayRef<DrawPrimitive> primitives);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_PIXELCOVERAGE_H

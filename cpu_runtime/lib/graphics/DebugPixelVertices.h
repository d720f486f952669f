//===- DebugPixelVertices.h - A debugged pixel's vertices -------*- C++ -*-===//
//
// --debug-pixel reaches back to the vertex shader: the vertex invocations
// of the primitives that cover the pixel run again, one at a time, through
// a debug build of the vertex shader. Which primitives cover it is only
// known once every vertex is shaded, so they run a second time; their
// outputs do not change.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELVERTICES_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELVERTICES_H

#include "FragmentShading.h"
#include "StageLaunch.h"

namespace spvb::runtime {

/// Reruns the invocations of `vertex` whose output records the primitives
/// covering `pixel` read, through `pixel.vertex`, each alone on a thread
/// named by `nameThread(record)`. `primitives` name records of instance i
/// from i x `perInstance`.
llvm::Error rerunPixelVertices(
    Launcher &launcher, const DebugPixel &pixel, const GraphicsState &state,
    const RasterSetup &setup, llvm::ArrayRef<DrawPrimitive> primitives,
    uint64_t perInstance, const StageKernel &vertex, StageRecords &inputs,
    StageRecords &outputs, const StageLaunchContext &context,
    llvm::function_ref<std::string(uint64_t)> nameThread);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELVERTICES_H

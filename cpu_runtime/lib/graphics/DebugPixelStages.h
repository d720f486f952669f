//===- DebugPixelStages.h - A debugged pixel's earlier stages -*- C++ -*-===//
//
// --debug-pixel reaches back from the fragment shader: the vertex (and
// geometry shader) invocations behind the primitives that cover the pixel
// run again, one at a time, through debug builds. Which primitives cover
// it is only known once every vertex is shaded, so they run a second time;
// their outputs do not change.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELSTAGES_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELSTAGES_H

#include "FragmentShading.h"
#include "StageLaunch.h"

namespace spvb::runtime {

/// The indices of the primitives of `primitives` whose quads cover
/// `pixel`, in draw order.
std::vector<size_t>
findPixelPrimitives(const DebugPixel &pixel, const GraphicsState &state,
                    const RasterSetup &setup,
                    llvm::ArrayRef<DrawPrimitive> primitives);

/// Reruns the invocations of `stage` (one per record) with the records
/// `records`, in order, through `debugEntry` (a debug build's invocation
/// entry), each alone on a thread named by `nameThread(record)`.
llvm::Error
rerunInvocations(Launcher &launcher, spvb_entry_fn debugEntry,
                 const StageKernel &stage, StageRecords &inputs,
                 StageRecords &outputs, llvm::ArrayRef<uint64_t> records,
                 const StageLaunchContext &context,
                 llvm::function_ref<std::string(uint64_t)> nameThread);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_DEBUGPIXELSTAGES_H

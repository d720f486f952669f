//===- DebugPixelStages.cpp - A debugged pixel's earlier stages ---------===//
#include "DebugPixelStages.h"

using namespace spvb::runtime;

namespace {

/// Whether a primitive's quads cover one pixel (a sample of it).
class PixelProbe final : public QuadSink {
public:
  PixelProbe(int64_t x, int64_t y) : x(x), y(y) {}

  void emit(const Quad &quad) override {
    int64_t dx = x - quad.x, dy = y - quad.y;
    if (dx >= 0 && dx <= 1 && dy >= 0 && dy <= 1 &&
        (quad.coverage & (1u << (dx + 2 * dy))))
      covered = true;
  }
  bool isCovered() const { return covered; }

private:
  int64_t x, y;
  bool covered = false;
};

} // namespace

std::vector<size_t> spvb::runtime::findPixelPrimitives(
    const DebugPixel &pixel, const GraphicsState &state,
    const RasterSetup &setup, llvm::ArrayRef<DrawPrimitive> primitives) {
  int32_t x = int32_t(pixel.x), y = int32_t(pixel.y);
  RasterSetup only = setup.restrictedTo(
      PixelRect{x, y, x + 1, y + 1}.intersect(setup.getScissor()));
  std::vector<size_t> covering;
  if (only.x0 >= only.x1 || only.y0 >= only.y1)
    return covering;
  for (size_t i = 0; i < primitives.size(); ++i) {
    const DrawPrimitive &drawn = primitives[i];
    const PixelRect &bounds = drawn.bounds;
    if (x < bounds.x0 || x >= bounds.x1 || y < bounds.y0 || y >= bounds.y1)
      continue;
    PixelProbe probe(x, y);
    switch (drawn.primitive.vertexCount) {
    case 3:
      rasterizeTriangle(state, only, drawn.projected, probe);
      break;
    case 2:
      rasterizeLine(state, only,
                    {drawn.projected[0]->clip, drawn.projected[1]->clip},
                    probe);
      break;
    default:
      rasterizePoint(state, only, drawn.projected[0]->clip, drawn.pointSize,
                     probe);
      break;
    }
    if (probe.isCovered())
      covering.push_back(i);
  }
  return covering;
}

llvm::Error spvb::runtime::rerunInvocations(
    Launcher &launcher, spvb_entry_fn debugEntry, const StageKernel &stage,
    StageRecords &inputs, StageRecords &outputs,
    llvm::ArrayRef<uint64_t> records, const StageLaunchContext &context,
    llvm::function_ref<std::string(uint64_t)> nameThread) {
  // Each alone, as a workgroup of one run on the debug build.
  KernelEntry single = *stage.entry;
  single.workgroup = nullptr;
  single.info.workgroup_entry = SPVB_WORKGROUP_ENTRY_NONE;
  single.info.workgroup_size[0] = 1;
  StageKernel one = stage;
  one.entry = &single;
  std::optional<DebugInvocation> previous = launcher.getDebugInvocation();
  for (uint64_t record : records) {
    DebugInvocation debug;
    debug.entry = debugEntry;
    debug.threadName = nameThread(record);
    launcher.setDebugInvocation(debug);
    StageLaunchContext named = context;
    if (context.nameInvocation)
      named.nameInvocation = [&](uint64_t) {
        return context.nameInvocation(record);
      };
    if (llvm::Error error = runStage(launcher, one, inputs.at(record),
                                     outputs.at(record), 1, named)) {
      launcher.setDebugInvocation(previous);
      return error;
    }
  }
  launcher.setDebugInvocation(previous);
  return llvm::Error::success();
}

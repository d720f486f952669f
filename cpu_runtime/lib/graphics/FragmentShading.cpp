//===- FragmentShading.cpp - Quads through the fragment shader ------------===//
#include "FragmentShading.h"
#include "FragmentPixel.h"

#include "StageValues.h"
#include "launch/TypeDesc.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

using namespace spvb::runtime;

/// A quad's four pixels' values.
typedef double Double4 __attribute__((vector_size(32)));
typedef float Float4 __attribute__((vector_size(16)));
typedef double Double2 __attribute__((vector_size(16)));
typedef int32_t Int2 __attribute__((vector_size(8)));

/// Stores `values` as floats at `to` in four records `stride` bytes apart.
/// Inlined into the callers' AVX2 clones (a vector argument's ABI differs
/// between clones).
__attribute__((always_inline)) static inline void
storeFloats(const Double4 &values, uint8_t *to, uint64_t stride) {
  float narrow[4];
  Float4 converted = __builtin_convertvector(values, Float4);
  std::memcpy(narrow, &converted, sizeof(narrow));
  for (unsigned lane = 0; lane < 4; ++lane)
    std::memcpy(to + lane * stride, &narrow[lane], 4);
}

/// A quad's four helper flags (its input records' first words) by its
/// coverage: 1 where the pixel is not covered.
static constexpr uint32_t kHelperFlags[16][4] = {
    {1, 1, 1, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {0, 0, 1, 1},
    {1, 1, 0, 1}, {0, 1, 0, 1}, {1, 0, 0, 1}, {0, 0, 0, 1},
    {1, 1, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {0, 0, 1, 0},
    {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};

/// Whether a lane of `values` is zero: one vector compare, not a branch
/// per lane.
__attribute__((always_inline)) static inline bool
hasZeroLane(const Double4 &values) {
  Double4 zero = Double4(values == Double4{});
  // The compare's sign bits, a half at a time (movmskpd is SSE2): fewer
  // instructions than moving each lane to a general register.
  return (__builtin_ia32_movmskpd(
              Double2(__builtin_shufflevector(zero, zero, 0, 1))) |
          __builtin_ia32_movmskpd(
              Double2(__builtin_shufflevector(zero, zero, 2, 3)))) != 0;
}

/// Stores `values` as four consecutive floats: a word of a quad's blocked
/// records (StageRecords::inBlock).
__attribute__((always_inline)) static inline void
storeFloatQuad(const Double4 &values, uint8_t *to) {
  Float4 converted = __builtin_convertvector(values, Float4);
  std::memcpy(to, &converted, sizeof(converted));
}

/// The batch this thread is shading, for spvb_rt_interpolate.
static thread_local const QuadBatch *shadingBatch = nullptr;

static const spvb_stage_variable *
findInput(llvm::ArrayRef<spvb_stage_variable> vars, uint32_t builtin) {
  for (const spvb_stage_variable &var : vars)
    if (var.builtin == builtin && !(var.flags & SPVB_STAGE_OUTPUT))
      return &var;
  return nullptr;
}

static std::vector<Varying>
matchVaryings(llvm::ArrayRef<spvb_stage_variable> vertexVars,
              llvm::ArrayRef<spvb_stage_variable> fragmentVars) {
  std::vector<Varying> varyings;
  for (const spvb_stage_variable &input : fragmentVars) {
    if (input.location == ~0u || (input.flags & SPVB_STAGE_OUTPUT))
      continue;
    Varying varying{&input, std::nullopt,
                    input.kind == SPVB_KIND_FLOAT &&
                        !(input.flags & SPVB_STAGE_FLAT)};
    for (const spvb_stage_variable &output : vertexVars) {
      if (!(output.flags & SPVB_STAGE_OUTPUT) ||
          output.location != input.location ||
          input.component < output.component ||
          input.component >= output.component + output.count)
        continue;
      varying.source =
          output.offset + (input.component - output.component) * output.bytes;
    }
    // Inputs no vertex output feeds stay zero.
    if (varying.source)
      varyings.push_back(varying);
  }
  return varyings;
}

FragmentStage::FragmentStage(const StageKernel &vertex,
                             const StageKernel &fragment,
                             const StageRecords &vertexOutputs,
                             uint32_t verticesPerInstance, uint32_t samples,
                             FragmentOperations &operations)
    : fragment(fragment), vertexOutputs(vertexOutputs), samples(samples),
      verticesPerInstance(verticesPerInstance), operations(operations),
      varyings(matchVaryings(vertex.variables, fragment.variables)) {
  llvm::ArrayRef<spvb_stage_variable> vars = fragment.variables;
  fragCoord = findInput(vars, spv::BuiltInFragCoord);
  frontFacing = findInput(vars, spv::BuiltInFrontFacing);
  pointCoord = findInput(vars, spv::BuiltInPointCoord);
  primitiveId = findInput(vars, spv::BuiltInPrimitiveId);
  sampleId = findInput(vars, spv::BuiltInSampleId);
  sampleMask = findInput(vars, spv::BuiltInSampleMask);
  samplePosition = findInput(vars, spv::BuiltInSamplePosition);
  for (const Varying &varying : varyings) {
    // With Flat, Centroid and Sample mean nothing.
    sampleInputs |=
        varying.interpolate && (varying.input->flags & SPVB_STAGE_SAMPLE);
    centroidInputs |=
        varying.interpolate && (varying.input->flags & SPVB_STAGE_CENTROID);
  }
  if (fragment.entry) {
    const spvb_kernel_info &info = fragment.entry->info;
    inputSize = info.stage_input_size;
    outputSize = info.stage_output_size;
    quadsPerGroup = std::max<uint32_t>(info.workgroup_size[0] / 4, 1);
  }
  for (const Varying &varying : varyings) {
    const spvb_stage_variable &input = *varying.input;
    if (!varying.interpolate) {
      flatInputs.push_back(
          {*varying.source, input.offset, input.bytes * input.count});
      continue;
    }
    for (unsigned c = 0; c < input.count; ++c) {
      uint32_t offset = input.offset + c * input.bytes;
      planeInputs.push_back({&input, *varying.source + c * input.bytes, offset,
                             uint32_t(spvb_blocked_record_offset(
                                 offset, SPVB_FRAGMENT_RECORD_LANES)),
                             bool(input.flags & SPVB_STAGE_NOPERSPECTIVE)});
    }
  }
  planeInputsAre32Bit = llvm::all_of(planeInputs, [](const PlaneInput &input) {
    return input.input->bytes == 4;
  });
  outputsWritten = llvm::all_of(vars, [](const spvb_stage_variable &var) {
    return !(var.flags & SPVB_STAGE_OUTPUT) || (var.flags & SPVB_STAGE_WRITTEN);
  });
  readsBuiltins = fragCoord || frontFacing || pointCoord || primitiveId ||
                  sampleId || sampleMask || samplePosition;
  needsDepths = !operations.writesUnorm8Only();
}

llvm::Error FragmentStage::prepare(uint32_t subgroupSize) {
  if (!fragment.entry)
    return llvm::Error::success();
  if (llvm::Error error =
          prepareDispatch(*fragment.entry, *fragment.resources, {0, 0, 1},
                          subgroupSize, state, dispatch))
    return error;
  // Quads are never split between subgroups (Vulkan asks for a subgroup
  // size of at least 4 where quad operations are supported).
  dispatch.subgroup_size = std::max(dispatch.subgroup_size, 4u);
  // Batches are rows of at most this many workgroups.
  dispatch.workgroup_count[0] = QuadBatch::kCapacity / quadsPerGroup + 1;
  dispatch.workgroup_count[1] = ~0u;
  state.nameInvocation = [this](uint64_t index) {
    return nameInvocation(index);
  };
  return llvm::Error::success();
}

std::string FragmentStage::nameInvocation(uint64_t index) {
  uint64_t groupSize = uint64_t(quadsPerGroup) * 4;
  uint64_t group = index / groupSize, local = index % groupSize;
  uint64_t perBatch = dispatch.workgroup_count[0];
  uint64_t batch = group / perBatch;
  size_t quad = size_t(group % perBatch * quadsPerGroup + local / 4);
  unsigned lane = unsigned(local % 4);
  std::optional<QuadPlace> place;
  if (shadingBatch && shadingBatch->getNumber() == batch) {
    place = shadingBatch->getPlace(quad);
  } else {
    std::lock_guard<std::mutex> lock(placesMutex);
    if (batch < batchPlaces.size() && !batchPlaces[batch].empty())
      place = batchPlaces[batch][std::min(quad, batchPlaces[batch].size() - 1)];
  }
  if (!place)
    return llvm::formatv("fragment invocation {0} of batch {1}", local, batch);
  std::string name = llvm::formatv(
      "the {0} at pixel ({1}, {2})",
      place->coverage & (1u << lane) ? "fragment" : "helper invocation",
      place->x + lane % 2, place->y + lane / 2);
  if (place->sample >= 0)
    name += llvm::formatv(", sample {0}", int(place->sample)).str();
  return name;
}

FragmentStage::QuadPlace QuadBatch::getPlace(size_t index) const {
  // Padding copies of the last quad are helpers.
  if (index >= queued) {
    FragmentStage::QuadPlace last = getPlace(queued - 1);
    last.coverage = 0;
    return last;
  }
  const FragmentOperations::QuadWrite &place = places[index];
  return {place.x, place.y, entries[index].sample, place.lanes};
}

QuadBatch::QuadBatch(FragmentStage &stage)
    : stage(stage),
      inputs(stage.inputSize, (kCapacity + stage.quadsPerGroup) * 4),
      outputs(stage.outputSize, (kCapacity + stage.quadsPerGroup) * 4),
      quadInputs(4 * inputs.getRecordSize()),
      outputRecord(outputs.getRecordSize()), dispatch(stage.dispatch) {
  entries.resize(kCapacity);
  places.resize(kCapacity);
  if (stage.needsDepths)
    depths.resize(kCapacity);
  dispatch.stage_inputs = inputs.data();
  dispatch.stage_outputs = outputs.data();
  if (stage.fragment.entry)
    runner.emplace(*stage.fragment.entry, dispatch);
}

bool QuadBatch::add(const Quad &quad, const DrawPrimitive &primitive) {
  if (stage.fragment.entry)
    writeInputs(queued, quad, primitive);
  places[queued] = {quad.x, quad.y, quad.coverage};
  Entry &entry = entries[queued++];
  entry.frontFacing = quad.frontFacing;
  entry.sample = int8_t(quad.sample);
  entry.samples = quad.samples;
  entry.covered = quad.covered;
  entry.primitive = &primitive;
  entry.triangle = ~0u;
  if (quad.triangle && stage.fragment.interpolatesAtPoints) {
    if (triangles.empty() || triangles.back().serial != quad.triangle->serial)
      triangles.push_back(*quad.triangle);
    entry.triangle = uint32_t(triangles.size() - 1);
  }
  if (stage.needsDepths) {
    QuadDepths &quadDepths = depths[queued - 1];
    for (unsigned lane = 0; lane < 4; ++lane)
      for (unsigned sample = 0; sample < 4; ++sample)
        quadDepths[lane][sample] =
            quad.pixels || sample == 0
                ? quad.getDepth(lane, sample) + quad.depthBias
                : 0;
  }
  return queued < kCapacity || flush();
}

template <unsigned Inputs>
__attribute__((always_inline)) inline bool
QuadBatch::addCentredPlanes(const Quad &base,
                            llvm::ArrayRef<QuadCoverage> quads,
                            const DrawPrimitive &primitive) {
  const TriangleSetup &triangle = *base.triangle;
  if (planesSerial != triangle.serial)
    setVaryingPlanes(triangle, primitive);
  // The planes in locals: stores to the records could alias them, and
  // reloading them for each quad cost more than evaluating them.
  Double4 a[Inputs], dx[Inputs], dy[Inputs], one = Double4{} + 1;
  uint32_t offsets[Inputs];
  bool linear[Inputs];
  for (unsigned i = 0; i < Inputs; ++i) {
    const TriangleSetup::Plane &plane = varyingPlanes[i];
    a[i] = Double4{} + plane.a;
    dx[i] = Double4{} + plane.dx;
    dy[i] = Double4{} + plane.dy;
    offsets[i] = stage.planeInputs[i].blockOffset;
    linear[i] = stage.planeInputs[i].linear;
  }
  const TriangleSetup::Plane inverseWPlane = triangle.inverseWPlane;
  const int32_t originX = triangle.originX, originY = triangle.originY;
  const bool frontFacing = base.frontFacing, needsDepths = stage.needsDepths;
  // The triangle's place in `triangles` for interpolateAt*, found again
  // after a flush empties them.
  const bool atPoints = stage.fragment.interpolatesAtPoints;
  uint32_t triangleIndex = uint32_t(triangles.size()) - 1;
  const Int2 origin = {originX, originY};
  static_assert(offsetof(QuadCoverage, y) == offsetof(QuadCoverage, x) + 4);
  for (const QuadCoverage &covered : quads) {
    // The quad's x and y relative to the origin, converted together; then
    // its pixel centres, exactly (small integers and halves).
    Int2 position;
    std::memcpy(&position, &covered.x, sizeof(position));
    Double2 relative = __builtin_convertvector(position - origin, Double2);
    Double4 x = __builtin_shufflevector(relative, relative, 0, 0, 0, 0) +
                Double4{0.5, 1.5, 0.5, 1.5};
    Double4 y = __builtin_shufflevector(relative, relative, 1, 1, 1, 1) +
                Double4{0.5, 0.5, 1.5, 1.5};
    Double4 inverseW =
        inverseWPlane.a + inverseWPlane.dx * x + inverseWPlane.dy * y;
    if (hasZeroLane(inverseW)) {
      Quad quad = base;
      quad.setCentred(covered);
      if (!add(quad, primitive))
        return false;
      continue;
    }
    Double4 w = 1 / inverseW;
    // In a local: the byte stores below could alias the member.
    size_t index = queued;
    uint8_t *block = inputs.inBlock(index * 4, 0);
    for (unsigned i = 0; i < Inputs; ++i) {
      Double4 value = a[i] + dx[i] * x + dy[i] * y;
      value *= linear[i] ? one : w;
      storeFloatQuad(value, block + offsets[i]);
    }
    std::memcpy(block, kHelperFlags[covered.coverage & 0xf], 16);
    if (atPoints && (triangleIndex >= triangles.size() ||
                     triangles[triangleIndex].serial != triangle.serial)) {
      triangles.push_back(triangle);
      triangleIndex = uint32_t(triangles.size() - 1);
    }
    places[index] = {covered.x, covered.y, covered.coverage};
    Entry &entry = entries[index];
    entry.sample = -1;
    // The rest of the entry is read only by the general fragment operations
    // (which need the depths too) and by interpolateAt*.
    if (needsDepths || atPoints) {
      // Coverage bit i to byte i (bit 8 i): one sample per pixel.
      uint32_t samples = (uint32_t(covered.coverage) * 0x204081u) & 0x01010101u;
      entry.primitive = &primitive;
      entry.triangle = triangleIndex;
      std::memcpy(entry.samples.data(), &samples, 4);
      std::memcpy(entry.covered.data(), &samples, 4);
      entry.frontFacing = frontFacing;
    }
    if (needsDepths) {
      Double4 depth = triangle.depth.a + triangle.depth.dx * x +
                      triangle.depth.dy * y + base.depthBias;
      for (unsigned lane = 0; lane < 4; ++lane)
        depths[index][lane] = {depth[lane], 0, 0, 0};
    }
    queued = index + 1;
    if (index + 1 == kCapacity && !flush())
      return false;
  }
  return true;
}

__attribute__((target_clones("avx2", "default"))) bool
QuadBatch::addCentred(const Quad &base, llvm::ArrayRef<QuadCoverage> quads,
                      const DrawPrimitive &primitive) {
  // The common case: interpolated 32-bit inputs and the helper flag, as
  // writeInputsFromPlanes writes them, and the depths (calling it and
  // add() per quad took 10% more instructions per draw).
  if (stage.fragment.entry && stage.planeInputsAre32Bit &&
      stage.flatInputs.empty() && !stage.readsBuiltins) {
    switch (stage.planeInputs.size()) {
    case 0:
      return addCentredPlanes<0>(base, quads, primitive);
    case 1:
      return addCentredPlanes<1>(base, quads, primitive);
    case 2:
      return addCentredPlanes<2>(base, quads, primitive);
    case 3:
      return addCentredPlanes<3>(base, quads, primitive);
    case 4:
      return addCentredPlanes<4>(base, quads, primitive);
    case 5:
      return addCentredPlanes<5>(base, quads, primitive);
    case 6:
      return addCentredPlanes<6>(base, quads, primitive);
    case 7:
      return addCentredPlanes<7>(base, quads, primitive);
    case 8:
      return addCentredPlanes<8>(base, quads, primitive);
    default:
      break;
    }
  }
  Quad quad = base;
  for (const QuadCoverage &covered : quads) {
    quad.setCentred(covered);
    if (!add(quad, primitive))
      return false;
  }
  return true;
}

void FragmentSink::emit(const Quad &rasterized) {
  if (!running)
    return;
  if (!earlyTests) {
    running = batch.add(rasterized, primitive);
    return;
  }
  // Early tests run here, in primitive order; a fragment that fails them
  // is shaded as a helper only.
  Quad quad = rasterized;
  for (unsigned lane = 0; lane < 4; ++lane) {
    for (uint32_t sample = 0; sample < 4; ++sample)
      if ((quad.samples[lane] & (1u << sample)) &&
          !operations.testDepthStencil(
              quad.x + lane % 2, quad.y + lane / 2, sample,
              quad.getDepth(lane, sample) + quad.depthBias, quad.frontFacing))
        quad.samples[lane] &= ~(1u << sample);
    if (!quad.samples[lane])
      quad.coverage &= ~(1u << lane);
  }
  if (quad.coverage)
    running = batch.add(quad, primitive);
}

void FragmentSink::emitCentred(const Quad &base,
                               llvm::ArrayRef<QuadCoverage> quads) {
  if (earlyTests)
    QuadSink::emitCentred(base, quads);
  else if (running)
    running = batch.addCentred(base, quads, primitive);
}

void spvb::runtime::rasterizePrimitive(const GraphicsState &state,
                                       const RasterSetup &setup,
                                       const DrawPrimitive &drawn,
                                       QuadSink &sink) {
  switch (drawn.primitive.vertexCount) {
  case 3:
    rasterizeTriangle(state, setup, drawn.projected, sink);
    break;
  case 2:
    rasterizeLine(state, setup,
                  {drawn.projected[0]->clip, drawn.projected[1]->clip}, sink);
    break;
  default:
    rasterizePoint(state, setup, drawn.projected[0]->clip, drawn.pointSize,
                   sink);
    break;
  }
}

std::array<const uint8_t *, 3>
FragmentStage::getVertexRecords(const DrawPrimitive &drawn) const {
  const Primitive &primitive = drawn.primitive;
  uint64_t base = uint64_t(drawn.instance) * verticesPerInstance;
  std::array<const uint8_t *, 3> records;
  for (unsigned k = 0; k < 3; ++k)
    records[k] = vertexOutputs.at(
        base + primitive.vertices[std::min(k, primitive.vertexCount - 1)]);
  return records;
}

// Defined before its first call: Clang rejects a function that becomes
// multiversioned after it has been used. No lambdas or templates in the
// cloned functions either: Clang does not clone them with the function.
__attribute__((target_clones("avx2", "default"))) bool
QuadBatch::writeInputsFromPlanes(size_t index, const Quad &quad,
                                 const DrawPrimitive &drawn) {
  // The quad's four pixels in one vector each of x and y; each lane's
  // arithmetic is the scalar plane's.
  const TriangleSetup &triangle = *quad.triangle;
  double x0 = quad.x + 0.5 - triangle.originX;
  double y0 = quad.y + 0.5 - triangle.originY;
  Double4 x = {x0, x0 + 1, x0, x0 + 1}, y = {y0, y0, y0 + 1, y0 + 1};
  Double4 inverseW = triangle.inverseWPlane.a + triangle.inverseWPlane.dx * x +
                     triangle.inverseWPlane.dy * y;
  if (hasZeroLane(inverseW))
    return false;
  if (planesSerial != triangle.serial)
    setVaryingPlanes(triangle, drawn);
  Double4 w = 1 / inverseW;
  // The quad's records one after the other, then into their blocks.
  uint64_t recordSize = inputs.getRecordSize();
  uint8_t *records = quadInputs.data();
  // In locals: the byte stores below could alias the stage's fields.
  const bool narrowFloats = stage.planeInputsAre32Bit;
  const bool builtins = stage.readsBuiltins;
  const unsigned coverage = quad.coverage;
  if (!stage.flatInputs.empty()) {
    const uint8_t *provoking = stage.getVertexRecords(drawn)[0];
    for (unsigned lane = 0; lane < 4; ++lane)
      writeFlatInputs(records + lane * recordSize, provoking);
  }
  const TriangleSetup::Plane *plane = varyingPlanes.data();
  for (const FragmentStage::PlaneInput &input : stage.planeInputs) {
    Double4 value = plane->a + plane->dx * x + plane->dy * y;
    ++plane;
    if (!input.linear)
      value *= w;
    uint8_t *to = records + input.offset;
    if (narrowFloats) {
      storeFloats(value, to, recordSize);
      continue;
    }
    for (unsigned lane = 0; lane < 4; ++lane)
      storeScalar(to + lane * recordSize, *input.input, value[lane], 0);
  }
  for (unsigned lane = 0; lane < 4; ++lane) {
    uint8_t *record = records + lane * recordSize;
    if (!builtins) {
      uint32_t helper = !(coverage & (1u << lane));
      std::memcpy(record, &helper, 4);
      continue;
    }
    writeBuiltins(record, quad, lane, triangle.depth.at(x[lane], y[lane]),
                  inverseW[lane], drawn.primitive.id);
  }
  for (unsigned lane = 0; lane < 4; ++lane)
    inputs.scatterBlocked(index * 4 + lane, records + lane * recordSize);
  return true;
}

void QuadBatch::writeInputs(size_t index, const Quad &quad,
                            const DrawPrimitive &drawn) {
  if (!quad.pixels) {
    if (writeInputsFromPlanes(index, quad, drawn))
      return;
    // 1/w is zero at a pixel centre: the weights take the linear ones.
    std::array<QuadPixel, 4> pixels;
    for (unsigned lane = 0; lane < 4; ++lane)
      quad.triangle->interpolateAt(quad.x + lane % 2 + 0.5,
                                   quad.y + lane / 2 + 0.5, pixels[lane]);
    Quad interpolated = quad;
    interpolated.pixels = pixels.data();
    writeInputs(index, interpolated, drawn);
    return;
  }
  std::array<const uint8_t *, 3> sources = stage.getVertexRecords(drawn);
  for (unsigned lane = 0; lane < 4; ++lane) {
    const QuadPixel &pixel = quad.pixels[lane];
    uint8_t *record = quadInputs.data() + lane * inputs.getRecordSize();
    writeFlatInputs(record, sources[0]);
    for (const FragmentStage::PlaneInput &input : stage.planeInputs) {
      unsigned flags = input.input->flags;
      const std::array<double, 3> &weights =
          quad.centroid && (flags & SPVB_STAGE_CENTROID)
              ? (input.linear ? pixel.centroidLinear
                              : pixel.centroidPerspective)
              : (input.linear ? pixel.linear : pixel.perspective);
      double value = 0;
      for (unsigned k = 0; k < 3; ++k)
        value += weights[k] *
                 loadFloat(sources[k] + input.source, input.input->bytes);
      storeScalar(record + input.offset, *input.input, value, 0);
    }
    writeBuiltins(record, quad, lane, pixel.depth, pixel.inverseW,
                  drawn.primitive.id);
    inputs.scatterBlocked(index * 4 + lane, record);
  }
}

void QuadBatch::writeFlatInputs(uint8_t *record,
                                const uint8_t *provoking) const {
  for (const FragmentStage::FlatInput &flat : stage.flatInputs)
    std::memcpy(record + flat.offset, provoking + flat.source, flat.size);
}

void QuadBatch::setVaryingPlanes(const TriangleSetup &triangle,
                                 const DrawPrimitive &drawn) {
  planesSerial = triangle.serial;
  varyingPlanes.resize(stage.planeInputs.size());
  std::array<const uint8_t *, 3> sources = stage.getVertexRecords(drawn);
  // An unclipped triangle's vertices are the primitive's, in any order.
  bool corners = triangle.corners[0] >= 0 && triangle.corners[1] >= 0 &&
                 triangle.corners[2] >= 0;
  TriangleSetup::Plane *next = varyingPlanes.data();
  if (corners && stage.planeInputsAre32Bit) {
    // The common case, with the same arithmetic as the general one below.
    const uint8_t *vertex[3] = {sources[triangle.corners[0]],
                                sources[triangle.corners[1]],
                                sources[triangle.corners[2]]};
    for (const FragmentStage::PlaneInput &input : stage.planeInputs) {
      double a = 0, dx = 0, dy = 0;
      for (unsigned k = 0; k < 3; ++k) {
        float loaded;
        std::memcpy(&loaded, vertex[k] + input.source, 4);
        double value = loaded;
        if (!input.linear)
          value *= triangle.inverseW[k];
        a += value * triangle.barycentric[k].a;
        dx += value * triangle.barycentric[k].dx;
        dy += value * triangle.barycentric[k].dy;
      }
      *next++ = {a, dx, dy};
    }
    return;
  }
  for (const FragmentStage::PlaneInput &input : stage.planeInputs) {
    TriangleSetup::Plane &plane = *next++;
    plane = {};
    for (unsigned k = 0; k < 3; ++k) {
      // The triangle's vertex k (a clipped polygon's corner) carries
      // weights of the primitive's vertices.
      double value = 0;
      if (corners)
        value = loadFloat(sources[triangle.corners[k]] + input.source,
                          input.input->bytes);
      else
        for (unsigned j = 0; j < 3; ++j)
          value += triangle.weights[k][j] *
                   loadFloat(sources[j] + input.source, input.input->bytes);
      if (!input.linear)
        value *= triangle.inverseW[k];
      plane.a += value * triangle.barycentric[k].a;
      plane.dx += value * triangle.barycentric[k].dx;
      plane.dy += value * triangle.barycentric[k].dy;
    }
  }
}

void QuadBatch::writeBuiltins(uint8_t *record, const Quad &quad, unsigned lane,
                              double depth, double inverseW,
                              uint32_t primitiveId) const {
  uint32_t helper = !(quad.coverage & (1u << lane));
  std::memcpy(record, &helper, 4);
  if (!stage.readsBuiltins)
    return;
  // Sample shading: the invocation is at its sample's location.
  std::array<double, 2> location =
      quad.sample >= 0 ? getSampleLocation(stage.samples, quad.sample)
                       : std::array<double, 2>{0.5, 0.5};
  int32_t x = quad.x + lane % 2, y = quad.y + lane / 2;
  if (stage.fragCoord) {
    // The depth bias applies in rasterization, before the shader: z has it.
    float coord[4] = {float(x + location[0]), float(y + location[1]),
                      float(depth + quad.depthBias), float(inverseW)};
    std::memcpy(record + stage.fragCoord->offset, coord, sizeof(coord));
  }
  if (stage.frontFacing)
    record[stage.frontFacing->offset] = quad.frontFacing;
  if (stage.pointCoord) {
    // Zero but for points.
    float coord[2] = {0, 0};
    if (quad.pointSize > 0) {
      coord[0] = float((x + location[0] - quad.pointX) / quad.pointSize + 0.5);
      coord[1] = float((y + location[1] - quad.pointY) / quad.pointSize + 0.5);
    }
    std::memcpy(record + stage.pointCoord->offset, coord, sizeof(coord));
  }
  if (stage.primitiveId)
    std::memcpy(record + stage.primitiveId->offset, &primitiveId, 4);
  if (stage.sampleId) {
    uint32_t id = std::max(quad.sample, 0);
    std::memcpy(record + stage.sampleId->offset, &id, 4);
  }
  if (stage.sampleMask) {
    uint32_t mask = helper ? 0 : quad.samples[lane];
    std::memcpy(record + stage.sampleMask->offset, &mask, 4);
  }
  if (stage.samplePosition) {
    float position[2] = {float(location[0]), float(location[1])};
    std::memcpy(record + stage.samplePosition->offset, position, 8);
  }
}

std::optional<KernelFault> QuadBatch::runWithDebugPixel(uint64_t groups,
                                                        uint32_t batch) {
  const DebugPixel &pixel = *stage.debugPixel;
  uint32_t perGroup = stage.quadsPerGroup;
  std::optional<DebugInvocation> debug;
  return runner->runRow(
      uint32_t(groups), batch, [&](uint32_t group) -> const DebugInvocation * {
        for (size_t q = size_t(group) * perGroup;
             q < std::min<size_t>(queued, (group + 1) * perGroup); ++q) {
          const FragmentOperations::QuadWrite &quad = places[q];
          int64_t dx = int64_t(pixel.x) - quad.x;
          int64_t dy = int64_t(pixel.y) - quad.y;
          // A helper invocation at the pixel is another fragment's
          // neighbour, not a fragment of the pixel.
          if (dx < 0 || dx > 1 || dy < 0 || dy > 1 ||
              !(quad.lanes & (1u << (dx + 2 * dy))))
            continue;
          debug.emplace();
          debug->entry = pixel.fragment;
          debug->workgroup = {group, batch, 0};
          debug->localIndex =
              uint32_t(4 * (q - size_t(group) * perGroup) + dx + 2 * dy);
          debug->threadName = llvm::formatv("pixel {0},{1}", pixel.x, pixel.y);
          return &*debug;
        }
        return nullptr;
      });
}

bool QuadBatch::flush() {
  if (queued == 0)
    return !stage.faults.any();
  if (stage.faults.any()) {
    queued = 0;
    return false;
  }
  size_t count = queued;
  // A workgroup shades several quads (SIMD lanes for all of them): copies
  // of the last quad, all helpers, fill the last workgroup, so they run as
  // long as a real quad and have no effects.
  uint64_t groups = (count + stage.quadsPerGroup - 1) / stage.quadsPerGroup;
  uint64_t records = groups * stage.quadsPerGroup * 4;
  const StageKernel &fragment = stage.fragment;
  // Every invocation writes every output or is terminated: the output
  // records need no clearing but for their status words, which each flush
  // zeroes once it has read them (while they are in the cache: zeroing
  // them before the shader cost a fetch of each line).
  const bool statusOnly =
      fragment.entry && stage.outputsWritten && !fragment.entry->workgroupFill;
  if (fragment.entry) {
    if (!statusOnly) {
      outputs.clear(records, fragment.entry->workgroupFill);
      if (fragment.entry->workgroupFill)
        for (size_t i = 0; i < records; ++i)
          std::memset(outputs.inBlock(i, 0), 0, sizeof(uint32_t)); // status
    }
    for (size_t q = count; q < groups * stage.quadsPerGroup; ++q)
      for (unsigned lane = 0; lane < 4; ++lane) {
        uint8_t *record = quadInputs.data();
        inputs.gatherBlocked((count - 1) * 4 + lane, record);
        uint32_t helper = 1;
        std::memcpy(record, &helper, 4);
        inputs.scatterBlocked(q * 4 + lane, record);
      }
    uint32_t batch = stage.nextBatch.fetch_add(1);
    number = batch;
    if (fragment.entry->checksRaces) {
      std::vector<FragmentStage::QuadPlace> places;
      for (size_t q = 0; q < count; ++q)
        places.push_back(getPlace(q));
      std::lock_guard<std::mutex> lock(stage.placesMutex);
      if (stage.batchPlaces.size() <= batch)
        stage.batchPlaces.resize(batch + 1);
      stage.batchPlaces[batch] = std::move(places);
    }
    shadingBatch = this;
    if (std::optional<KernelFault> fault =
            stage.debugPixel ? runWithDebugPixel(groups, batch)
                             : runner->runRow(groups, batch)) {
      shadingBatch = nullptr;
      stage.faults.report(batch, std::move(*fault));
      if (statusOnly)
        outputs.clearFirstBlockedWords(0, records);
      queued = 0;
      triangles.clear();
      return false;
    }
  }
  shadingBatch = nullptr;
  stage.invocations.fetch_add(count * 4, std::memory_order_relaxed);

  FragmentOperations &operations = stage.operations;
  if (operations.writesUnorm8Only()) {
    // The places' lanes become the pixels written: the covered ones the
    // shader did not terminate or demote.
    constexpr uint32_t kDropped =
        SPVB_FRAGMENT_TERMINATED | SPVB_FRAGMENT_DEMOTED;
    if (fragment.entry) {
      for (size_t q = 0; q < count; ++q) {
        // The quad's four status words are consecutive in their block.
        uint8_t *words = outputs.inBlock(q * 4, 0);
        uint32_t status[4];
        std::memcpy(status, words, sizeof(status));
        if (statusOnly)
          std::memset(words, 0, sizeof(status));
        if ((status[0] | status[1] | status[2] | status[3]) & kDropped)
          for (unsigned lane = 0; lane < 4; ++lane)
            if (status[lane] & kDropped)
              places[q].lanes &= ~(1u << lane);
      }
      // The padding quads'.
      if (statusOnly)
        outputs.clearFirstBlockedWords(count * 4, records);
    }
    operations.writeUnorm8Quads(llvm::ArrayRef(places.data(), count), outputs);
    // One sample per written pixel; with more, each entry's samples (set
    // by add(), which multisampled quads take).
    uint64_t passed = 0;
    for (size_t q = 0; q < count; ++q) {
      unsigned lanes = places[q].lanes;
      if (stage.samples == 1) {
        passed += llvm::popcount(lanes);
        continue;
      }
      for (unsigned lane = 0; lane < 4; ++lane)
        if (lanes & (1u << lane))
          passed += llvm::popcount(unsigned(entries[q].samples[lane]));
    }
    stage.samplesPassed.fetch_add(passed, std::memory_order_relaxed);
    queued = 0;
    triangles.clear();
    return true;
  }
  uint64_t passed = 0;
  for (size_t q = 0; q < count; ++q) {
    const Entry &quad = entries[q];
    const FragmentOperations::QuadWrite &place = places[q];
    for (unsigned lane = 0; lane < 4; ++lane) {
      if (!(place.lanes & (1u << lane)))
        continue;
      uint8_t *record = outputRecord.data();
      outputs.gatherBlocked(q * 4 + lane, record);
      uint32_t status = 0;
      if (fragment.entry)
        std::memcpy(&status, record, 4);
      if (status & (SPVB_FRAGMENT_TERMINATED | SPVB_FRAGMENT_DEMOTED))
        continue;
      int32_t x = place.x + lane % 2, y = place.y + lane / 2;
      if (fragment.earlyFragmentTests) {
        passed += operations.writeSamples(x, y, quad.samples[lane], record);
        continue;
      }
      passed += operations.process(x, y, quad.samples[lane], depths[q][lane],
                                   quad.frontFacing, record);
    }
  }
  stage.samplesPassed.fetch_add(passed, std::memory_order_relaxed);
  if (statusOnly)
    outputs.clearFirstBlockedWords(0, records);
  queued = 0;
  triangles.clear();
  return true;
}

namespace spvb::runtime {

/// GLSL.std.450 InterpolateAtCentroid, InterpolateAtSample and
/// InterpolateAtOffset of the input at `input` (a float component of an
/// interpolated input in this invocation's record, or a flat one, which
/// keeps its value).
void interpolateInput(const QuadBatch &batch, const spvb_invocation &invocation,
                      uint32_t instruction, const uint8_t *input,
                      uint32_t resultDesc, const void *operand,
                      uint32_t operandDesc, void *result) {
  const FragmentStage &stage = batch.stage;
  TypeDesc resultType(resultDesc);
  std::memset(result, 0, resultType.size());
  uint64_t recordIndex = invocation.global_id[0];
  size_t quadIndex = recordIndex / 4;
  if (quadIndex >= batch.queued)
    return; // a padding helper: its results are never used
  // `input` is in the invocation's blocked record: which byte of it.
  const uint8_t *start = batch.inputs.inBlock(recordIndex, 0);
  constexpr uint64_t kRow = StageRecords::kBlockRow;
  if (input < start || uint64_t(input - start) % kRow >= 4)
    return;
  uint64_t offset = uint64_t(input - start) / kRow * 4 + (input - start) % kRow;
  if (offset >= stage.inputSize)
    return;
  const Varying *varying = nullptr;
  for (const Varying &candidate : stage.varyings)
    if (offset >= candidate.input->offset &&
        offset < candidate.input->offset +
                     candidate.input->bytes * candidate.input->count)
      varying = &candidate;
  const QuadBatch::Entry &entry = batch.entries[quadIndex];
  const FragmentOperations::QuadWrite &place = batch.places[quadIndex];
  if (!varying || !varying->interpolate || entry.triangle == ~0u) {
    // The input's own bytes, from their words in the block.
    uint8_t *bytes = static_cast<uint8_t *>(result);
    uint64_t size =
        std::min<uint64_t>(resultType.size(), stage.inputSize - offset);
    for (uint64_t i = 0; i < size; ++i)
      bytes[i] = *batch.inputs.inBlock(recordIndex, offset + i);
    return;
  }
  const spvb_stage_variable &var = *varying->input;
  unsigned lane = recordIndex % 4;
  double x = place.x + lane % 2 + 0.5, y = place.y + lane / 2 + 0.5;
  auto moveTo = [&](uint32_t sample) {
    std::array<double, 2> location = getSampleLocation(stage.samples, sample);
    x += location[0] - 0.5;
    y += location[1] - 0.5;
  };
  if (instruction == GLSLstd450InterpolateAtSample) {
    // Sample numbers past the pixel's samples have no location: the
    // centre, as with one sample.
    int64_t sample = 0;
    TypeDesc type(operandDesc);
    std::memcpy(&sample, operand, std::min<uint32_t>(type.bytes, 8));
    if (type.bytes == 4)
      sample = int32_t(sample);
    if (stage.samples > 1 && sample >= 0 && sample < int64_t(stage.samples))
      moveTo(uint32_t(sample));
  } else if (instruction == GLSLstd450InterpolateAtOffset) {
    float offsets[2];
    std::memcpy(offsets, operand, sizeof(offsets));
    x += offsets[0];
    y += offsets[1];
  } else if (stage.samples > 1) {
    // The centroid: the first covered sample of a partly covered pixel,
    // with sample shading too (as lavapipe; any point in both the pixel
    // and the primitive is valid).
    uint32_t covered = entry.covered[lane];
    uint32_t all = (1u << stage.samples) - 1;
    if (covered && covered != all)
      moveTo(llvm::countr_zero(covered));
  }
  QuadPixel at;
  batch.triangles[entry.triangle].interpolateAt(x, y, at);
  const std::array<double, 3> &weights =
      var.flags & SPVB_STAGE_NOPERSPECTIVE ? at.linear : at.perspective;
  std::array<const uint8_t *, 3> sources =
      stage.getVertexRecords(*entry.primitive);
  unsigned first = (offset - var.offset) / var.bytes;
  for (unsigned c = 0; c < resultType.count && first + c < var.count; ++c) {
    double value = 0;
    for (unsigned k = 0; k < 3; ++k)
      value += weights[k] * loadFloat(sources[k] + *varying->source +
                                          (first + c) * var.bytes,
                                      var.bytes);
    storeScalar(static_cast<uint8_t *>(result) + c * var.bytes, var, value, 0);
  }
}

} // namespace spvb::runtime

bool spvb::runtime::getFragmentPixel(const spvb_invocation &invocation,
                                     int32_t &x, int32_t &y) {
  if (!shadingBatch)
    return false;
  // As interpolateInput: the record index within the batch.
  uint64_t recordIndex = invocation.global_id[0];
  size_t quadIndex = recordIndex / 4;
  if (quadIndex >= shadingBatch->queued)
    return false;
  const FragmentOperations::QuadWrite &place = shadingBatch->places[quadIndex];
  unsigned lane = recordIndex % 4;
  x = place.x + int32_t(lane % 2);
  y = place.y + int32_t(lane / 2);
  return true;
}

extern "C" void spvb_rt_interpolate(spvb_invocation *invocation,
                                    uint32_t instruction, const void *input,
                                    uint32_t resultDesc, const void *operand,
                                    uint32_t operandDesc, void *result) {
  if (!shadingBatch) {
    std::memset(result, 0, TypeDesc(resultDesc).size());
    return;
  }
  interpolateInput(*shadingBatch, *invocation, instruction,
                   static_cast<const uint8_t *>(input), resultDesc, operand,
                   operandDesc, result);
}

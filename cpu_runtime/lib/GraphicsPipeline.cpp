//===- GraphicsPipeline.cpp - Draws on the CPU ----------------------------===//
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "FragmentOperations.h"
#include "PrimitiveAssembly.h"
#include "Rasterizer.h"
#include "StageValues.h"

#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

#include <cmath>
#include <cstring>

using namespace spvb::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

namespace {

/// Records for `count` invocations, 8-byte aligned (kernel_abi.h).
class Records {
public:
  Records(uint64_t recordSize, uint64_t count, uint8_t fill = 0)
      : recordSize(recordSize),
        words((recordSize * count + 7) / 8 + 1, fill ? ~uint64_t(0) : 0) {}
  uint8_t *data() { return reinterpret_cast<uint8_t *>(words.data()); }
  uint8_t *at(uint64_t index) { return data() + index * recordSize; }
  /// Outputs a shader never writes are undefined: --perturb-undefined
  /// fills them with ones (KernelEntry::workgroupFill).
  void clear(uint8_t fill = 0) {
    std::fill(words.begin(), words.end(), fill ? ~uint64_t(0) : 0);
  }

private:
  uint64_t recordSize;
  std::vector<uint64_t> words;
};

const spvb_stage_variable *findBuiltin(llvm::ArrayRef<spvb_stage_variable> vars,
                                       uint32_t builtin, bool output) {
  for (const spvb_stage_variable &var : vars)
    if (var.builtin == builtin && bool(var.flags & SPVB_STAGE_OUTPUT) == output)
      return &var;
  return nullptr;
}

/// How one fragment input is computed from the vertex outputs.
struct Varying {
  const spvb_stage_variable *input;
  /// Offset of the matching data in the vertex output record, or none: the
  /// input is then undefined (zero).
  std::optional<uint32_t> source;
  /// A float input without `flat` is interpolated; the others take the
  /// provoking vertex's value.
  bool interpolate;
};

std::vector<Varying>
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
    varyings.push_back(varying);
  }
  return varyings;
}

/// Runs one stage's kernel over `count` invocations.
llvm::Error runStage(Launcher &launcher, const StageKernel &stage,
                     uint8_t *inputs, uint8_t *outputs, uint64_t groups,
                     uint32_t subgroupSize) {
  DispatchResources resources = *stage.resources;
  resources.stageInputs = inputs;
  resources.stageOutputs = outputs;
  resources.subgroupSize = subgroupSize;
  return launcher.launch(*stage.entry, resources,
                         {static_cast<uint32_t>(groups), 1, 1});
}

} // namespace

/// Fills the vertex input records of every invocation: attributes by
/// Location, then the vertex and instance builtins.
static llvm::Error fetchVertices(llvm::ArrayRef<VertexAttribute> attributes,
                                 const DrawCall &call,
                                 llvm::ArrayRef<spvb_stage_variable> variables,
                                 llvm::ArrayRef<uint32_t> vertexIndices,
                                 Records &inputs) {
  uint32_t perInstance = vertexIndices.size();
  for (const spvb_stage_variable &var : variables) {
    if (var.flags & SPVB_STAGE_OUTPUT)
      continue;
    if (var.location != ~0u) {
      const VertexAttribute *attribute = nullptr;
      for (const VertexAttribute &candidate : attributes)
        if (candidate.location == var.location)
          attribute = &candidate;
      if (!attribute)
        return makeError(llvm::formatv(
            "the vertex shader reads input Location {0}, but no vertex data "
            "is bound to it",
            var.location));
      const VulkanFormat &format = *attribute->format;
      for (uint32_t instance = 0; instance < call.instanceCount; ++instance)
        for (uint32_t v = 0; v < perInstance; ++v) {
          uint64_t element = attribute->perInstance
                                 ? uint64_t(instance) + call.firstInstance
                                 : vertexIndices[v];
          uint64_t at = attribute->offset + element * attribute->stride;
          Color color;
          if (at + format.texelBytes <= attribute->size)
            color = decodeColor(format, attribute->data + at);
          else
            color.f[3] = 0, color.i[3] = 0; // robust: zeros
          uint8_t *record = inputs.at(uint64_t(instance) * perInstance + v);
          for (unsigned c = 0; c < var.count && var.component + c < 4; ++c)
            storeScalar(record + var.offset + c * var.bytes, var,
                        color.f[var.component + c],
                        isIntegerFormat(format)
                            ? color.i[var.component + c]
                            : int64_t(color.f[var.component + c]));
        }
      continue;
    }
    for (uint32_t instance = 0; instance < call.instanceCount; ++instance)
      for (uint32_t v = 0; v < perInstance; ++v) {
        int64_t value = 0;
        switch (var.builtin) {
        case spv::BuiltInVertexIndex:
          value = vertexIndices[v];
          break;
        case spv::BuiltInInstanceIndex:
          value = int64_t(instance) + call.firstInstance;
          break;
        case spv::BuiltInBaseVertex:
          value = call.indices ? call.vertexOffset : call.firstVertex;
          break;
        case spv::BuiltInBaseInstance:
          value = call.firstInstance;
          break;
        default: // DrawIndex
          break;
        }
        uint8_t *record = inputs.at(uint64_t(instance) * perInstance + v);
        storeScalar(record + var.offset, var, double(value), value);
      }
  }
  return llvm::Error::success();
}

llvm::Expected<DrawStatistics>
spvb::runtime::draw(Launcher &launcher, const GraphicsState &state,
                    llvm::ArrayRef<VertexAttribute> attributes,
                    const DrawCall &call, const StageKernel &vertex,
                    const StageKernel &fragment, RenderTarget &target) {
  DrawStatistics statistics;
  const spvb_kernel_info &vertexInfo = vertex.entry->info;
  // Without a fragment shader only depth and stencil are written: its
  // records are empty.
  spvb_kernel_info fragmentInfo{};
  if (fragment.entry)
    fragmentInfo = fragment.entry->info;

  // The vertex each invocation shades, and where strips restart.
  std::vector<uint32_t> vertexIndices(call.vertexCount);
  std::vector<uint32_t> restarts;
  for (uint32_t i = 0; i < call.vertexCount; ++i) {
    if (!call.indices) {
      vertexIndices[i] = call.firstVertex + i;
      continue;
    }
    uint64_t at = (uint64_t(call.firstVertex) + i) * call.indexSize;
    uint32_t index = 0;
    if (at + call.indexSize <= call.indexBytes)
      std::memcpy(&index, call.indices + at, call.indexSize);
    uint32_t restartValue =
        call.indexSize == 4 ? ~0u : (1u << (8 * call.indexSize)) - 1;
    if (state.primitiveRestart && index == restartValue)
      restarts.push_back(i);
    vertexIndices[i] = uint32_t(int64_t(index) + call.vertexOffset);
  }
  uint64_t invocations = uint64_t(call.vertexCount) * call.instanceCount;
  Records vertexInputs(vertexInfo.stage_input_size, invocations);
  Records vertexOutputs(vertexInfo.stage_output_size, invocations,
                        vertex.entry->workgroupFill);
  if (llvm::Error error = fetchVertices(attributes, call, vertex.variables,
                                        vertexIndices, vertexInputs))
    return error;
  if (invocations)
    if (llvm::Error error = runStage(launcher, vertex, vertexInputs.data(),
                                     vertexOutputs.data(), invocations, 0))
      return error;
  statistics.vertexInvocations = invocations;

  const spvb_stage_variable *position =
      findBuiltin(vertex.variables, spv::BuiltInPosition, true);
  if (!position)
    return makeError("the vertex shader writes no gl_Position");
  const spvb_stage_variable *pointSize =
      findBuiltin(vertex.variables, spv::BuiltInPointSize, true);
  const spvb_stage_variable *pointCoord =
      findBuiltin(fragment.variables, spv::BuiltInPointCoord, false);
  std::vector<Varying> varyings =
      matchVaryings(vertex.variables, fragment.variables);
  const spvb_stage_variable *fragCoord =
      findBuiltin(fragment.variables, spv::BuiltInFragCoord, false);
  const spvb_stage_variable *frontFacing =
      findBuiltin(fragment.variables, spv::BuiltInFrontFacing, false);
  const spvb_stage_variable *primitiveId =
      findBuiltin(fragment.variables, spv::BuiltInPrimitiveId, false);
  const spvb_stage_variable *sampleMask =
      findBuiltin(fragment.variables, spv::BuiltInSampleMask, false);
  const spvb_stage_variable *samplePosition =
      findBuiltin(fragment.variables, spv::BuiltInSamplePosition, false);

  RasterSetup setup;
  setup.viewport = state.viewport.value_or(
      VkViewport{0, 0, float(target.width), float(target.height), 0, 1});
  VkRect2D scissor =
      state.scissor.value_or(VkRect2D{{0, 0}, {target.width, target.height}});
  setup.x0 = std::max<int32_t>(0, scissor.offset.x);
  setup.y0 = std::max<int32_t>(0, scissor.offset.y);
  setup.x1 = std::min<int64_t>(target.width, int64_t(scissor.offset.x) +
                                                 scissor.extent.width);
  setup.y1 = std::min<int64_t>(target.height, int64_t(scissor.offset.y) +
                                                  scissor.extent.height);
  if (target.depthStencil && target.depthStencil->format) {
    const VulkanFormat &format = *target.depthStencil->format;
    setup.depthFloat = format.kind == ComponentKind::Sfloat;
    setup.depthResolution = std::ldexp(1.0, -int(format.depthBits));
  }
  FragmentOperations operations(state, target, fragment.variables);

  // Quads are shaded in batches, then written in order.
  constexpr size_t kBatchQuads = 4096;
  struct Work {
    Quad quad;
    const Primitive *primitive;
    uint32_t instance;
  };
  std::vector<Work> batch;
  batch.reserve(kBatchQuads);
  Records fragmentInputs(fragmentInfo.stage_input_size, kBatchQuads * 4);
  Records fragmentOutputs(fragmentInfo.stage_output_size, kBatchQuads * 4);

  auto flush = [&]() -> llvm::Error {
    if (batch.empty())
      return llvm::Error::success();
    fragmentInputs.clear();
    fragmentOutputs.clear(fragment.entry->workgroupFill);
    if (fragment.entry->workgroupFill)
      for (size_t i = 0; i < batch.size() * 4; ++i)
        std::memset(fragmentOutputs.at(i), 0, sizeof(uint32_t)); // status
    for (size_t q = 0; q < batch.size(); ++q) {
      const Work &work = batch[q];
      uint64_t base = uint64_t(work.instance) * call.vertexCount;
      const uint8_t *sources[3];
      for (unsigned k = 0; k < 3; ++k)
        sources[k] =
            vertexOutputs.at(base + work.primitive->vertices[std::min(
                                        k, work.primitive->vertexCount - 1)]);
      for (unsigned lane = 0; lane < 4; ++lane) {
        const QuadPixel &pixel = work.quad.pixels[lane];
        uint8_t *record = fragmentInputs.at(q * 4 + lane);
        uint32_t helper = !(work.quad.coverage & (1u << lane));
        std::memcpy(record, &helper, 4);
        for (const Varying &varying : varyings) {
          const spvb_stage_variable &input = *varying.input;
          if (!varying.source)
            continue;
          uint8_t *to = record + input.offset;
          if (!varying.interpolate) {
            // Flat: the provoking vertex's value.
            std::memcpy(to, sources[0] + *varying.source,
                        input.bytes * input.count);
            continue;
          }
          const std::array<double, 3> &weights =
              input.flags & SPVB_STAGE_NOPERSPECTIVE ? pixel.linear
                                                     : pixel.perspective;
          for (unsigned c = 0; c < input.count; ++c) {
            double value = 0;
            for (unsigned k = 0; k < 3; ++k)
              value += weights[k] *
                       loadFloat(sources[k] + *varying.source + c * input.bytes,
                                 input.bytes);
            storeScalar(to + c * input.bytes, input, value, 0);
          }
        }
        int32_t x = work.quad.x + lane % 2, y = work.quad.y + lane / 2;
        if (fragCoord) {
          float coord[4] = {float(x + 0.5), float(y + 0.5), float(pixel.depth),
                            float(pixel.inverseW)};
          std::memcpy(record + fragCoord->offset, coord, sizeof(coord));
        }
        if (frontFacing)
          record[frontFacing->offset] = work.quad.frontFacing;
        if (pointCoord && work.quad.pointSize > 0) {
          float coord[2] = {
              float((x + 0.5 - work.quad.pointX) / work.quad.pointSize + 0.5),
              float((y + 0.5 - work.quad.pointY) / work.quad.pointSize + 0.5)};
          std::memcpy(record + pointCoord->offset, coord, sizeof(coord));
        }
        if (primitiveId) {
          uint32_t id = work.primitive->id;
          std::memcpy(record + primitiveId->offset, &id, 4);
        }
        if (sampleMask) {
          uint32_t mask = helper ? 0 : 1;
          std::memcpy(record + sampleMask->offset, &mask, 4);
        }
        if (samplePosition) {
          float centre[2] = {0.5f, 0.5f};
          std::memcpy(record + samplePosition->offset, centre, 8);
        }
      }
    }
    // A workgroup shades several quads (SIMD lanes for all of them): the
    // last one's copies, all helpers, fill the last workgroup, so they run
    // as long as a real quad and have no effects.
    uint64_t quadsPerGroup =
        std::max<uint64_t>(fragmentInfo.workgroup_size[0] / 4, 1);
    uint64_t groups = (batch.size() + quadsPerGroup - 1) / quadsPerGroup;
    for (size_t q = batch.size(); q < groups * quadsPerGroup; ++q)
      for (unsigned lane = 0; lane < 4; ++lane) {
        uint8_t *record = fragmentInputs.at(q * 4 + lane);
        std::memcpy(record, fragmentInputs.at((batch.size() - 1) * 4 + lane),
                    fragmentInfo.stage_input_size);
        uint32_t helper = 1;
        std::memcpy(record, &helper, 4);
      }
    if (fragment.entry)
      if (llvm::Error error =
              runStage(launcher, fragment, fragmentInputs.data(),
                       fragmentOutputs.data(), groups, 4))
        return error;
    statistics.fragmentInvocations += batch.size() * 4;
    for (size_t q = 0; q < batch.size(); ++q) {
      const Quad &quad = batch[q].quad;
      for (unsigned lane = 0; lane < 4; ++lane) {
        if (!(quad.coverage & (1u << lane)))
          continue;
        const uint8_t *record = fragmentOutputs.at(q * 4 + lane);
        uint32_t status = 0;
        if (fragment.entry)
          std::memcpy(&status, record, 4);
        if (status & (SPVB_FRAGMENT_TERMINATED | SPVB_FRAGMENT_DEMOTED))
          continue;
        if (fragment.earlyFragmentTests)
          operations.writeColors(quad.x + lane % 2, quad.y + lane / 2, record);
        else
          operations.process(quad.x + lane % 2, quad.y + lane / 2,
                             quad.pixels[lane].depth + quad.depthBias,
                             quad.frontFacing, record);
      }
    }
    batch.clear();
    return llvm::Error::success();
  };

  if (state.rasterizerDiscard)
    return statistics;
  std::vector<Primitive> primitives;
  for (uint32_t instance = 0; instance < call.instanceCount; ++instance) {
    primitives.clear();
    assemblePrimitives(state.topology, 0, call.vertexCount, restarts,
                       primitives);
    statistics.primitives += primitives.size();
    uint64_t base = uint64_t(instance) * call.vertexCount;
    for (const Primitive &primitive : primitives) {
      std::array<ClipPosition, 3> positions;
      for (unsigned k = 0; k < primitive.vertexCount; ++k)
        std::memcpy(positions[k].data(),
                    vertexOutputs.at(base + primitive.vertices[k]) +
                        position->offset,
                    16);
      llvm::Error error = llvm::Error::success();
      auto emit = [&](Quad quad) {
        // Early tests run here, in primitive order; a fragment that fails
        // them is shaded as a helper only.
        if (fragment.earlyFragmentTests) {
          for (unsigned lane = 0; lane < 4; ++lane)
            if ((quad.coverage & (1u << lane)) &&
                !operations.testDepthStencil(
                    quad.x + lane % 2, quad.y + lane / 2,
                    quad.pixels[lane].depth + quad.depthBias, quad.frontFacing))
              quad.coverage &= ~(1u << lane);
          if (!quad.coverage)
            return;
        }
        batch.push_back({quad, &primitive, instance});
        if (batch.size() == kBatchQuads && !error)
          error = flush();
      };
      if (primitive.vertexCount == 3) {
        rasterizeTriangle(state, setup, positions, emit);
      } else if (primitive.vertexCount == 2) {
        rasterizeLine(state, setup, {positions[0], positions[1]}, emit);
      } else {
        float size = 1;
        if (pointSize)
          std::memcpy(&size,
                      vertexOutputs.at(base + primitive.vertices[0]) +
                          pointSize->offset,
                      4);
        rasterizePoint(state, setup, positions[0], size, emit);
      }
      if (error)
        return error;
    }
    // Primitives of this instance are referenced by the batch.
    if (llvm::Error error = flush())
      return error;
  }
  return statistics;
}

//===- GraphicsPipeline.cpp - Draws on the CPU ----------------------------===//
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "FragmentShading.h"
#include "GeometryStage.h"
#include "PixelCoverage.h"
#include "StageLaunch.h"
#include "StageValues.h"
#include "TessellationStages.h"
#include "TileBins.h"
#include "VertexReuse.h"

#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

#include <atomic>
#include <cmath>
#include <cstring>

using namespace spvb::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

namespace {

/// A thread's per-draw arrays, kept from one draw to the next: allocated
/// anew, the larger ones came from fresh pages (mapped, faulted in and
/// unmapped by malloc) every draw.
struct DrawScratch {
  std::vector<uint32_t> vertexIndices;
  std::vector<Primitive> assembled;
  std::vector<ProjectedVertex> projected;
  std::vector<DrawPrimitive> primitives;
  std::vector<GeometryInput> geometryInputs, geometryInputsPerDraw;
  GeometryOutput geometry;
};

} // namespace

/// The vertex index at each position of `call`, and the positions of
/// primitive restarts; indices past the index buffer read 0 (robust).
static void readVertexIndices(const GraphicsState &state, const DrawCall &call,
                              llvm::MutableArrayRef<uint32_t> vertexIndices,
                              std::vector<uint32_t> &restarts) {
  uint32_t count = vertexIndices.size();
  if (!call.indices) {
    for (uint32_t i = 0; i < count; ++i)
      vertexIndices[i] = call.firstVertex + i;
    return;
  }
  uint64_t size = call.indexSize;
  uint64_t first = call.firstVertex;
  // Positions [0, inRange) lie within the index buffer.
  uint64_t available = call.indexBytes / size;
  uint32_t inRange = uint32_t(
      std::min<uint64_t>(count, available > first ? available - first : 0));
  const uint8_t *at = call.indices + first * size;
  uint32_t offset = uint32_t(call.vertexOffset);
  // Indices in one loop per size (the 32-bit one vectorizes): modular
  // addition is int64_t(index) + vertexOffset truncated.
  for (uint32_t i = 0; i < inRange; ++i) {
    uint32_t index;
    if (size == 4) {
      std::memcpy(&index, at + 4 * uint64_t(i), 4);
    } else if (size == 2) {
      uint16_t half;
      std::memcpy(&half, at + 2 * uint64_t(i), 2);
      index = half;
    } else {
      index = at[i];
    }
    vertexIndices[i] = index + offset;
  }
  for (uint32_t i = inRange; i < count; ++i)
    vertexIndices[i] = offset;
  if (!state.primitiveRestart)
    return;
  uint32_t restartValue = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  // Counted first in a loop that vectorizes: most draws have none, and the
  // loop that collects them keeps its counter in memory (the push_back
  // could alias it).
  uint32_t restart = restartValue + offset, found = 0;
  for (uint32_t i = 0; i < inRange; ++i)
    found += vertexIndices[i] == restart;
  for (uint32_t i = 0; found && i < inRange; ++i)
    if (vertexIndices[i] == restart) {
      restarts.push_back(i);
      --found;
    }
}

/// Whether a vertex input takes its attribute's 32-bit components as they
/// are stored: 32-bit float, int or uint formats read by a 32-bit input
/// of the same kind.
static bool isDirectFetch(const VulkanFormat &format,
                          const spvb_stage_variable &var) {
  if (var.bytes != 4 || format.texelBytes != 4 * format.components)
    return false;
  if (format.kind == ComponentKind::Sfloat)
    return var.kind == SPVB_KIND_FLOAT;
  return (format.kind == ComponentKind::Uint ||
          format.kind == ComponentKind::Sint) &&
         var.kind != SPVB_KIND_FLOAT && var.kind != SPVB_KIND_BOOL;
}

/// The input's components of the texel at `at` of `size` bytes of vertex
/// data; components the format lacks read (0, 0, 0, 1), a texel past the
/// end zeros (robust buffer access).
static void fetchDirect(const VulkanFormat &format,
                        const spvb_stage_variable &var, const uint8_t *data,
                        uint64_t size, uint64_t at, uint8_t *to) {
  bool inRange = at + format.texelBytes <= size;
  // The common case: every component the input reads is in the texel.
  if (inRange && var.component + var.count <= format.components) {
    copyStageBytes(to, data + at + 4 * var.component, 4 * var.count);
    return;
  }
  uint32_t one = format.kind == ComponentKind::Sfloat ? 0x3f800000u : 1u;
  for (unsigned c = 0; c < var.count && var.component + c < 4; ++c) {
    unsigned component = var.component + c;
    uint32_t value = component == 3 && inRange ? one : 0;
    if (inRange && component < format.components)
      std::memcpy(&value, data + at + 4 * component, 4);
    std::memcpy(to + 4 * c, &value, 4);
  }
}

/// Fills the vertex input records of every invocation: attributes by
/// Location, then the vertex and instance builtins.
static llvm::Error fetchVertices(Launcher &launcher,
                                 llvm::ArrayRef<VertexAttribute> attributes,
                                 const DrawCall &call,
                                 llvm::ArrayRef<spvb_stage_variable> variables,
                                 llvm::ArrayRef<uint32_t> vertexIndices,
                                 StageRecords &inputs) {
  uint32_t perInstance = vertexIndices.size();
  // Each input by Location with its attribute.
  struct Fetch {
    const spvb_stage_variable *var;
    const VertexAttribute *attribute;
    bool direct;
  };
  llvm::SmallVector<Fetch, 8> fetches;
  for (const spvb_stage_variable &var : variables) {
    if ((var.flags & SPVB_STAGE_OUTPUT) || var.location == ~0u)
      continue;
    const VertexAttribute *attribute = nullptr;
    for (const VertexAttribute &candidate : attributes)
      if (candidate.location == var.location)
        attribute = &candidate;
    if (!attribute)
      return makeError(llvm::formatv(
          "the vertex shader reads input Location {0}, but no vertex data "
          "is bound to it",
          var.location));
    fetches.push_back(
        {&var, attribute, isDirectFetch(*attribute->format, var)});
  }
  // The vertices in chunks over the threads, every attribute of a chunk's
  // vertices at once.
  uint64_t total = uint64_t(call.instanceCount) * perInstance;
  if (total && !fetches.empty())
    forEachChunk(launcher, total, 512, [&](uint64_t begin, uint64_t end) {
      uint32_t instance = uint32_t(begin / perInstance);
      uint32_t v = uint32_t(begin % perInstance);
      for (uint64_t i = begin; i < end; ++i, ++v) {
        if (v == perInstance) {
          v = 0;
          ++instance;
        }
        uint8_t *record = inputs.at(i);
        for (const Fetch &fetch : fetches) {
          const spvb_stage_variable &var = *fetch.var;
          const VertexAttribute &attribute = *fetch.attribute;
          const VulkanFormat &format = *attribute.format;
          uint64_t element = attribute.perInstance
                                 ? uint64_t(instance) + call.firstInstance
                                 : vertexIndices[v];
          uint64_t at = attribute.offset + element * attribute.stride;
          if (fetch.direct) {
            fetchDirect(format, var, attribute.data, attribute.size, at,
                        record + var.offset);
            continue;
          }
          Color color;
          if (at + format.texelBytes <= attribute.size)
            color = decodeColor(format, attribute.data + at);
          else
            color.f[3] = 0, color.i[3] = 0; // robust: zeros
          for (unsigned c = 0; c < var.count && var.component + c < 4; ++c)
            storeScalar(record + var.offset + c * var.bytes, var,
                        color.f[var.component + c],
                        isIntegerFormat(format)
                            ? color.i[var.component + c]
                            : int64_t(color.f[var.component + c]));
        }
      }
    });
  for (const spvb_stage_variable &var : variables) {
    if ((var.flags & SPVB_STAGE_OUTPUT) || var.location != ~0u)
      continue;
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
                    const DrawCall &call, const PipelineStages &stages,
                    RenderTarget &target) {
  DrawStatistics statistics;
  const StageKernel &vertex = *stages.vertex;
  const StageKernel *geometry = stages.geometry;
  // Without a fragment shader only depth and stencil are written: its
  // records are empty.
  static const StageKernel noFragment;
  const StageKernel &fragment = stages.fragment ? *stages.fragment : noFragment;
  const spvb_kernel_info &vertexInfo = vertex.entry->info;
  spvb_kernel_info fragmentInfo{};
  if (fragment.entry)
    fragmentInfo = fragment.entry->info;
  bool tessellation = stages.tessControl && stages.tessEvaluation;
  if (tessellation != (state.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST))
    return makeError(
        tessellation
            ? "tessellation shaders draw patches, but the draw's topology is "
              "not VK_PRIMITIVE_TOPOLOGY_PATCH_LIST"
            : "a patch list (VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) is drawn only "
              "with tessellation control and evaluation shaders");
  if (tessellation && (state.patchControlPoints == 0 ||
                       state.patchControlPoints > kMaxPatchVertices))
    return makeError(llvm::formatv(
        "a patch of {0} control points: patchControlPoints must be 1 to {1}",
        state.patchControlPoints, kMaxPatchVertices));

  // The vertex index at each position of the draw, and where strips
  // restart.
  static thread_local DrawScratch scratch;
  std::vector<uint32_t> &vertexIndices = scratch.vertexIndices;
  // readVertexIndices sets every element.
  vertexIndices.resize(call.vertexCount);
  std::vector<uint32_t> restarts;
  readVertexIndices(state, call, vertexIndices, restarts);
  VertexReuse reuse = call.indices
                          ? VertexReuse::deduplicate(vertexIndices, restarts)
                          : VertexReuse::identity(vertexIndices);
  uint32_t perInstance = reuse.shaded.size();
  uint64_t invocations = uint64_t(perInstance) * call.instanceCount;
  StageRecords vertexInputs(vertexInfo.stage_input_size, invocations);
  StageRecords vertexOutputs(vertexInfo.stage_output_size, invocations,
                             vertex.entry->workgroupFill);
  if (llvm::Error error =
          fetchVertices(launcher, attributes, call, vertex.variables,
                        reuse.shaded, vertexInputs))
    return error;
  StageLaunchContext vertexContext;
  // By gl_VertexIndex and gl_InstanceIndex.
  vertexContext.nameInvocation = [&](uint64_t record) {
    std::string name =
        llvm::formatv("vertex {0}", reuse.shaded[record % perInstance]);
    if (call.instanceCount > 1 || call.firstInstance)
      name += llvm::formatv(" of instance {0}",
                            call.firstInstance + record / perInstance)
                  .str();
    return name;
  };
  if (llvm::Error error =
          runPerRecordStage(launcher, vertex, vertexInputs, vertexOutputs,
                            invocations, vertexContext))
    return error;
  statistics.vertexInvocations = invocations;

  // The tessellator's or a geometry shader's primitives and records take
  // the place of the vertex shader's (as one instance: the stages ran per
  // instance).
  const StageKernel *last = &vertex;
  const StageRecords *lastOutputs = &vertexOutputs;
  uint32_t lastPerInstance = perInstance;
  uint32_t instanceCount = call.instanceCount;
  const std::vector<Primitive> *made = nullptr;
  unsigned madeVertices = 0;
  std::optional<TessellationOutput> tessellationOutput;
  std::vector<uint32_t> controlPoints, patchIds;
  std::optional<TessellationInputs> patches;
  if (tessellation) {
    // Patches of patchControlPoints vertices; a last partial one is
    // dropped, and restart does not apply to patch lists.
    uint32_t points = state.patchControlPoints;
    uint32_t perDraw = call.vertexCount / points;
    controlPoints.reserve(uint64_t(perDraw) * points * call.instanceCount);
    for (uint32_t instance = 0; instance < call.instanceCount; ++instance)
      for (uint32_t p = 0; p < perDraw; ++p) {
        patchIds.push_back(p);
        for (uint32_t i = 0; i < points; ++i)
          controlPoints.push_back(instance * perInstance +
                                  reuse.slots[p * points + i]);
      }
    patches.emplace(TessellationInputs{
        vertex, vertexOutputs, *stages.tessControl, *stages.tessEvaluation,
        controlPoints, patchIds, points,
        state.tessellationDomainOrigin ==
            VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT});
    llvm::Expected<TessellationOutput> output =
        runTessellationStages(launcher, *patches);
    if (!output)
      return output.takeError();
    tessellationOutput.emplace(std::move(*output));
    statistics.tessControlInvocations = tessellationOutput->controlInvocations;
    statistics.tessEvaluationInvocations =
        tessellationOutput->evaluationInvocations;
    last = stages.tessEvaluation;
    lastOutputs = &tessellationOutput->records;
    lastPerInstance = uint32_t(tessellationOutput->vertexCount);
    instanceCount = 1;
    made = &tessellationOutput->primitives;
    madeVertices = tessellationOutput->verticesPerPrimitive;
  }
  GeometryOutput *geometryOutput = nullptr;
  std::vector<GeometryInput> &geometryInputs = scratch.geometryInputs;
  geometryInputs.clear();
  const StageKernel *beforeGeometry = last;
  const StageRecords *beforeGeometryOutputs = lastOutputs;
  if (geometry) {
    uint32_t inputVertices =
        made ? madeVertices : getTopologyVertices(state.topology);
    if (inputVertices != geometry->geometry.inputVertices)
      return makeError(llvm::formatv(
          "the geometry shader's input primitives have {0} vertices, but "
          "the {1} gives primitives of {2}",
          geometry->geometry.inputVertices,
          made ? "tessellator" : "draw's topology", inputVertices));
    std::vector<GeometryInput> &inputs = geometryInputs;
    if (made) {
      inputs.reserve(made->size());
      for (const Primitive &primitive : *made) {
        GeometryInput &input = inputs.emplace_back();
        std::copy(primitive.vertices,
                  primitive.vertices + primitive.vertexCount,
                  input.records.begin());
        input.id = primitive.id;
      }
    } else {
      std::vector<GeometryInput> &perDraw = scratch.geometryInputsPerDraw;
      perDraw.clear();
      assembleGeometryInputs(state.topology, call.vertexCount, restarts,
                             perDraw);
      inputs.reserve(perDraw.size() * call.instanceCount);
      for (uint32_t instance = 0; instance < call.instanceCount; ++instance)
        for (GeometryInput input : perDraw) {
          for (uint32_t &record : input.records)
            record = instance * perInstance + reuse.slots[record];
          inputs.push_back(input);
        }
    }
    geometryOutput = &scratch.geometry;
    if (llvm::Error error = runGeometryStage(
            launcher, *last, *lastOutputs, *geometry, inputs, *geometryOutput))
      return error;
    statistics.geometryInvocations =
        uint64_t(inputs.size()) * geometry->geometry.invocations;
    last = geometry;
    lastOutputs = &geometryOutput->records;
    lastPerInstance = uint32_t(geometryOutput->vertexCount);
    instanceCount = 1;
    made = &geometryOutput->primitives;
  }

  // Without gl_Position the positions are undefined: nothing is drawn (as
  // if every vertex were at w = 0, which clipping removes).
  const spvb_stage_variable *position =
      findBuiltin(last->variables, spv::BuiltInPosition, true);
  const spvb_stage_variable *pointSize =
      findBuiltin(last->variables, spv::BuiltInPointSize, true);

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
  llvm::Expected<uint32_t> samples = target.getSamples();
  if (!samples)
    return samples.takeError();
  FragmentOperations operations(state, target, fragment.variables);
  FragmentStage stage(*last, fragment, *lastOutputs, lastPerInstance, *samples,
                      operations);
  if (llvm::Error error = stage.prepare(launcher.getSubgroupSize()))
    return error;
  stage.setDebugPixel(stages.debugPixel);
  setup.samples = *samples;
  setup.sampleMask = state.sampleMask;
  setup.perSample =
      *samples > 1 &&
      (stage.readsSample() || stage.hasSampleInputs() ||
       (state.sampleShading && state.minSampleShading * *samples > 1));
  setup.centroid = *samples > 1 && stage.hasCentroidInputs();
  if (state.rasterizerDiscard || !position) {
    resolveAttachments(target);
    return statistics;
  }

  // Primitives in draw order, binned to the tiles they may touch.
  // A triangle list without restarts is assembled where it is read.
  bool triangleList = !made &&
                      state.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST &&
                      restarts.empty();
  // The tessellator's or geometry shader's name the last stage's output
  // records directly.
  std::vector<Primitive> &assembledHere = scratch.assembled;
  assembledHere.clear();
  if (!made && !triangleList) {
    assembledHere.reserve(call.vertexCount);
    assemblePrimitives(state.topology, 0, call.vertexCount, restarts,
                       assembledHere);
  }
  const std::vector<Primitive> &assembled = made ? *made : assembledHere;
  uint64_t primitivesPerInstance =
      triangleList ? call.vertexCount / 3 : assembled.size();
  // Each shaded vertex projected once, for the primitives' bounds; both
  // loops spread over the threads (with the binning, they are the serial
  // part of a draw).
  std::vector<ProjectedVertex> &projected = scratch.projected;
  uint64_t lastVertices = uint64_t(lastPerInstance) * instanceCount;
  // Every element is written below: kept ones are not cleared first.
  projected.resize(lastVertices);
  forEachChunk(launcher, lastVertices, 256, [&](uint64_t begin, uint64_t end) {
    projectVertices(state, setup, lastOutputs->at(begin),
                    lastOutputs->getRecordSize(), position->offset, end - begin,
                    projected.data() + begin);
  });
  std::vector<DrawPrimitive> &primitives = scratch.primitives;
  // Every field is set below: kept elements are not cleared first.
  primitives.resize(primitivesPerInstance * instanceCount);
  statistics.primitives = primitives.size();
  // getPrimitiveBounds' common case, inline.
  const bool filledTriangles =
      state.polygonMode == VK_POLYGON_MODE_FILL && setup.samples == 1;
  const PixelRect scissorRect = setup.getScissor();
  if (!primitives.empty())
    forEachChunk(
        launcher, primitives.size(), 512, [&](uint64_t begin, uint64_t end) {
          // Primitive i is assembled[i % size] of instance i / size,
          // stepped through without dividing.
          uint64_t size = primitivesPerInstance;
          uint64_t instance = begin / size, at = begin % size;
          for (uint64_t i = begin; i < end; ++i, ++at) {
            if (at == size) {
              at = 0;
              ++instance;
            }
            DrawPrimitive &drawn = primitives[i];
            Primitive &primitive = drawn.primitive;
            primitive =
                triangleList ? getListTriangle(uint32_t(at)) : assembled[at];
            drawn.instance = uint32_t(instance);
            drawn.pointSize = 1;
            drawn.projected = {};
            uint64_t base = uint64_t(drawn.instance) * lastPerInstance;
            for (unsigned k = 0; k < primitive.vertexCount; ++k) {
              // Primitives name the shaded vertices.
              if (!made)
                primitive.vertices[k] = reuse.slots[primitive.vertices[k]];
              drawn.projected[k] = &projected[base + primitive.vertices[k]];
            }
            if (pointSize && primitive.vertexCount == 1)
              std::memcpy(&drawn.pointSize,
                          lastOutputs->at(base + primitive.vertices[0]) +
                              pointSize->offset,
                          4);
            const std::array<const ProjectedVertex *, 3> &vertices =
                drawn.projected;
            if (filledTriangles && primitive.vertexCount == 3 &&
                vertices[0]->unclipped && vertices[1]->unclipped &&
                vertices[2]->unclipped)
              drawn.bounds = getUnclippedTriangleBounds(
                  *vertices[0], *vertices[1], *vertices[2], scissorRect);
            else
              drawn.bounds = getPrimitiveBounds(
                  state, setup,
                  llvm::ArrayRef(vertices.data(), primitive.vertexCount),
                  primitive.vertexCount == 1 ? drawn.pointSize : 1.0);
          }
        });
  // --debug-pixel: the invocations behind the primitives that cover the
  // pixel, through their debug builds, stage by stage before its
  // fragments.
  if (stages.debugPixel) {
    const DebugPixel &pixel = *stages.debugPixel;
    // The records of the stage before the geometry shader (or the
    // rasterizer) that those primitives reach, and the geometry shader
    // invocations that emitted them.
    std::vector<uint64_t> records;
    std::vector<uint32_t> geometryInvocations;
    auto addRecord = [&](uint64_t record) {
      if (!llvm::is_contained(records, record))
        records.push_back(record);
    };
    for (size_t i : findPixelPrimitives(pixel, state, setup, primitives)) {
      const DrawPrimitive &drawn = primitives[i];
      if (!geometry) {
        for (unsigned k = 0; k < drawn.primitive.vertexCount; ++k)
          addRecord(uint64_t(drawn.instance) * lastPerInstance +
                    drawn.primitive.vertices[k]);
        continue;
      }
      uint32_t invocation = geometryOutput->primitiveInvocations[i];
      if (llvm::is_contained(geometryInvocations, invocation))
        continue;
      geometryInvocations.push_back(invocation);
      const GeometryInput &input =
          geometryInputs[invocation / geometry->geometry.invocations];
      for (unsigned k = 0; k < geometry->geometry.inputVertices; ++k)
        addRecord(input.records[k]);
    }
    // With tessellation those are tessellated vertices: by patch, and the
    // vertices are the patches' control points.
    std::vector<uint64_t> vertexRecords;
    std::vector<std::pair<uint64_t, std::vector<uint64_t>>> patchVertices;
    if (tessellation) {
      const std::vector<uint64_t> &first = tessellationOutput->patchFirstVertex;
      for (uint64_t record : records) {
        uint64_t patch = std::upper_bound(first.begin(), first.end(), record) -
                         first.begin() - 1;
        auto known = llvm::find_if(patchVertices, [&](const auto &entry) {
          return entry.first == patch;
        });
        if (known == patchVertices.end()) {
          patchVertices.push_back({patch, {}});
          known = std::prev(patchVertices.end());
          for (uint32_t i = 0; i < patches->patchVertices; ++i) {
            uint64_t point =
                patches->controlPoints[patch * patches->patchVertices + i];
            if (!llvm::is_contained(vertexRecords, point))
              vertexRecords.push_back(point);
          }
        }
        known->second.push_back(record - first[patch]);
      }
    } else {
      vertexRecords = records;
    }
    if (pixel.vertex)
      if (llvm::Error error = rerunInvocations(
              launcher, pixel.vertex, vertex, vertexInputs, vertexOutputs,
              vertexRecords, vertexContext, [&](uint64_t record) {
                // At most 15 characters.
                uint32_t index = reuse.shaded[record % perInstance];
                uint64_t instance = call.firstInstance + record / perInstance;
                return call.instanceCount > 1 || call.firstInstance
                           ? llvm::formatv("vertex {0}/{1}", index, instance)
                                 .str()
                           : llvm::formatv("vertex {0}", index).str();
              }))
        return error;
    if (pixel.tessControl || pixel.tessEvaluation)
      for (const auto &[patch, vertices] : patchVertices)
        if (llvm::Error error =
                rerunPatch(launcher, *patches, pixel, patch, vertices))
          return error;
    if (pixel.geometry)
      for (uint32_t invocation : geometryInvocations) {
        uint32_t count = geometry->geometry.invocations;
        uint32_t id = geometryInputs[invocation / count].id;
        std::string name = count > 1 ? llvm::formatv("prim {0} inv {1}", id,
                                                     invocation % count)
                                           .str()
                                     : llvm::formatv("primitive {0}", id).str();
        if (llvm::Error error = rerunGeometryInvocation(
                launcher, pixel.geometry, *beforeGeometry,
                *beforeGeometryOutputs, *geometry, geometryInputs, invocation,
                name))
          return error;
      }
  }
  TileBins bins(setup.getScissor(), launcher.getThreadCount() == 1
                                        ? TileBins::kSingleThreadTileSize
                                        : TileBins::kTileSize);
  for (size_t i = 0; i < primitives.size(); ++i)
    if (!primitives[i].bounds.empty())
      bins.add(i, primitives[i].bounds);

  // Threads take tiles, the busiest first; each queues its quads in
  // primitive order.
  std::vector<size_t> order = bins.getBusiestFirst();
  std::atomic<size_t> nextTile{0};
  launcher.runOnAllThreads([&](unsigned) {
    QuadBatch batch(stage);
    bool running = true;
    for (size_t next; running && (next = nextTile++) < order.size();) {
      const TileBins::Tile &tile = bins[order[next]];
      RasterSetup tileSetup = setup.restrictedTo(tile.pixels);
      for (uint32_t primitiveIndex : tile.primitives) {
        const DrawPrimitive &drawn = primitives[primitiveIndex];
        FragmentSink sink(batch, drawn, operations,
                          fragment.earlyFragmentTests);
        rasterizePrimitive(state, tileSetup, drawn, sink);
        if (!(running = sink.isRunning() && !launcher.isCancelled()))
          break;
      }
    }
    batch.flush();
  });
  statistics.fragmentInvocations = stage.getInvocations();
  statistics.samplesPassed = stage.getSamplesPassed();
  if (llvm::Error cancellation = launcher.takeCancellation()) {
    llvm::consumeError(stage.takeError());
    return cancellation;
  }
  if (llvm::Error error = stage.takeError())
    return error;
  resolveAttachments(target);
  return statistics;
}

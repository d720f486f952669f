//===- TessellationStages.cpp - Patches through tessellation --------------===//
#include "TessellationStages.h"

#include "StageLaunch.h"
#include "StageValues.h"
#include "Tessellator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

using namespace spvb::runtime;

namespace {

/// An input filled from the previous stage's record: bytes at `from` in
/// it to `to` in the input record.
struct Copy {
  uint32_t to, from, bytes;
};

/// The copies that fill `inputs` from `previous`'s outputs (matched as
/// findLinkedOutput does); inputs nothing feeds stay zero (undefined), and
/// those with a flag in `skipped` (outputs, unread inputs) are left as
/// they are.
std::vector<Copy> linkInputs(llvm::ArrayRef<spvb_stage_variable> previous,
                             llvm::ArrayRef<spvb_stage_variable> inputs,
                             bool matchVertex, uint32_t skipped) {
  std::vector<Copy> copies;
  for (const spvb_stage_variable &var : inputs) {
    if (var.flags & skipped)
      continue;
    if (var.location == ~0u && !(var.flags & SPVB_STAGE_PER_VERTEX) &&
        var.builtin != spv::BuiltInTessLevelOuter &&
        var.builtin != spv::BuiltInTessLevelInner)
      continue; // set by the runtime
    if (const spvb_stage_variable *source =
            findLinkedOutput(previous, var, matchVertex))
      copies.push_back(
          {var.offset, source->offset,
           std::min(var.bytes * var.count, source->bytes * source->count)});
  }
  return copies;
}

/// Writes the builtins the runtime provides: gl_PatchVerticesIn,
/// gl_PrimitiveID and (evaluation) gl_TessCoord.
void storeBuiltins(llvm::ArrayRef<spvb_stage_variable> vars, uint8_t *record,
                   uint32_t patchVertices, uint32_t id,
                   const std::array<float, 3> *coordinate) {
  for (const spvb_stage_variable &var : vars) {
    if ((var.flags & SPVB_STAGE_OUTPUT) || var.location != ~0u)
      continue;
    switch (var.builtin) {
    case spv::BuiltInPatchVertices:
      storeScalar(record + var.offset, var, patchVertices, patchVertices);
      break;
    case spv::BuiltInPrimitiveId:
      storeScalar(record + var.offset, var, id, id);
      break;
    case spv::BuiltInTessCoord:
      if (coordinate)
        for (unsigned c = 0; c < var.count && c < 3; ++c)
          storeScalar(record + var.offset + c * var.bytes, var,
                      (*coordinate)[c], 0);
      break;
    default:
      break;
    }
  }
}

/// The levels the control shader wrote for a patch (zeros where it wrote
/// none: the patch is then discarded).
void readLevels(llvm::ArrayRef<spvb_stage_variable> controlVars,
                const uint8_t *record, float outer[4], float inner[2]) {
  std::fill(outer, outer + 4, 0.0f);
  std::fill(inner, inner + 2, 0.0f);
  for (const spvb_stage_variable &var : controlVars) {
    if (!(var.flags & SPVB_STAGE_OUTPUT) || var.kind != SPVB_KIND_FLOAT ||
        var.bytes != 4)
      continue;
    if (var.builtin == spv::BuiltInTessLevelOuter)
      std::memcpy(outer, record + var.offset, 4 * std::min(var.count, 4u));
    if (var.builtin == spv::BuiltInTessLevelInner)
      std::memcpy(inner, record + var.offset, 4 * std::min(var.count, 2u));
  }
}

/// Input and output records of one batch of patches come to about this
/// many bytes.
constexpr uint64_t kBatchBytes = 8 << 20;

/// What running a draw's patches needs, found once: how each stage's
/// inputs fill from the stage before and the tessellator's mode.
class PatchStages {
public:
  /// `debugBuilds`: the stages rerun through debug builds, which read
  /// every input.
  PatchStages(const TessellationInputs &patches, bool debugBuilds)
      : patches(patches) {
    uint32_t skipped =
        SPVB_STAGE_OUTPUT | (debugBuilds ? 0 : SPVB_STAGE_UNREAD);
    // The tessellator's domain has its origin at the upper left: mirrored
    // in v, a lower-left domain's clockwise is its counterclockwise.
    mode = patches.evaluation.tessellation;
    mode.clockwise ^= patches.lowerLeftOrigin;
    for (const spvb_stage_variable &var : patches.control.variables)
      if (!(var.flags & skipped) && (var.flags & SPVB_STAGE_PER_VERTEX) &&
          var.vertex < patches.patchVertices)
        if (const spvb_stage_variable *source =
                findLinkedOutput(patches.vertex.variables, var))
          fromVertex.push_back(
              {{var.offset, source->offset,
                std::min(var.bytes * var.count, source->bytes * source->count)},
               var.vertex});
    fromControl = linkInputs(patches.control.variables,
                             patches.evaluation.variables, true, skipped);
  }

  /// The control shader's input records of patches [first, first +
  /// count), record i for patch first + i.
  void fillControlInputs(Launcher &launcher, StageRecords &inputs,
                         uint64_t first, uint64_t count) const {
    forEachChunk(launcher, count, 256, [&](uint64_t from, uint64_t to) {
      for (uint64_t p = from; p < to; ++p) {
        uint8_t *record = inputs.at(p);
        const uint32_t *points =
            &patches.controlPoints[(first + p) * patches.patchVertices];
        for (const VertexCopy &c : fromVertex)
          std::memcpy(record + c.copy.to,
                      patches.vertexOutputs.at(points[c.vertex]) + c.copy.from,
                      c.copy.bytes);
        storeBuiltins(patches.control.variables, record, patches.patchVertices,
                      patches.patchIds[first + p], nullptr);
      }
    });
  }

  /// Tessellates a patch by the levels its control shader wrote; a
  /// discarded patch has no vertices.
  void tessellatePatch(const uint8_t *controlOutput, Tessellation &t) const {
    float outer[4], inner[2];
    readLevels(patches.control.variables, controlOutput, outer, inner);
    if (!tessellate(mode, outer, inner, t)) {
      t.coordinates.clear();
      t.indices.clear();
    }
  }

  /// The evaluation shader's input record for the vertex at `coordinate`
  /// of patch `patch`.
  void fillEvaluationInput(uint8_t *record, const uint8_t *controlOutput,
                           uint64_t patch,
                           const std::array<float, 3> &coordinate) const {
    for (const Copy &copy : fromControl)
      std::memcpy(record + copy.to, controlOutput + copy.from, copy.bytes);
    storeBuiltins(patches.evaluation.variables, record, mode.outputVertices,
                  patches.patchIds[patch], &coordinate);
  }

  /// The checks' names of the invocations.
  std::string nameControl(uint64_t patch, uint64_t invocation) const {
    return llvm::formatv("the tessellation control invocation {0} of patch "
                         "{1}",
                         invocation, patches.patchIds[patch]);
  }
  /// By gl_TessCoord and gl_PrimitiveID.
  std::string nameEvaluation(uint64_t patch,
                             const std::array<float, 3> &coordinate) const {
    return llvm::formatv(
        "the tessellation evaluation invocation at ({0}, "
        "{1}, {2}) of patch {3}",
        llvm::format("%g", coordinate[0]), llvm::format("%g", coordinate[1]),
        llvm::format("%g", coordinate[2]), patches.patchIds[patch]);
  }

  const TessellationInputs &patches;
  TessellationMode mode;

private:
  struct VertexCopy {
    Copy copy;
    uint32_t vertex;
  };
  std::vector<VertexCopy> fromVertex;
  std::vector<Copy> fromControl;
};

} // namespace

llvm::Expected<TessellationOutput>
spvb::runtime::runTessellationStages(Launcher &launcher,
                                     const TessellationInputs &patches) {
  const StageKernel &control = patches.control;
  const StageKernel &evaluation = patches.evaluation;
  const spvb_kernel_info &controlInfo = control.entry->info;
  const spvb_kernel_info &evaluationInfo = evaluation.entry->info;
  PatchStages stages(patches, /*debugBuilds=*/false);
  TessellationOutput result(evaluationInfo.stage_output_size);
  uint64_t patchCount = patches.patchIds.size();
  result.controlInvocations = patchCount * controlInfo.workgroup_size[0];
  result.patchFirstVertex.assign(patchCount + 1, 0);

  uint64_t patchBytes =
      controlInfo.stage_input_size + controlInfo.stage_output_size + 1;
  uint64_t batch = std::max<uint64_t>(64, kBatchBytes / patchBytes);
  std::vector<uint8_t> outputs;
  std::vector<Tessellation> tessellations;
  std::vector<uint64_t> firstVertex;
  for (uint64_t begin = 0; begin < patchCount; begin += batch) {
    uint64_t count = std::min(batch, patchCount - begin);
    StageRecords controlInputs(controlInfo.stage_input_size, count);
    StageRecords controlOutputs(controlInfo.stage_output_size, count,
                                control.entry->workgroupFill);
    stages.fillControlInputs(launcher, controlInputs, begin, count);
    StageLaunchContext controlContext;
    controlContext.nameInvocation = [&](uint64_t index) {
      uint64_t size = controlInfo.workgroup_size[0];
      return stages.nameControl(begin + index / size, index % size);
    };
    if (llvm::Error error =
            runStage(launcher, control, controlInputs.data(),
                     controlOutputs.data(), count, controlContext))
      return error;

    // The tessellator, then the evaluation shader over every vertex of the
    // batch.
    tessellations.resize(count);
    forEachChunk(launcher, count, 64, [&](uint64_t from, uint64_t to) {
      for (uint64_t p = from; p < to; ++p)
        stages.tessellatePatch(controlOutputs.at(p), tessellations[p]);
    });
    firstVertex.assign(count + 1, 0);
    for (uint64_t p = 0; p < count; ++p)
      firstVertex[p + 1] = firstVertex[p] + tessellations[p].coordinates.size();
    uint64_t vertices = firstVertex[count];
    uint64_t base = result.vertexCount;
    if (base + vertices > UINT32_MAX)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the tessellator made more vertices than one draw holds");
    for (uint64_t p = 0; p < count; ++p)
      result.patchFirstVertex[begin + p + 1] = base + firstVertex[p + 1];
    if (!vertices)
      continue;
    StageRecords evaluationInputs(evaluationInfo.stage_input_size, vertices);
    StageRecords evaluationOutputs(evaluationInfo.stage_output_size, vertices,
                                   evaluation.entry->workgroupFill);
    forEachChunk(launcher, count, 16, [&](uint64_t from, uint64_t to) {
      for (uint64_t p = from; p < to; ++p) {
        const Tessellation &t = tessellations[p];
        for (size_t v = 0; v < t.coordinates.size(); ++v)
          stages.fillEvaluationInput(evaluationInputs.at(firstVertex[p] + v),
                                     controlOutputs.at(p), begin + p,
                                     t.coordinates[v]);
      }
    });
    StageLaunchContext evaluationContext;
    evaluationContext.nameInvocation = [&](uint64_t record) {
      uint64_t p = uint64_t(std::upper_bound(firstVertex.begin(),
                                             firstVertex.end(), record) -
                            firstVertex.begin()) -
                   1;
      return stages.nameEvaluation(
          begin + p, tessellations[p].coordinates[record - firstVertex[p]]);
    };
    if (llvm::Error error =
            runPerRecordStage(launcher, evaluation, evaluationInputs,
                              evaluationOutputs, vertices, evaluationContext))
      return error;
    const uint8_t *bytes = evaluationOutputs.at(0);
    outputs.insert(outputs.end(), bytes,
                   bytes + vertices * evaluationInfo.stage_output_size);
    for (uint64_t p = 0; p < count; ++p) {
      const Tessellation &t = tessellations[p];
      for (size_t i = 0; i + t.verticesPerPrimitive <= t.indices.size();
           i += t.verticesPerPrimitive) {
        Primitive &primitive = result.primitives.emplace_back();
        primitive.vertexCount = t.verticesPerPrimitive;
        primitive.id = patches.patchIds[begin + p];
        for (unsigned k = 0; k < t.verticesPerPrimitive; ++k)
          primitive.vertices[k] =
              uint32_t(base + firstVertex[p] + t.indices[i + k]);
      }
    }
    result.vertexCount += vertices;
  }
  result.evaluationInvocations = result.vertexCount;
  result.records =
      StageRecords(evaluationInfo.stage_output_size, result.vertexCount);
  if (!outputs.empty())
    std::memcpy(result.records.at(0), outputs.data(), outputs.size());
  if (stages.mode.pointMode)
    result.verticesPerPrimitive = 1;
  else if (stages.mode.domain == TessellationDomain::Isolines)
    result.verticesPerPrimitive = 2;
  return result;
}

llvm::Error spvb::runtime::rerunPatch(Launcher &launcher,
                                      const TessellationInputs &patches,
                                      const DebugPixel &pixel, uint64_t patch,
                                      llvm::ArrayRef<uint64_t> vertices) {
  PatchStages stages(patches, /*debugBuilds=*/true);
  const spvb_kernel_info &controlInfo = patches.control.entry->info;
  const spvb_kernel_info &evaluationInfo = patches.evaluation.entry->info;
  uint32_t id = patches.patchIds[patch];
  StageRecords controlInputs(controlInfo.stage_input_size, 1);
  StageRecords controlOutputs(controlInfo.stage_output_size, 1,
                              patches.control.entry->workgroupFill);
  stages.fillControlInputs(launcher, controlInputs, patch, 1);
  StageLaunchContext controlContext;
  controlContext.nameInvocation = [&](uint64_t index) {
    return stages.nameControl(patch, index);
  };
  // The workgroup's invocations each on a thread of their own, as a
  // debugger switches between them at its barriers.
  std::optional<DebugInvocation> previous = launcher.getDebugInvocation();
  if (pixel.tessControl) {
    DebugInvocation debug;
    debug.entry = pixel.tessControl;
    debug.wholeWorkgroup = true;
    debug.threadName = llvm::formatv("tesc {0}", id);
    launcher.setDebugInvocation(debug);
  }
  llvm::Error error = runStage(launcher, patches.control, controlInputs.data(),
                               controlOutputs.data(), 1, controlContext);
  launcher.setDebugInvocation(previous);
  if (error || !pixel.tessEvaluation || vertices.empty())
    return error;

  Tessellation t;
  stages.tessellatePatch(controlOutputs.at(0), t);
  StageRecords inputs(evaluationInfo.stage_input_size, t.coordinates.size());
  StageRecords outputs(evaluationInfo.stage_output_size, t.coordinates.size(),
                       patches.evaluation.entry->workgroupFill);
  for (uint64_t v : vertices)
    stages.fillEvaluationInput(inputs.at(v), controlOutputs.at(0), patch,
                               t.coordinates[v]);
  StageLaunchContext context;
  context.nameInvocation = [&](uint64_t v) {
    return stages.nameEvaluation(patch, t.coordinates[v]);
  };
  return rerunInvocations(launcher, pixel.tessEvaluation, patches.evaluation,
                          inputs, outputs, vertices, context, [&](uint64_t v) {
                            return llvm::formatv("tese {0}/{1}", id, v).str();
                          });
}

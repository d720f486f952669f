//===- GeometryStage.cpp - Primitives through a geometry shader -----------===//
#include "GeometryStage.h"

#include "StageLaunch.h"
#include "StageValues.h"
#include "launch/DispatchState.h"

#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>

using namespace spvb::runtime;

/// About how many bytes of records a batch of input primitives takes.
constexpr uint64_t kBatchBytes = 8 << 20;

namespace {

/// The stage context of a geometry launch: room for every invocation's
/// OutputVertices vertices, so that emitting is a copy, and where each
/// invocation's strips end; each invocation writes only its own.
struct GeometryEmitter {
  /// The launch's first output record: a launch of the last invocations
  /// starts further on (runPerRecordStage).
  const uint8_t *outputs = nullptr;
  uint32_t recordSize = 0;
  uint32_t maxVertices = 0;
  /// Invocation i's vertices from i * maxVertices records on.
  uint8_t *vertices = nullptr;
  std::vector<uint32_t> counts;
  /// Vertex counts at which invocation i's strips end (OpEndPrimitive).
  std::vector<std::vector<uint32_t>> stripEnds;
};

} // namespace

extern "C" void spvb_rt_geometry(const spvb_dispatch *dispatch,
                                 const spvb_invocation *invocation,
                                 uint32_t opcode, uint32_t stream) {
  auto *state = static_cast<DispatchState *>(dispatch->runtime);
  auto *emitter = static_cast<GeometryEmitter *>(state->stageContext);
  // Only stream 0 is rasterized; a launch without an emitter (a kernel
  // run on its own) drops what it emits.
  if (!emitter || stream != 0)
    return;
  uint64_t index = invocation->global_id[0];
  if (emitter->recordSize)
    index += uint64_t(dispatch->stage_outputs - emitter->outputs) /
             emitter->recordSize;
  if (index >= emitter->counts.size())
    return;
  uint32_t &count = emitter->counts[index];
  if (opcode == spv::OpEndPrimitive) {
    std::vector<uint32_t> &ends = emitter->stripEnds[index];
    if (ends.empty() || ends.back() != count)
      ends.push_back(count);
    return;
  }
  // Vertices past OutputVertices are undefined; they are dropped.
  if (count >= emitter->maxVertices)
    return;
  uint64_t size = emitter->recordSize;
  std::memcpy(emitter->vertices + (index * emitter->maxVertices + count) * size,
              dispatch->stage_outputs + invocation->global_id[0] * size, size);
  ++count;
}

uint32_t spvb::runtime::getTopologyVertices(VkPrimitiveTopology topology) {
  switch (topology) {
  case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    return 1;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    return 2;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
    return 4;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
    return 6;
  case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST:
    return 0;
  default:
    return 3;
  }
}

void spvb::runtime::assembleGeometryInputs(VkPrimitiveTopology topology,
                                           uint32_t count,
                                           llvm::ArrayRef<uint32_t> restarts,
                                           std::vector<GeometryInput> &inputs) {
  uint32_t nextId = 0;
  auto add = [&](std::initializer_list<uint32_t> vertices) {
    GeometryInput &input = inputs.emplace_back();
    std::copy(vertices.begin(), vertices.end(), input.records.begin());
    input.id = nextId++;
  };
  // One run of positions [first, first + n) without restarts.
  auto run = [&](uint32_t first, uint32_t n) {
    auto v = [first](uint32_t i) { return first + i; };
    switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
      for (uint32_t i = 0; i + 3 < n; i += 4)
        add({v(i), v(i + 1), v(i + 2), v(i + 3)});
      return;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
      for (uint32_t i = 0; i + 3 < n; ++i)
        add({v(i), v(i + 1), v(i + 2), v(i + 3)});
      return;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
      for (uint32_t i = 0; i + 5 < n; i += 6)
        add({v(i), v(i + 1), v(i + 2), v(i + 3), v(i + 4), v(i + 5)});
      return;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
      // The specification's table of triangle strips with adjacency:
      // vertices (1st, adjacent 1-2, 2nd, adjacent 2-3, 3rd, adjacent 3-1).
      uint32_t triangles = n >= 6 ? (n - 4) / 2 : 0;
      for (uint32_t i = 0; i < triangles; ++i) {
        bool last = i + 1 == triangles;
        if (triangles == 1)
          add({v(0), v(1), v(2), v(5), v(4), v(3)});
        else if (i == 0)
          add({v(0), v(1), v(2), v(6), v(4), v(3)});
        else if (i % 2)
          add({v(2 * i + 2), v(2 * i - 2), v(2 * i), v(2 * i + 3), v(2 * i + 4),
               v(last ? 2 * i + 5 : 2 * i + 6)});
        else
          add({v(2 * i), v(2 * i - 2), v(2 * i + 2),
               v(last ? 2 * i + 5 : 2 * i + 6), v(2 * i + 4), v(2 * i + 3)});
      }
      return;
    }
    default: {
      std::vector<Primitive> primitives;
      assemblePrimitives(topology, first, n, {}, primitives);
      for (const Primitive &primitive : primitives) {
        GeometryInput &input = inputs.emplace_back();
        std::copy(primitive.vertices,
                  primitive.vertices + primitive.vertexCount,
                  input.records.begin());
        input.id = nextId++;
      }
      return;
    }
    }
  };
  uint32_t start = 0;
  for (uint32_t restart : restarts) {
    run(start, restart - start);
    start = restart + 1;
  }
  run(start, count - start);
}

/// Writes the input records: per-vertex inputs from their vertex's output
/// record, then the primitive's id and the invocation's.
static void fillInputs(llvm::ArrayRef<spvb_stage_variable> vertexVars,
                       const StageRecords &vertexOutputs,
                       llvm::ArrayRef<spvb_stage_variable> geometryVars,
                       llvm::ArrayRef<GeometryInput> inputs,
                       uint32_t invocations, StageRecords &records) {
  for (const spvb_stage_variable &var : geometryVars) {
    if (var.flags & SPVB_STAGE_OUTPUT)
      continue;
    const spvb_stage_variable *source = nullptr;
    if (var.flags & SPVB_STAGE_PER_VERTEX)
      source = findLinkedOutput(vertexVars, var);
    uint32_t bytes = var.bytes * var.count;
    for (size_t p = 0; p < inputs.size(); ++p)
      for (uint32_t i = 0; i < invocations; ++i) {
        uint8_t *record = records.at(p * invocations + i) + var.offset;
        if (var.flags & SPVB_STAGE_PER_VERTEX) {
          // An input no vertex output feeds is undefined: it reads zero.
          if (source)
            std::memcpy(record,
                        vertexOutputs.at(inputs[p].records[var.vertex]) +
                            source->offset,
                        std::min(bytes, source->bytes * source->count));
          continue;
        }
        int64_t value = var.builtin == spv::BuiltInInvocationId
                            ? int64_t(i)
                            : int64_t(inputs[p].id);
        storeScalar(record, var, double(value), value);
      }
  }
}

/// A geometry shader invocation as the checks' messages name it, by
/// gl_PrimitiveIDIn and gl_InvocationID.
static std::string nameInvocation(uint32_t primitive, uint32_t invocations,
                                  uint64_t invocation) {
  std::string name = llvm::formatv(
      "the geometry shader invocation for primitive {0}", primitive);
  if (invocations > 1)
    name += llvm::formatv(", gl_InvocationID {0}", invocation).str();
  return name;
}

/// Strips to primitives: each emitted vertex a point, consecutive pairs of
/// a strip lines, triangles p_i = {v_i, v_(i+1+i%2), v_(i+2-i%2)}.
static void assembleStrip(VkPrimitiveTopology output, uint32_t first,
                          uint32_t count, uint32_t id,
                          std::vector<Primitive> &primitives) {
  unsigned size = output == VK_PRIMITIVE_TOPOLOGY_POINT_LIST   ? 1
                  : output == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? 2
                                                               : 3;
  for (uint32_t i = 0; i + size <= count; ++i) {
    Primitive &primitive = primitives.emplace_back();
    primitive.vertexCount = size;
    primitive.id = id;
    primitive.vertices[0] = first + i;
    if (size == 2)
      primitive.vertices[1] = first + i + 1;
    if (size == 3) {
      primitive.vertices[1] = first + i + 1 + i % 2;
      primitive.vertices[2] = first + i + 2 - i % 2;
    }
  }
}

llvm::Expected<GeometryOutput>
spvb::runtime::runGeometryStage(Launcher &launcher, const StageKernel &vertex,
                                const StageRecords &vertexOutputs,
                                const StageKernel &geometry,
                                llvm::ArrayRef<GeometryInput> inputs) {
  const spvb_kernel_info &info = geometry.entry->info;
  const GeometryShape &shape = geometry.geometry;
  uint64_t invocations = uint64_t(inputs.size()) * shape.invocations;
  GeometryOutput result(info.stage_output_size);
  if (!invocations)
    return result;
  if (invocations > UINT32_MAX)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("the geometry shader would run {0} invocations, more "
                      "than one draw holds",
                      invocations)
            .str());
  // Input primitives in batches of about kBatchBytes of records and room
  // for emitted vertices.
  uint64_t perPrimitive =
      uint64_t(shape.invocations) *
      (info.stage_input_size + info.stage_output_size +
       uint64_t(shape.maxVertices) * info.stage_output_size + 1);
  uint64_t batch = std::max<uint64_t>(16, kBatchBytes / perPrimitive);
  GeometryEmitter emitter;
  emitter.recordSize = info.stage_output_size;
  emitter.maxVertices = shape.maxVertices;
  // Kept from one draw to the next: fresh pages cost a fault each.
  static thread_local std::vector<uint8_t> room;
  static thread_local std::vector<uint64_t> inputStorage, outputStorage;
  // The records of the emitted vertices, in words as StageRecords keeps
  // them.
  std::vector<uint64_t> emitted;
  uint64_t recordSize = info.stage_output_size;
  for (uint64_t begin = 0; begin < inputs.size(); begin += batch) {
    llvm::ArrayRef<GeometryInput> primitives =
        inputs.slice(begin, std::min<uint64_t>(batch, inputs.size() - begin));
    uint64_t count = primitives.size() * shape.invocations;
    StageRecords records =
        StageRecords::reuse(inputStorage, info.stage_input_size, count);
    StageRecords outputs =
        StageRecords::reuse(outputStorage, info.stage_output_size, count,
                            geometry.entry->workgroupFill);
    fillInputs(vertex.variables, vertexOutputs, geometry.variables, primitives,
               shape.invocations, records);
    emitter.outputs = outputs.data();
    emitter.counts.assign(count, 0);
    emitter.stripEnds.assign(count, {});
    // Written before read: no need to clear.
    uint64_t roomBytes = count * shape.maxVertices * recordSize;
    if (room.size() < roomBytes)
      room.resize(roomBytes);
    emitter.vertices = room.data();
    StageLaunchContext context;
    context.stageContext = &emitter;
    context.nameInvocation = [&](uint64_t index) {
      return nameInvocation(primitives[index / shape.invocations].id,
                            shape.invocations, index % shape.invocations);
    };
    // In SIMD lanes, each invocation emitting into its own room.
    llvm::Error error =
        runPerRecordStage(launcher, geometry, records, outputs, count, context);
    inputStorage = std::move(records).release();
    outputStorage = std::move(outputs).release();
    if (error)
      return error;

    uint64_t batchVertices = 0;
    for (uint32_t vertices : emitter.counts)
      batchVertices += vertices;
    if (result.vertexCount + batchVertices > UINT32_MAX)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the geometry shader emitted more vertices than one draw holds");
    emitted.resize(((result.vertexCount + batchVertices) * recordSize + 7) / 8 +
                   1);
    // At most a primitive per emitted vertex; growing geometrically, as a
    // reserve per batch would not.
    uint64_t most = result.primitives.size() + batchVertices;
    if (result.primitives.capacity() < most)
      result.primitives.reserve(
          std::max<uint64_t>(most, 2 * result.primitives.capacity()));
    auto *to = reinterpret_cast<uint8_t *>(emitted.data());
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t vertices = emitter.counts[i];
      if (!vertices)
        continue;
      uint64_t next = result.vertexCount;
      std::memcpy(to + next * recordSize,
                  emitter.vertices + i * shape.maxVertices * recordSize,
                  vertices * recordSize);
      uint32_t id = primitives[i / shape.invocations].id;
      uint32_t start = 0;
      for (uint32_t end : emitter.stripEnds[i]) {
        assembleStrip(shape.output, uint32_t(next) + start, end - start, id,
                      result.primitives);
        start = end;
      }
      // The last strip ends with the invocation.
      assembleStrip(shape.output, uint32_t(next) + start, vertices - start, id,
                    result.primitives);
      result.primitiveInvocations.resize(
          result.primitives.size(), uint32_t(begin * shape.invocations + i));
      result.vertexCount += vertices;
    }
  }
  if (emitted.empty())
    emitted.resize(1);
  result.records = StageRecords(recordSize, std::move(emitted));
  // gl_PrimitiveID in the fragment shader: what the geometry shader wrote
  // for the primitive's provoking vertex, when it writes one.
  for (const spvb_stage_variable &var : geometry.variables)
    if ((var.flags & SPVB_STAGE_OUTPUT) &&
        var.builtin == spv::BuiltInPrimitiveId)
      for (Primitive &primitive : result.primitives)
        std::memcpy(&primitive.id,
                    result.records.at(primitive.vertices[0]) + var.offset, 4);
  return result;
}

llvm::Error spvb::runtime::rerunGeometryInvocation(
    Launcher &launcher, spvb_entry_fn debugEntry, const StageKernel &vertex,
    const StageRecords &vertexOutputs, const StageKernel &geometry,
    llvm::ArrayRef<GeometryInput> inputs, uint32_t invocation,
    const std::string &threadName) {
  const spvb_kernel_info &info = geometry.entry->info;
  uint32_t invocations = geometry.geometry.invocations;
  const GeometryInput &input = inputs[invocation / invocations];
  StageRecords records(info.stage_input_size, invocations);
  StageRecords outputs(info.stage_output_size, invocations,
                       geometry.entry->workgroupFill);
  fillInputs(vertex.variables, vertexOutputs, geometry.variables,
             llvm::ArrayRef(input), invocations, records);
  uint32_t local = invocation % invocations;
  StageLaunchContext context;
  context.nameInvocation = [&](uint64_t) {
    return nameInvocation(input.id, invocations, local);
  };
  // No emitter: the emitted vertices are dropped.
  return rerunInvocations(launcher, debugEntry, geometry, records, outputs,
                          {uint64_t(local)}, context,
                          [&](uint64_t) { return threadName; });
}

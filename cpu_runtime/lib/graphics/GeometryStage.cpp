//===- GeometryStage.cpp - Primitives through a geometry shader -----------===//
#include "GeometryStage.h"

#include "StageLaunch.h"
#include "StageValues.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>

using namespace spvb::runtime;

/// About how many bytes of records a batch of input primitives takes.
constexpr uint64_t kBatchBytes = 8 << 20;

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
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
      // The common case, as assemblePrimitives assembles it, without its
      // primitives in between.
      for (uint32_t i = 0; i + 2 < n; i += 3)
        add({v(i), v(i + 1), v(i + 2)});
      return;
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
      // Kept from one draw to the next, as the inputs are.
      static thread_local std::vector<Primitive> primitives;
      primitives.clear();
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
/// record, the primitive's id and the invocation's, zeros in the bytes
/// nothing else writes (an input no vertex output feeds is undefined: it
/// reads zero), nothing where the shader never reads; spread over the
/// launcher's threads.
static void fillInputs(Launcher &launcher,
                       llvm::ArrayRef<spvb_stage_variable> vertexVars,
                       const StageRecords &vertexOutputs,
                       llvm::ArrayRef<spvb_stage_variable> geometryVars,
                       llvm::ArrayRef<GeometryInput> inputs,
                       uint32_t invocations, bool debugBuild,
                       StageRecords &records) {
  // The per-vertex copies and the zeroed ranges, found once.
  struct Copy {
    uint32_t to, from, bytes, vertex;
  };
  llvm::SmallVector<Copy, 16> copies;
  llvm::SmallVector<const spvb_stage_variable *, 4> ids;
  uint64_t recordSize = records.getRecordSize();
  // Bytes of inputs the shader reads, and those of them filled below: the
  // others are zeroed (padding between inputs is never read).
  llvm::SmallVector<bool, 256> read(recordSize, false),
      written(recordSize, false);
  auto mark = [&](llvm::SmallVectorImpl<bool> &bytes, uint64_t offset,
                  uint64_t size) {
    for (uint64_t b = offset; b < std::min(offset + size, recordSize); ++b)
      bytes[b] = true;
  };
  unsigned vertices = 0;
  for (const spvb_stage_variable &var : geometryVars) {
    if (var.flags & SPVB_STAGE_OUTPUT)
      continue;
    // What the shader never reads may hold anything (a debug build reads
    // every input).
    if ((var.flags & SPVB_STAGE_UNREAD) && !debugBuild)
      continue;
    mark(read, var.offset, uint64_t(var.bytes) * var.count);
    if (!(var.flags & SPVB_STAGE_PER_VERTEX)) {
      ids.push_back(&var);
      mark(written, var.offset, var.bytes);
      continue;
    }
    if (const spvb_stage_variable *source = findLinkedOutput(vertexVars, var)) {
      Copy copy{var.offset, source->offset,
                std::min(var.bytes * var.count, source->bytes * source->count),
                var.vertex};
      copies.push_back(copy);
      mark(written, copy.to, copy.bytes);
      vertices = std::max(vertices, copy.vertex + 1);
    }
  }
  struct Range {
    uint32_t offset, bytes;
  };
  llvm::SmallVector<Range, 8> zeros;
  for (uint64_t b = 0; b < recordSize; ++b) {
    if (!read[b] || written[b])
      continue;
    if (!zeros.empty() && zeros.back().offset + zeros.back().bytes == b)
      ++zeros.back().bytes;
    else
      zeros.push_back({uint32_t(b), 1});
  }
  forEachChunk(
      launcher, inputs.size(), 1024, [&](uint64_t begin, uint64_t end) {
        std::array<const uint8_t *, 6> sources{};
        for (uint64_t p = begin; p < end; ++p) {
          for (unsigned v = 0; v < vertices; ++v)
            sources[v] = vertexOutputs.at(inputs[p].records[v]);
          uint8_t *first = records.at(p * invocations);
          for (const Range &zero : zeros)
            std::memset(first + zero.offset, 0, zero.bytes);
          for (const Copy &copy : copies)
            copyStageBytes(first + copy.to, sources[copy.vertex] + copy.from,
                           copy.bytes);
          // The other invocations' records differ only in their ids.
          for (uint32_t i = 0; i < invocations; ++i) {
            uint8_t *record = records.at(p * invocations + i);
            if (i)
              std::memcpy(record, first, recordSize);
            for (const spvb_stage_variable *var : ids) {
              int64_t value = var->builtin == spv::BuiltInInvocationId
                                  ? int64_t(i)
                                  : int64_t(inputs[p].id);
              storeScalar(record + var->offset, *var, double(value), value);
            }
          }
        }
      });
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

llvm::Error spvb::runtime::runGeometryStage(
    Launcher &launcher, const StageKernel &vertex,
    const StageRecords &vertexOutputs, const StageKernel &geometry,
    llvm::ArrayRef<GeometryInput> inputs, GeometryOutput &result) {
  const spvb_kernel_info &info = geometry.entry->info;
  const GeometryShape &shape = geometry.geometry;
  uint64_t recordSize = info.stage_output_size;
  uint64_t maxVertices = shape.maxVertices;
  uint64_t invocations = uint64_t(inputs.size()) * shape.invocations;
  // Every emitted record is written whole; slots nothing emits into are
  // closed up before anything reads them.
  result.records.grow(recordSize, 0);
  result.vertexCount = 0;
  result.primitives.clear();
  result.primitiveInvocations.clear();
  if (!invocations)
    return llvm::Error::success();
  if (invocations > UINT32_MAX)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("the geometry shader would run {0} invocations, more "
                      "than one draw holds",
                      invocations)
            .str());
  // Input primitives in batches of about kBatchBytes of records and room
  // for emitted vertices.
  uint64_t perPrimitive = uint64_t(shape.invocations) *
                          (info.stage_input_size + info.stage_output_size +
                           maxVertices * (recordSize + 1) + 4);
  uint64_t batch = std::max<uint64_t>(16, kBatchBytes / perPrimitive);
  // Kept from one draw to the next: fresh pages cost a fault each.
  static thread_local std::vector<uint64_t> inputStorage, outputStorage;
  static thread_local std::vector<uint32_t> counts;
  static thread_local std::vector<uint8_t> stripEnds;
  for (uint64_t begin = 0; begin < inputs.size(); begin += batch) {
    llvm::ArrayRef<GeometryInput> primitives =
        inputs.slice(begin, std::min<uint64_t>(batch, inputs.size() - begin));
    uint64_t count = primitives.size() * shape.invocations;
    StageRecords records = StageRecords::reuseUncleared(
        inputStorage, info.stage_input_size, count);
    StageRecords outputs =
        StageRecords::reuse(outputStorage, info.stage_output_size, count,
                            geometry.entry->workgroupFill);
    fillInputs(launcher, vertex.variables, vertexOutputs, geometry.variables,
               primitives, shape.invocations, /*debugBuild=*/false, records);
    // Each invocation emits into its OutputVertices slots after the
    // records so far, which are then closed up.
    uint64_t first = result.vertexCount;
    result.records.grow(recordSize, first + count * maxVertices);
    counts.assign(count, 0);
    stripEnds.assign(count * maxVertices, 0);
    spvb_geometry_emit emit{};
    emit.vertices = result.records.at(first);
    emit.counts = counts.data();
    emit.strip_ends = stripEnds.data();
    emit.max_vertices = shape.maxVertices;
    StageLaunchContext context;
    context.geometryEmit = &emit;
    context.nameInvocation = [&](uint64_t index) {
      return nameInvocation(primitives[index / shape.invocations].id,
                            shape.invocations, index % shape.invocations);
    };
    llvm::Error error =
        runPerRecordStage(launcher, geometry, records, outputs, count, context);
    inputStorage = std::move(records).release();
    outputStorage = std::move(outputs).release();
    if (error)
      return error;

    uint64_t batchVertices = 0;
    for (uint32_t vertices : counts)
      batchVertices += vertices;
    if (first + batchVertices > UINT32_MAX)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the geometry shader emitted more vertices than one draw holds");
    // At most a primitive per emitted vertex; growing geometrically, as a
    // reserve per batch would not.
    uint64_t most = result.primitives.size() + batchVertices;
    if (result.primitives.capacity() < most) {
      uint64_t capacity =
          std::max<uint64_t>(most, 2 * result.primitives.capacity());
      result.primitives.reserve(capacity);
      result.primitiveInvocations.reserve(capacity);
    }
    uint64_t next = first;
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t vertices = counts[i];
      if (!vertices)
        continue;
      uint64_t slot = first + i * maxVertices;
      if (slot != next)
        std::memmove(result.records.at(next), result.records.at(slot),
                     vertices * recordSize);
      uint32_t id = primitives[i / shape.invocations].id;
      const uint8_t *ends = stripEnds.data() + i * maxVertices;
      uint32_t start = 0;
      for (uint32_t k = 0; k + 1 < vertices; ++k)
        if (ends[k]) {
          assembleStrip(shape.output, uint32_t(next) + start, k + 1 - start, id,
                        result.primitives);
          start = k + 1;
        }
      // The last strip ends with the invocation.
      assembleStrip(shape.output, uint32_t(next) + start, vertices - start, id,
                    result.primitives);
      // Pushed, not resized: the resize was a library call per invocation.
      for (uint32_t invocation = uint32_t(begin * shape.invocations + i);
           result.primitiveInvocations.size() < result.primitives.size();)
        result.primitiveInvocations.push_back(invocation);
      next += vertices;
    }
    result.vertexCount = next;
  }
  // gl_PrimitiveID in the fragment shader: what the geometry shader wrote
  // for the primitive's provoking vertex, when it writes one.
  for (const spvb_stage_variable &var : geometry.variables)
    if ((var.flags & SPVB_STAGE_OUTPUT) &&
        var.builtin == spv::BuiltInPrimitiveId)
      for (Primitive &primitive : result.primitives)
        std::memcpy(&primitive.id,
                    result.records.at(primitive.vertices[0]) + var.offset, 4);
  return llvm::Error::success();
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
  fillInputs(launcher, vertex.variables, vertexOutputs, geometry.variables,
             llvm::ArrayRef(input), invocations, /*debugBuild=*/true, records);
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

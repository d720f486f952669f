//===- StageLaunch.h - Running a graphics stage's kernel --------*- C++ -*-===//
//
// What the stages of a draw share: launching a stage's kernel over its
// records, spreading host loops over the launcher's threads, and finding
// the output of the stage before that an input reads.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_STAGELAUNCH_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_STAGELAUNCH_H

#include "StageRecords.h"
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include <functional>
#include <string>

namespace spvb::runtime {

/// What a launch of a stage adds to its kernel's resources.
struct StageLaunchContext {
  /// Names invocation i of the launch in the checks' messages ("vertex 5");
  /// for a per-record stage, i is the record's index among those passed.
  std::function<std::string(uint64_t)> nameInvocation;
  /// DispatchResources::geometryEmit, for invocation 0 of the launch.
  const spvb_geometry_emit *geometryEmit = nullptr;
};

/// Runs `stage`'s kernel over `groups` workgroups with these records.
llvm::Error runStage(Launcher &launcher, const StageKernel &stage,
                     uint8_t *inputs, uint8_t *outputs, uint64_t groups,
                     const StageLaunchContext &context = {});

/// Runs a stage with one invocation per record (a vertex, tessellation
/// evaluation or geometry shader) over `count` records: whole workgroups
/// (SIMD lanes), then the invocations of a partial last one each on its
/// own, as the invocation entry (its invocations have effects, so none may
/// be added).
llvm::Error runPerRecordStage(Launcher &launcher, const StageKernel &stage,
                              StageRecords &inputs, StageRecords &outputs,
                              uint64_t count,
                              const StageLaunchContext &context = {});

/// Runs the invocations of `stage` (one per record) with the records
/// `records`, in order, each alone through `debugEntry` (a debug build's
/// invocation entry) on a thread named `nameThread(record)`
/// (--debug-pixel).
llvm::Error
rerunInvocations(Launcher &launcher, spvb_entry_fn debugEntry,
                 const StageKernel &stage, StageRecords &inputs,
                 StageRecords &outputs, llvm::ArrayRef<uint64_t> records,
                 const StageLaunchContext &context,
                 llvm::function_ref<std::string(uint64_t)> nameThread);

/// body(begin, end) over [0, count) in chunks of `chunk`, spread over the
/// launcher's threads when there is more than a chunk.
void forEachChunk(Launcher &launcher, uint64_t count, uint64_t chunk,
                  llvm::function_ref<void(uint64_t, uint64_t)> body);

/// The output of the previous stage's `outputs` that `input` reads: the
/// same builtin, or the same Location and Component; per-vertex inputs of
/// a tessellation evaluation shader match the vertex too, per-patch ones
/// per-patch outputs. Null when none does (the input is undefined).
const spvb_stage_variable *
findLinkedOutput(llvm::ArrayRef<spvb_stage_variable> outputs,
                 const spvb_stage_variable &input, bool matchVertex = false);

/// The first variable of `vars` with this builtin in this direction.
const spvb_stage_variable *findBuiltin(llvm::ArrayRef<spvb_stage_variable> vars,
                                       uint32_t builtin, bool output);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_STAGELAUNCH_H

//===- StageLaunch.cpp - Running a graphics stage's kernel ----------------===//
#include "StageLaunch.h"

#include <atomic>

using namespace spvb::runtime;

llvm::Error spvb::runtime::runStage(Launcher &launcher,
                                    const StageKernel &stage, uint8_t *inputs,
                                    uint8_t *outputs, uint64_t groups,
                                    const StageLaunchContext &context) {
  DispatchResources resources = *stage.resources;
  resources.stageInputs = inputs;
  resources.stageOutputs = outputs;
  resources.geometryEmit = context.geometryEmit;
  resources.nameInvocation = context.nameInvocation;
  return launcher.launch(*stage.entry, resources,
                         {static_cast<uint32_t>(groups), 1, 1});
}

/// `stage` as workgroups of one invocation through its invocation entry,
/// kept in `single`: for invocations that must run on their own.
static StageKernel getSingleInvocationStage(const StageKernel &stage,
                                            KernelEntry &single) {
  single = *stage.entry;
  single.workgroup = nullptr;
  single.info.workgroup_entry = SPVB_WORKGROUP_ENTRY_NONE;
  single.info.workgroup_size[0] = 1;
  StageKernel one = stage;
  one.entry = &single;
  return one;
}

llvm::Error spvb::runtime::runPerRecordStage(
    Launcher &launcher, const StageKernel &stage, StageRecords &inputs,
    StageRecords &outputs, uint64_t count, const StageLaunchContext &context) {
  uint64_t width = std::max<uint32_t>(1, stage.entry->info.workgroup_size[0]);
  uint64_t whole = count / width * width;
  if (whole)
    if (llvm::Error error = runStage(launcher, stage, inputs.data(),
                                     outputs.data(), whole / width, context))
      return error;
  if (whole == count)
    return llvm::Error::success();
  KernelEntry single;
  StageKernel rest = getSingleInvocationStage(stage, single);
  StageLaunchContext restContext = context;
  // The rest emit from record `whole` on.
  spvb_geometry_emit restEmit;
  if (context.geometryEmit) {
    restEmit = *context.geometryEmit;
    uint64_t slot = whole * restEmit.max_vertices;
    restEmit.vertices += slot * stage.entry->info.stage_output_size;
    restEmit.counts += whole;
    restEmit.strip_ends += slot;
    restContext.geometryEmit = &restEmit;
  }
  if (context.nameInvocation)
    restContext.nameInvocation = [&](uint64_t index) {
      return context.nameInvocation(whole + index);
    };
  return runStage(launcher, rest, inputs.at(whole), outputs.at(whole),
                  count - whole, restContext);
}

llvm::Error spvb::runtime::rerunInvocations(
    Launcher &launcher, spvb_entry_fn debugEntry, const StageKernel &stage,
    StageRecords &inputs, StageRecords &outputs,
    llvm::ArrayRef<uint64_t> records, const StageLaunchContext &context,
    llvm::function_ref<std::string(uint64_t)> nameThread) {
  KernelEntry single;
  StageKernel one = getSingleInvocationStage(stage, single);
  std::optional<DebugInvocation> previous = launcher.getDebugInvocation();
  for (uint64_t record : records) {
    DebugInvocation debug;
    debug.entry = debugEntry;
    debug.threadName = nameThread(record);
    launcher.setDebugInvocation(debug);
    StageLaunchContext named = context;
    // What a rerun emits is dropped: the first run's is drawn.
    named.geometryEmit = nullptr;
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

void spvb::runtime::forEachChunk(
    Launcher &launcher, uint64_t count, uint64_t chunk,
    llvm::function_ref<void(uint64_t, uint64_t)> body) {
  if (count <= chunk || launcher.getThreadCount() == 1) {
    body(0, count);
    return;
  }
  std::atomic<uint64_t> next{0};
  launcher.runOnAllThreads([&](unsigned) {
    for (uint64_t begin; (begin = next.fetch_add(chunk)) < count;)
      body(begin, std::min(count, begin + chunk));
  });
}

const spvb_stage_variable *
spvb::runtime::findLinkedOutput(llvm::ArrayRef<spvb_stage_variable> outputs,
                                const spvb_stage_variable &input,
                                bool matchVertex) {
  for (const spvb_stage_variable &var : outputs) {
    if (!(var.flags & SPVB_STAGE_OUTPUT))
      continue;
    if (matchVertex &&
        ((var.flags & SPVB_STAGE_PATCH) != (input.flags & SPVB_STAGE_PATCH) ||
         var.vertex != input.vertex))
      continue;
    if (input.location == ~0u ? var.builtin == input.builtin
                              : var.location == input.location &&
                                    var.component == input.component)
      return &var;
  }
  return nullptr;
}

const spvb_stage_variable *
spvb::runtime::findBuiltin(llvm::ArrayRef<spvb_stage_variable> vars,
                           uint32_t builtin, bool output) {
  for (const spvb_stage_variable &var : vars)
    if (var.builtin == builtin && bool(var.flags & SPVB_STAGE_OUTPUT) == output)
      return &var;
  return nullptr;
}

//===- CommandExecution.cpp - Replaying a command buffer ------------------===//
#include "CommandExecution.h"

#include "DescriptorBinding.h"
#include "DrawExecution.h"
#include "HandleChecks.h"
#include "ImageBlits.h"
#include "ImageResolves.h"
#include "ImageTransfers.h"
#include "LaunchTimeout.h"
#include "Queries.h"

#include "spvbridge/cpu_runtime/DebugTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <chrono>
#include <cstring>
#include <set>

using namespace spvb;
using namespace spvb::icd;

namespace {

/// What the commands so far have bound at one bind point.
struct BoundState {
  Pipeline *pipeline = nullptr;
  BoundSets sets;
};

class Executor {
public:
  explicit Executor(Device &device) : device(device), draws(device) {}

  llvm::Error operator()(const command::BindPipeline &command) {
    if (llvm::Error error =
            checkHandle(command.pipeline, "vkCmdBindPipeline", "pipeline"))
      return error;
    getBound(command.bindPoint).pipeline = command.pipeline;
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::BindDescriptorSets &command);
  llvm::Error operator()(const command::PushConstants &command) {
    if (pushConstants.size() < command.offset + command.bytes.size())
      pushConstants.resize(command.offset + command.bytes.size());
    llvm::copy(command.bytes, pushConstants.begin() + command.offset);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::Dispatch &command) {
    return dispatch(command.groups, command.base);
  }
  llvm::Error operator()(const command::DispatchIndirect &command) {
    if (llvm::Error error =
            checkBuffer(command.buffer, "vkCmdDispatchIndirect", "buffer"))
      return error;
    std::array<uint32_t, 3> groups;
    std::memcpy(groups.data(), command.buffer->getData() + command.offset,
                sizeof(groups));
    return dispatch(groups);
  }
  llvm::Error operator()(const command::CopyBuffer &command) {
    if (llvm::Error error =
            checkBuffer(command.source, "vkCmdCopyBuffer", "srcBuffer"))
      return error;
    if (llvm::Error error =
            checkBuffer(command.destination, "vkCmdCopyBuffer", "dstBuffer"))
      return error;
    for (const VkBufferCopy &region : command.regions)
      std::memmove(command.destination->getData() + region.dstOffset,
                   command.source->getData() + region.srcOffset, region.size);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::FillBuffer &command) {
    if (llvm::Error error =
            checkBuffer(command.buffer, "vkCmdFillBuffer", "dstBuffer"))
      return error;
    VkDeviceSize size = command.size == VK_WHOLE_SIZE
                            ? (command.buffer->size - command.offset) / 4 * 4
                            : command.size;
    uint8_t *data = command.buffer->getData() + command.offset;
    for (VkDeviceSize i = 0; i < size; i += 4)
      std::memcpy(data + i, &command.data, 4);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::UpdateBuffer &command) {
    if (llvm::Error error =
            checkBuffer(command.buffer, "vkCmdUpdateBuffer", "dstBuffer"))
      return error;
    llvm::copy(command.bytes, command.buffer->getData() + command.offset);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::SetEvent &command) {
    if (llvm::Error error = checkHandle(
            command.event, command.set ? "vkCmdSetEvent" : "vkCmdResetEvent",
            "event"))
      return error;
    {
      std::lock_guard<std::mutex> lock(device.mutex);
      command.event->set = command.set;
    }
    device.changed.notify_all();
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::WaitEvents &command);
  llvm::Error operator()(const command::WriteTimestamp &command) {
    if (llvm::Error error =
            checkHandle(command.pool, "vkCmdWriteTimestamp", "queryPool"))
      return error;
    uint64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count();
    std::lock_guard<std::mutex> lock(device.mutex);
    command.pool->values[command.query] = {now};
    command.pool->available[command.query] = true;
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::ResetQueryPool &command) {
    if (llvm::Error error =
            checkHandle(command.pool, "vkCmdResetQueryPool", "queryPool"))
      return error;
    std::lock_guard<std::mutex> lock(device.mutex);
    for (uint32_t i = 0; i < command.queryCount; ++i) {
      command.pool->available[command.firstQuery + i] = false;
      llvm::fill(command.pool->values[command.firstQuery + i], 0);
    }
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::Query &command) {
    if (llvm::Error error = checkHandle(
            command.pool, command.begin ? "vkCmdBeginQuery" : "vkCmdEndQuery",
            "queryPool"))
      return error;
    if (command.begin) {
      activeQueries.insert({command.pool, command.query});
      return llvm::Error::success();
    }
    activeQueries.erase({command.pool, command.query});
    std::lock_guard<std::mutex> lock(device.mutex);
    command.pool->available[command.query] = true;
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::CopyQueryPoolResults &command) {
    if (llvm::Error error =
            checkHandle(command.pool, "vkCmdCopyQueryPoolResults", "queryPool"))
      return error;
    if (llvm::Error error = checkBuffer(
            command.buffer, "vkCmdCopyQueryPoolResults", "dstBuffer"))
      return error;
    std::lock_guard<std::mutex> lock(device.mutex);
    writeQueryResults(*command.pool, command.firstQuery, command.queryCount,
                      command.buffer->getData() + command.offset,
                      command.stride, command.flags);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::CopyBufferImage &command) {
    return copyBufferImage(command);
  }
  llvm::Error operator()(const command::CopyImage &command) {
    return copyImage(command);
  }
  llvm::Error operator()(const command::BlitImage &command) {
    return blitImage(command);
  }
  llvm::Error operator()(const command::ResolveImage &command) {
    return resolveImage(command);
  }
  llvm::Error operator()(const command::ClearImage &command) {
    return clearImage(command);
  }
  llvm::Error operator()(const command::ExecuteCommands &command) {
    for (const CommandBuffer *secondary : command.commandBuffers) {
      if (!secondary)
        return makeNullHandleError("vkCmdExecuteCommands", "a command buffer");
      // A secondary command buffer inherits no bound state; the primary's
      // is undefined after it.
      compute = graphics = BoundState();
      pushConstants.clear();
      draws.forgetBindings();
      if (llvm::Error error = run(*secondary))
        return error;
    }
    return llvm::Error::success();
  }

  llvm::Error operator()(const command::BeginRenderPass &command) {
    return draws.beginRenderPass(command);
  }
  llvm::Error operator()(const command::NextSubpass &) {
    return draws.nextSubpass();
  }
  llvm::Error operator()(const command::EndRenderPass &) {
    return draws.endRenderPass();
  }
  llvm::Error operator()(const command::ClearAttachments &command) {
    return draws.clearAttachments(command);
  }
  llvm::Error operator()(const command::BindVertexBuffers &command) {
    draws.bindVertexBuffers(command);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::BindIndexBuffer &command) {
    draws.bindIndexBuffer(command);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::SetDynamicState &command) {
    draws.setDynamicState(command);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::Draw &command) {
    llvm::Error error =
        draws.draw({graphics.pipeline, graphics.sets, pushConstants}, command,
                   command.indexed ? "vkCmdDrawIndexed" : "vkCmdDraw");
    countDraws();
    return error;
  }
  llvm::Error operator()(const command::DrawIndirect &command) {
    llvm::Error error = draws.drawIndirect(
        {graphics.pipeline, graphics.sets, pushConstants}, command);
    countDraws();
    return error;
  }

  llvm::Error run(const CommandBuffer &buffer) {
    for (const Command &command : buffer.commands)
      if (llvm::Error error = std::visit(*this, command))
        return error;
    return llvm::Error::success();
  }

private:
  /// Under SPVB_DEBUG_INVOCATION, runs the invocation it names through the
  /// pipeline's debug build if this dispatch has it (spv-run's
  /// --debug-invocation).
  void setDebugInvocation(std::array<uint32_t, 3> groups,
                          std::array<uint32_t, 3> base);
  llvm::Error dispatch(std::array<uint32_t, 3> groups,
                       std::array<uint32_t, 3> base = {0, 0, 0});
  BoundState &getBound(VkPipelineBindPoint bindPoint) {
    return bindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS ? graphics : compute;
  }
  /// Counts a dispatch's invocations in the active pipeline-statistics
  /// queries.
  void countInvocations(std::array<uint32_t, 3> groups);
  /// Counts the draws' samples and statistics in the active occlusion and
  /// pipeline-statistics queries.
  void countDraws();

  Device &device;
  BoundState compute, graphics;
  /// Shared by the bind points, as pipeline layouts' push constant ranges
  /// are.
  std::vector<uint8_t> pushConstants;
  DrawExecutor draws;
  /// Queries begun and not yet ended, by pool and index.
  std::set<std::pair<QueryPool *, uint32_t>> activeQueries;
};

} // namespace

llvm::Error Executor::operator()(const command::BindDescriptorSets &command) {
  size_t nextOffset = 0;
  for (auto [i, set] : llvm::enumerate(command.sets)) {
    std::string what = "set " + std::to_string(command.firstSet + i);
    if (llvm::Error error =
            checkHandle(set, "vkCmdBindDescriptorSets", what.c_str()))
      return error;
    std::vector<uint32_t> offsets;
    for (const auto &[binding, info] : set->layout->bindings)
      if (info.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
          info.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
        for (uint32_t element = 0; element < info.count; ++element)
          offsets.push_back(nextOffset < command.dynamicOffsets.size()
                                ? command.dynamicOffsets[nextOffset++]
                                : 0);
    getBound(command.bindPoint).sets[command.firstSet + i] = {
        set, std::move(offsets)};
  }
  return llvm::Error::success();
}

llvm::Error Executor::dispatch(std::array<uint32_t, 3> groups,
                               std::array<uint32_t, 3> base) {
  const BoundState &state = compute;
  if (!state.pipeline)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: vkCmdDispatch: no compute pipeline is bound");
  if (llvm::Error error =
          checkHandle(state.pipeline, "vkCmdDispatch", "the bound pipeline"))
    return error;
  Dispatch dispatch(state.pipeline->kernel);
  dispatch.setLimits(device.physicalDevice->environment.limits);
  dispatch.setBoundsCheckHint("SPVB_CHECKS=bounds");
  DescriptorBinder binder(device, "vkCmdDispatch", {&dispatch});
  if (llvm::Error error = binder.bindSets(state.sets))
    return error;
  binder.nameAddressableBuffers();
  if (!pushConstants.empty() ||
      state.pipeline->kernel->reflection.pushConstants)
    dispatch.setPushConstants(pushConstants);
  if (state.pipeline->subgroupSize)
    dispatch.setSubgroupSize(state.pipeline->subgroupSize);
  llvm::Error error =
      runWithTimeout(device, state.pipeline->kernel->sourceName, "dispatch",
                     "the shader may loop forever", [&] {
                       setDebugInvocation(groups, base);
                       llvm::Error error =
                           dispatch.run(*device.launcher, groups, base);
                       device.launcher->setDebugInvocation(std::nullopt);
                       return error;
                     });
  if (error)
    return error;
  countInvocations(groups);
  return llvm::Error::success();
}

void Executor::setDebugInvocation(std::array<uint32_t, 3> groups,
                                  std::array<uint32_t, 3> base) {
  const std::shared_ptr<const Kernel> &debugKernel =
      compute.pipeline->debugKernel;
  const std::string &text = device.physicalDevice->environment.debugInvocation;
  if (!debugKernel || text.empty())
    return;
  // Ids count from workgroup 0: a dispatch from a base has the ones from
  // the base on.
  std::array<uint32_t, 3> end = {base[0] + groups[0], base[1] + groups[1],
                                 base[2] + groups[2]};
  llvm::Expected<runtime::DebugInvocation> target =
      runtime::parseDebugInvocation(text, end,
                                    debugKernel->entry.info.workgroup_size,
                                    "SPVB_DEBUG_INVOCATION");
  // Not in this dispatch: it runs as it is.
  if (!target) {
    llvm::consumeError(target.takeError());
    return;
  }
  for (int d = 0; d < 3; ++d)
    if (target->workgroup[d] < base[d])
      return;
  target->entry = debugKernel->entry.invocation;
  // With barriers or subgroup operations, the whole workgroup in the debug
  // build, an invocation per thread, as spv-run does.
  target->wholeWorkgroup = debugKernel->entry.info.uses_barriers != 0 ||
                           debugKernel->reflection.usesSubgroupOps;
  device.launcher->setDebugInvocation(*target);
}

llvm::Error Executor::operator()(const command::WaitEvents &command) {
  for (const Event *event : command.events)
    if (llvm::Error error = checkHandle(event, "vkCmdWaitEvents", "an event"))
      return error;
  // Earlier commands have run: only the host can still set an event.
  std::unique_lock<std::mutex> lock(device.mutex);
  device.changed.wait(lock, [&] {
    return device.stopping || llvm::all_of(command.events, [](Event *event) {
             return event->set;
           });
  });
  return llvm::Error::success();
}

void Executor::countInvocations(std::array<uint32_t, 3> groups) {
  const uint32_t *size = compute.pipeline->kernel->entry.info.workgroup_size;
  uint64_t invocations =
      uint64_t(groups[0]) * groups[1] * groups[2] * size[0] * size[1] * size[2];
  constexpr VkQueryPipelineStatisticFlags kCompute =
      VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
  std::lock_guard<std::mutex> lock(device.mutex);
  for (auto [pool, query] : activeQueries)
    if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS &&
        (pool->statistics & kCompute))
      pool->values[query][llvm::popcount(pool->statistics & (kCompute - 1))] +=
          invocations;
}

void Executor::countDraws() {
  DrawExecutor::Counts counts = draws.takeCounts();
  const runtime::DrawStatistics &shaded = counts.shaded;
  // By statistic bit, in the order of VkQueryPipelineStatisticFlagBits.
  const std::pair<VkQueryPipelineStatisticFlagBits, uint64_t> statistics[] = {
      {VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT,
       counts.vertices},
      {VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT,
       counts.primitives},
      {VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT,
       shaded.vertexInvocations},
      {VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT,
       shaded.geometryInvocations},
      {VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT,
       shaded.geometryInvocations ? shaded.primitives : 0},
      {VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, shaded.primitives},
      {VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, shaded.primitives},
      {VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT,
       shaded.fragmentInvocations},
      {VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT,
       shaded.tessControlInvocations ? counts.patches : 0},
      {VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT,
       shaded.tessEvaluationInvocations},
  };
  std::lock_guard<std::mutex> lock(device.mutex);
  for (auto [pool, query] : activeQueries) {
    std::vector<uint64_t> &values = pool->values[query];
    if (pool->type == VK_QUERY_TYPE_OCCLUSION) {
      values[0] += shaded.samplesPassed;
      continue;
    }
    if (pool->type != VK_QUERY_TYPE_PIPELINE_STATISTICS)
      continue;
    for (auto [bit, value] : statistics)
      if (pool->statistics & bit)
        values[llvm::popcount(pool->statistics & (bit - 1))] += value;
  }
}

llvm::Error spvb::icd::executeCommands(Device &device,
                                       const CommandBuffer &buffer) {
  return Executor(device).run(buffer);
}

//===- CommandExecution.cpp - Replaying a command buffer ------------------===//
#include "CommandExecution.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;
using namespace spvb::icd;

namespace {

/// What the commands so far have bound.
struct BoundState {
  Pipeline *pipeline = nullptr;
  /// Set index -> the set and the dynamic offsets of its dynamic
  /// descriptors, in binding and element order.
  std::map<uint32_t, std::pair<DescriptorSet *, std::vector<uint32_t>>> sets;
  std::vector<uint8_t> pushConstants;
};

class Executor {
public:
  explicit Executor(Device &device) : device(device) {}

  llvm::Error operator()(const command::BindPipeline &command) {
    state.pipeline = command.pipeline;
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::BindDescriptorSets &command);
  llvm::Error operator()(const command::PushConstants &command) {
    if (state.pushConstants.size() < command.offset + command.bytes.size())
      state.pushConstants.resize(command.offset + command.bytes.size());
    llvm::copy(command.bytes, state.pushConstants.begin() + command.offset);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::Dispatch &command) {
    if (command.base != std::array<uint32_t, 3>{0, 0, 0})
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "error: vkCmdDispatchBase: a base workgroup other than (0, 0, 0) "
          "is not supported yet");
    return dispatch(command.groups);
  }
  llvm::Error operator()(const command::DispatchIndirect &command) {
    std::array<uint32_t, 3> groups;
    std::memcpy(groups.data(), command.buffer->getData() + command.offset,
                sizeof(groups));
    return dispatch(groups);
  }
  llvm::Error operator()(const command::CopyBuffer &command) {
    for (const VkBufferCopy &region : command.regions)
      std::memmove(command.destination->getData() + region.dstOffset,
                   command.source->getData() + region.srcOffset, region.size);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::FillBuffer &command) {
    VkDeviceSize size = command.size == VK_WHOLE_SIZE
                            ? (command.buffer->size - command.offset) / 4 * 4
                            : command.size;
    uint8_t *data = command.buffer->getData() + command.offset;
    for (VkDeviceSize i = 0; i < size; i += 4)
      std::memcpy(data + i, &command.data, 4);
    return llvm::Error::success();
  }
  llvm::Error operator()(const command::UpdateBuffer &command) {
    llvm::copy(command.bytes, command.buffer->getData() + command.offset);
    return llvm::Error::success();
  }

private:
  llvm::Error dispatch(std::array<uint32_t, 3> groups);

  Device &device;
  BoundState state;
};

} // namespace

llvm::Error Executor::operator()(const command::BindDescriptorSets &command) {
  size_t nextOffset = 0;
  for (auto [i, set] : llvm::enumerate(command.sets)) {
    std::vector<uint32_t> offsets;
    for (const auto &[binding, info] : set->layout->bindings)
      if (info.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
          info.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
        for (uint32_t element = 0; element < info.count; ++element)
          offsets.push_back(nextOffset < command.dynamicOffsets.size()
                                ? command.dynamicOffsets[nextOffset++]
                                : 0);
    state.sets[command.firstSet + i] = {set, std::move(offsets)};
  }
  return llvm::Error::success();
}

llvm::Error Executor::dispatch(std::array<uint32_t, 3> groups) {
  if (!state.pipeline)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: vkCmdDispatch: no compute pipeline is bound");
  Dispatch dispatch(state.pipeline->kernel);
  dispatch.setLimits(device.physicalDevice->limits);
  for (const auto &[setIndex, bound] : state.sets) {
    const auto &[set, dynamicOffsets] = bound;
    size_t nextDynamic = 0;
    for (const auto &[binding, info] : set->layout->bindings) {
      bool dynamic = info.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
                     info.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
      for (uint32_t element = 0; element < info.count; ++element) {
        uint32_t extra = dynamic ? dynamicOffsets[nextDynamic++] : 0;
        auto it = set->buffers.find({binding, element});
        if (it == set->buffers.end() || !it->second.buffer)
          continue;
        const BufferDescriptor &descriptor = it->second;
        dispatch.bindBuffer(setIndex, binding,
                            descriptor.buffer->getData() + descriptor.offset +
                                extra,
                            descriptor.range, element);
      }
    }
  }
  if (!state.pushConstants.empty() ||
      state.pipeline->kernel->reflection.pushConstants)
    dispatch.setPushConstants(state.pushConstants);
  return dispatch.run(*device.launcher, groups);
}

llvm::Error spvb::icd::executeCommands(Device &device,
                                       const CommandBuffer &buffer) {
  Executor executor(device);
  for (const Command &command : buffer.commands)
    if (llvm::Error error = std::visit(executor, command))
      return error;
  return llvm::Error::success();
}

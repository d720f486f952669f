//===- CommandExecution.cpp - Replaying a command buffer ------------------===//
#include "CommandExecution.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;
using namespace spvb::icd;

/// Invalid use that is cheap to see: a null handle where the command needs
/// an object.
static llvm::Error nullHandle(const char *command, const char *what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: %s: %s is VK_NULL_HANDLE", command,
                                 what);
}

/// A buffer with memory bound, or the error naming the command.
static llvm::Error checkBuffer(const Buffer *buffer, const char *command,
                               const char *what) {
  if (!buffer)
    return nullHandle(command, what);
  if (!buffer->memory)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: %s: %s has no memory bound", command,
                                   what);
  return llvm::Error::success();
}

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
    if (!command.pipeline)
      return nullHandle("vkCmdBindPipeline", "pipeline");
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

private:
  llvm::Error dispatch(std::array<uint32_t, 3> groups);

  Device &device;
  BoundState state;
};

} // namespace

llvm::Error Executor::operator()(const command::BindDescriptorSets &command) {
  size_t nextOffset = 0;
  for (auto [i, set] : llvm::enumerate(command.sets)) {
    if (!set)
      return nullHandle(
          "vkCmdBindDescriptorSets",
          ("set " + std::to_string(command.firstSet + i)).c_str());
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
  dispatch.setLimits(device.physicalDevice->environment.limits);
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
        if (!descriptor.buffer->memory)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "error: vkCmdDispatch: the buffer at set %u, binding %u, "
              "element %u has no memory bound",
              setIndex, binding, element);
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

//===- VulkanBackend.cpp - Run one compute job through Vulkan -------------===//
//
// The compute side of VulkanContext.h: the workgroup-count limits, buffers
// bound to no descriptor and their addresses, the compute pipeline and the
// dispatch.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/vulkan/VulkanBackend.h"

#include "VulkanContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

/// Every Vulkan object of one run; the destructor releases what was made.
class Session {
public:
  Session() = default;
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  llvm::Expected<Result> run(const Job &job);

private:
  llvm::Error checkLimits(const Job &job, const Bindings &bindings);
  llvm::Error createDeviceBuffers(const Job &job);
  llvm::Error writeAddresses(const Job &job, Result &result);
  llvm::Error createPipeline(const Job &job, Result &result);
  llvm::Error dispatch(const Job &job, Result &result);

  Context context;
  std::vector<Context::Buffer> deviceBuffers;
  /// What each run starts from: Job::deviceBuffers' bytes with the
  /// addresses written in.
  std::vector<std::vector<uint8_t>> initialDeviceBuffers;
};

Session::~Session() {
  if (!context.device)
    return;
  vkDeviceWaitIdle(context.device);
  for (Context::Buffer &buffer : deviceBuffers)
    context.destroyBuffer(buffer);
}

llvm::Error Session::checkLimits(const Job &job, const Bindings &bindings) {
  const VkPhysicalDeviceLimits &limits = context.properties.limits;
  for (int d = 0; d < 3; ++d)
    if (job.groups[d] > limits.maxComputeWorkGroupCount[d])
      return makeError(llvm::formatv(
          "error: --groups: {0} groups in dimension {1} exceed the Vulkan "
          "device's limit of {2}",
          job.groups[d], "XYZ"[d], limits.maxComputeWorkGroupCount[d]));
  return context.checkBindingLimits(bindings);
}

llvm::Error Session::createDeviceBuffers(const Job &job) {
  for (const DeviceBuffer &buffer : job.deviceBuffers)
    if (llvm::Error error = context.createHostBuffer(
            buffer.initial.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            deviceBuffers.emplace_back()))
      return error;
  return llvm::Error::success();
}

llvm::Error Session::writeAddresses(const Job &job, Result &result) {
  for (const DeviceBuffer &buffer : job.deviceBuffers)
    initialDeviceBuffers.emplace_back(buffer.initial.begin(),
                                      buffer.initial.end());
  if (!context.deviceAddresses)
    return llvm::Error::success();
  auto getAddress = [&](const Context::Buffer &buffer) {
    auto info = makeStruct<VkBufferDeviceAddressInfo>(
        VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    info.buffer = buffer.buffer;
    return uint64_t(vkGetBufferDeviceAddress(context.device, &info));
  };
  for (const Context::Buffer &buffer : context.buffers)
    result.bufferAddresses.push_back(getAddress(buffer));
  for (const Context::Buffer &buffer : deviceBuffers)
    result.bufferAddresses.push_back(getAddress(buffer));
  for (const AddressPatch &patch : job.addresses) {
    uint64_t address =
        result
            .bufferAddresses[patch.target == AddressPatch::Place::Buffer
                                 ? patch.targetIndex
                                 : context.buffers.size() + patch.targetIndex] +
        patch.addend;
    std::vector<uint8_t> &bytes =
        patch.where == AddressPatch::Place::PushConstants
            ? context.pushConstants
        : patch.where == AddressPatch::Place::Buffer
            ? context.initialBuffers[patch.whereIndex]
            : initialDeviceBuffers[patch.whereIndex];
    if (patch.offset + 8 > bytes.size())
      return makeError(llvm::formatv("error: --address: offset {0} is past "
                                     "the end of its buffer ({1} bytes)",
                                     patch.offset, bytes.size()));
    for (int i = 0; i < 8; ++i)
      bytes[patch.offset + i] = static_cast<uint8_t>(address >> (8 * i));
  }
  return llvm::Error::success();
}

llvm::Error Session::createPipeline(const Job &job, Result &result) {
  Specialization specialization(job.specializations);
  auto start = Clock::now();
  llvm::Expected<VkPipelineShaderStageCreateInfo> stage =
      context.createShaderStage(*job.spirv, VK_SHADER_STAGE_COMPUTE_BIT,
                                job.entryPoint, specialization.get());
  if (!stage)
    return stage.takeError();
  auto info = makeStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage = *stage;
  info.layout = context.pipelineLayout;
  if (llvm::Error error =
          check(vkCreateComputePipelines(context.device, VK_NULL_HANDLE, 1,
                                         &info, nullptr, &context.pipeline),
                "vkCreateComputePipelines"))
    return error;
  result.compileMilliseconds = millisecondsSince(start);
  return llvm::Error::success();
}

llvm::Error Session::dispatch(const Job &job, Result &result) {
  llvm::Expected<Context::RunTimes> times = context.runRecorded(
      job.repeat, VK_PIPELINE_BIND_POINT_COMPUTE, VK_SHADER_STAGE_COMPUTE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      [&](VkCommandBuffer commands) {
        vkCmdDispatch(commands, job.groups[0], job.groups[1], job.groups[2]);
      },
      nullptr,
      [&] {
        for (size_t i = 0; i < initialDeviceBuffers.size(); ++i)
          std::memcpy(deviceBuffers[i].mapped, initialDeviceBuffers[i].data(),
                      initialDeviceBuffers[i].size());
      });
  if (!times)
    return times.takeError();
  result.firstDispatchMilliseconds = times->first;
  result.dispatchMilliseconds = std::move(times->others);
  result.buffers = context.readBuffers();
  for (size_t i = 0; i < job.deviceBuffers.size(); ++i) {
    const auto *bytes = static_cast<const uint8_t *>(deviceBuffers[i].mapped);
    result.deviceBuffers.emplace_back(
        bytes, bytes + job.deviceBuffers[i].initial.size());
  }
  result.images = context.readImages();
  return llvm::Error::success();
}

llvm::Expected<Result> Session::run(const Job &job) {
  Result result;
  Bindings bindings{job.buffers, job.images, job.samplers, job.pushConstants};
  if (llvm::Error error = context.createInstance())
    return error;
  if (llvm::Error error =
          context.pickDevice(job.deviceIndex, VK_QUEUE_COMPUTE_BIT, "compute"))
    return error;
  if (llvm::Error error = checkLimits(job, bindings))
    return error;
  DeviceRequest request;
  const SpirvBinary *modules[] = {job.spirv};
  request.modules = modules;
  request.robust = job.robust;
  request.deviceAddresses =
      !job.deviceBuffers.empty() || !job.addresses.empty();
  request.addressOption = job.addresses.empty() ? "device-buffer" : "address";
  if (llvm::Error error = context.createDevice(request))
    return error;
  result.deviceName = context.properties.deviceName;
  result.subgroupSize = context.getSubgroupSize();
  if (llvm::Error error = context.createBuffers(bindings))
    return error;
  if (llvm::Error error = createDeviceBuffers(job))
    return error;
  if (llvm::Error error = writeAddresses(job, result))
    return error;
  if (llvm::Error error = context.createImages(bindings))
    return error;
  if (llvm::Error error =
          context.createDescriptors(bindings, VK_SHADER_STAGE_COMPUTE_BIT))
    return error;
  if (llvm::Error error = createPipeline(job, result))
    return error;
  if (llvm::Error error = dispatch(job, result))
    return error;
  return result;
}

} // namespace

llvm::Expected<Result> spvb::vulkan::runJob(const Job &job) {
  Session session;
  return session.run(job);
}

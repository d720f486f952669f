//===- InvalidUse.cpp - Invalid use the ICD reports instead of crashing ---===//
//
// Each case makes a device, records one mistake the validation layer would
// report, submits it and prints what the driver returned; the ICD's own
// message goes to stderr. Cases:
//
//   copy-null      vkCmdCopyBuffer from VK_NULL_HANDLE
//   no-pipeline    vkCmdDispatch with no pipeline bound
//   draw-outside-pass  vkCmdDraw with no render pass begun
//   resolve-single     vkCmdResolveImage from a single-sample image
//   no-memory      a dispatch whose storage buffer has no memory bound
//   feature        vkCreateDevice enabling a feature the device lacks
//   image-format   vkCreateImage of a storage sRGB image (no SPIR-V image
//                  format: drawn into, copied and sampled only), of a
//                  compressed one and of one with eight samples
//   huge-memory    vkAllocateMemory of more than the memory heap
//   view-swizzle   vkCreateImageView with a component swizzle
//   query-type     vkCreateQueryPool of transform feedback queries
//   destroyed-buffer   vkCmdCopyBuffer from a buffer destroyed before the
//                      submission
//   destroyed-descriptor   a dispatch whose storage buffer was destroyed
//                          after the descriptor write
//   swapchain      vkCreateSwapchainKHR on a headless surface in a format
//                  it does not offer, then of storage B8G8R8A8 images
//                  (not stored by shaders yet); then one acquire more
//                  than the swapchain has images, with no timeout, and a
//                  present of an image index past them
//
//   InvalidUse CASE SHADER.spv
//
//===----------------------------------------------------------------------===//
#include "VulkanTestSupport.h"

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace vktest;

std::vector<uint32_t> readWords(const char *path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

struct BoundImage {
  VkImage image;
  VkDeviceMemory memory;
};

/// A 4x4 single-sample 2D image of `format`.
VkImageCreateInfo makeImageInfo(VkFormat format, VkImageUsageFlags usage) {
  auto imageInfo =
      makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  imageInfo.imageType = VK_IMAGE_TYPE_2D;
  imageInfo.format = format;
  imageInfo.extent = {4, 4, 1};
  imageInfo.mipLevels = 1;
  imageInfo.arrayLayers = 1;
  imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
  imageInfo.usage = usage;
  return imageInfo;
}

/// makeImageInfo's image with its memory bound.
BoundImage createBoundImage(VkDevice device, VkFormat format,
                            VkImageUsageFlags usage) {
  VkImageCreateInfo imageInfo = makeImageInfo(format, usage);
  VkImage image;
  check(vkCreateImage(device, &imageInfo, nullptr, &image), "image");
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device, image, &requirements);
  auto allocateInfo =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocateInfo.allocationSize = requirements.size;
  VkDeviceMemory memory;
  check(vkAllocateMemory(device, &allocateInfo, nullptr, &memory), "memory");
  check(vkBindImageMemory(device, image, memory, 0), "bind");
  return {image, memory};
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: InvalidUse CASE SHADER.spv\n");
    return 2;
  }
  std::string which = argv[1];
  auto application =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.apiVersion = VK_API_VERSION_1_1;
  auto instanceInfo =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &application;
  const char *surfaceExtensions[] = {VK_KHR_SURFACE_EXTENSION_NAME,
                                     VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
  const char *swapchainExtension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
  if (which == "swapchain") {
    instanceInfo.enabledExtensionCount = 2;
    instanceInfo.ppEnabledExtensionNames = surfaceExtensions;
  }
  VkInstance instance;
  check(vkCreateInstance(&instanceInfo, nullptr, &instance), "instance");
  uint32_t count = 1;
  VkPhysicalDevice physicalDevice;
  vkEnumeratePhysicalDevices(instance, &count, &physicalDevice);
  float priority = 1;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto deviceInfo =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  if (which == "feature") {
    // One viewport per draw: gl_ViewportIndex cannot be written.
    auto vulkan12 = makeStruct<VkPhysicalDeviceVulkan12Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    vulkan12.shaderOutputViewportIndex = VK_TRUE;
    deviceInfo.pNext = &vulkan12;
    VkDevice unused;
    std::printf("feature: vkCreateDevice %d\n",
                vkCreateDevice(physicalDevice, &deviceInfo, nullptr, &unused));
    return 0;
  }
  if (which == "swapchain") {
    deviceInfo.enabledExtensionCount = 1;
    deviceInfo.ppEnabledExtensionNames = &swapchainExtension;
  }
  VkDevice device;
  check(vkCreateDevice(physicalDevice, &deviceInfo, nullptr, &device),
        "device");
  if (which == "swapchain") {
    auto surfaceInfo = makeStruct<VkHeadlessSurfaceCreateInfoEXT>(
        VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT);
    auto createSurface = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateHeadlessSurfaceEXT"));
    VkSurfaceKHR surface;
    check(createSurface(instance, &surfaceInfo, nullptr, &surface), "surface");
    auto info = makeStruct<VkSwapchainCreateInfoKHR>(
        VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR);
    info.surface = surface;
    info.minImageCount = 2;
    info.imageFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
    info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    info.imageExtent = {8, 8};
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    VkSwapchainKHR swapchain;
    // Each result after its message.
    std::printf("swapchain: vkCreateSwapchainKHR %d\n",
                vkCreateSwapchainKHR(device, &info, nullptr, &swapchain));
    std::fflush(stdout);
    info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
    info.imageUsage |= VK_IMAGE_USAGE_STORAGE_BIT;
    std::printf("swapchain: vkCreateSwapchainKHR %d\n",
                vkCreateSwapchainKHR(device, &info, nullptr, &swapchain));
    std::fflush(stdout);
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    check(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain),
          "swapchain");
    uint32_t index;
    for (int i = 0; i < 3; ++i) {
      auto fenceInfo =
          makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
      VkFence fence;
      check(vkCreateFence(device, &fenceInfo, nullptr, &fence), "fence");
      std::printf("swapchain: vkAcquireNextImageKHR %d\n",
                  vkAcquireNextImageKHR(device, swapchain, UINT64_MAX,
                                        VK_NULL_HANDLE, fence, &index));
      std::fflush(stdout);
      vkDestroyFence(device, fence, nullptr);
    }
    // An index past the swapchain's images.
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);
    auto present =
        makeStruct<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
    uint32_t past = 5;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &past;
    std::printf("swapchain: vkQueuePresentKHR %d\n",
                vkQueuePresentKHR(queue, &present));
    vkDestroySwapchainKHR(device, swapchain, nullptr);
    auto destroySurface = reinterpret_cast<PFN_vkDestroySurfaceKHR>(
        vkGetInstanceProcAddr(instance, "vkDestroySurfaceKHR"));
    destroySurface(instance, surface, nullptr);
    vkDestroyDevice(device, nullptr);
    return 0;
  }
  if (which == "image-format") {
    // sRGB texels have no SPIR-V image format: sampled, not stored; BC1 is
    // not supported.
    VkImageCreateInfo imageInfo =
        makeImageInfo(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_USAGE_STORAGE_BIT);
    VkImage image;
    std::printf("image-format: vkCreateImage %d\n",
                vkCreateImage(device, &imageInfo, nullptr, &image));
    // Each result after its message.
    std::fflush(stdout);
    imageInfo.format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
    std::printf("image-format: vkCreateImage %d\n",
                vkCreateImage(device, &imageInfo, nullptr, &image));
    std::fflush(stdout);
    // Eight samples: the runtime draws one or four.
    imageInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
    imageInfo.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    imageInfo.samples = VK_SAMPLE_COUNT_8_BIT;
    std::printf("image-format: vkCreateImage %d\n",
                vkCreateImage(device, &imageInfo, nullptr, &image));
    vkDestroyDevice(device, nullptr);
    return 0;
  }
  if (which == "huge-memory") {
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
    auto allocateInfo = makeStruct<VkMemoryAllocateInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    allocateInfo.allocationSize = memory.memoryHeaps[0].size + 1;
    VkDeviceMemory allocated;
    std::printf("huge-memory: vkAllocateMemory %d\n",
                vkAllocateMemory(device, &allocateInfo, nullptr, &allocated));
    vkDestroyDevice(device, nullptr);
    return 0;
  }
  if (which == "view-swizzle") {
    auto [image, memory] = createBoundImage(device, VK_FORMAT_R32_SFLOAT,
                                            VK_IMAGE_USAGE_SAMPLED_BIT);
    auto viewInfo = makeStruct<VkImageViewCreateInfo>(
        VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    viewInfo.image = image;
    viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = VK_FORMAT_R32_SFLOAT;
    viewInfo.components = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R,
                           VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE};
    viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    std::printf("view-swizzle: vkCreateImageView %d\n",
                vkCreateImageView(device, &viewInfo, nullptr, &view));
    vkDestroyImage(device, image, nullptr);
    vkFreeMemory(device, memory, nullptr);
    vkDestroyDevice(device, nullptr);
    return 0;
  }
  if (which == "query-type") {
    auto queryInfo = makeStruct<VkQueryPoolCreateInfo>(
        VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    // Transform feedback is an extension the device does not offer.
    queryInfo.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
    queryInfo.queryCount = 1;
    VkQueryPool pool;
    std::printf("query-type: vkCreateQueryPool %d\n",
                vkCreateQueryPool(device, &queryInfo, nullptr, &pool));
    vkDestroyDevice(device, nullptr);
    return 0;
  }
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  VkCommandPool pool;
  check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool), "pool");
  auto allocateInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocateInfo.commandPool = pool;
  allocateInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(device, &allocateInfo, &commands), "commands");
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vkBeginCommandBuffer(commands, &begin), "begin");

  // A 16-byte storage buffer, without memory for no-memory.
  auto bufferInfo =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = 16;
  bufferInfo.usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer;
  check(vkCreateBuffer(device, &bufferInfo, nullptr, &buffer), "buffer");

  if (which == "copy-null") {
    VkBufferCopy region = {0, 0, 16};
    vkCmdCopyBuffer(commands, VK_NULL_HANDLE, buffer, 1, &region);
  } else if (which == "destroyed-buffer") {
    VkBuffer source;
    check(vkCreateBuffer(device, &bufferInfo, nullptr, &source), "source");
    VkBufferCopy region = {0, 0, 16};
    vkCmdCopyBuffer(commands, source, buffer, 1, &region);
    vkDestroyBuffer(device, source, nullptr);
  } else if (which == "no-pipeline") {
    vkCmdDispatch(commands, 1, 1, 1);
  } else if (which == "draw-outside-pass") {
    vkCmdDraw(commands, 3, 1, 0, 0);
  } else if (which == "resolve-single") {
    // Two single-sample images with memory: nothing to resolve.
    VkImage images[2];
    for (VkImage &image : images)
      image = createBoundImage(device, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT)
                  .image;
    VkImageResolve region = {};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.extent = {4, 4, 1};
    vkCmdResolveImage(commands, images[0], VK_IMAGE_LAYOUT_GENERAL, images[1],
                      VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  } else if (which == "no-memory" || which == "destroyed-descriptor") {
    VkDescriptorSetLayoutBinding binding = {
        0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
        nullptr};
    auto layoutInfo = makeStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    layoutInfo.bindingCount = 1;
    layoutInfo.pBindings = &binding;
    VkDescriptorSetLayout setLayout;
    check(vkCreateDescriptorSetLayout(device, &layoutInfo, nullptr, &setLayout),
          "set layout");
    auto pipelineLayoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pipelineLayoutInfo.setLayoutCount = 1;
    pipelineLayoutInfo.pSetLayouts = &setLayout;
    VkPipelineLayout pipelineLayout;
    check(vkCreatePipelineLayout(device, &pipelineLayoutInfo, nullptr,
                                 &pipelineLayout),
          "pipeline layout");
    std::vector<uint32_t> words = readWords(argv[2]);
    auto moduleInfo = makeStruct<VkShaderModuleCreateInfo>(
        VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    moduleInfo.codeSize = words.size() * 4;
    moduleInfo.pCode = words.data();
    VkShaderModule module;
    check(vkCreateShaderModule(device, &moduleInfo, nullptr, &module),
          "module");
    auto pipelineInfo = makeStruct<VkComputePipelineCreateInfo>(
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    pipelineInfo.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = module;
    pipelineInfo.stage.pName = "main";
    pipelineInfo.layout = pipelineLayout;
    VkPipeline pipeline;
    check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo,
                                   nullptr, &pipeline),
          "pipeline");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    auto descriptorPoolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    descriptorPoolInfo.maxSets = 1;
    descriptorPoolInfo.poolSizeCount = 1;
    descriptorPoolInfo.pPoolSizes = &size;
    VkDescriptorPool descriptorPool;
    check(vkCreateDescriptorPool(device, &descriptorPoolInfo, nullptr,
                                 &descriptorPool),
          "descriptor pool");
    auto setInfo = makeStruct<VkDescriptorSetAllocateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    setInfo.descriptorPool = descriptorPool;
    setInfo.descriptorSetCount = 1;
    setInfo.pSetLayouts = &setLayout;
    VkDescriptorSet set;
    check(vkAllocateDescriptorSets(device, &setInfo, &set), "set");
    VkDescriptorBufferInfo described = {buffer, 0, VK_WHOLE_SIZE};
    auto write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &described;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    if (which == "destroyed-descriptor")
      vkDestroyBuffer(device, buffer, nullptr);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            pipelineLayout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(commands, 1, 1, 1);
  } else {
    std::fprintf(stderr, "unknown case '%s'\n", which.c_str());
    return 2;
  }
  check(vkEndCommandBuffer(commands), "end");
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  VkResult submitted = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
  VkResult waited = vkQueueWaitIdle(queue);
  std::printf("%s: vkQueueSubmit %d, vkQueueWaitIdle %d\n", which.c_str(),
              submitted, waited);
  // The process lives on: a lost device still destroys cleanly.
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  std::printf("%s: destroyed\n", which.c_str());
  return 0;
}

//===- GraphicsApiCheck.cpp - Vulkan graphics API paths, checked ----------===//
//
// Draws into an 8x8 R8G8B8A8_UNORM image through the graphics API paths an
// application takes, one named case after another, and prints `PASS <case>`
// or `FAIL <case>: <what differed>`. Every case first clears the image to
// blue (vkCmdClearColorImage), then draws with position.vert and color.frag
// (the push constants' colour), and reads the image back. The expected
// texels are worked out by hand: NDC x < 0 is pixel x < 4; a colour
// component c is stored as round(c * 255), 0.25 -> 64, 0.5 -> 128 (127.5,
// ties up; Vulkan allows either neighbour, and both drivers here round up),
// 0.75 -> 191.
//
//   dynamic-rendering    vkCmdBeginRendering with a render area (2,2 4x4)
//                        cleared by its load operation; the left half drawn
//                        with the scissor set to the render area
//   render-pass2         vkCreateRenderPass2, an imageless framebuffer, the
//                        whole screen drawn under a dynamic scissor (left
//                        half)
//   clear-attachments    vkCmdClearAttachments of a rectangle in a render
//                        pass
//   indirect-draws       vkCmdDrawIndexedIndirect (the right half, red) and
//                        vkCmdDrawIndirectCount whose count buffer keeps
//                        one of two draws (the left half, green; the second
//                        would cover the right half too)
//   dynamic-state        the extended dynamic state: cull mode and front
//                        face set so that the one triangle drawn is culled,
//                        then not
//   depth-stencil-clear  vkCmdClearDepthStencilImage of a combined format
//                        (D24_UNORM_S8_UINT, else D32_SFLOAT_S8_UINT) to
//                        depth 0.5 and stencil 7, then of its stencil alone
//                        to 9; each aspect copied out: depth 0.5 (D24:
//                        0.5 * (2^24 - 1) = 8388607.5, either neighbour),
//                        stencil 9
//   depth-test           a D32_SFLOAT depth attachment cleared to 1 by its
//                        load operation: red at depth 0.5, green at 0.75
//                        (fails LESS), green on the left half at 0.25; the
//                        depth aspect copied out (0.25 and 0.5)
//
//   blit                 vkCmdBlitImage, nearest, from a 6x6 region of an
//                        R8G8B8A8_UNORM image (texel (x, y) is 30x, 30y,
//                        0, 255) to the 4x4 region (1,1)-(5,5) of a
//                        B8G8R8A8_UNORM image cleared to blue, mirrored
//                        in both axes (offsets (5,5) to (1,1)): the centre
//                        of destination x maps to source (5 - x - 0.5) *
//                        1.5, so x = 1, 2, 3, 4 reads 5, 3, 2, 0 (5.25,
//                        3.75, 2.25, 0.75), and so does y; the bytes are
//                        blue, green, red, alpha
//
//   secondary-commands   two secondary command buffers executed inside a
//                        render pass (RENDER_PASS_CONTINUE), each binding
//                        its own pipeline, vertex buffer, viewport, scissor
//                        and push constants: the left half green, the
//                        right half red
//
//   multisample-*        the triangle of vertices 12-14 drawn green into
//                        a four-sample image cleared to blue, resolved
//                        into the image by a dynamic rendering's resolve
//                        view (sample mask 0xf), a subpass's resolve
//                        attachment (0x3) or vkCmdResolveImage (0x6); an
//                        occlusion query counts the samples drawn (see
//                        coveredSamples for the coverage worked out)
//   queries              occlusion queries of the left half (32 samples),
//                        the triangle (28) and no draw (0); the
//                        triangle's pipeline statistics: 3 vertices, 1
//                        primitive, 3 vertex shader invocations, 1
//                        clipping invocation
//   logic-ops            XOR on the left half, AND_INVERTED on the right
//   input-attachments    two subpasses: the triangle drawn green on red,
//                        then read back as an input attachment and
//                        inverted into the image (invert-input.frag)
//
//   GraphicsApiCheck SPV_DIR
//
// SPV_DIR holds Inputs/graphics/{position.vert,color.frag,invert-input.frag}
// compiled to position.spv, color.spv and invert-input.spv; the push constants
// are the colour, then the depth at byte 16. The exit code is 0 if no case
// failed, 1 if one did and 2 if the device could not be set up.
//
//===----------------------------------------------------------------------===//
#include "VulkanTestSupport.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace vktest;

constexpr uint32_t kSize = 8;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
using Rgba = std::array<uint8_t, 4>;
constexpr Rgba kBlue = {0, 0, 255, 255}, kGreen = {0, 255, 0, 255},
               kRed = {255, 0, 0, 255};

struct Color {
  float rgba[4];
};
constexpr Color kGreenPush = {{0, 1, 0, 1}}, kRedPush = {{1, 0, 0, 1}};
constexpr VkShaderStageFlags kPushStages =
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

/// The push constants: \p color, at \p depth.
void push(VkCommandBuffer commands, VkPipelineLayout layout, const Color &color,
          float depth = 0) {
  struct {
    Color color;
    float depth;
  } values = {color, depth};
  vkCmdPushConstants(commands, layout, kPushStages, 0, sizeof(values), &values);
}

/// Vertex positions: triangle strips of the whole screen (0-3), its left
/// half (4-7) and its right half (8-11); then a counter-clockwise triangle
/// in framebuffer coordinates (12-14).
constexpr float kVertices[] = {-1, -1, 1,  -1, -1, 1, 1, 1, //
                               -1, -1, 0,  -1, -1, 1, 0, 1, //
                               0,  -1, 1,  -1, 0,  1, 1, 1, //
                               -1, -1, -1, 1,  1,  -1};

/// The multisample and blend state of makePipeline's pipelines.
struct Fragments {
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkSampleMask sampleMask = ~0u;
  bool logicOpEnable = false;
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;
  /// Another fragment shader and its layout, for a later subpass.
  VkShaderModule fragmentShader = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  uint32_t subpass = 0;
};

class Context {
public:
  void setUp(const std::string &spvDir);

  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  VkCommandPool Pool = VK_NULL_HANDLE;
  VkImage Image = VK_NULL_HANDLE;
  VkImageView View = VK_NULL_HANDLE;
  /// The vertices, then the indices 4-11 (u16), then indirect commands and
  /// a count; and the read-back image.
  VkBuffer Vertices = VK_NULL_HANDLE, Readback = VK_NULL_HANDLE;
  uint8_t *VertexData = nullptr, *ReadbackData = nullptr;
  VkShaderModule VertexShader = VK_NULL_HANDLE, FragmentShader = VK_NULL_HANDLE,
                 InvertInputShader = VK_NULL_HANDLE;
  VkPipelineLayout Layout = VK_NULL_HANDLE;
  /// Render passes with each load operation, one subpass writing the image.
  VkRenderPass LoadPass = VK_NULL_HANDLE;

  /// A pipeline drawing triangle strips (or lists) of kVertices with the
  /// viewport, scissor and \p dynamic states dynamic: for \p pass, or for
  /// dynamic rendering when it is null.
  VkPipeline makePipeline(VkRenderPass pass, VkPrimitiveTopology topology,
                          std::vector<VkDynamicState> dynamic = {},
                          VkFormat depthFormat = VK_FORMAT_UNDEFINED,
                          const Fragments &fragments = Fragments());
  /// Clears the image to blue, records \p body, reads the image back.
  void run(const std::function<void(VkCommandBuffer)> &body);
  Rgba at(uint32_t x, uint32_t y) const {
    Rgba texel;
    std::memcpy(texel.data(), ReadbackData + (y * kSize + x) * 4, 4);
    return texel;
  }
  /// The viewport and scissor of the whole image.
  void setViewportAndScissor(VkCommandBuffer commands,
                             VkRect2D scissor = {{0, 0}, {kSize, kSize}});

  VkDeviceMemory allocate(VkMemoryRequirements needs, VkMemoryPropertyFlags);
  /// A kSize x kSize image of \p format with memory bound (in \p memory),
  /// and a view of \p aspect if \p view is given.
  VkImage makeImage(VkFormat format, VkImageUsageFlags usage,
                    VkDeviceMemory *memory, VkImageAspectFlags aspect = 0,
                    VkImageView *view = nullptr,
                    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
  VkPhysicalDevice Physical = VK_NULL_HANDLE;
  VkBuffer makeBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                      uint8_t **mapped);

private:
  VkPhysicalDeviceMemoryProperties Memory = {};
  uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags wanted) const;
  VkShaderModule loadShader(const std::string &path);
};

uint32_t Context::memoryType(uint32_t bits,
                             VkMemoryPropertyFlags wanted) const {
  for (uint32_t i = 0; i < Memory.memoryTypeCount; ++i)
    if ((bits & (1u << i)) &&
        (Memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  check(VK_ERROR_FEATURE_NOT_PRESENT, "finding a memory type");
  return 0;
}

VkDeviceMemory Context::allocate(VkMemoryRequirements needs,
                                 VkMemoryPropertyFlags wanted) {
  auto info =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  info.allocationSize = needs.size;
  info.memoryTypeIndex = memoryType(needs.memoryTypeBits, wanted);
  VkDeviceMemory memory;
  check(vkAllocateMemory(Device, &info, nullptr, &memory), "vkAllocateMemory");
  return memory;
}

VkImage Context::makeImage(VkFormat format, VkImageUsageFlags usage,
                           VkDeviceMemory *memory, VkImageAspectFlags aspect,
                           VkImageView *view, VkSampleCountFlagBits samples) {
  auto imageInfo =
      makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  imageInfo.imageType = VK_IMAGE_TYPE_2D;
  imageInfo.format = format;
  imageInfo.extent = {kSize, kSize, 1};
  imageInfo.mipLevels = 1;
  imageInfo.arrayLayers = 1;
  imageInfo.samples = samples;
  imageInfo.tiling = VK_IMAGE_TILING_OPTIMAL;
  imageInfo.usage = usage;
  VkImage image;
  check(vkCreateImage(Device, &imageInfo, nullptr, &image), "vkCreateImage");
  VkMemoryRequirements needs;
  vkGetImageMemoryRequirements(Device, image, &needs);
  *memory = allocate(needs, 0);
  check(vkBindImageMemory(Device, image, *memory, 0), "vkBindImageMemory");
  if (!view)
    return image;
  auto viewInfo = makeStruct<VkImageViewCreateInfo>(
      VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  viewInfo.image = image;
  viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
  viewInfo.format = format;
  viewInfo.subresourceRange = {aspect, 0, 1, 0, 1};
  check(vkCreateImageView(Device, &viewInfo, nullptr, view),
        "vkCreateImageView");
  return image;
}

VkShaderModule Context::loadShader(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes.size() % 4) {
    std::fprintf(stderr, "setup: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  auto info = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = bytes.size();
  info.pCode = reinterpret_cast<const uint32_t *>(bytes.data());
  VkShaderModule module;
  check(vkCreateShaderModule(Device, &info, nullptr, &module),
        "vkCreateShaderModule");
  return module;
}

VkBuffer Context::makeBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                             uint8_t **mapped) {
  auto info =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = usage;
  VkBuffer buffer;
  check(vkCreateBuffer(Device, &info, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(Device, buffer, &needs);
  VkDeviceMemory memory =
      allocate(needs, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  check(vkBindBufferMemory(Device, buffer, memory, 0), "vkBindBufferMemory");
  void *data;
  check(vkMapMemory(Device, memory, 0, VK_WHOLE_SIZE, 0, &data), "vkMapMemory");
  *mapped = static_cast<uint8_t *>(data);
  return buffer;
}

void Context::setUp(const std::string &spvDir) {
  auto application =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "GraphicsApiCheck";
  application.apiVersion = VK_API_VERSION_1_3;
  auto instanceInfo =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &application;
  VkInstance instance;
  check(vkCreateInstance(&instanceInfo, nullptr, &instance),
        "vkCreateInstance");
  uint32_t count = 1;
  VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &Physical);
  if (enumerated < 0 || count == 0)
    check(VK_ERROR_INITIALIZATION_FAILED, "vkEnumeratePhysicalDevices");
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(Physical, &properties);
  std::printf("device: %s\n", properties.deviceName);
  vkGetPhysicalDeviceMemoryProperties(Physical, &Memory);

  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> familyProperties(families);
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &families,
                                           familyProperties.data());
  uint32_t family = 0;
  while (family < families &&
         !(familyProperties[family].queueFlags & VK_QUEUE_GRAPHICS_BIT))
    ++family;
  if (family == families)
    check(VK_ERROR_FEATURE_NOT_PRESENT, "finding a graphics queue");
  float priority = 1;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto vulkan12 = makeStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  vulkan12.drawIndirectCount = VK_TRUE;
  vulkan12.imagelessFramebuffer = VK_TRUE;
  vulkan12.hostQueryReset = VK_TRUE;
  auto vulkan13 = makeStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  vulkan13.dynamicRendering = VK_TRUE;
  vulkan12.pNext = &vulkan13;
  auto features = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features.features.logicOp = VK_TRUE;
  features.features.occlusionQueryPrecise = VK_TRUE;
  features.features.pipelineStatisticsQuery = VK_TRUE;
  features.pNext = &vulkan12;
  auto deviceInfo =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.pNext = &features;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  check(vkCreateDevice(Physical, &deviceInfo, nullptr, &Device),
        "vkCreateDevice");
  vkGetDeviceQueue(Device, family, 0, &Queue);
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = family;
  check(vkCreateCommandPool(Device, &poolInfo, nullptr, &Pool),
        "vkCreateCommandPool");

  VkDeviceMemory imageMemory;
  Image = makeImage(kFormat,
                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                        VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                        VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                    &imageMemory, VK_IMAGE_ASPECT_COLOR_BIT, &View);

  Vertices = makeBuffer(4096,
                        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                            VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                            VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                        &VertexData);
  std::memcpy(VertexData, kVertices, sizeof(kVertices));
  Readback = makeBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        &ReadbackData);

  VertexShader = loadShader(spvDir + "/position.spv");
  FragmentShader = loadShader(spvDir + "/color.spv");
  InvertInputShader = loadShader(spvDir + "/invert-input.spv");
  VkPushConstantRange push = {kPushStages, 0, 20};
  auto layoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(Device, &layoutInfo, nullptr, &Layout),
        "vkCreatePipelineLayout");

  VkAttachmentDescription attachment = {};
  attachment.format = kFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference reference = {0,
                                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass = {};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  auto passInfo = makeStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  passInfo.attachmentCount = 1;
  passInfo.pAttachments = &attachment;
  passInfo.subpassCount = 1;
  passInfo.pSubpasses = &subpass;
  check(vkCreateRenderPass(Device, &passInfo, nullptr, &LoadPass),
        "vkCreateRenderPass");
}

VkPipeline Context::makePipeline(VkRenderPass pass,
                                 VkPrimitiveTopology topology,
                                 std::vector<VkDynamicState> dynamic,
                                 VkFormat depthFormat,
                                 const Fragments &fragments) {
  VkPipelineShaderStageCreateInfo stages[2] = {
      makeStruct<VkPipelineShaderStageCreateInfo>(
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO),
      makeStruct<VkPipelineShaderStageCreateInfo>(
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = VertexShader;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module =
      fragments.fragmentShader ? fragments.fragmentShader : FragmentShader;
  stages[1].pName = "main";
  VkVertexInputBindingDescription binding = {0, 8, VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attribute = {0, 0, VK_FORMAT_R32G32_SFLOAT,
                                                 0};
  auto input = makeStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  input.vertexBindingDescriptionCount = 1;
  input.pVertexBindingDescriptions = &binding;
  input.vertexAttributeDescriptionCount = 1;
  input.pVertexAttributeDescriptions = &attribute;
  auto assembly = makeStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = topology;
  auto viewport = makeStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  auto raster = makeStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1;
  auto multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples = fragments.samples;
  multisample.pSampleMask = &fragments.sampleMask;
  VkPipelineColorBlendAttachmentState blendAttachment = {};
  blendAttachment.colorWriteMask = 0xf;
  auto blend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  blend.logicOpEnable = fragments.logicOpEnable;
  blend.logicOp = fragments.logicOp;
  blend.attachmentCount = 1;
  blend.pAttachments = &blendAttachment;
  dynamic.push_back(VK_DYNAMIC_STATE_VIEWPORT);
  dynamic.push_back(VK_DYNAMIC_STATE_SCISSOR);
  auto dynamicInfo = makeStruct<VkPipelineDynamicStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO);
  dynamicInfo.dynamicStateCount = uint32_t(dynamic.size());
  dynamicInfo.pDynamicStates = dynamic.data();
  auto rendering = makeStruct<VkPipelineRenderingCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &kFormat;
  rendering.depthAttachmentFormat = depthFormat;
  auto depth = makeStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  depth.depthTestEnable = VK_TRUE;
  depth.depthWriteEnable = VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  depth.maxDepthBounds = 1;
  auto info = makeStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  info.pNext = pass ? nullptr : &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend;
  if (depthFormat != VK_FORMAT_UNDEFINED)
    info.pDepthStencilState = &depth;
  info.pDynamicState = &dynamicInfo;
  info.layout = fragments.layout ? fragments.layout : Layout;
  info.renderPass = pass;
  info.subpass = fragments.subpass;
  VkPipeline pipeline;
  check(vkCreateGraphicsPipelines(Device, VK_NULL_HANDLE, 1, &info, nullptr,
                                  &pipeline),
        "vkCreateGraphicsPipelines");
  return pipeline;
}

void Context::setViewportAndScissor(VkCommandBuffer commands,
                                    VkRect2D scissor) {
  VkViewport viewport = {0, 0, float(kSize), float(kSize), 0, 1};
  vkCmdSetViewport(commands, 0, 1, &viewport);
  vkCmdSetScissor(commands, 0, 1, &scissor);
}

void Context::run(const std::function<void(VkCommandBuffer)> &body) {
  auto allocateInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocateInfo.commandPool = Pool;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(Device, &allocateInfo, &commands),
        "vkAllocateCommandBuffers");
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  transition(commands, Image, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
             VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
             VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkClearColorValue blue = {{0, 0, 1, 1}};
  VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(commands, Image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       &blue, 1, &range);
  transition(commands, Image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
             VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
             VK_ACCESS_TRANSFER_WRITE_BIT,
             VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
             VK_PIPELINE_STAGE_TRANSFER_BIT,
             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(commands, 0, 1, &Vertices, &offset);
  body(commands);
  transition(commands, Image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
             VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkBufferImageCopy copy = {};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(commands, Image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         Readback, 1, &copy);
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  check(vkQueueSubmit(Queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  check(vkQueueWaitIdle(Queue), "vkQueueWaitIdle");
  vkFreeCommandBuffers(Device, Pool, 1, &commands);
}

std::string name(const Rgba &texel) {
  return std::to_string(texel[0]) + "," + std::to_string(texel[1]) + "," +
         std::to_string(texel[2]) + "," + std::to_string(texel[3]);
}

/// PASS, or FAIL with the first texel that differs from \p expected.
bool verdict(const Context &ctx, const char *name,
             const std::function<Rgba(uint32_t, uint32_t)> &expected) {
  unsigned wrong = 0;
  std::string first;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      if (ctx.at(x, y) != expected(x, y) && !wrong++)
        first = "texel " + std::to_string(x) + "," + std::to_string(y) +
                ": expected " + ::name(expected(x, y)) + ", got " +
                ::name(ctx.at(x, y));
  if (wrong)
    std::printf("FAIL %s: %s (%u of 64 differ)\n", name, first.c_str(), wrong);
  else
    std::printf("PASS %s\n", name);
  std::fflush(stdout);
  return !wrong;
}

bool dynamicRendering(Context &ctx) {
  VkPipeline pipeline =
      ctx.makePipeline(VK_NULL_HANDLE, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  VkRect2D area = {{2, 2}, {4, 4}};
  ctx.run([&](VkCommandBuffer commands) {
    auto color = makeStruct<VkRenderingAttachmentInfo>(
        VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    color.imageView = ctx.View;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.25f, 0.5f, 0.75f, 1}};
    auto info = makeStruct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
    info.renderArea = area;
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    vkCmdBeginRendering(commands, &info);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands, area);
    push(commands, ctx.Layout, kGreenPush);
    vkCmdDraw(commands, 4, 1, 4, 0);
    vkCmdEndRendering(commands);
  });
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  return verdict(ctx, "dynamic-rendering", [](uint32_t x, uint32_t y) {
    bool inArea = x >= 2 && x < 6 && y >= 2 && y < 6;
    return !inArea ? kBlue : x < 4 ? kGreen : Rgba{64, 128, 191, 255};
  });
}

bool renderPass2(Context &ctx) {
  auto attachment = makeStruct<VkAttachmentDescription2>(
      VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2);
  attachment.format = kFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  auto reference = makeStruct<VkAttachmentReference2>(
      VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2);
  reference.attachment = 0;
  reference.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  reference.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
  auto subpass = makeStruct<VkSubpassDescription2>(
      VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2);
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  auto passInfo = makeStruct<VkRenderPassCreateInfo2>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2);
  passInfo.attachmentCount = 1;
  passInfo.pAttachments = &attachment;
  passInfo.subpassCount = 1;
  passInfo.pSubpasses = &subpass;
  VkRenderPass pass;
  check(vkCreateRenderPass2(ctx.Device, &passInfo, nullptr, &pass),
        "vkCreateRenderPass2");
  // Imageless: the framebuffer knows the view's description, the begin
  // info names the view.
  auto image = makeStruct<VkFramebufferAttachmentImageInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO);
  image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  image.width = kSize;
  image.height = kSize;
  image.layerCount = 1;
  image.viewFormatCount = 1;
  image.pViewFormats = &kFormat;
  auto attachments = makeStruct<VkFramebufferAttachmentsCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO);
  attachments.attachmentImageInfoCount = 1;
  attachments.pAttachmentImageInfos = &image;
  auto framebufferInfo = makeStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  framebufferInfo.pNext = &attachments;
  framebufferInfo.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
  framebufferInfo.renderPass = pass;
  framebufferInfo.attachmentCount = 1;
  framebufferInfo.width = kSize;
  framebufferInfo.height = kSize;
  framebufferInfo.layers = 1;
  VkFramebuffer framebuffer;
  check(
      vkCreateFramebuffer(ctx.Device, &framebufferInfo, nullptr, &framebuffer),
      "vkCreateFramebuffer");
  VkPipeline pipeline =
      ctx.makePipeline(pass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  ctx.run([&](VkCommandBuffer commands) {
    auto views = makeStruct<VkRenderPassAttachmentBeginInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO);
    views.attachmentCount = 1;
    views.pAttachments = &ctx.View;
    auto begin = makeStruct<VkRenderPassBeginInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
    begin.pNext = &views;
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    auto subpassBegin =
        makeStruct<VkSubpassBeginInfo>(VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO);
    subpassBegin.contents = VK_SUBPASS_CONTENTS_INLINE;
    vkCmdBeginRenderPass2(commands, &begin, &subpassBegin);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands, {{0, 0}, {kSize / 2, kSize}});
    push(commands, ctx.Layout, kGreenPush);
    vkCmdDraw(commands, 4, 1, 0, 0);
    auto subpassEnd =
        makeStruct<VkSubpassEndInfo>(VK_STRUCTURE_TYPE_SUBPASS_END_INFO);
    vkCmdEndRenderPass2(commands, &subpassEnd);
  });
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  vkDestroyRenderPass(ctx.Device, pass, nullptr);
  return verdict(ctx, "render-pass2",
                 [](uint32_t x, uint32_t) { return x < 4 ? kGreen : kBlue; });
}

/// A kSize x kSize framebuffer of \p pass over \p views.
VkFramebuffer makeFramebuffer(Context &ctx, VkRenderPass pass,
                              std::vector<VkImageView> views) {
  auto framebufferInfo = makeStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  framebufferInfo.renderPass = pass;
  framebufferInfo.attachmentCount = uint32_t(views.size());
  framebufferInfo.pAttachments = views.data();
  framebufferInfo.width = kSize;
  framebufferInfo.height = kSize;
  framebufferInfo.layers = 1;
  VkFramebuffer framebuffer;
  check(
      vkCreateFramebuffer(ctx.Device, &framebufferInfo, nullptr, &framebuffer),
      "vkCreateFramebuffer");
  return framebuffer;
}

/// Begins LoadPass over the whole image, its subpass's commands \p contents.
VkFramebuffer
beginLoadPass(Context &ctx, VkCommandBuffer commands,
              VkSubpassContents contents = VK_SUBPASS_CONTENTS_INLINE) {
  VkFramebuffer framebuffer = makeFramebuffer(ctx, ctx.LoadPass, {ctx.View});
  auto begin = makeStruct<VkRenderPassBeginInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  begin.renderPass = ctx.LoadPass;
  begin.framebuffer = framebuffer;
  begin.renderArea = {{0, 0}, {kSize, kSize}};
  vkCmdBeginRenderPass(commands, &begin, contents);
  return framebuffer;
}

/// PASS, or FAIL with the first texel more than \p tolerance from
/// \p expected in a component.
bool verdictWithin(const Context &ctx, const char *name,
                   const std::function<Rgba(uint32_t, uint32_t)> &expected,
                   int tolerance) {
  unsigned wrong = 0;
  std::string first;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      Rgba got = ctx.at(x, y), want = expected(x, y);
      bool close = true;
      for (int c = 0; c < 4; ++c)
        close &= std::abs(int(got[c]) - int(want[c])) <= tolerance;
      if (!close && !wrong++)
        first = "texel " + std::to_string(x) + "," + std::to_string(y) +
                ": expected " + ::name(want) + ", got " + ::name(got);
    }
  if (wrong)
    std::printf("FAIL %s: %s (%u of 64 differ by more than %d)\n", name,
                first.c_str(), wrong, tolerance);
  else
    std::printf("PASS %s\n", name);
  std::fflush(stdout);
  return !wrong;
}

/// A query pool of \p count queries of \p type, reset.
VkQueryPool makeQueries(Context &ctx, VkQueryType type, uint32_t count,
                        VkQueryPipelineStatisticFlags statistics = 0) {
  auto info = makeStruct<VkQueryPoolCreateInfo>(
      VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = statistics;
  VkQueryPool pool;
  check(vkCreateQueryPool(ctx.Device, &info, nullptr, &pool),
        "vkCreateQueryPool");
  vkResetQueryPool(ctx.Device, pool, 0, count);
  return pool;
}

/// Queries [0, count) of \p pool, waited for, \p values 64-bit values each.
std::vector<uint64_t> getQueries(Context &ctx, VkQueryPool pool, uint32_t count,
                                 uint32_t values = 1) {
  std::vector<uint64_t> results(count * values);
  check(vkGetQueryPoolResults(
            ctx.Device, pool, 0, count, results.size() * sizeof(uint64_t),
            results.data(), values * sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  return results;
}

/// PASS, or FAIL naming the first of \p got that is not \p expected.
bool verdictCounts(const char *name, const std::vector<uint64_t> &got,
                   const std::vector<uint64_t> &expected,
                   const char *const *what) {
  for (size_t i = 0; i < expected.size(); ++i)
    if (got[i] != expected[i]) {
      std::printf("FAIL %s: %s is %llu, expected %llu\n", name, what[i],
                  (unsigned long long)got[i], (unsigned long long)expected[i]);
      std::fflush(stdout);
      return false;
    }
  std::printf("PASS %s\n", name);
  std::fflush(stdout);
  return true;
}

//   The triangle of vertices 12-14 covers the pixels above the diagonal
//   x + y = 8 of framebuffer coordinates. One sample at the pixel centre:
//   the pixels with x + y <= 6, 28 of them (the diagonal's centres lie on
//   the triangle's bottom-right edge, which the top-left rule leaves out).
//   Four samples at the standard locations (0.375, 0.125), (0.875, 0.375),
//   (0.125, 0.625), (0.625, 0.875): every sample of those pixels, and on
//   the pixels with x + y = 7 the samples with sx + sy < 1, 0 and 2.

/// How many of the samples in \p mask of pixel (x, y) the triangle covers.
unsigned coveredSamples(uint32_t x, uint32_t y, uint32_t mask) {
  uint32_t covered = x + y <= 6 ? 0xf : x + y == 7 ? 0x5 : 0;
  return unsigned(__builtin_popcount(covered & mask));
}

/// Green in \p covered of 4 samples and the blue clear colour in the
/// rest, averaged: round(255 c / 4), either neighbour of a tie.
Rgba resolvedGreen(unsigned covered) {
  uint8_t green = uint8_t((255 * covered + 2) / 4);
  return {0, green, uint8_t(255 - green), 255};
}

enum class Resolve { DynamicRendering, RenderPass, Command };

/// The triangle drawn green into a four-sample image cleared to blue with
/// sample mask \p mask, resolved into the image (by the rendering's
/// resolve view, the subpass's resolve attachment or vkCmdResolveImage),
/// an occlusion query counting its samples.
bool multisample(Context &ctx, const char *name, Resolve how, uint32_t mask) {
  VkDeviceMemory memory;
  VkImageView view;
  VkImage image = ctx.makeImage(
      kFormat,
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
      &memory, VK_IMAGE_ASPECT_COLOR_BIT, &view, VK_SAMPLE_COUNT_4_BIT);
  VkRenderPass pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  if (how == Resolve::RenderPass) {
    VkAttachmentDescription attachments[2] = {};
    for (VkAttachmentDescription &attachment : attachments) {
      attachment.format = kFormat;
      attachment.samples = VK_SAMPLE_COUNT_1_BIT;
      attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
    attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference resolve = {1,
                                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color;
    subpass.pResolveAttachments = &resolve;
    auto passInfo = makeStruct<VkRenderPassCreateInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
    passInfo.attachmentCount = 2;
    passInfo.pAttachments = attachments;
    passInfo.subpassCount = 1;
    passInfo.pSubpasses = &subpass;
    check(vkCreateRenderPass(ctx.Device, &passInfo, nullptr, &pass),
          "vkCreateRenderPass");
    framebuffer = makeFramebuffer(ctx, pass, {view, ctx.View});
  }
  Fragments fragments;
  fragments.samples = VK_SAMPLE_COUNT_4_BIT;
  fragments.sampleMask = mask;
  VkPipeline pipeline =
      ctx.makePipeline(pass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {},
                       VK_FORMAT_UNDEFINED, fragments);
  VkQueryPool queries = makeQueries(ctx, VK_QUERY_TYPE_OCCLUSION, 1);
  ctx.run([&](VkCommandBuffer commands) {
    VkClearValue blue = {};
    blue.color = {{0, 0, 1, 1}};
    if (how == Resolve::RenderPass) {
      auto begin = makeStruct<VkRenderPassBeginInfo>(
          VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
      begin.renderPass = pass;
      begin.framebuffer = framebuffer;
      begin.renderArea = {{0, 0}, {kSize, kSize}};
      begin.clearValueCount = 1;
      begin.pClearValues = &blue;
      vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
    } else {
      transition(commands, image, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
      auto color = makeStruct<VkRenderingAttachmentInfo>(
          VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
      color.imageView = view;
      color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      color.clearValue = blue;
      if (how == Resolve::DynamicRendering) {
        color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        color.resolveImageView = ctx.View;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      }
      auto info = makeStruct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
      info.renderArea = {{0, 0}, {kSize, kSize}};
      info.layerCount = 1;
      info.colorAttachmentCount = 1;
      info.pColorAttachments = &color;
      vkCmdBeginRendering(commands, &info);
    }
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands);
    push(commands, ctx.Layout, kGreenPush);
    vkCmdBeginQuery(commands, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdDraw(commands, 3, 1, 12, 0);
    vkCmdEndQuery(commands, queries, 0);
    if (how == Resolve::RenderPass) {
      vkCmdEndRenderPass(commands);
      return;
    }
    vkCmdEndRendering(commands);
    if (how != Resolve::Command)
      return;
    transition(commands, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
               VK_ACCESS_TRANSFER_READ_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT);
    transition(commands, ctx.Image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
               VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkImageResolve region = {};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.extent = {kSize, kSize, 1};
    vkCmdResolveImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      ctx.Image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                      &region);
    transition(
        commands, ctx.Image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  });
  std::vector<uint64_t> passed = getQueries(ctx, queries, 1);
  vkDestroyQueryPool(ctx.Device, queries, nullptr);
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  if (framebuffer)
    vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  if (pass)
    vkDestroyRenderPass(ctx.Device, pass, nullptr);
  vkDestroyImageView(ctx.Device, view, nullptr);
  vkDestroyImage(ctx.Device, image, nullptr);
  vkFreeMemory(ctx.Device, memory, nullptr);
  uint64_t samples = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      samples += coveredSamples(x, y, mask);
  static const char *const kWhat[] = {"the occlusion query's sample count"};
  // Ties (2 of 4 samples: 127.5) may round either way.
  bool colors = verdictWithin(
      ctx, name,
      [&](uint32_t x, uint32_t y) {
        return resolvedGreen(coveredSamples(x, y, mask));
      },
      1);
  return verdictCounts((std::string(name) + "-query").c_str(), passed,
                       {samples}, kWhat) &&
         colors;
}

bool multisampleDynamicRendering(Context &ctx) {
  return multisample(ctx, "multisample-dynamic-rendering",
                     Resolve::DynamicRendering, 0xf);
}
bool multisampleRenderPass(Context &ctx) {
  return multisample(ctx, "multisample-render-pass", Resolve::RenderPass, 0x3);
}
bool multisampleResolveImage(Context &ctx) {
  return multisample(ctx, "multisample-resolve-image", Resolve::Command, 0x6);
}

/// Occlusion queries of one sample: the left half (32 pixels), the
/// triangle (28), nothing; and the triangle's pipeline statistics.
bool queries(Context &ctx) {
  VkPipeline strips =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  VkPipeline triangles =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  VkQueryPool occlusion = makeQueries(ctx, VK_QUERY_TYPE_OCCLUSION, 3);
  constexpr VkQueryPipelineStatisticFlags kStatistics =
      VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
      VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
      VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
      VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT;
  VkQueryPool statistics =
      makeQueries(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, kStatistics);
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands);
    ctx.setViewportAndScissor(commands);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, strips);
    push(commands, ctx.Layout, kRedPush);
    vkCmdBeginQuery(commands, occlusion, 0, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdDraw(commands, 4, 1, 4, 0);
    vkCmdEndQuery(commands, occlusion, 0);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, triangles);
    push(commands, ctx.Layout, kGreenPush);
    vkCmdBeginQuery(commands, occlusion, 1, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdBeginQuery(commands, statistics, 0, 0);
    vkCmdDraw(commands, 3, 1, 12, 0);
    vkCmdEndQuery(commands, statistics, 0);
    vkCmdEndQuery(commands, occlusion, 1);
    vkCmdBeginQuery(commands, occlusion, 2, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdEndQuery(commands, occlusion, 2);
    vkCmdEndRenderPass(commands);
  });
  std::vector<uint64_t> samples = getQueries(ctx, occlusion, 3);
  std::vector<uint64_t> counted = getQueries(ctx, statistics, 1, 4);
  vkDestroyQueryPool(ctx.Device, occlusion, nullptr);
  vkDestroyQueryPool(ctx.Device, statistics, nullptr);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  vkDestroyPipeline(ctx.Device, strips, nullptr);
  vkDestroyPipeline(ctx.Device, triangles, nullptr);
  static const char *const kSamples[] = {"the left half's samples",
                                         "the triangle's samples",
                                         "an empty query's samples"};
  static const char *const kCounted[] = {
      "input assembly vertices", "input assembly primitives",
      "vertex shader invocations", "clipping invocations"};
  bool colors = verdict(ctx, "queries", [](uint32_t x, uint32_t y) {
    return x + y <= 6 ? kGreen : x < 4 ? kRed : kBlue;
  });
  bool occluded =
      verdictCounts("occlusion-queries", samples, {32, 28, 0}, kSamples);
  return verdictCounts("pipeline-statistics", counted, {3, 1, 3, 1},
                       kCounted) &&
         occluded && colors;
}

/// Logic operations on the blue image (0, 0, 255, 255): the left half XOR
/// (255, 128, 0, 255) gives (255, 128, 255, 0); the right half
/// AND_INVERTED (~source & destination) with (0, 0, 255, 0) gives
/// (0, 0, 0, 255).
bool logicOps(Context &ctx) {
  Fragments fragments;
  fragments.logicOpEnable = true;
  fragments.logicOp = VK_LOGIC_OP_XOR;
  VkPipeline exclusive =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, {},
                       VK_FORMAT_UNDEFINED, fragments);
  fragments.logicOp = VK_LOGIC_OP_AND_INVERTED;
  VkPipeline andInverted =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, {},
                       VK_FORMAT_UNDEFINED, fragments);
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands);
    ctx.setViewportAndScissor(commands);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, exclusive);
    push(commands, ctx.Layout, {{1, 128 / 255.0f, 0, 1}});
    vkCmdDraw(commands, 4, 1, 4, 0);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, andInverted);
    push(commands, ctx.Layout, {{0, 0, 1, 0}});
    vkCmdDraw(commands, 4, 1, 8, 0);
    vkCmdEndRenderPass(commands);
  });
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  vkDestroyPipeline(ctx.Device, exclusive, nullptr);
  vkDestroyPipeline(ctx.Device, andInverted, nullptr);
  return verdict(ctx, "logic-ops", [](uint32_t x, uint32_t) {
    return x < 4 ? Rgba{255, 128, 255, 0} : Rgba{0, 0, 0, 255};
  });
}

/// Two subpasses: the first clears a second image to red and draws the
/// triangle green into it; the second reads it as an input attachment
/// and writes one minus its colour to the image: magenta (255, 0, 255)
/// where the triangle is, cyan (0, 255, 255) elsewhere.
bool inputAttachments(Context &ctx) {
  VkDeviceMemory memory;
  VkImageView view;
  VkImage image = ctx.makeImage(kFormat,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                    VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
                                &memory, VK_IMAGE_ASPECT_COLOR_BIT, &view);
  VkAttachmentDescription attachments[2] = {};
  for (VkAttachmentDescription &attachment : attachments) {
    attachment.format = kFormat;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachments[1].initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference drawn = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference read = {0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkAttachmentReference written = {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = 1;
  subpasses[0].pColorAttachments = &drawn;
  subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &read;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &written;
  VkSubpassDependency dependency = {};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = 1;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
  dependency.dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT;
  auto passInfo = makeStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  passInfo.attachmentCount = 2;
  passInfo.pAttachments = attachments;
  passInfo.subpassCount = 2;
  passInfo.pSubpasses = subpasses;
  passInfo.dependencyCount = 1;
  passInfo.pDependencies = &dependency;
  VkRenderPass pass;
  check(vkCreateRenderPass(ctx.Device, &passInfo, nullptr, &pass),
        "vkCreateRenderPass");
  VkFramebuffer framebuffer = makeFramebuffer(ctx, pass, {view, ctx.View});

  VkDescriptorSetLayoutBinding binding = {
      0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
      nullptr};
  auto setLayoutInfo = makeStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setLayoutInfo.bindingCount = 1;
  setLayoutInfo.pBindings = &binding;
  VkDescriptorSetLayout setLayout;
  check(vkCreateDescriptorSetLayout(ctx.Device, &setLayoutInfo, nullptr,
                                    &setLayout),
        "vkCreateDescriptorSetLayout");
  VkPushConstantRange range = {kPushStages, 0, 20};
  auto layoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  check(vkCreatePipelineLayout(ctx.Device, &layoutInfo, nullptr, &layout),
        "vkCreatePipelineLayout");
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
  auto poolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool descriptorPool;
  check(vkCreateDescriptorPool(ctx.Device, &poolInfo, nullptr, &descriptorPool),
        "vkCreateDescriptorPool");
  auto allocateInfo = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocateInfo.descriptorPool = descriptorPool;
  allocateInfo.descriptorSetCount = 1;
  allocateInfo.pSetLayouts = &setLayout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(ctx.Device, &allocateInfo, &set),
        "vkAllocateDescriptorSets");
  VkDescriptorImageInfo imageInfo = {VK_NULL_HANDLE, view,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  auto write =
      makeStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
  write.pImageInfo = &imageInfo;
  vkUpdateDescriptorSets(ctx.Device, 1, &write, 0, nullptr);

  VkPipeline triangle =
      ctx.makePipeline(pass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  Fragments second;
  second.fragmentShader = ctx.InvertInputShader;
  second.layout = layout;
  second.subpass = 1;
  VkPipeline invert =
      ctx.makePipeline(pass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, {},
                       VK_FORMAT_UNDEFINED, second);
  ctx.run([&](VkCommandBuffer commands) {
    VkClearValue red = {};
    red.color = {{1, 0, 0, 1}};
    auto begin = makeStruct<VkRenderPassBeginInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    begin.clearValueCount = 1;
    begin.pClearValues = &red;
    vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
    ctx.setViewportAndScissor(commands);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, triangle);
    push(commands, ctx.Layout, kGreenPush);
    vkCmdDraw(commands, 3, 1, 12, 0);
    vkCmdNextSubpass(commands, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, invert);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout,
                            0, 1, &set, 0, nullptr);
    vkCmdDraw(commands, 4, 1, 0, 0);
    vkCmdEndRenderPass(commands);
  });
  vkDestroyPipeline(ctx.Device, triangle, nullptr);
  vkDestroyPipeline(ctx.Device, invert, nullptr);
  vkDestroyDescriptorPool(ctx.Device, descriptorPool, nullptr);
  vkDestroyPipelineLayout(ctx.Device, layout, nullptr);
  vkDestroyDescriptorSetLayout(ctx.Device, setLayout, nullptr);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  vkDestroyRenderPass(ctx.Device, pass, nullptr);
  vkDestroyImageView(ctx.Device, view, nullptr);
  vkDestroyImage(ctx.Device, image, nullptr);
  vkFreeMemory(ctx.Device, memory, nullptr);
  return verdict(ctx, "input-attachments", [](uint32_t x, uint32_t y) {
    return x + y <= 6 ? Rgba{255, 0, 255, 255} : Rgba{0, 255, 255, 255};
  });
}

bool secondaryCommands(Context &ctx) {
  VkPipeline pipeline =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  auto allocateInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocateInfo.commandPool = ctx.Pool;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  allocateInfo.commandBufferCount = 2;
  VkCommandBuffer secondaries[2];
  check(vkAllocateCommandBuffers(ctx.Device, &allocateInfo, secondaries),
        "vkAllocateCommandBuffers");
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands,
                                VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
    // Each secondary binds its own state: the left half green, the right
    // half red, each through the whole-screen strip under a scissor.
    for (int i = 0; i < 2; ++i) {
      auto inheritance = makeStruct<VkCommandBufferInheritanceInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO);
      inheritance.renderPass = ctx.LoadPass;
      inheritance.framebuffer = framebuffer;
      auto begin = makeStruct<VkCommandBufferBeginInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
      begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
      begin.pInheritanceInfo = &inheritance;
      check(vkBeginCommandBuffer(secondaries[i], &begin),
            "vkBeginCommandBuffer");
      vkCmdBindPipeline(secondaries[i], VK_PIPELINE_BIND_POINT_GRAPHICS,
                        pipeline);
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(secondaries[i], 0, 1, &ctx.Vertices, &offset);
      ctx.setViewportAndScissor(
          secondaries[i], {{int32_t(i * kSize / 2), 0}, {kSize / 2, kSize}});
      push(secondaries[i], ctx.Layout, i == 0 ? kGreenPush : kRedPush);
      vkCmdDraw(secondaries[i], 4, 1, 0, 0);
      check(vkEndCommandBuffer(secondaries[i]), "vkEndCommandBuffer");
    }
    vkCmdExecuteCommands(commands, 2, secondaries);
    vkCmdEndRenderPass(commands);
  });
  vkFreeCommandBuffers(ctx.Device, ctx.Pool, 2, secondaries);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  return verdict(ctx, "secondary-commands",
                 [](uint32_t x, uint32_t) { return x < 4 ? kGreen : kRed; });
}

bool clearAttachments(Context &ctx) {
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands);
    VkClearAttachment clear = {};
    clear.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    clear.colorAttachment = 0;
    clear.clearValue.color = {{1, 0, 0, 1}};
    VkClearRect rect = {{{1, 1}, {2, 2}}, 0, 1};
    vkCmdClearAttachments(commands, 1, &clear, 1, &rect);
    vkCmdEndRenderPass(commands);
  });
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  return verdict(ctx, "clear-attachments", [](uint32_t x, uint32_t y) {
    return x >= 1 && x < 3 && y >= 1 && y < 3 ? kRed : kBlue;
  });
}

bool indirectDraws(Context &ctx) {
  // After the vertices: indices 4..11 at byte 1024, indirect commands at
  // 2048, the count at 3072.
  uint16_t indices[8] = {4, 5, 6, 7, 8, 9, 10, 11};
  std::memcpy(ctx.VertexData + 1024, indices, sizeof(indices));
  // The right half: indices 4-7 (index 516 on from the buffer's start) are
  // vertices 8-11. The index buffer is bound at offset 0: lavapipe (Mesa
  // 22.3) draws nothing for an indexed indirect draw whose index buffer is
  // bound at 1024 (its direct draw is right).
  VkDrawIndexedIndirectCommand indexed = {4, 1, 512 + 4, 0, 0};
  std::memcpy(ctx.VertexData + 2048, &indexed, sizeof(indexed));
  // The left half, then the whole screen, which the count leaves out.
  VkDrawIndirectCommand draws[2] = {{4, 1, 4, 0}, {4, 1, 0, 0}};
  std::memcpy(ctx.VertexData + 2560, draws, sizeof(draws));
  uint32_t count = 1;
  std::memcpy(ctx.VertexData + 3072, &count, sizeof(count));
  VkPipeline pipeline =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands);
    vkCmdBindIndexBuffer(commands, ctx.Vertices, 0, VK_INDEX_TYPE_UINT16);
    push(commands, ctx.Layout, kRedPush);
    vkCmdDrawIndexedIndirect(commands, ctx.Vertices, 2048, 1,
                             sizeof(VkDrawIndexedIndirectCommand));
    push(commands, ctx.Layout, kGreenPush);
    vkCmdDrawIndirectCount(commands, ctx.Vertices, 2560, ctx.Vertices, 3072, 2,
                           sizeof(VkDrawIndirectCommand));
    vkCmdEndRenderPass(commands);
  });
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  return verdict(ctx, "indirect-draws",
                 [](uint32_t x, uint32_t) { return x < 4 ? kGreen : kRed; });
}

bool dynamicState(Context &ctx) {
  // Vertices 12-14, (-1,-1), (-1,1), (1,-1): pixel (0,0), (0,8), (8,0),
  // counter-clockwise in framebuffer coordinates (y down), covering the
  // pixels with x + y < 7 (centres x + 0.5 + y + 0.5 < 8).
  VkPipeline pipeline =
      ctx.makePipeline(ctx.LoadPass, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                       {VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
                        VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY});
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ctx.run([&](VkCommandBuffer commands) {
    framebuffer = beginLoadPass(ctx, commands);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands);
    vkCmdSetPrimitiveTopology(commands, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    // Front-facing (counter-clockwise is front) and back faces culled:
    // drawn, red.
    vkCmdSetFrontFace(commands, VK_FRONT_FACE_COUNTER_CLOCKWISE);
    vkCmdSetCullMode(commands, VK_CULL_MODE_BACK_BIT);
    push(commands, ctx.Layout, kRedPush);
    vkCmdDraw(commands, 3, 1, 12, 0);
    // Now the front faces are culled: the green triangle is not drawn.
    vkCmdSetCullMode(commands, VK_CULL_MODE_FRONT_BIT);
    push(commands, ctx.Layout, kGreenPush);
    vkCmdDraw(commands, 3, 1, 12, 0);
    vkCmdEndRenderPass(commands);
  });
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  vkDestroyFramebuffer(ctx.Device, framebuffer, nullptr);
  return verdict(ctx, "dynamic-state", [](uint32_t x, uint32_t y) {
    return x + y < 7 ? kRed : kBlue;
  });
}

bool depthTest(Context &ctx) {
  constexpr VkFormat kDepth = VK_FORMAT_D32_SFLOAT;
  VkDeviceMemory memory;
  VkImageView view;
  VkImage image = ctx.makeImage(kDepth,
                                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                &memory, VK_IMAGE_ASPECT_DEPTH_BIT, &view);
  uint8_t *depths = nullptr;
  VkBuffer readback = ctx.makeBuffer(kSize * kSize * 4,
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, &depths);
  VkPipeline pipeline = ctx.makePipeline(
      VK_NULL_HANDLE, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, {}, kDepth);
  ctx.run([&](VkCommandBuffer commands) {
    auto barrier = makeStruct<VkImageMemoryBarrier>(
        VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.dstAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                            VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                             VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &barrier);
    auto color = makeStruct<VkRenderingAttachmentInfo>(
        VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    color.imageView = ctx.View;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    auto depth = makeStruct<VkRenderingAttachmentInfo>(
        VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    depth.imageView = view;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};
    auto info = makeStruct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
    info.renderArea = {{0, 0}, {kSize, kSize}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    info.pDepthAttachment = &depth;
    vkCmdBeginRendering(commands, &info);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    ctx.setViewportAndScissor(commands);
    push(commands, ctx.Layout, kRedPush, 0.5f);
    vkCmdDraw(commands, 4, 1, 0, 0);
    push(commands, ctx.Layout, kGreenPush, 0.75f);
    vkCmdDraw(commands, 4, 1, 0, 0);
    push(commands, ctx.Layout, kGreenPush, 0.25f);
    vkCmdDraw(commands, 4, 1, 4, 0);
    vkCmdEndRendering(commands);
    barrier.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkBufferImageCopy copy = {};
    copy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
    copy.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(commands, image,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1,
                           &copy);
  });
  vkDestroyPipeline(ctx.Device, pipeline, nullptr);
  vkDestroyImageView(ctx.Device, view, nullptr);
  vkDestroyImage(ctx.Device, image, nullptr);
  bool colors = verdict(ctx, "depth-test", [](uint32_t x, uint32_t) {
    return x < 4 ? kGreen : kRed;
  });
  unsigned wrong = 0;
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    float got;
    std::memcpy(&got, depths + i * 4, 4);
    float expected = i % kSize < 4 ? 0.25f : 0.5f;
    if (got != expected && !wrong++)
      std::printf("FAIL depth-test: depth %u,%u: expected %g, got %g\n",
                  i % kSize, i / kSize, expected, got);
  }
  vkDestroyBuffer(ctx.Device, readback, nullptr);
  vkFreeMemory(ctx.Device, memory, nullptr);
  return colors && !wrong;
}

bool depthStencilClear(Context &ctx) {
  VkFormat format = VK_FORMAT_D24_UNORM_S8_UINT;
  VkFormatProperties properties;
  vkGetPhysicalDeviceFormatProperties(ctx.Physical, format, &properties);
  if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
    format = VK_FORMAT_D32_SFLOAT_S8_UINT;
  VkDeviceMemory memory;
  VkImage image = ctx.makeImage(format,
                                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                &memory);
  uint8_t *depths = nullptr, *stencils = nullptr;
  VkBuffer depthBuffer = ctx.makeBuffer(
      kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &depths);
  VkBuffer stencilBuffer = ctx.makeBuffer(
      kSize * kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &stencils);
  ctx.run([&](VkCommandBuffer commands) {
    constexpr VkImageAspectFlags kBoth =
        VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    auto barrier = makeStruct<VkImageMemoryBarrier>(
        VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {kBoth, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkClearDepthStencilValue both = {0.5f, 7}, stencil = {0, 9};
    VkImageSubresourceRange all = {kBoth, 0, 1, 0, 1};
    VkImageSubresourceRange stencilOnly = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0,
                                           1};
    vkCmdClearDepthStencilImage(
        commands, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &both, 1, &all);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    vkCmdClearDepthStencilImage(commands, image,
                                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &stencil,
                                1, &stencilOnly);
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkBufferImageCopy copy = {};
    copy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
    copy.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(commands, image,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depthBuffer, 1,
                           &copy);
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
    vkCmdCopyImageToBuffer(commands, image,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stencilBuffer,
                           1, &copy);
  });
  unsigned wrong = 0;
  for (uint32_t i = 0; i < kSize * kSize && !wrong; ++i) {
    uint32_t bits;
    std::memcpy(&bits, depths + i * 4, 4);
    float value;
    std::memcpy(&value, &bits, 4);
    bool depthOk =
        format == VK_FORMAT_D24_UNORM_S8_UINT
            ? ((bits & 0xffffff) == 0x800000 || (bits & 0xffffff) == 0x7fffff)
            : value == 0.5f;
    if (!depthOk || stencils[i] != 9) {
      ++wrong;
      std::printf("FAIL depth-stencil-clear: texel %u (format %d): depth "
                  "bits 0x%08x, stencil %u\n",
                  i, int(format), bits, stencils[i]);
    }
  }
  if (!wrong)
    std::printf("PASS depth-stencil-clear\n");
  std::fflush(stdout);
  vkDestroyImage(ctx.Device, image, nullptr);
  vkFreeMemory(ctx.Device, memory, nullptr);
  vkDestroyBuffer(ctx.Device, depthBuffer, nullptr);
  vkDestroyBuffer(ctx.Device, stencilBuffer, nullptr);
  return !wrong;
}

bool blit(Context &ctx) {
  VkDeviceMemory sourceMemory, destinationMemory;
  VkImage source = ctx.makeImage(VK_FORMAT_R8G8B8A8_UNORM,
                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                 &sourceMemory);
  VkImage destination = ctx.makeImage(VK_FORMAT_B8G8R8A8_UNORM,
                                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                      &destinationMemory);
  uint8_t *texels = nullptr, *result = nullptr;
  VkBuffer upload = ctx.makeBuffer(kSize * kSize * 4,
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &texels);
  VkBuffer readback = ctx.makeBuffer(kSize * kSize * 4,
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, &result);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint8_t texel[4] = {uint8_t(30 * x), uint8_t(30 * y), 0, 255};
      std::memcpy(texels + 4 * (y * kSize + x), texel, 4);
    }
  ctx.run([&](VkCommandBuffer commands) {
    auto transition = [&](VkImage image, VkImageLayout from, VkImageLayout to,
                          VkAccessFlags before, VkAccessFlags after) {
      auto barrier = makeStruct<VkImageMemoryBarrier>(
          VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
      barrier.srcAccessMask = before;
      barrier.dstAccessMask = after;
      barrier.oldLayout = from;
      barrier.newLayout = to;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex =
          VK_QUEUE_FAMILY_IGNORED;
      barrier.image = image;
      barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &barrier);
    };
    transition(source, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
               VK_ACCESS_TRANSFER_WRITE_BIT);
    transition(destination, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
               VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy copy = {};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {kSize, kSize, 1};
    vkCmdCopyBufferToImage(commands, upload, source,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    VkClearColorValue blue = {{0, 0, 1, 1}};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(commands, destination,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &blue, 1,
                         &range);
    transition(source, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    transition(destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkImageBlit region = {};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffsets[1] = {6, 6, 1};
    region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstOffsets[0] = {5, 5, 0};
    region.dstOffsets[1] = {1, 1, 1};
    vkCmdBlitImage(commands, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                   destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &region, VK_FILTER_NEAREST);
    transition(destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(commands, destination,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1,
                           &copy);
  });
  // Destination 1, 2, 3, 4 reads source 5, 3, 2, 0 on each axis.
  const int sourceOf[kSize] = {-1, 5, 3, 2, 0, -1, -1, -1};
  unsigned wrong = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      bool inside = sourceOf[x] >= 0 && sourceOf[y] >= 0;
      const uint8_t expected[4] = {uint8_t(inside ? 0 : 255),
                                   uint8_t(inside ? 30 * sourceOf[y] : 0),
                                   uint8_t(inside ? 30 * sourceOf[x] : 0), 255};
      const uint8_t *got = result + 4 * (y * kSize + x);
      if (std::memcmp(got, expected, 4) != 0 && !wrong++)
        std::printf("FAIL blit: texel %u,%u is %u,%u,%u,%u, expected "
                    "%u,%u,%u,%u\n",
                    x, y, got[0], got[1], got[2], got[3], expected[0],
                    expected[1], expected[2], expected[3]);
    }
  if (!wrong)
    std::printf("PASS blit\n");
  std::fflush(stdout);
  vkDestroyImage(ctx.Device, source, nullptr);
  vkDestroyImage(ctx.Device, destination, nullptr);
  vkFreeMemory(ctx.Device, sourceMemory, nullptr);
  vkFreeMemory(ctx.Device, destinationMemory, nullptr);
  vkDestroyBuffer(ctx.Device, upload, nullptr);
  vkDestroyBuffer(ctx.Device, readback, nullptr);
  return !wrong;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: GraphicsApiCheck SPV_DIR\n");
    return 2;
  }
  Context ctx;
  ctx.setUp(argv[1]);
  bool passed = true;
  for (bool (*run)(Context &) :
       {dynamicRendering, renderPass2, clearAttachments, indirectDraws,
        dynamicState, depthTest, depthStencilClear, blit, secondaryCommands,
        multisampleDynamicRendering, multisampleRenderPass,
        multisampleResolveImage, queries, logicOps, inputAttachments})
    passed &= run(ctx);
  return passed ? 0 : 1;
}

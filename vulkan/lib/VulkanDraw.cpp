//===- VulkanDraw.cpp - Run one draw through Vulkan -----------------------===//
//
// The graphics side of VulkanContext.h: a render pass with one subpass whose
// colour attachment references are indexed by Location, a graphics pipeline
// with the fixed state of VulkanDraw.h, vertex and index buffers, and
// attachments copied into host-visible buffers after the last draw.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/vulkan/VulkanDraw.h"

#include "VulkanContext.h"

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

/// Descriptors and push constants are visible to every stage of the draw.
VkShaderStageFlags getDrawStages(const DrawJob &job) {
  return VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
         (job.tessControl ? VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
                                VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT
                          : 0) |
         (job.geometry ? VK_SHADER_STAGE_GEOMETRY_BIT : 0);
}
VkPipelineStageFlags getDrawShaderStages(const DrawJob &job) {
  return VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
         (job.tessControl
              ? VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT |
                    VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT
              : 0) |
         (job.geometry ? VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT : 0);
}

/// "VK_FORMAT_R8G8B8A8_UNORM", or "VkFormat N" for one the format table
/// does not describe.
std::string getFormatName(VkFormat format) {
  if (const runtime::VulkanFormat *entry = runtime::getVulkanFormat(format))
    return std::string("VK_FORMAT_") + entry->name;
  return llvm::formatv("VkFormat {0}", static_cast<int>(format)).str();
}

/// Primitive restart is only allowed (without
/// primitiveTopologyListRestart) and only useful for these.
bool isStripOrFan(VkPrimitiveTopology topology) {
  switch (topology) {
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
    return true;
  default:
    return false;
  }
}

/// The subpass's colour attachment count: one past the highest Location.
uint32_t getColorCount(const DrawJob &job) {
  uint32_t count = 0;
  for (const ColorAttachment &attachment : job.attachments)
    count = std::max(count, attachment.location + 1);
  return count;
}

/// Every Vulkan object of one draw; the destructor releases what was made.
class DrawSession {
public:
  DrawSession() = default;
  DrawSession(const DrawSession &) = delete;
  DrawSession &operator=(const DrawSession &) = delete;
  ~DrawSession();

  llvm::Expected<DrawResult> run(const DrawJob &job);

private:
  llvm::Error checkLimits(const DrawJob &job, const Bindings &bindings);
  llvm::Error createVertexInput(const DrawJob &job);
  llvm::Error createAttachments(const DrawJob &job);
  llvm::Error createRenderPass(const DrawJob &job);
  llvm::Error createPipeline(const DrawJob &job, DrawResult &result);
  llvm::Error draw(const DrawJob &job, DrawResult &result);

  /// An image with its memory and view.
  struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  llvm::Error createImage(const DrawJob &job, VkFormat format,
                          VkSampleCountFlagBits samples,
                          VkImageUsageFlags usage, Image &image);
  void destroyImage(Image &image);

  struct Attachment {
    /// What is read back: the attachment, or the resolve target of a
    /// multisampled one.
    Image single;
    /// Multisampled draws: the image drawn into.
    Image multisampled;
    /// Where the texels are copied after the last draw.
    Context::Buffer readback;
    uint64_t bytes = 0;
  };

  Context context;
  std::vector<Context::Buffer> vertexBuffers;
  Context::Buffer indexBuffer;
  /// One per DrawJob::attachments.
  std::vector<Attachment> attachments;
  VkRenderPass renderPass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
};

DrawSession::~DrawSession() {
  VkDevice device = context.device;
  if (!device)
    return;
  vkDeviceWaitIdle(device);
  if (framebuffer)
    vkDestroyFramebuffer(device, framebuffer, nullptr);
  if (renderPass)
    vkDestroyRenderPass(device, renderPass, nullptr);
  for (Attachment &attachment : attachments) {
    destroyImage(attachment.single);
    destroyImage(attachment.multisampled);
    context.destroyBuffer(attachment.readback);
  }
  for (Context::Buffer &buffer : vertexBuffers)
    context.destroyBuffer(buffer);
  context.destroyBuffer(indexBuffer);
}

llvm::Error DrawSession::checkLimits(const DrawJob &job,
                                     const Bindings &bindings) {
  if (llvm::Error error = context.checkBindingLimits(bindings))
    return error;
  const VkPhysicalDeviceLimits &limits = context.properties.limits;
  if (job.width == 0 || job.height == 0)
    return makeError(llvm::formatv("error: --framebuffer: {0}x{1} has no "
                                   "texels",
                                   job.width, job.height));
  if (job.width > limits.maxFramebufferWidth ||
      job.height > limits.maxFramebufferHeight)
    return makeError(llvm::formatv(
        "error: --framebuffer: {0}x{1} exceeds the Vulkan device's limit of "
        "{2}x{3} (maxFramebufferWidth/Height)",
        job.width, job.height, limits.maxFramebufferWidth,
        limits.maxFramebufferHeight));
  for (const ColorAttachment &attachment : job.attachments)
    if (attachment.location >= limits.maxColorAttachments)
      return makeError(llvm::formatv(
          "error: --framebuffer: Location {0} exceeds the Vulkan device's "
          "limit of {1} colour attachments (maxColorAttachments)",
          attachment.location, limits.maxColorAttachments));
  if (job.samples > 1) {
    if (!(limits.framebufferColorSampleCounts & VK_SAMPLE_COUNT_4_BIT))
      return makeError(llvm::formatv(
          "error: --samples 4: the Vulkan device '{0}' cannot draw 4 samples "
          "(framebufferColorSampleCounts)",
          context.properties.deviceName));
    for (const ColorAttachment &attachment : job.attachments) {
      const runtime::VulkanFormat *format =
          runtime::getVulkanFormat(attachment.format);
      if (format && runtime::isIntegerFormat(*format))
        return makeError(llvm::formatv(
            "error: --samples 4: Vulkan resolves no integer format ({0} at "
            "Location {1}); the CPU takes sample 0",
            getFormatName(attachment.format), attachment.location));
      VkImageFormatProperties properties;
      if (vkGetPhysicalDeviceImageFormatProperties(
              context.physicalDevice, attachment.format, VK_IMAGE_TYPE_2D,
              VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0,
              &properties) != VK_SUCCESS ||
          !(properties.sampleCounts & VK_SAMPLE_COUNT_4_BIT))
        return makeError(llvm::formatv(
            "error: --samples 4: the Vulkan device '{0}' cannot draw 4 "
            "samples of {1} (vkGetPhysicalDeviceImageFormatProperties)",
            context.properties.deviceName, getFormatName(attachment.format)));
    }
  }
  for (const ColorAttachment &attachment : job.attachments) {
    VkFormatProperties support;
    vkGetPhysicalDeviceFormatProperties(context.physicalDevice,
                                        attachment.format, &support);
    if (!(support.optimalTilingFeatures &
          VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
      return makeError(llvm::formatv(
          "error: --framebuffer: the Vulkan device '{0}' cannot use {1} as a "
          "colour attachment (vkGetPhysicalDeviceFormatProperties)",
          context.properties.deviceName, getFormatName(attachment.format)));
    // The results are returned packed, which needs the texel size.
    if (!runtime::getVulkanFormat(attachment.format))
      return makeError(llvm::formatv("error: --framebuffer: the Vulkan "
                                     "backend does not know the texel size of "
                                     "{0}",
                                     getFormatName(attachment.format)));
  }
  // Past these, drivers index fixed arrays (lavapipe crashes).
  auto beyond = [](const llvm::Twine &what, uint32_t limit,
                   llvm::StringRef unit, llvm::StringRef name) {
    return makeError("error: vertex data: " + what +
                     " the Vulkan device's limit of " + llvm::Twine(limit) +
                     unit + " (" + name + ")");
  };
  if (job.attributes.size() > limits.maxVertexInputAttributes)
    return beyond(llvm::Twine(job.attributes.size()) + " attributes exceed",
                  limits.maxVertexInputAttributes, "",
                  "maxVertexInputAttributes");
  if (job.vertexBuffers.size() > limits.maxVertexInputBindings)
    return beyond(llvm::Twine(job.vertexBuffers.size()) + " buffers exceed",
                  limits.maxVertexInputBindings, " vertex bindings",
                  "maxVertexInputBindings");
  for (const VertexBuffer &vertices : job.vertexBuffers) {
    if (vertices.binding >= limits.maxVertexInputBindings)
      return beyond("binding " + llvm::Twine(vertices.binding) + " exceeds",
                    limits.maxVertexInputBindings, " vertex bindings",
                    "maxVertexInputBindings");
    if (vertices.stride > limits.maxVertexInputBindingStride)
      return beyond(llvm::formatv("stride {0} of binding {1} exceeds",
                                  vertices.stride, vertices.binding),
                    limits.maxVertexInputBindingStride, "",
                    "maxVertexInputBindingStride");
  }
  for (const VertexAttribute &attribute : job.attributes) {
    if (attribute.location >= limits.maxVertexInputAttributes)
      return beyond("Location " + llvm::Twine(attribute.location) + " exceeds",
                    limits.maxVertexInputAttributes, " vertex attributes",
                    "maxVertexInputAttributes");
    if (attribute.offset > limits.maxVertexInputAttributeOffset)
      return beyond(llvm::formatv("offset {0} of Location {1} exceeds",
                                  attribute.offset, attribute.location),
                    limits.maxVertexInputAttributeOffset, "",
                    "maxVertexInputAttributeOffset");
  }
  for (const VertexAttribute &attribute : job.attributes) {
    VkFormatProperties support;
    vkGetPhysicalDeviceFormatProperties(context.physicalDevice,
                                        attribute.format, &support);
    if (!(support.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
      return makeError(llvm::formatv(
          "error: vertex data: the Vulkan device '{0}' cannot use {1} as a "
          "vertex attribute (Location {2})",
          context.properties.deviceName, getFormatName(attribute.format),
          attribute.location));
  }
  return llvm::Error::success();
}

llvm::Error DrawSession::createVertexInput(const DrawJob &job) {
  for (const VertexBuffer &vertices : job.vertexBuffers) {
    Context::Buffer &buffer = vertexBuffers.emplace_back();
    if (llvm::Error error = context.createHostBuffer(
            vertices.data.size(), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, buffer))
      return error;
    std::memcpy(buffer.mapped, vertices.data.data(), vertices.data.size());
  }
  if (job.indices.empty())
    return llvm::Error::success();
  if (llvm::Error error = context.createHostBuffer(
          job.indices.size(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indexBuffer))
    return error;
  std::memcpy(indexBuffer.mapped, job.indices.data(), job.indices.size());
  return llvm::Error::success();
}

void DrawSession::destroyImage(Image &image) {
  if (image.view)
    vkDestroyImageView(context.device, image.view, nullptr);
  context.destroyBoundImage(image.image, image.memory);
}

llvm::Error DrawSession::createImage(const DrawJob &job, VkFormat format,
                                     VkSampleCountFlagBits samples,
                                     VkImageUsageFlags usage, Image &image) {
  VkDevice device = context.device;
  auto info =
      makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {job.width, job.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (llvm::Error error =
          context.createBoundImage(info, image.image, image.memory))
    return error;
  auto view = makeStruct<VkImageViewCreateInfo>(
      VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  view.image = image.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return check(vkCreateImageView(device, &view, nullptr, &image.view),
               "vkCreateImageView");
}

llvm::Error DrawSession::createAttachments(const DrawJob &job) {
  for (const ColorAttachment &binding : job.attachments) {
    Attachment &attachment = attachments.emplace_back();
    if (llvm::Error error =
            createImage(job, binding.format, VK_SAMPLE_COUNT_1_BIT,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        attachment.single))
      return error;
    if (job.samples > 1)
      if (llvm::Error error = createImage(
              job, binding.format, VK_SAMPLE_COUNT_4_BIT,
              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, attachment.multisampled))
        return error;
    // checkLimits made sure the table has the format.
    attachment.bytes = uint64_t(job.width) * job.height *
                       runtime::getVulkanFormat(binding.format)->texelBytes;
    if (llvm::Error error = context.createHostBuffer(
            attachment.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            attachment.readback))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error DrawSession::createRenderPass(const DrawJob &job) {
  // Render-pass attachment 2i is Location's image (multisampled ones
  // then resolve into 2i + 1), in the order of framebufferViews().
  std::vector<VkAttachmentDescription> descriptions;
  const VkAttachmentReference unused = {VK_ATTACHMENT_UNUSED,
                                        VK_IMAGE_LAYOUT_UNDEFINED};
  std::vector<VkAttachmentReference> references(getColorCount(job), unused);
  std::vector<VkAttachmentReference> resolves(getColorCount(job), unused);
  bool multisampled = job.samples > 1;
  for (size_t i = 0; i < job.attachments.size(); ++i) {
    VkAttachmentDescription description{};
    description.format = job.attachments[i].format;
    description.samples =
        multisampled ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
    description.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    description.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    description.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    description.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    // Every draw clears, so the last one's texels need not be kept; the
    // final layout is the read-back copy's.
    description.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    description.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    uint32_t location = job.attachments[i].location;
    references[location] = {static_cast<uint32_t>(descriptions.size()),
                            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    if (!multisampled) {
      descriptions.push_back(description);
      continue;
    }
    description.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    description.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    descriptions.push_back(description);
    VkAttachmentDescription resolve = description;
    resolve.samples = VK_SAMPLE_COUNT_1_BIT;
    resolve.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    resolve.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    resolve.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    resolves[location] = {static_cast<uint32_t>(descriptions.size()),
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    descriptions.push_back(resolve);
  }
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = static_cast<uint32_t>(references.size());
  subpass.pColorAttachments = references.data();
  if (multisampled)
    subpass.pResolveAttachments = resolves.data();
  // The previous draw's writes and final layout transition come before
  // this one's clear, and this one's writes before the read-back copy.
  VkSubpassDependency dependencies[2] = {
      {VK_SUBPASS_EXTERNAL, 0,
       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
           VK_PIPELINE_STAGE_TRANSFER_BIT,
       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
      {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
       VK_ACCESS_TRANSFER_READ_BIT, 0},
  };
  auto info = makeStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  info.attachmentCount = static_cast<uint32_t>(descriptions.size());
  info.pAttachments = descriptions.data();
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = dependencies;
  if (llvm::Error error =
          check(vkCreateRenderPass(context.device, &info, nullptr, &renderPass),
                "vkCreateRenderPass"))
    return error;

  std::vector<VkImageView> views;
  for (const Attachment &attachment : attachments) {
    if (multisampled)
      views.push_back(attachment.multisampled.view);
    views.push_back(attachment.single.view);
  }
  auto framebufferInfo = makeStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  framebufferInfo.renderPass = renderPass;
  framebufferInfo.attachmentCount = static_cast<uint32_t>(views.size());
  framebufferInfo.pAttachments = views.data();
  framebufferInfo.width = job.width;
  framebufferInfo.height = job.height;
  framebufferInfo.layers = 1;
  return check(vkCreateFramebuffer(context.device, &framebufferInfo, nullptr,
                                   &framebuffer),
               "vkCreateFramebuffer");
}

llvm::Error DrawSession::createPipeline(const DrawJob &job,
                                        DrawResult &result) {
  Specialization specialization(job.specializations);
  auto start = Clock::now();
  llvm::Expected<VkPipelineShaderStageCreateInfo> vertex =
      context.createShaderStage(*job.vertex, VK_SHADER_STAGE_VERTEX_BIT,
                                job.vertexEntry, specialization.get());
  if (!vertex)
    return vertex.takeError();
  llvm::Expected<VkPipelineShaderStageCreateInfo> fragment =
      context.createShaderStage(*job.fragment, VK_SHADER_STAGE_FRAGMENT_BIT,
                                job.fragmentEntry, specialization.get());
  if (!fragment)
    return fragment.takeError();
  llvm::SmallVector<VkPipelineShaderStageCreateInfo, 5> stages{*vertex,
                                                               *fragment};
  for (auto [module, stage, entry] :
       {std::tuple(job.tessControl, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                   &job.tessControlEntry),
        std::tuple(job.tessEvaluation,
                   VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
                   &job.tessEvaluationEntry),
        std::tuple(job.geometry, VK_SHADER_STAGE_GEOMETRY_BIT,
                   &job.geometryEntry)}) {
    if (!module)
      continue;
    llvm::Expected<VkPipelineShaderStageCreateInfo> created =
        context.createShaderStage(*module, stage, *entry, specialization.get());
    if (!created)
      return created.takeError();
    stages.push_back(*created);
  }
  auto tessellation = makeStruct<VkPipelineTessellationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO);
  tessellation.patchControlPoints = job.patchControlPoints;
  auto domainOrigin = makeStruct<
      VkPipelineTessellationDomainOriginStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO);
  domainOrigin.domainOrigin = VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  if (job.lowerLeftDomainOrigin)
    tessellation.pNext = &domainOrigin;

  std::vector<VkVertexInputBindingDescription> vertexBindings;
  for (const VertexBuffer &buffer : job.vertexBuffers)
    vertexBindings.push_back({buffer.binding, buffer.stride,
                              buffer.perInstance
                                  ? VK_VERTEX_INPUT_RATE_INSTANCE
                                  : VK_VERTEX_INPUT_RATE_VERTEX});
  std::vector<VkVertexInputAttributeDescription> vertexAttributes;
  for (const VertexAttribute &attribute : job.attributes)
    vertexAttributes.push_back({attribute.location, attribute.binding,
                                attribute.format, attribute.offset});
  auto vertexInput = makeStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  vertexInput.vertexBindingDescriptionCount =
      static_cast<uint32_t>(vertexBindings.size());
  vertexInput.pVertexBindingDescriptions = vertexBindings.data();
  vertexInput.vertexAttributeDescriptionCount =
      static_cast<uint32_t>(vertexAttributes.size());
  vertexInput.pVertexAttributeDescriptions = vertexAttributes.data();

  auto inputAssembly = makeStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  inputAssembly.topology = job.topology;
  inputAssembly.primitiveRestartEnable =
      !job.indices.empty() && isStripOrFan(job.topology);

  VkViewport viewport{
      0, 0, static_cast<float>(job.width), static_cast<float>(job.height),
      0, 1};
  VkRect2D scissor{{0, 0}, {job.width, job.height}};
  auto viewportState = makeStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewportState.viewportCount = 1;
  viewportState.pViewports = &viewport;
  viewportState.scissorCount = 1;
  viewportState.pScissors = &scissor;

  auto rasterization = makeStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  rasterization.polygonMode = VK_POLYGON_MODE_FILL;
  rasterization.cullMode = VK_CULL_MODE_NONE;
  rasterization.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rasterization.lineWidth = 1;

  auto multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples =
      job.samples > 1 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;

  // One state per subpass colour reference, the unused ones included.
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  std::vector<VkPipelineColorBlendAttachmentState> blends(getColorCount(job),
                                                          blend);
  auto colorBlend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  colorBlend.attachmentCount = static_cast<uint32_t>(blends.size());
  colorBlend.pAttachments = blends.data();

  auto info = makeStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  info.stageCount = static_cast<uint32_t>(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertexInput;
  info.pInputAssemblyState = &inputAssembly;
  info.pViewportState = &viewportState;
  if (job.tessControl)
    info.pTessellationState = &tessellation;
  info.pRasterizationState = &rasterization;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &colorBlend;
  info.layout = context.pipelineLayout;
  info.renderPass = renderPass;
  info.subpass = 0;
  if (llvm::Error error =
          check(vkCreateGraphicsPipelines(context.device, VK_NULL_HANDLE, 1,
                                          &info, nullptr, &context.pipeline),
                "vkCreateGraphicsPipelines"))
    return error;
  result.compileMilliseconds = millisecondsSince(start);
  return llvm::Error::success();
}

llvm::Error DrawSession::draw(const DrawJob &job, DrawResult &result) {
  // One clear value per render-pass attachment (a resolve target's is
  // not used).
  unsigned perAttachment = job.samples > 1 ? 2 : 1;
  std::vector<VkClearValue> clears(job.attachments.size() * perAttachment);
  for (size_t i = 0; i < clears.size(); ++i) {
    const std::array<uint32_t, 4> &clear =
        job.attachments[i / perAttachment].clear;
    std::copy(clear.begin(), clear.end(), clears[i].color.uint32);
  }
  auto recordDraw = [&](VkCommandBuffer commands) {
    auto begin = makeStruct<VkRenderPassBeginInfo>(
        VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
    begin.renderPass = renderPass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {job.width, job.height}};
    begin.clearValueCount = static_cast<uint32_t>(clears.size());
    begin.pClearValues = clears.data();
    vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
    for (size_t i = 0; i < job.vertexBuffers.size(); ++i) {
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(commands, job.vertexBuffers[i].binding, 1,
                             &vertexBuffers[i].buffer, &offset);
    }
    if (job.indices.empty()) {
      vkCmdDraw(commands, job.vertexCount, job.instanceCount, 0, 0);
    } else {
      vkCmdBindIndexBuffer(commands, indexBuffer.buffer, 0, job.indexType);
      vkCmdDrawIndexed(commands, job.indexCount, job.instanceCount, 0, 0, 0);
    }
    vkCmdEndRenderPass(commands);
  };
  // After the last draw the attachments go to host memory too.
  auto recordAttachmentDownload = [&](VkCommandBuffer commands) {
    for (const Attachment &attachment : attachments) {
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {job.width, job.height, 1};
      vkCmdCopyImageToBuffer(commands, attachment.single.image,
                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             attachment.readback.buffer, 1, &copy);
    }
  };
  llvm::Expected<Context::RunTimes> times = context.runRecorded(
      job.repeat, VK_PIPELINE_BIND_POINT_GRAPHICS, getDrawStages(job),
      getDrawShaderStages(job), recordDraw, recordAttachmentDownload, nullptr);
  if (!times)
    return times.takeError();
  result.firstDrawMilliseconds = times->first;
  result.drawMilliseconds = std::move(times->others);
  result.buffers = context.readBuffers();
  result.images = context.readImages();
  for (const Attachment &attachment : attachments) {
    const auto *bytes =
        static_cast<const uint8_t *>(attachment.readback.mapped);
    result.attachments.emplace_back(bytes, bytes + attachment.bytes);
  }
  return llvm::Error::success();
}

llvm::Expected<DrawResult> DrawSession::run(const DrawJob &job) {
  if (!job.vertex || !job.fragment)
    return makeError("error: vulkan: a draw needs a vertex and a fragment "
                     "shader");
  DrawResult result;
  Bindings bindings{job.buffers, job.images, job.samplers, job.pushConstants};
  if (llvm::Error error = context.createInstance())
    return error;
  if (llvm::Error error = context.pickDevice(job.deviceIndex,
                                             VK_QUEUE_GRAPHICS_BIT, "graphics"))
    return error;
  if (llvm::Error error = checkLimits(job, bindings))
    return error;
  DeviceRequest request;
  llvm::SmallVector<const SpirvBinary *, 5> modules{job.vertex, job.fragment};
  for (const SpirvBinary *module :
       {job.tessControl, job.tessEvaluation, job.geometry})
    if (module)
      modules.push_back(module);
  request.modules = modules;
  request.robust = job.robust;
  if (llvm::Error error = context.createDevice(request))
    return error;
  result.deviceName = context.properties.deviceName;
  result.subgroupSize = context.getSubgroupSize();
  if (llvm::Error error = context.createBuffers(bindings))
    return error;
  if (llvm::Error error = createVertexInput(job))
    return error;
  if (llvm::Error error = context.createImages(bindings))
    return error;
  if (llvm::Error error = createAttachments(job))
    return error;
  if (llvm::Error error =
          context.createDescriptors(bindings, getDrawStages(job)))
    return error;
  if (llvm::Error error = createRenderPass(job))
    return error;
  if (llvm::Error error = createPipeline(job, result))
    return error;
  if (llvm::Error error = draw(job, result))
    return error;
  return result;
}

} // namespace

llvm::Expected<DrawResult> spvb::vulkan::runDraw(const DrawJob &job) {
  DrawSession session;
  return session.run(job);
}

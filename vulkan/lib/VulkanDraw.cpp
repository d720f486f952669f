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
  /// Copies the initial texels of the attachments that have them into
  /// their images, at the start of every draw.
  void recordAttachmentUpload(const DrawJob &job, VkCommandBuffer commands);

  /// An image with its memory and view.
  struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  llvm::Error
  createImage(const DrawJob &job, VkFormat format,
              VkSampleCountFlagBits samples, VkImageUsageFlags usage,
              Image &image,
              VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT);
  llvm::Error createDepthStencil(const DrawJob &job);
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

  /// DrawJob::depthStencil: the image, and each aspect's texels in the
  /// layout buffer copies give them (D16, X8_D24 or D32; S8), which the
  /// draw starts from and the read-back ends in.
  struct DepthStencil {
    Image image;
    const runtime::VulkanFormat *format = nullptr;
    const runtime::VulkanFormat *depthAspect = nullptr;
    const runtime::VulkanFormat *stencilAspect = nullptr;
    Context::Buffer depth, stencil;
    VkImageAspectFlags aspects = 0;
  };

  Context context;
  std::optional<DepthStencil> depthStencil;
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
  if (depthStencil) {
    destroyImage(depthStencil->image);
    context.destroyBuffer(depthStencil->depth);
    context.destroyBuffer(depthStencil->stencil);
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
                                     VkImageUsageFlags usage, Image &image,
                                     VkImageAspectFlags aspects) {
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
  view.subresourceRange = {aspects, 0, 1, 0, 1};
  return check(vkCreateImageView(device, &view, nullptr, &image.view),
               "vkCreateImageView");
}

/// The format a buffer copy of \p format's depth aspect gives.
static VkFormat getDepthAspectFormat(const runtime::VulkanFormat &format) {
  if (format.kind == runtime::ComponentKind::Sfloat)
    return VK_FORMAT_D32_SFLOAT;
  return format.depthBits == 16 ? VK_FORMAT_D16_UNORM
                                : VK_FORMAT_X8_D24_UNORM_PACK32;
}

llvm::Error DrawSession::createDepthStencil(const DrawJob &job) {
  const DepthStencilAttachment &given = *job.depthStencil;
  if (job.samples > 1)
    return makeError("error: vulkan: an attachment's initial texels need "
                     "one sample per pixel");
  DepthStencil &made = depthStencil.emplace();
  made.format = runtime::getVulkanFormat(given.format);
  uint64_t texels = uint64_t(job.width) * job.height;
  if (!made.format || made.format->components ||
      given.initial.size() != texels * made.format->texelBytes)
    return makeError(llvm::formatv("error: vulkan: the depth/stencil "
                                   "attachment has format {0}, which is no "
                                   "depth/stencil format the backend copies "
                                   "(or its texels are not {1}x{2})",
                                   getFormatName(given.format), job.width,
                                   job.height));
  const runtime::VulkanFormat &format = *made.format;
  if (format.depthBits) {
    made.aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
    made.depthAspect = runtime::getVulkanFormat(getDepthAspectFormat(format));
  }
  if (format.stencilBits) {
    made.aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
    made.stencilAspect = runtime::getVulkanFormat(VK_FORMAT_S8_UINT);
  }
  if (llvm::Error error = createImage(
          job, given.format,
          job.samples > 1 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT,
          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
          made.image, made.aspects))
    return error;
  // Each aspect's staging buffer holds the initial texels, converted.
  for (auto [aspect, buffer] : {std::pair(made.depthAspect, &made.depth),
                                std::pair(made.stencilAspect, &made.stencil)}) {
    if (!aspect)
      continue;
    if (llvm::Error error = context.createHostBuffer(
            texels * aspect->texelBytes,
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            *buffer))
      return error;
    auto *to = static_cast<uint8_t *>(buffer->mapped);
    for (uint64_t i = 0; i < texels; ++i) {
      const uint8_t *from = given.initial.data() + i * format.texelBytes;
      uint8_t *texel = to + i * aspect->texelBytes;
      if (aspect == made.depthAspect)
        runtime::encodeDepth(*aspect, runtime::decodeDepth(format, from),
                             texel);
      else
        runtime::encodeStencil(*aspect, runtime::decodeStencil(format, from),
                               texel);
    }
  }
  return llvm::Error::success();
}

llvm::Error DrawSession::createAttachments(const DrawJob &job) {
  for (const ColorAttachment &binding : job.attachments) {
    Attachment &attachment = attachments.emplace_back();
    if (!binding.initial.empty() && job.samples > 1)
      return makeError("error: vulkan: an attachment's initial texels need "
                       "one sample per pixel");
    if (llvm::Error error =
            createImage(job, binding.format, VK_SAMPLE_COUNT_1_BIT,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                            VK_IMAGE_USAGE_TRANSFER_DST_BIT,
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
            attachment.bytes,
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            attachment.readback))
      return error;
    // The read-back buffer holds the initial texels until the last draw.
    if (!binding.initial.empty()) {
      if (binding.initial.size() != attachment.bytes)
        return makeError(llvm::formatv(
            "error: vulkan: the attachment at Location {0} has {1} bytes of "
            "initial texels, not {2}",
            binding.location, binding.initial.size(), attachment.bytes));
      std::memcpy(attachment.readback.mapped, binding.initial.data(),
                  attachment.bytes);
    }
  }
  if (job.depthStencil)
    return createDepthStencil(job);
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
    bool load = !job.attachments[i].initial.empty();
    description.loadOp =
        load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
    description.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    description.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    description.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    // Every draw clears or copies the initial texels in, so the last one's
    // texels need not be kept; the final layout is the read-back copy's.
    description.initialLayout =
        load ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
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
  VkAttachmentReference depthReference = unused;
  if (depthStencil) {
    VkAttachmentDescription description{};
    description.format = job.depthStencil->format;
    description.samples =
        multisampled ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
    description.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    description.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    description.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    description.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    description.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    description.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    depthReference = {static_cast<uint32_t>(descriptions.size()),
                      VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    descriptions.push_back(description);
  }
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = static_cast<uint32_t>(references.size());
  subpass.pColorAttachments = references.data();
  if (multisampled)
    subpass.pResolveAttachments = resolves.data();
  if (depthStencil)
    subpass.pDepthStencilAttachment = &depthReference;
  // The previous draw's writes and final layout transition, and the copies
  // of the initial texels, come before this one's clear or load, and this
  // one's writes before the read-back copy.
  constexpr VkPipelineStageFlags kAttachmentStages =
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
      VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
      VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  constexpr VkAccessFlags kAttachmentAccess =
      VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  VkSubpassDependency dependencies[2] = {
      {VK_SUBPASS_EXTERNAL, 0,
       kAttachmentStages | VK_PIPELINE_STAGE_TRANSFER_BIT, kAttachmentStages,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
           VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
           VK_ACCESS_TRANSFER_WRITE_BIT,
       kAttachmentAccess, 0},
      {0, VK_SUBPASS_EXTERNAL, kAttachmentStages,
       VK_PIPELINE_STAGE_TRANSFER_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
           VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
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
  if (depthStencil)
    views.push_back(depthStencil->image.view);
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
  llvm::SmallVector<VkPipelineShaderStageCreateInfo, 5> stages{*vertex};
  for (auto [module, stage, entry] :
       {std::tuple(job.tessControl, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                   &job.tessControlEntry),
        std::tuple(job.tessEvaluation,
                   VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
                   &job.tessEvaluationEntry),
        std::tuple(job.geometry, VK_SHADER_STAGE_GEOMETRY_BIT,
                   &job.geometryEntry),
        std::tuple(job.fragment, VK_SHADER_STAGE_FRAGMENT_BIT,
                   &job.fragmentEntry)}) {
    if (!module)
      continue;
    llvm::Expected<VkPipelineShaderStageCreateInfo> created =
        context.createShaderStage(*module, stage, *entry, specialization.get());
    if (!created)
      return created.takeError();
    stages.push_back(*created);
  }
  const runtime::GraphicsState *state = job.state;
  auto tessellation = makeStruct<VkPipelineTessellationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO);
  tessellation.patchControlPoints =
      state ? state->patchControlPoints : job.patchControlPoints;
  auto domainOrigin = makeStruct<
      VkPipelineTessellationDomainOriginStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO);
  domainOrigin.domainOrigin = VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  if (state ? state->tessellationDomainOrigin ==
                  VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
            : job.lowerLeftDomainOrigin)
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
      state ? state->primitiveRestart
            : !job.indices.empty() && isStripOrFan(job.topology);

  VkViewport viewport{
      0, 0, static_cast<float>(job.width), static_cast<float>(job.height),
      0, 1};
  VkRect2D scissor{{0, 0}, {job.width, job.height}};
  if (state && state->viewport)
    viewport = *state->viewport;
  if (state && state->scissor)
    scissor = *state->scissor;
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
  if (state) {
    rasterization.depthClampEnable = state->depthClamp;
    rasterization.rasterizerDiscardEnable = state->rasterizerDiscard;
    rasterization.polygonMode = state->polygonMode;
    rasterization.cullMode = state->cullMode;
    rasterization.frontFace = state->frontFace;
    rasterization.depthBiasEnable = state->depthBias;
    rasterization.depthBiasConstantFactor = state->depthBiasConstant;
    rasterization.depthBiasClamp = state->depthBiasClamp;
    rasterization.depthBiasSlopeFactor = state->depthBiasSlope;
    rasterization.lineWidth = state->lineWidth;
  }

  auto multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples =
      job.samples > 1 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
  VkSampleMask sampleMask = state ? state->sampleMask : ~0u;
  if (state) {
    multisample.sampleShadingEnable = state->sampleShading;
    multisample.minSampleShading = state->minSampleShading;
    multisample.pSampleMask = &sampleMask;
  }

  auto depthStencilState = makeStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  if (state) {
    auto stencil = [](const runtime::StencilState &face) {
      return VkStencilOpState{
          face.failOp,      face.passOp,    face.depthFailOp, face.compareOp,
          face.compareMask, face.writeMask, face.reference};
    };
    depthStencilState.depthTestEnable = state->depthTest;
    depthStencilState.depthWriteEnable = state->depthWrite;
    depthStencilState.depthCompareOp = state->depthCompare;
    depthStencilState.depthBoundsTestEnable = state->depthBoundsTest;
    depthStencilState.minDepthBounds = state->minDepthBounds;
    depthStencilState.maxDepthBounds = state->maxDepthBounds;
    depthStencilState.stencilTestEnable = state->stencilTest;
    depthStencilState.front = stencil(state->front);
    depthStencilState.back = stencil(state->back);
  }

  // One state per subpass colour reference, the unused ones included.
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  std::vector<VkPipelineColorBlendAttachmentState> blends(getColorCount(job),
                                                          blend);
  auto colorBlend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  if (state) {
    for (size_t i = 0; i < blends.size() && i < state->blend.size(); ++i) {
      const runtime::BlendState &from = state->blend[i];
      blends[i] = {from.enable,   from.srcColor, from.dstColor, from.colorOp,
                   from.srcAlpha, from.dstAlpha, from.alphaOp,  from.writeMask};
    }
    colorBlend.logicOpEnable = state->logicOpEnable;
    colorBlend.logicOp = state->logicOp;
    std::copy(state->blendConstants.begin(), state->blendConstants.end(),
              colorBlend.blendConstants);
  }
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
  if (depthStencil)
    info.pDepthStencilState = &depthStencilState;
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
    recordAttachmentUpload(job, commands);
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
      vkCmdDraw(commands, job.vertexCount, job.instanceCount, job.firstVertex,
                job.firstInstance);
    } else {
      vkCmdBindIndexBuffer(commands, indexBuffer.buffer, 0, job.indexType);
      vkCmdDrawIndexed(commands, job.indexCount, job.instanceCount,
                       job.firstVertex, job.vertexOffset, job.firstInstance);
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
    if (depthStencil)
      for (auto [aspect, buffer] :
           {std::pair(VK_IMAGE_ASPECT_DEPTH_BIT, &depthStencil->depth),
            std::pair(VK_IMAGE_ASPECT_STENCIL_BIT, &depthStencil->stencil)}) {
        if (!(depthStencil->aspects & aspect))
          continue;
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VkImageAspectFlags(aspect), 0, 0, 1};
        copy.imageExtent = {job.width, job.height, 1};
        vkCmdCopyImageToBuffer(commands, depthStencil->image.image,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               buffer->buffer, 1, &copy);
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
  if (depthStencil) {
    // Back to the runtime's layout, aspect by aspect.
    const runtime::VulkanFormat &format = *depthStencil->format;
    result.depthStencil.assign(job.depthStencil->initial.begin(),
                               job.depthStencil->initial.end());
    uint64_t texels = uint64_t(job.width) * job.height;
    for (uint64_t i = 0; i < texels; ++i) {
      uint8_t *to = result.depthStencil.data() + i * format.texelBytes;
      if (const runtime::VulkanFormat *aspect = depthStencil->depthAspect)
        runtime::encodeDepth(
            format,
            runtime::decodeDepth(*aspect, static_cast<const uint8_t *>(
                                              depthStencil->depth.mapped) +
                                              i * aspect->texelBytes),
            to);
      if (const runtime::VulkanFormat *aspect = depthStencil->stencilAspect)
        runtime::encodeStencil(
            format,
            runtime::decodeStencil(*aspect, static_cast<const uint8_t *>(
                                                depthStencil->stencil.mapped) +
                                                i * aspect->texelBytes),
            to);
    }
  }
  return llvm::Error::success();
}

void DrawSession::recordAttachmentUpload(const DrawJob &job,
                                         VkCommandBuffer commands) {
  // Each image that starts from given texels is made a copy destination
  // (its old texels discarded) and filled from its staging buffer; the
  // render pass's dependency orders the copies before the load.
  auto toTransfer = [&](VkImage image, VkImageAspectFlags aspects) {
    auto barrier = makeStruct<VkImageMemoryBarrier>(
        VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {aspects, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
  };
  auto copy = [&](const Context::Buffer &from, VkImage to,
                  VkImageAspectFlags aspect) {
    VkBufferImageCopy region{};
    region.imageSubresource = {aspect, 0, 0, 1};
    region.imageExtent = {job.width, job.height, 1};
    vkCmdCopyBufferToImage(commands, from.buffer, to,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  };
  for (size_t i = 0; i < attachments.size(); ++i) {
    if (job.attachments[i].initial.empty())
      continue;
    toTransfer(attachments[i].single.image, VK_IMAGE_ASPECT_COLOR_BIT);
    copy(attachments[i].readback, attachments[i].single.image,
         VK_IMAGE_ASPECT_COLOR_BIT);
  }
  if (!depthStencil)
    return;
  toTransfer(depthStencil->image.image, depthStencil->aspects);
  if (depthStencil->aspects & VK_IMAGE_ASPECT_DEPTH_BIT)
    copy(depthStencil->depth, depthStencil->image.image,
         VK_IMAGE_ASPECT_DEPTH_BIT);
  if (depthStencil->aspects & VK_IMAGE_ASPECT_STENCIL_BIT)
    copy(depthStencil->stencil, depthStencil->image.image,
         VK_IMAGE_ASPECT_STENCIL_BIT);
}

llvm::Expected<DrawResult> DrawSession::run(const DrawJob &job) {
  if (!job.vertex)
    return makeError("error: vulkan: a draw needs a vertex shader");
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
  llvm::SmallVector<const SpirvBinary *, 5> modules{job.vertex};
  for (const SpirvBinary *module :
       {job.tessControl, job.tessEvaluation, job.geometry, job.fragment})
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

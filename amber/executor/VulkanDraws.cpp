//===- VulkanDraws.cpp - An Amber draw through the Vulkan API -------------===//
//
// The runtime's description of a draw (GraphicsPipeline.h) becomes a
// vulkan::DrawJob: each vertex attribute its own vertex buffer, each
// attachment its current texels, each recorded descriptor a binding of the
// kind the shaders' reflection gives it.
//
//===----------------------------------------------------------------------===//
#include "VulkanDraws.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/vulkan/VulkanDraw.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;
using namespace spvb::amber;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--backend=vulkan: " + message.str());
}

namespace {

/// The draw's shaders in pipeline order, those it has.
llvm::SmallVector<const StageModule *, 5>
getStages(const VulkanDrawInput &input) {
  llvm::SmallVector<const StageModule *, 5> stages;
  for (const StageModule *stage :
       {&input.vertex, &input.tessControl, &input.tessEvaluation,
        &input.geometry, &input.fragment})
    if (stage->binary)
      stages.push_back(stage);
  return stages;
}

const ResourceInfo *findResource(const VulkanDrawInput &input, uint32_t set,
                                 uint32_t binding) {
  for (const StageModule *stage : getStages(input))
    if (const ResourceInfo *resource =
            stage->kernel->reflection.findResource(set, binding))
      return resource;
  return nullptr;
}

/// Where each recorded descriptor's bytes go back after the draw.
struct WriteBack {
  uint8_t *to;
  uint64_t size;
};

/// The descriptors the shaders use, as the job's bindings.
llvm::Error addBindings(const VulkanDrawInput &input, vulkan::DrawJob &job,
                        std::vector<WriteBack> &buffers,
                        std::vector<WriteBack> &images) {
  const RecordedBindings &recorded = *input.bindings;
  // Each binding's array is as long as its highest bound element.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> arraySizes;
  auto count = [&](const RecordedBindings::Key &key) {
    uint32_t &size = arraySizes[{std::get<0>(key), std::get<1>(key)}];
    size = std::max(size, std::get<2>(key) + 1);
  };
  for (const auto &entry : recorded.buffers)
    count(entry.first);
  for (const auto &entry : recorded.images)
    count(entry.first);
  for (const auto &entry : recorded.samplers)
    count(entry.first);
  auto arraySize = [&](const RecordedBindings::Key &key) {
    return arraySizes[{std::get<0>(key), std::get<1>(key)}];
  };

  for (const auto &[key, where] : recorded.buffers) {
    auto [set, binding, element] = key;
    const ResourceInfo *resource = findResource(input, set, binding);
    // A binding no shader declares needs no descriptor.
    if (!resource || !where.second)
      continue;
    vulkan::BufferBinding &made = job.buffers.emplace_back();
    made.set = set;
    made.binding = binding;
    made.arrayElement = element;
    made.arraySize = arraySize(key);
    made.uniform = resource->kind == ResourceKind::UniformBuffer;
    made.initial = llvm::ArrayRef<uint8_t>(where.first, where.second);
    buffers.push_back({where.first, where.second});
  }
  for (const auto &[key, image] : recorded.images) {
    auto [set, binding, element] = key;
    const ResourceInfo *resource = findResource(input, set, binding);
    if (!resource)
      continue;
    using Kind = vulkan::ImageBinding::Kind;
    std::optional<Kind> kind;
    switch (resource->kind) {
    case ResourceKind::StorageImage:
      kind = Kind::StorageImage;
      break;
    case ResourceKind::SampledImage:
      kind = Kind::SampledImage;
      break;
    case ResourceKind::CombinedImageSampler:
      kind = Kind::CombinedImageSampler;
      break;
    case ResourceKind::UniformTexelBuffer:
      kind = Kind::UniformTexelBuffer;
      break;
    case ResourceKind::StorageTexelBuffer:
      kind = Kind::StorageTexelBuffer;
      break;
    default:
      break;
    }
    const runtime::ImageFormat *format = runtime::getImageFormat(image->format);
    if (!kind || !format || image->samples > 1)
      return makeError(llvm::formatv(
          "the {0} at set {1}, binding {2} is not carried to the Vulkan "
          "driver (only single-sample images, texel buffers and samplers "
          "are)",
          getResourceKindName(resource->kind), set, binding));
    vulkan::ImageBinding &made = job.images.emplace_back();
    made.set = set;
    made.binding = binding;
    made.arrayElement = element;
    made.arraySize = arraySize(key);
    made.kind = *kind;
    made.format = image->format;
    made.formatName = format->name;
    made.dim = resource->image ? resource->image->dim
                               : static_cast<spv::Dim>(image->dim);
    made.arrayed = resource->image && resource->image->arrayed;
    made.extent = {image->extent[0], image->extent[1], image->extent[2]};
    made.layers = std::max(1u, image->layers);
    made.levels = std::max(1u, image->levels);
    if (image->sampler)
      made.sampler = *image->sampler;
    // The texels of the levels the descriptor has, packed.
    uint64_t bytes = 0;
    for (uint32_t level = 0; level < made.levels; ++level)
      bytes += uint64_t(std::max(1u, made.extent[0] >> level)) *
               std::max(1u, made.extent[1] >> level) *
               std::max(1u, made.extent[2] >> level) * made.layers *
               format->texelBytes;
    if (bytes > image->size)
      return makeError(llvm::formatv("the image at set {0}, binding {1} has "
                                     "{2} bytes, fewer than its {3} texel "
                                     "bytes",
                                     set, binding, image->size, bytes));
    made.initial = llvm::ArrayRef<uint8_t>(image->data, bytes);
    images.push_back({image->data, bytes});
  }
  for (const auto &[key, sampler] : recorded.samplers) {
    auto [set, binding, element] = key;
    if (!findResource(input, set, binding))
      continue;
    vulkan::SamplerBinding &made = job.samplers.emplace_back();
    made.set = set;
    made.binding = binding;
    made.arrayElement = element;
    made.arraySize = arraySize(key);
    made.settings = *sampler;
  }
  return llvm::Error::success();
}

/// The stages' specializations as one list (the job specializes every
/// stage with it); one SpecId with two values is refused.
llvm::Error mergeSpecializations(const VulkanDrawInput &input,
                                 std::vector<SpecConstantValue> &merged) {
  for (const StageModule *stage : getStages(input))
    for (const SpecConstantValue &value : stage->specializations) {
      auto same = llvm::find_if(merged, [&](const SpecConstantValue &other) {
        return other.id == value.id;
      });
      if (same == merged.end()) {
        merged.push_back(value);
        continue;
      }
      if (same->words != value.words)
        return makeError(llvm::formatv("SpecId {0} has a different value in "
                                       "two stages",
                                       value.id));
    }
  return llvm::Error::success();
}

} // namespace

/// The size of the images behind the attachments, which may exceed the
/// framebuffer's; none when they differ or have several samples.
std::optional<VkExtent2D> getImageSize(const runtime::RenderTarget &target) {
  std::optional<VkExtent2D> size;
  auto add = [&](const runtime::Attachment &attachment) {
    if (!attachment.data)
      return true;
    if (attachment.samples != 1 || attachment.width < target.width ||
        attachment.height < target.height)
      return false;
    VkExtent2D extent = {attachment.width, attachment.height};
    if (!size)
      size = extent;
    return size->width == extent.width && size->height == extent.height;
  };
  for (const runtime::Attachment &attachment : target.colors)
    if (!add(attachment))
      return std::nullopt;
  if (target.depthStencil && !add(*target.depthStencil))
    return std::nullopt;
  return size.value_or(VkExtent2D{target.width, target.height});
}

llvm::Error spvb::amber::runVulkanDraw(const VulkanDrawInput &input) {
  const runtime::RenderTarget &target = *input.target;
  // The images are drawn whole, within the framebuffer's viewport and
  // scissor, which the runtime's state leaves unset for the whole
  // framebuffer.
  std::optional<VkExtent2D> size = getImageSize(target);
  if (!size)
    return makeError(llvm::formatv(
        "the attachments are not carried to the Vulkan driver: only "
        "single-sample images of one size, at least the {0}x{1} "
        "framebuffer's, are",
        target.width, target.height));
  runtime::GraphicsState state = *input.state;
  if (!state.viewport)
    state.viewport =
        VkViewport{0, 0, float(target.width), float(target.height), 0, 1};
  VkRect2D framebuffer = {{0, 0}, {target.width, target.height}};
  VkRect2D scissor = state.scissor.value_or(framebuffer);
  int32_t x0 = std::max(scissor.offset.x, 0),
          y0 = std::max(scissor.offset.y, 0);
  int64_t x1 = std::min<int64_t>(
      int64_t(scissor.offset.x) + scissor.extent.width, target.width);
  int64_t y1 = std::min<int64_t>(
      int64_t(scissor.offset.y) + scissor.extent.height, target.height);
  state.scissor = VkRect2D{{x0, y0},
                           {uint32_t(std::max<int64_t>(0, x1 - x0)),
                            uint32_t(std::max<int64_t>(0, y1 - y0))}};
  const runtime::DrawCall &call = *input.call;
  vulkan::DrawJob job;
  job.vertex = input.vertex.binary;
  job.vertexEntry = input.vertex.entry;
  job.fragment = input.fragment.binary;
  job.fragmentEntry = input.fragment.entry;
  job.tessControl = input.tessControl.binary;
  job.tessControlEntry = input.tessControl.entry;
  job.tessEvaluation = input.tessEvaluation.binary;
  job.tessEvaluationEntry = input.tessEvaluation.entry;
  job.geometry = input.geometry.binary;
  job.geometryEntry = input.geometry.entry;
  std::vector<SpecConstantValue> specializations;
  if (llvm::Error error = mergeSpecializations(input, specializations))
    return error;
  job.specializations = specializations;
  job.width = size->width;
  job.height = size->height;
  job.state = &state;
  job.topology = state.topology;
  job.patchControlPoints = state.patchControlPoints;
  job.repeat = 1;
  job.robust = input.robust;

  // The attachments start from their current texels.
  for (const runtime::Attachment &resolve : target.resolves)
    if (resolve.data)
      return makeError("resolve attachments are not carried to the Vulkan "
                       "driver");
  std::vector<const runtime::Attachment *> colors;
  for (uint32_t location = 0; location < target.colors.size(); ++location) {
    const runtime::Attachment &attachment = target.colors[location];
    if (!attachment.data)
      continue;
    vulkan::ColorAttachment &made = job.attachments.emplace_back();
    made.location = location;
    made.format = attachment.format->format;
    made.initial = llvm::ArrayRef<uint8_t>(attachment.data,
                                           uint64_t(job.width) * job.height *
                                               attachment.format->texelBytes);
    colors.push_back(&attachment);
  }
  if (target.depthStencil && target.depthStencil->data) {
    const runtime::Attachment &depth = *target.depthStencil;
    job.depthStencil = vulkan::DepthStencilAttachment{
        depth.format->format,
        llvm::ArrayRef<uint8_t>(depth.data, uint64_t(job.width) * job.height *
                                                depth.format->texelBytes)};
  }

  // Each attribute reads its own vertex buffer; of two at one Location the
  // last counts, as in the runtime.
  for (auto [index, attribute] : llvm::enumerate(input.attributes)) {
    if (llvm::any_of(input.attributes.drop_front(index + 1),
                     [&](const runtime::VertexAttribute &later) {
                       return later.location == attribute.location;
                     }))
      continue;
    if (!attribute.size)
      return makeError(llvm::formatv("vertex attribute {0} has no data",
                                     attribute.location));
    uint32_t binding = static_cast<uint32_t>(index);
    job.vertexBuffers.push_back(
        {binding, attribute.stride, attribute.perInstance,
         llvm::ArrayRef<uint8_t>(attribute.data, attribute.size)});
    job.attributes.push_back({attribute.location, binding,
                              attribute.format->format, attribute.offset});
  }
  job.instanceCount = call.instanceCount;
  job.firstVertex = call.firstVertex;
  job.vertexOffset = call.vertexOffset;
  job.firstInstance = call.firstInstance;
  // One-byte indices (VK_EXT_index_type_uint8) go as 16-bit ones, the
  // restart index 0xff as 0xffff.
  std::vector<uint16_t> wideIndices;
  if (call.indices) {
    if (call.indexSize == 1) {
      for (uint64_t i = 0; i < call.indexBytes; ++i)
        wideIndices.push_back(call.indices[i] == 0xff && state.primitiveRestart
                                  ? 0xffff
                                  : call.indices[i]);
      job.indices = llvm::ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(wideIndices.data()),
          wideIndices.size() * 2);
      job.indexType = VK_INDEX_TYPE_UINT16;
    } else {
      job.indices = llvm::ArrayRef<uint8_t>(call.indices, call.indexBytes);
      job.indexType =
          call.indexSize == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
    }
    job.indexCount = call.vertexCount;
  } else {
    job.vertexCount = call.vertexCount;
  }

  std::vector<WriteBack> buffers, images;
  if (llvm::Error error = addBindings(input, job, buffers, images))
    return error;
  job.pushConstants = input.pushConstants;

  llvm::Expected<vulkan::DrawResult> drawn = vulkan::runDraw(job);
  if (!drawn)
    return drawn.takeError();
  for (size_t i = 0; i < colors.size(); ++i)
    std::memcpy(colors[i]->data, drawn->attachments[i].data(),
                drawn->attachments[i].size());
  if (job.depthStencil)
    std::memcpy(target.depthStencil->data, drawn->depthStencil.data(),
                drawn->depthStencil.size());
  for (size_t i = 0; i < buffers.size(); ++i)
    std::memcpy(buffers[i].to, drawn->buffers[i].data(),
                std::min<uint64_t>(buffers[i].size, drawn->buffers[i].size()));
  for (size_t i = 0; i < images.size(); ++i)
    std::memcpy(images[i].to, drawn->images[i].data(),
                std::min<uint64_t>(images[i].size, drawn->images[i].size()));
  return llvm::Error::success();
}

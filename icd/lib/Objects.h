//===- Objects.h - The ICD's Vulkan objects ---------------------*- C++ -*-===//
//
// One struct per Vulkan object, as SwiftShader's src/Vulkan has. Dispatchable
// objects (instance, physical device, device, queue, command buffer) begin
// with the loader's data: the loader writes its dispatch table pointer
// there, and checks ICD_LOADER_MAGIC first (vulkan/vk_icd.h). Handles are
// pointers to these structs; non-dispatchable handles are 64-bit on every
// platform we build for, so they are pointers too.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_OBJECTS_H
#define SPVBRIDGE_ICD_LIB_OBJECTS_H

#include "Environment.h"

#include "spvbridge/bridge/DeviceLimits.h"
#include "spvbridge/bridge/Draw.h"
#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/Launcher.h"
#include "spvbridge/cpu_runtime/Watchdog.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <variant>
#include <vector>

namespace spvb::icd {

struct DispatchableObject {
  DispatchableObject() { set_loader_magic_value(&loaderData); }
  VK_LOADER_DATA loaderData;
};

struct Instance;

struct PhysicalDevice : DispatchableObject {
  Instance *instance = nullptr;
  /// Everything read from SPVB_* (Environment.h): the limit profile the
  /// device reports and dispatches meet, the subgroup size, the checks.
  Environment environment;
};

struct DebugMessenger {
  VkDebugUtilsMessageSeverityFlagsEXT severities = 0;
  VkDebugUtilsMessageTypeFlagsEXT types = 0;
  PFN_vkDebugUtilsMessengerCallbackEXT callback = nullptr;
  void *userData = nullptr;
};

struct Instance : DispatchableObject {
  std::unique_ptr<PhysicalDevice> physicalDevice;
  std::mutex messengerMutex;
  std::vector<DebugMessenger *> messengers;
};

struct Device;

/// An object a command may name after the application destroyed it: the
/// device keeps it, marked, for a while (Quarantine), so that the command
/// reports the destroyed handle instead of reading freed memory.
struct DestructibleObject {
  virtual ~DestructibleObject() = default;
  bool destroyed = false;
};

/// Destroyed objects, marked and kept until kKept later ones push them
/// out: a handle used soon after its destruction, the usual mistake, is
/// reported; one used much later may not be.
class Quarantine {
public:
  static constexpr size_t kKept = 4096;
  /// Marks \p object destroyed and keeps it (null: nothing).
  void retire(DestructibleObject *object);

private:
  std::mutex mutex;
  std::deque<std::unique_ptr<DestructibleObject>> objects;
};

struct Queue : DispatchableObject {
  Device *device = nullptr;
  uint32_t family = 0;
  uint32_t index = 0;
};

struct Buffer;
struct CommandBuffer;
struct Fence;
struct Semaphore;
struct Event;
struct Image;
struct QueryPool;

struct Device : DispatchableObject {
  PhysicalDevice *physicalDevice = nullptr;
  std::vector<std::unique_ptr<Queue>> queues;
  /// Compiles pipelines; one per device, as each holds its own JIT.
  std::unique_ptr<JitCompiler> compiler;
  /// Compiles each pipeline's debug build under SPVB_DEBUG_INVOCATION.
  std::unique_ptr<JitCompiler> debugCompiler;
  /// The environment's checks, plus robust access when the application
  /// enables it.
  CompileOptions compileOptions;
  /// Runs dispatches on the runtime's threads, one submission at a time.
  std::unique_ptr<runtime::Launcher> launcher;
  /// Stops a dispatch that runs past SPVB_TIMEOUT.
  std::unique_ptr<runtime::Watchdog> watchdog;

  /// The queue's thread runs submissions in order while vkQueueSubmit has
  /// returned (Queue.cpp); everything below `mutex` guards.
  std::thread queueThread;
  std::mutex mutex;
  std::condition_variable changed;
  /// A VkSubmitInfo: its command buffers run once every semaphore it waits
  /// for has its value, then it signals its own.
  struct SemaphoreValue {
    Semaphore *semaphore;
    uint64_t value;
  };
  struct Batch {
    std::vector<SemaphoreValue> waits;
    std::vector<const CommandBuffer *> commandBuffers;
    std::vector<SemaphoreValue> signals;
  };
  struct Submission {
    std::vector<Batch> batches;
    Fence *fence = nullptr;
  };
  std::deque<Submission> pending;
  /// A submission is running (popped from `pending`, not finished).
  bool running = false;
  bool stopping = false;
  /// Set once a submission failed: every later submit and wait reports
  /// VK_ERROR_DEVICE_LOST, as a lost GPU does.
  bool lost = false;

  /// VK_EXT_debug_utils names by object handle, for messages.
  std::mutex namesMutex;
  std::map<uint64_t, std::string> objectNames;
  /// Shader modules created so far: "shader module N" names them.
  std::atomic<uint64_t> shaderModuleCount{0};

  /// Buffers created for VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, named
  /// in the message of a fault a shader makes through an address; guarded
  /// by namesMutex.
  std::set<const Buffer *> addressableBuffers;

  /// VK_EXT_private_data: (object type, handle, slot) -> the data.
  std::mutex privateDataMutex;
  std::map<std::tuple<VkObjectType, uint64_t, const void *>, uint64_t>
      privateData;

  /// Last, so that its objects go before the compiler and launcher.
  Quarantine quarantine;
};

struct DeviceMemory {
  uint8_t *data = nullptr;
  VkDeviceSize size = 0;
  /// The bytes mapped at `data` (size rounded up).
  VkDeviceSize mappedSize = 0;
};

struct Buffer : DestructibleObject {
  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = 0;
  DeviceMemory *memory = nullptr;
  VkDeviceSize memoryOffset = 0;
  uint8_t *getData() const {
    return memory ? memory->data + memoryOffset : nullptr;
  }
};

/// Texels laid out as the runtime reads them (kernel_abi.h's spvb_image):
/// tightly packed, x fastest, then y, z and the array layer; the mip levels
/// follow each other, each with all its layers. Linear and optimal tiling
/// are the same.
struct Image : DestructibleObject {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  /// The SPIR-V ImageFormat of its texels, or 0 (Unknown) for a format
  /// shaders do not read yet (Formats.h).
  uint32_t spirvFormat = 0;
  unsigned texelBytes = 0;
  VkExtent3D extent = {1, 1, 1};
  uint32_t levels = 1;
  uint32_t layers = 1;
  /// 1 or 4; a texel's samples are adjacent (kernel_abi.h's spvb_image).
  uint32_t samples = 1;
  VkImageUsageFlags usage = 0;
  VkDeviceSize size = 0;
  DeviceMemory *memory = nullptr;
  VkDeviceSize memoryOffset = 0;

  VkExtent3D getLevelExtent(uint32_t level) const {
    return {std::max(1u, extent.width >> level),
            std::max(1u, extent.height >> level),
            std::max(1u, extent.depth >> level)};
  }
  /// Bytes of one layer of \p level.
  VkDeviceSize getLayerSize(uint32_t level) const {
    VkExtent3D e = getLevelExtent(level);
    return VkDeviceSize(e.width) * e.height * e.depth * getTexelStride();
  }
  /// Bytes from one texel to the next: its samples.
  VkDeviceSize getTexelStride() const {
    return VkDeviceSize(texelBytes) * samples;
  }
  /// Where \p level's layer \p layer starts, from the image's start.
  VkDeviceSize getOffset(uint32_t level, uint32_t layer) const {
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < level; ++l)
      offset += getLayerSize(l) * layers;
    return offset + getLayerSize(level) * layer;
  }
  uint8_t *getData() const {
    return memory ? memory->data + memoryOffset : nullptr;
  }
};

/// A view is the runtime's image descriptor, made when the view is (its
/// image's memory is bound by then).
struct ImageView : DestructibleObject {
  Image *image = nullptr;
  VkFormat format = VK_FORMAT_UNDEFINED;
  spvb_image descriptor = {};
};

struct BufferView : DestructibleObject {
  Buffer *buffer = nullptr;
  spvb_image descriptor = {};
};

struct Sampler : DestructibleObject {
  spvb_sampler descriptor = {};
};

struct ShaderModule {
  SpirvBinary binary;
};

struct DescriptorSetLayout {
  struct Binding {
    VkDescriptorType type;
    uint32_t count;
    /// pImmutableSamplers, one per element, or none.
    std::vector<Sampler *> immutableSamplers;
    /// VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT: elements the shader does
    /// not reach may stay unwritten.
    bool partiallyBound = false;
    /// VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT: `count` is the
    /// most a set may allocate; each set has its own count.
    bool variableCount = false;
  };
  std::map<uint32_t, Binding> bindings;
};

/// One descriptor: a buffer range (storage, uniform, dynamic ones), an
/// image view (with a sampler when combined), a sampler or a texel
/// buffer's view; what its type does not use stays null.
struct Descriptor {
  Buffer *buffer = nullptr;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;
  ImageView *imageView = nullptr;
  Sampler *sampler = nullptr;
  BufferView *bufferView = nullptr;
};

struct DescriptorSet : DestructibleObject {
  const DescriptorSetLayout *layout = nullptr;
  /// The element count of the layout's variable-count binding, as allocated.
  uint32_t variableCount = 0;
  /// (binding, array element) -> descriptor.
  std::map<std::pair<uint32_t, uint32_t>, Descriptor> descriptors;
  /// Inline uniform blocks' bytes by binding (their descriptor count is
  /// their size), zero until written.
  std::map<uint32_t, std::vector<uint8_t>> inlineBlocks;
};

struct DescriptorPool {
  std::vector<std::unique_ptr<DescriptorSet>> sets;
};

struct PipelineLayout {
  std::vector<const DescriptorSetLayout *> setLayouts;
  uint32_t pushConstantSize = 0;
};

/// A render pass's attachments and subpasses, from either version of
/// vkCreateRenderPass; vkCmdBeginRendering makes one of one subpass.
struct RenderPass {
  struct Attachment {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkAttachmentLoadOp loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    VkAttachmentLoadOp stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  };
  struct Subpass {
    /// Attachment indices by Location; VK_ATTACHMENT_UNUSED for none.
    std::vector<uint32_t> colors;
    /// Where each colour attachment resolves at the end of the subpass, by
    /// Location (empty: none do).
    std::vector<uint32_t> resolves;
    uint32_t depthStencil = VK_ATTACHMENT_UNUSED;
    /// Where the depth/stencil attachment resolves, and how each aspect
    /// does (VK_RESOLVE_MODE_NONE: not at all).
    uint32_t depthStencilResolve = VK_ATTACHMENT_UNUSED;
    VkResolveModeFlagBits depthResolveMode = VK_RESOLVE_MODE_NONE;
    VkResolveModeFlagBits stencilResolveMode = VK_RESOLVE_MODE_NONE;
  };
  std::vector<Attachment> attachments;
  std::vector<Subpass> subpasses;
};

struct Framebuffer {
  /// Empty for an imageless framebuffer: vkCmdBeginRenderPass names them.
  std::vector<ImageView *> attachments;
  VkExtent2D extent = {0, 0};
};

/// What a graphics pipeline fixes: its shaders, the state the runtime
/// draws with, the vertex input, and which state commands set instead.
struct GraphicsPipelineState {
  DrawShaders shaders;
  /// Under SPVB_DEBUG: the stages' debug builds.
  DrawShaders debugShaders;
  runtime::GraphicsState state;
  std::vector<VkVertexInputAttributeDescription> attributes;
  /// By binding number.
  std::map<uint32_t, VkVertexInputBindingDescription> bindings;
  std::set<VkDynamicState> dynamicStates;
  /// rasterizationSamples, which draws without attachments take.
  uint32_t samples = 1;
};

struct Pipeline : DestructibleObject {
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  /// Graphics pipelines: everything but the kernels below, which only
  /// compute pipelines have.
  std::shared_ptr<const GraphicsPipelineState> graphics;
  std::shared_ptr<const Kernel> kernel;
  /// Under SPVB_DEBUG_INVOCATION: the build that invocation runs through.
  std::shared_ptr<const Kernel> debugKernel;
  /// VK_EXT_subgroup_size_control's required size; 0: the device's.
  uint32_t subgroupSize = 0;
};

/// Recorded commands, replayed in order at submission.
namespace command {
struct BindPipeline {
  VkPipelineBindPoint bindPoint;
  Pipeline *pipeline;
};
struct BindDescriptorSets {
  VkPipelineBindPoint bindPoint;
  uint32_t firstSet;
  std::vector<DescriptorSet *> sets;
  /// One per dynamic descriptor of the sets, in set, binding and element
  /// order.
  std::vector<uint32_t> dynamicOffsets;
  /// A push descriptor set (VK_KHR_push_descriptor), which the command
  /// owns; sets holds it too.
  std::shared_ptr<DescriptorSet> pushed;
};
struct PushConstants {
  uint32_t offset;
  std::vector<uint8_t> bytes;
};
struct Dispatch {
  std::array<uint32_t, 3> base;
  std::array<uint32_t, 3> groups;
};
struct DispatchIndirect {
  Buffer *buffer;
  VkDeviceSize offset;
};
struct CopyBuffer {
  Buffer *source;
  Buffer *destination;
  std::vector<VkBufferCopy> regions;
};
struct FillBuffer {
  Buffer *buffer;
  VkDeviceSize offset;
  VkDeviceSize size;
  uint32_t data;
};
struct UpdateBuffer {
  Buffer *buffer;
  VkDeviceSize offset;
  std::vector<uint8_t> bytes;
};
/// vkCmdSetEvent (set) and vkCmdResetEvent.
struct SetEvent {
  Event *event;
  bool set;
};
struct WaitEvents {
  std::vector<Event *> events;
};
struct WriteTimestamp {
  QueryPool *pool;
  uint32_t query;
};
struct ResetQueryPool {
  QueryPool *pool;
  uint32_t firstQuery;
  uint32_t queryCount;
};
/// vkCmdBeginQuery (begin) and vkCmdEndQuery.
struct Query {
  QueryPool *pool;
  uint32_t query;
  bool begin;
};
struct CopyQueryPoolResults {
  QueryPool *pool;
  uint32_t firstQuery;
  uint32_t queryCount;
  Buffer *buffer;
  VkDeviceSize offset;
  VkDeviceSize stride;
  VkQueryResultFlags flags;
};
/// vkCmdCopyBufferToImage (toImage) and vkCmdCopyImageToBuffer.
struct CopyBufferImage {
  Buffer *buffer;
  Image *image;
  bool toImage;
  std::vector<VkBufferImageCopy> regions;
};
struct CopyImage {
  Image *source;
  Image *destination;
  std::vector<VkImageCopy> regions;
};
/// Both versions of vkCmdBlitImage.
struct BlitImage {
  Image *source;
  Image *destination;
  std::vector<VkImageBlit> regions;
  VkFilter filter;
};
/// Both versions of vkCmdResolveImage.
struct ResolveImage {
  Image *source;
  Image *destination;
  std::vector<VkImageResolve> regions;
};
/// vkCmdClearColorImage and vkCmdClearDepthStencilImage (the ranges'
/// aspects say which of depth and stencil).
struct ClearImage {
  Image *image;
  VkClearValue value;
  bool depthStencil;
  std::vector<VkImageSubresourceRange> ranges;
};
struct ExecuteCommands {
  std::vector<const CommandBuffer *> commandBuffers;
};
/// Both versions of vkCmdBeginRenderPass, and vkCmdBeginRendering, which
/// owns the one-subpass render pass it makes.
struct BeginRenderPass {
  const char *name;
  std::shared_ptr<const RenderPass> owned;
  const RenderPass *renderPass;
  /// The framebuffer's attachments, or the imageless framebuffer's views.
  std::vector<ImageView *> attachments;
  VkExtent2D extent;
  VkRect2D renderArea;
  std::vector<VkClearValue> clearValues;
};
struct NextSubpass {};
/// vkCmdEndRenderPass (both versions) and vkCmdEndRendering.
struct EndRenderPass {};
struct BindVertexBuffers {
  uint32_t firstBinding;
  std::vector<Buffer *> buffers;
  std::vector<VkDeviceSize> offsets;
  /// vkCmdBindVertexBuffers2: sizes (VK_WHOLE_SIZE: to the end) and
  /// strides, when given.
  std::vector<VkDeviceSize> sizes, strides;
};
struct BindIndexBuffer {
  Buffer *buffer;
  VkDeviceSize offset;
  VkIndexType type;
};
/// vkCmdDraw and vkCmdDrawIndexed.
struct Draw {
  bool indexed;
  uint32_t count;
  uint32_t instanceCount;
  uint32_t first;
  int32_t vertexOffset;
  uint32_t firstInstance;
};
/// The indirect draws, with a count from a buffer or not.
struct DrawIndirect {
  bool indexed;
  Buffer *buffer;
  VkDeviceSize offset;
  uint32_t drawCount;
  uint32_t stride;
  Buffer *countBuffer;
  VkDeviceSize countOffset;
};
struct ClearAttachments {
  std::vector<VkClearAttachment> attachments;
  std::vector<VkClearRect> rects;
};
/// One vkCmdSet* command: what it writes into the state a draw runs with,
/// applied when the bound pipeline has `state` dynamic.
struct SetDynamicState {
  VkDynamicState state;
  std::function<void(runtime::GraphicsState &)> apply;
};
} // namespace command

using Command = std::variant<
    command::BindPipeline, command::BindDescriptorSets, command::PushConstants,
    command::Dispatch, command::DispatchIndirect, command::CopyBuffer,
    command::FillBuffer, command::UpdateBuffer, command::SetEvent,
    command::WaitEvents, command::WriteTimestamp, command::ResetQueryPool,
    command::Query, command::CopyQueryPoolResults, command::CopyBufferImage,
    command::CopyImage, command::BlitImage, command::ResolveImage,
    command::ClearImage, command::ExecuteCommands, command::BeginRenderPass,
    command::NextSubpass, command::EndRenderPass, command::BindVertexBuffers,
    command::BindIndexBuffer, command::Draw, command::DrawIndirect,
    command::ClearAttachments, command::SetDynamicState>;

struct CommandBuffer : DispatchableObject {
  Device *device = nullptr;
  VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  std::vector<Command> commands;
};

struct CommandPool {
  std::vector<std::unique_ptr<CommandBuffer>> buffers;
};

struct Fence {
  /// Its device's mutex guards `signaled`.
  Device *device = nullptr;
  bool signaled = false;
};

/// A binary semaphore holds 0 or 1, a timeline semaphore its counter; the
/// device's mutex guards `value`, and `changed` tells its waiters.
struct Semaphore {
  Device *device = nullptr;
  bool timeline = false;
  uint64_t value = 0;
};

/// Set and reset by the host and by commands; the device's mutex guards
/// `set`.
struct Event : DestructibleObject {
  Device *device = nullptr;
  bool set = false;
};

struct QueryPool : DestructibleObject {
  VkQueryType type = VK_QUERY_TYPE_TIMESTAMP;
  /// The statistics a pipeline-statistics query counts, in bit order.
  VkQueryPipelineStatisticFlags statistics = 0;
  /// Per query: one value per counted statistic (one for timestamps). The
  /// device's mutex guards the values and `available`.
  std::vector<std::vector<uint64_t>> values;
  std::vector<bool> available;
};

template <typename Object, typename Handle> Object *fromHandle(Handle handle) {
  return reinterpret_cast<Object *>(handle);
}
template <typename Handle, typename Object> Handle toHandle(Object *object) {
  return reinterpret_cast<Handle>(object);
}

/// The structure of type \p type in the pNext chain \p next, or null.
template <typename Struct>
const Struct *findInChain(const void *next, VkStructureType type) {
  for (auto *entry = static_cast<const VkBaseInStructure *>(next); entry;
       entry = entry->pNext)
    if (entry->sType == type)
      return reinterpret_cast<const Struct *>(entry);
  return nullptr;
}

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_OBJECTS_H

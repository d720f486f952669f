//===- GraphicsPipelines.cpp - vkCreateGraphicsPipelines ------------------===//
//
// Each stage compiled for its execution model (StageCompile.h), and the
// create info's fixed-function state turned into the runtime's
// GraphicsState. State a pipeline makes dynamic keeps the create info's
// value until a vkCmdSet* command replaces it at draw time.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"
#include "PipelineCreation.h"
#include "StageCompile.h"

#include "llvm/Support/FormatVariadic.h"

using namespace spvb;
using namespace spvb::icd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The stage's execution model and its place in DrawShaders.
static llvm::Expected<std::pair<spv::ExecutionModel,
                                std::shared_ptr<const Kernel> DrawShaders::*>>
getStageSlot(VkShaderStageFlagBits stage) {
  switch (stage) {
  case VK_SHADER_STAGE_VERTEX_BIT:
    return std::pair(spv::ExecutionModelVertex, &DrawShaders::vertex);
  case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
    return std::pair(spv::ExecutionModelTessellationControl,
                     &DrawShaders::tessControl);
  case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
    return std::pair(spv::ExecutionModelTessellationEvaluation,
                     &DrawShaders::tessEvaluation);
  case VK_SHADER_STAGE_GEOMETRY_BIT:
    return std::pair(spv::ExecutionModelGeometry, &DrawShaders::geometry);
  case VK_SHADER_STAGE_FRAGMENT_BIT:
    return std::pair(spv::ExecutionModelFragment, &DrawShaders::fragment);
  default:
    return makeError(llvm::formatv("error: vkCreateGraphicsPipelines: shader "
                                   "stage {0:x} is not a graphics stage this "
                                   "device supports",
                                   unsigned(stage)));
  }
}

static runtime::StencilState getStencil(const VkStencilOpState &op) {
  runtime::StencilState state;
  state.failOp = op.failOp;
  state.passOp = op.passOp;
  state.depthFailOp = op.depthFailOp;
  state.compareOp = op.compareOp;
  state.compareMask = op.compareMask;
  state.writeMask = op.writeMask;
  state.reference = op.reference;
  return state;
}

/// Whether the subpass or the dynamic rendering \p info draws in has a
/// depth/stencil attachment: otherwise pDepthStencilState is ignored and
/// may point anywhere.
static bool hasDepthStencil(const VkGraphicsPipelineCreateInfo &info) {
  if (const RenderPass *pass = fromHandle<RenderPass>(info.renderPass))
    return info.subpass < pass->subpasses.size() &&
           pass->subpasses[info.subpass].depthStencil != VK_ATTACHMENT_UNUSED;
  auto *rendering = findInChain<VkPipelineRenderingCreateInfo>(
      info.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  return rendering &&
         (rendering->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
          rendering->stencilAttachmentFormat != VK_FORMAT_UNDEFINED);
}

/// The fixed-function state of \p info. Vulkan lets an application leave
/// garbage in the state pointers the pipeline ignores (tessellation state
/// without tessellation shaders, depth/stencil state without such an
/// attachment), and in the viewports and scissors it sets dynamically: none
/// of those is read.
static llvm::Error getState(const VkGraphicsPipelineCreateInfo &info,
                            GraphicsPipelineState &pipeline) {
  runtime::GraphicsState &state = pipeline.state;
  bool tessellation = false;
  for (uint32_t i = 0; i < info.stageCount; ++i)
    tessellation |=
        info.pStages[i].stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  if (const VkPipelineDynamicStateCreateInfo *dynamic = info.pDynamicState)
    pipeline.dynamicStates.insert(dynamic->pDynamicStates,
                                  dynamic->pDynamicStates +
                                      dynamic->dynamicStateCount);
  if (const VkPipelineVertexInputStateCreateInfo *input =
          info.pVertexInputState) {
    pipeline.attributes.assign(input->pVertexAttributeDescriptions,
                               input->pVertexAttributeDescriptions +
                                   input->vertexAttributeDescriptionCount);
    for (uint32_t i = 0; i < input->vertexBindingDescriptionCount; ++i)
      pipeline.bindings[input->pVertexBindingDescriptions[i].binding] =
          input->pVertexBindingDescriptions[i];
    if (findInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
            input->pNext,
            VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT))
      return makeError("error: vkCreateGraphicsPipelines: vertex attribute "
                       "divisors are not supported");
  }
  if (const VkPipelineInputAssemblyStateCreateInfo *assembly =
          info.pInputAssemblyState) {
    state.topology = assembly->topology;
    state.primitiveRestart = assembly->primitiveRestartEnable;
  }
  if (const VkPipelineTessellationStateCreateInfo *patches =
          tessellation ? info.pTessellationState : nullptr) {
    state.patchControlPoints = patches->patchControlPoints;
    if (auto *origin = findInChain<
            VkPipelineTessellationDomainOriginStateCreateInfo>(
            patches->pNext,
            VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO))
      state.tessellationDomainOrigin = origin->domainOrigin;
  }
  if (const VkPipelineRasterizationStateCreateInfo *raster =
          info.pRasterizationState) {
    state.depthClamp = raster->depthClampEnable;
    state.rasterizerDiscard = raster->rasterizerDiscardEnable;
    state.polygonMode = raster->polygonMode;
    state.cullMode = raster->cullMode;
    state.frontFace = raster->frontFace;
    state.depthBias = raster->depthBiasEnable;
    state.depthBiasConstant = raster->depthBiasConstantFactor;
    state.depthBiasClamp = raster->depthBiasClamp;
    state.depthBiasSlope = raster->depthBiasSlopeFactor;
    state.lineWidth = raster->lineWidth;
  }
  // Without rasterization the remaining state is ignored (and may be null).
  if (state.rasterizerDiscard &&
      !pipeline.dynamicStates.count(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE))
    return llvm::Error::success();
  auto isDynamic = [&](VkDynamicState which) {
    return pipeline.dynamicStates.count(which) != 0;
  };
  if (const VkPipelineViewportStateCreateInfo *viewport = info.pViewportState) {
    bool viewportCount = !isDynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
    bool scissorCount = !isDynamic(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
    if ((viewportCount && viewport->viewportCount > 1) ||
        (scissorCount && viewport->scissorCount > 1))
      return makeError("error: vkCreateGraphicsPipelines: more than one "
                       "viewport (multiViewport is not supported)");
    if (viewportCount && !isDynamic(VK_DYNAMIC_STATE_VIEWPORT) &&
        viewport->viewportCount)
      state.viewport = viewport->pViewports[0];
    if (scissorCount && !isDynamic(VK_DYNAMIC_STATE_SCISSOR) &&
        viewport->scissorCount)
      state.scissor = viewport->pScissors[0];
  }
  if (const VkPipelineMultisampleStateCreateInfo *multisample =
          info.pMultisampleState) {
    // The runtime draws with its attachments' sample count, which must
    // be this one.
    if (multisample->rasterizationSamples != VK_SAMPLE_COUNT_1_BIT &&
        multisample->rasterizationSamples != VK_SAMPLE_COUNT_4_BIT)
      return makeError(llvm::formatv(
          "error: vkCreateGraphicsPipelines: {0} rasterization samples: only "
          "1 and 4 are supported (framebufferColorSampleCounts)",
          unsigned(multisample->rasterizationSamples)));
    pipeline.samples = multisample->rasterizationSamples;
    state.sampleShading = multisample->sampleShadingEnable;
    state.minSampleShading = multisample->minSampleShading;
    if (multisample->pSampleMask)
      state.sampleMask = multisample->pSampleMask[0];
    if (multisample->alphaToCoverageEnable)
      return makeError("error: vkCreateGraphicsPipelines: alpha to coverage "
                       "is not supported");
  }
  if (const VkPipelineDepthStencilStateCreateInfo *depth =
          hasDepthStencil(info) ? info.pDepthStencilState : nullptr) {
    state.depthTest = depth->depthTestEnable;
    state.depthWrite = depth->depthWriteEnable;
    state.depthCompare = depth->depthCompareOp;
    state.depthBoundsTest = depth->depthBoundsTestEnable;
    state.minDepthBounds = depth->minDepthBounds;
    state.maxDepthBounds = depth->maxDepthBounds;
    state.stencilTest = depth->stencilTestEnable;
    state.front = getStencil(depth->front);
    state.back = getStencil(depth->back);
  }
  if (const VkPipelineColorBlendStateCreateInfo *blend =
          info.pColorBlendState) {
    state.logicOpEnable = blend->logicOpEnable;
    state.logicOp = blend->logicOp;
    for (uint32_t i = 0; i < blend->attachmentCount; ++i) {
      const VkPipelineColorBlendAttachmentState &from = blend->pAttachments[i];
      runtime::BlendState &to = state.blend.emplace_back();
      to.enable = from.blendEnable;
      to.srcColor = from.srcColorBlendFactor;
      to.dstColor = from.dstColorBlendFactor;
      to.colorOp = from.colorBlendOp;
      to.srcAlpha = from.srcAlphaBlendFactor;
      to.dstAlpha = from.dstAlphaBlendFactor;
      to.alphaOp = from.alphaBlendOp;
      to.writeMask = from.colorWriteMask;
    }
    std::copy(std::begin(blend->blendConstants),
              std::end(blend->blendConstants), state.blendConstants.begin());
  }
  return llvm::Error::success();
}

/// The pipeline \p info describes, compiled.
static llvm::Expected<std::shared_ptr<GraphicsPipelineState>>
makePipeline(Device &device, const VkGraphicsPipelineCreateInfo &info) {
  auto pipeline = std::make_shared<GraphicsPipelineState>();
  if (llvm::Error error = getState(info, *pipeline))
    return error;
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkPipelineShaderStageCreateInfo &stage = info.pStages[i];
    auto slot = getStageSlot(stage.stage);
    if (!slot)
      return slot.takeError();
    llvm::Expected<CompiledStage> compiled =
        compileStage(device, stage, slot->first);
    if (!compiled)
      return compiled.takeError();
    pipeline->shaders.*(slot->second) = std::move(compiled->kernel);
    pipeline->debugShaders.*(slot->second) = std::move(compiled->debugKernel);
  }
  // The stages must make a pipeline (a vertex shader, tessellation shaders
  // in pairs).
  llvm::Expected<Draw> draw = Draw::create(pipeline->shaders);
  if (!draw)
    return draw.takeError();
  return pipeline;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateGraphicsPipelines(
    VkDevice device, VkPipelineCache, uint32_t createInfoCount,
    const VkGraphicsPipelineCreateInfo *pCreateInfos,
    const VkAllocationCallbacks *, VkPipeline *pPipelines) {
  Device &owner = *fromHandle<Device>(device);
  return createPipelines<VkGraphicsPipelineCreateInfo>(
      owner, createInfoCount, pCreateInfos, pPipelines,
      [&](const VkGraphicsPipelineCreateInfo &info,
          Pipeline &pipeline) -> llvm::Error {
        llvm::Expected<std::shared_ptr<GraphicsPipelineState>> state =
            makePipeline(owner, info);
        if (!state)
          return state.takeError();
        pipeline.bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        pipeline.graphics = std::move(*state);
        return llvm::Error::success();
      });
}

} // extern "C"

//===- DynamicStateCommands.cpp - The vkCmdSet* commands ------------------===//
//
// Each records what it writes into the runtime's GraphicsState; a draw
// applies, in recording order, those of the states its pipeline makes
// dynamic (DrawExecution.cpp). One viewport and one scissor, as
// multiViewport is not reported.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EntryPoints.h"

using namespace spvb;
using namespace spvb::icd;

using State = runtime::GraphicsState;

static void set(VkCommandBuffer commandBuffer, VkDynamicState state,
                std::function<void(State &)> apply) {
  record(commandBuffer, command::SetDynamicState{state, std::move(apply)});
}

/// The stencil faces \p faces names, in \p state.
static void forFaces(State &state, VkStencilFaceFlags faces,
                     llvm::function_ref<void(runtime::StencilState &)> apply) {
  if (faces & VK_STENCIL_FACE_FRONT_BIT)
    apply(state.front);
  if (faces & VK_STENCIL_FACE_BACK_BIT)
    apply(state.back);
}

extern "C" {

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetViewport(VkCommandBuffer commandBuffer,
                                               uint32_t firstViewport,
                                               uint32_t viewportCount,
                                               const VkViewport *pViewports) {
  if (firstViewport != 0 || !viewportCount)
    return;
  VkViewport viewport = pViewports[0];
  set(commandBuffer, VK_DYNAMIC_STATE_VIEWPORT,
      [viewport](State &state) { state.viewport = viewport; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetViewportWithCount(
    VkCommandBuffer commandBuffer, uint32_t viewportCount,
    const VkViewport *pViewports) {
  if (!viewportCount)
    return;
  VkViewport viewport = pViewports[0];
  set(commandBuffer, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
      [viewport](State &state) { state.viewport = viewport; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetScissor(VkCommandBuffer commandBuffer,
                                              uint32_t firstScissor,
                                              uint32_t scissorCount,
                                              const VkRect2D *pScissors) {
  if (firstScissor != 0 || !scissorCount)
    return;
  VkRect2D scissor = pScissors[0];
  set(commandBuffer, VK_DYNAMIC_STATE_SCISSOR,
      [scissor](State &state) { state.scissor = scissor; });
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdSetScissorWithCount(VkCommandBuffer commandBuffer,
                            uint32_t scissorCount, const VkRect2D *pScissors) {
  if (!scissorCount)
    return;
  VkRect2D scissor = pScissors[0];
  set(commandBuffer, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
      [scissor](State &state) { state.scissor = scissor; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetLineWidth(VkCommandBuffer commandBuffer,
                                                float lineWidth) {
  set(commandBuffer, VK_DYNAMIC_STATE_LINE_WIDTH,
      [lineWidth](State &state) { state.lineWidth = lineWidth; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthBias(VkCommandBuffer commandBuffer,
                                                float constantFactor,
                                                float clamp,
                                                float slopeFactor) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_BIAS, [=](State &state) {
    state.depthBiasConstant = constantFactor;
    state.depthBiasClamp = clamp;
    state.depthBiasSlope = slopeFactor;
  });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetBlendConstants(
    VkCommandBuffer commandBuffer, const float blendConstants[4]) {
  std::array<float, 4> constants = {blendConstants[0], blendConstants[1],
                                    blendConstants[2], blendConstants[3]};
  set(commandBuffer, VK_DYNAMIC_STATE_BLEND_CONSTANTS,
      [constants](State &state) { state.blendConstants = constants; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthBounds(VkCommandBuffer commandBuffer,
                                                  float minDepthBounds,
                                                  float maxDepthBounds) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_BOUNDS, [=](State &state) {
    state.minDepthBounds = minDepthBounds;
    state.maxDepthBounds = maxDepthBounds;
  });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetStencilCompareMask(
    VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
    uint32_t compareMask) {
  set(commandBuffer, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, [=](State &state) {
    forFaces(state, faceMask, [&](runtime::StencilState &face) {
      face.compareMask = compareMask;
    });
  });
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdSetStencilWriteMask(VkCommandBuffer commandBuffer,
                            VkStencilFaceFlags faceMask, uint32_t writeMask) {
  set(commandBuffer, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, [=](State &state) {
    forFaces(state, faceMask,
             [&](runtime::StencilState &face) { face.writeMask = writeMask; });
  });
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdSetStencilReference(VkCommandBuffer commandBuffer,
                            VkStencilFaceFlags faceMask, uint32_t reference) {
  set(commandBuffer, VK_DYNAMIC_STATE_STENCIL_REFERENCE, [=](State &state) {
    forFaces(state, faceMask,
             [&](runtime::StencilState &face) { face.reference = reference; });
  });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetCullMode(VkCommandBuffer commandBuffer,
                                               VkCullModeFlags cullMode) {
  set(commandBuffer, VK_DYNAMIC_STATE_CULL_MODE,
      [cullMode](State &state) { state.cullMode = cullMode; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetFrontFace(VkCommandBuffer commandBuffer,
                                                VkFrontFace frontFace) {
  set(commandBuffer, VK_DYNAMIC_STATE_FRONT_FACE,
      [frontFace](State &state) { state.frontFace = frontFace; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetPrimitiveTopology(
    VkCommandBuffer commandBuffer, VkPrimitiveTopology primitiveTopology) {
  set(commandBuffer, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
      [primitiveTopology](State &state) {
        state.topology = primitiveTopology;
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthTestEnable(
    VkCommandBuffer commandBuffer, VkBool32 depthTestEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
      [depthTestEnable](State &state) { state.depthTest = depthTestEnable; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthWriteEnable(
    VkCommandBuffer commandBuffer, VkBool32 depthWriteEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
      [depthWriteEnable](State &state) {
        state.depthWrite = depthWriteEnable;
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthCompareOp(
    VkCommandBuffer commandBuffer, VkCompareOp depthCompareOp) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
      [depthCompareOp](State &state) { state.depthCompare = depthCompareOp; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthBoundsTestEnable(
    VkCommandBuffer commandBuffer, VkBool32 depthBoundsTestEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
      [depthBoundsTestEnable](State &state) {
        state.depthBoundsTest = depthBoundsTestEnable;
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetStencilTestEnable(
    VkCommandBuffer commandBuffer, VkBool32 stencilTestEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
      [stencilTestEnable](State &state) {
        state.stencilTest = stencilTestEnable;
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetStencilOp(VkCommandBuffer commandBuffer,
                                                VkStencilFaceFlags faceMask,
                                                VkStencilOp failOp,
                                                VkStencilOp passOp,
                                                VkStencilOp depthFailOp,
                                                VkCompareOp compareOp) {
  set(commandBuffer, VK_DYNAMIC_STATE_STENCIL_OP, [=](State &state) {
    forFaces(state, faceMask, [&](runtime::StencilState &face) {
      face.failOp = failOp;
      face.passOp = passOp;
      face.depthFailOp = depthFailOp;
      face.compareOp = compareOp;
    });
  });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetRasterizerDiscardEnable(
    VkCommandBuffer commandBuffer, VkBool32 rasterizerDiscardEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
      [rasterizerDiscardEnable](State &state) {
        state.rasterizerDiscard = rasterizerDiscardEnable;
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDepthBiasEnable(
    VkCommandBuffer commandBuffer, VkBool32 depthBiasEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
      [depthBiasEnable](State &state) { state.depthBias = depthBiasEnable; });
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetPrimitiveRestartEnable(
    VkCommandBuffer commandBuffer, VkBool32 primitiveRestartEnable) {
  set(commandBuffer, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
      [primitiveRestartEnable](State &state) {
        state.primitiveRestart = primitiveRestartEnable;
      });
}

} // extern "C"

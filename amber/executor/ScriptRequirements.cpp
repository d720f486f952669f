//===- ScriptRequirements.cpp - What a script needs that we lack ----------===//
#include "spvbridge/amber/ScriptRequirements.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"

using namespace spvb::amber;

/// VkPhysicalDeviceFeatures members and the feature structs' members (as
/// Amber names them) that the CPU runtime provides for compute shaders.
static const llvm::StringSet<> &getSupportedFeatures() {
  static const llvm::StringSet<> features = {
      "robustBufferAccess",
      // Vertex and fragment shaders write buffers and images (helper
      // invocations do not: conversion/HelperInvocations.h).
      "vertexPipelineStoresAndAtomics",
      "fragmentStoresAndAtomics",
      "fillModeNonSolid",
      "sampleRateShading",
      // The rasterizer's fixed functions (cpu_runtime/lib/graphics).
      "geometryShader",
      "tessellationShader",
      "fullDrawIndexUint32",
      "independentBlend",
      "depthClamp",
      "depthBiasClamp",
      "depthBounds",
      "IndexTypeUint8Features.indexTypeUint8",
      "DepthClampZeroOneFeatures.depthClampZeroOne",
      "PrimitiveTopologyListRestartFeatures.primitiveTopologyListRestart",
      "ShaderDemoteToHelperInvocationFeatures.shaderDemoteToHelperInvocation",
      "largePoints",
      "wideLines",
      "shaderFloat64",
      "shaderInt64",
      "shaderInt16",
      "shaderStorageImageExtendedFormats",
      "shaderStorageImageMultisample",
      "shaderStorageImageReadWithoutFormat",
      "shaderStorageImageWriteWithoutFormat",
      "shaderUniformBufferArrayDynamicIndexing",
      "shaderSampledImageArrayDynamicIndexing",
      "shaderStorageBufferArrayDynamicIndexing",
      "shaderStorageImageArrayDynamicIndexing",
      "shaderImageGatherExtended",
      "imageCubeArray",
      "VariablePointerFeatures.variablePointers",
      "VariablePointerFeatures.variablePointersStorageBuffer",
      "VariablePointersFeatures.variablePointers",
      "VariablePointersFeatures.variablePointersStorageBuffer",
      "Float16Int8Features.shaderFloat16",
      "Float16Int8Features.shaderInt8",
      "Storage8BitFeatures.storageBuffer8BitAccess",
      "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
      "Storage8BitFeatures.storagePushConstant8",
      "Storage16BitFeatures.storageBuffer16BitAccess",
      "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
      "Storage16BitFeatures.storagePushConstant16",
      "Storage16BitFeatures.storageInputOutput16",
      "SubgroupSizeControl.subgroupSizeControl",
      "SubgroupSizeControl.computeFullSubgroups",
      "SubgroupSupportedOperations.basic",
      "SubgroupSupportedOperations.vote",
      "SubgroupSupportedOperations.arithmetic",
      "SubgroupSupportedOperations.ballot",
      "SubgroupSupportedOperations.shuffle",
      "SubgroupSupportedOperations.shuffleRelative",
      "SubgroupSupportedOperations.clustered",
      "SubgroupSupportedOperations.quad",
      "SubgroupSupportedStages.compute",
      "SubgroupSupportedStages.fragment",
      "ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
      "VulkanMemoryModelFeatures.vulkanMemoryModel",
      "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
      "ZeroInitializeWorkgroupMemoryFeatures."
      "shaderZeroInitializeWorkgroupMemory",
      "ShaderIntegerDotProductFeatures.shaderIntegerDotProduct",
      "BufferDeviceAddressFeatures.bufferDeviceAddress",
      "ScalarBlockLayoutFeatures.scalarBlockLayout",
      "UniformBufferStandardLayoutFeatures.uniformBufferStandardLayout",
      "ShaderAtomicInt64Features.shaderBufferInt64Atomics",
      "ShaderAtomicInt64Features.shaderSharedInt64Atomics",
  };
  return features;
}

/// Device extensions whose compute side the CPU runtime implements.
static const llvm::StringSet<> &getSupportedDeviceExtensions() {
  static const llvm::StringSet<> extensions = {
      "VK_KHR_storage_buffer_storage_class",
      "VK_EXT_index_type_uint8",
      "VK_KHR_index_type_uint8",
      "VK_EXT_depth_clamp_zero_one",
      "VK_KHR_depth_clamp_zero_one",
      "VK_EXT_depth_range_unrestricted",
      // Restart in list topologies: assembly restarts any topology.
      "VK_EXT_primitive_topology_list_restart",
      "VK_EXT_shader_demote_to_helper_invocation",
      // EarlyAndLateFragmentTestsAMD: the tests run after the shader,
      // which a shader keeping its conservative-depth promise cannot tell
      // from an early test as well.
      "VK_AMD_shader_early_and_late_fragment_tests",
      "VK_KHR_variable_pointers",
      "VK_KHR_16bit_storage",
      "VK_KHR_8bit_storage",
      "VK_KHR_shader_float16_int8",
      "VK_KHR_vulkan_memory_model",
      "VK_KHR_zero_initialize_workgroup_memory",
      "VK_KHR_workgroup_memory_explicit_layout",
      "VK_KHR_shader_subgroup_extended_types",
      "VK_EXT_subgroup_size_control",
      "VK_KHR_buffer_device_address",
      "VK_EXT_scalar_block_layout",
      "VK_KHR_uniform_buffer_standard_layout",
      "VK_KHR_shader_float_controls",
      "VK_KHR_spirv_1_4",
      "VK_KHR_shader_integer_dot_product",
      "VK_KHR_shader_non_semantic_info",
      "VK_KHR_shader_atomic_int64",
      "VK_EXT_shader_atomic_float",
      "VK_EXT_shader_atomic_float2",
      "VK_EXT_descriptor_indexing",
      "VK_KHR_shader_terminate_invocation",
      "VK_KHR_maintenance1",
      "VK_KHR_relaxed_block_layout",
      "VK_KHR_get_memory_requirements2",
      "VK_KHR_dedicated_allocation",
      // Shader objects change how the host binds shaders, not what a
      // compute shader computes.
      "VK_EXT_shader_object",
  };
  return extensions;
}

/// Device properties (as Amber names them) that hold for every shader the
/// CPU runs: LLVM compiles without fast-math flags, so signed zeros,
/// infinities and NaNs survive every float width, and the host's IEEE
/// arithmetic keeps denormals and rounds to nearest even. 16-bit floats are
/// computed in 32 bits and rounded back, which keeps their denormals; RTE
/// is not claimed for them (a fused multiply-add would round twice).
static const llvm::StringSet<> &getSupportedProperties() {
  static const llvm::StringSet<> properties = {
      "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat16",
      "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat32",
      "FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat64",
      "FloatControlsProperties.shaderDenormPreserveFloat16",
      "FloatControlsProperties.shaderDenormPreserveFloat32",
      "FloatControlsProperties.shaderDenormPreserveFloat64",
      "FloatControlsProperties.shaderRoundingModeRTEFloat32",
      "FloatControlsProperties.shaderRoundingModeRTEFloat64",
  };
  return properties;
}

static const llvm::StringSet<> &getSupportedInstanceExtensions() {
  static const llvm::StringSet<> extensions = {
      "VK_KHR_get_physical_device_properties2",
  };
  return extensions;
}

static const char *getShaderFormatReason(ShaderFormat format) {
  if (format == ShaderFormat::OpenClC)
    return "an OpenCL C shader (needs clspv, which spvbridge does not "
           "have)";
  return nullptr;
}

/// The first command that only graphics or debugging can run.
static const Command *
findUnsupportedCommand(const std::vector<std::unique_ptr<Command>> &commands) {
  for (const std::unique_ptr<Command> &command : commands) {
    switch (command->getKind()) {
    case Command::Kind::Debug:
      return command.get();
    case Command::Kind::Repeat:
      if (const Command *inner = findUnsupportedCommand(
              llvm::cast<RepeatCommand>(*command).commands))
        return inner;
      break;
    default:
      break;
    }
  }
  return nullptr;
}

static std::string describeCommand(const Command &command) {
  (void)command;
  return "DEBUG (shader debugging)";
}

std::optional<std::string>
spvb::amber::findUnmetRequirement(const Script &script) {
  for (const std::string &feature : script.deviceFeatures)
    if (!getSupportedFeatures().contains(feature))
      return "requires device feature " + feature +
             ", which spvbridge does not support";
  for (const std::string &extension : script.deviceExtensions)
    if (!getSupportedDeviceExtensions().contains(extension))
      return "requires device extension " + extension +
             ", which spvbridge does not support";
  for (const std::string &extension : script.instanceExtensions)
    if (!getSupportedInstanceExtensions().contains(extension))
      return "requires instance extension " + extension +
             ", which spvbridge does not support";
  for (const std::string &property : script.deviceProperties)
    if (!getSupportedProperties().contains(property))
      return "requires device property " + property +
             ", which spvbridge does not report";
  // Reasons are the same text for every script with the same cause, so a
  // summary can group them.
  if (script.rayTracingLine)
    return std::string("a ray-tracing pipeline (spvbridge runs compute only)");
  for (const Shader &shader : script.shaders) {
    if (const char *reason = getShaderFormatReason(shader.format))
      return std::string(reason);
    if (shader.stage > ShaderStage::Multi)
      return "a " + stageName(shader.stage).str() +
             " shader (spvbridge runs compute and graphics shaders, not ray "
             "tracing)";
  }
  for (const Pipeline &pipeline : script.pipelines)
    for (const ShaderAttachment &attachment : pipeline.shaders)
      if (attachment.stage >= ShaderStage::Multi)
        return "a " + stageName(attachment.stage).str() +
               " shader (spvbridge runs compute and graphics shaders, not ray "
               "tracing)";
  if (const Command *command = findUnsupportedCommand(script.commands))
    return describeCommand(*command);
  return std::nullopt;
}

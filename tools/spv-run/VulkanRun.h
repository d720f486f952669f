//===- VulkanRun.h - spv-run's job on the Vulkan backend --------*- C++ -*-===//
//
// What spv-run --backend=vulkan and --compare need around VulkanBackend:
// the shader in the two forms they use, and the result as --json and text.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_SPV_RUN_VULKANRUN_H
#define SPVBRIDGE_TOOLS_SPV_RUN_VULKANRUN_H

#include "HostResources.h"
#include "RunArguments.h"
#include "spvbridge/vulkan/VulkanBackend.h"

#include "spvbridge/bridge/Compiler.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace spvb::run {

/// A shader as the Vulkan backend runs it.
struct VulkanShader {
  /// As loaded (GLSL/HLSL compiled, assembly assembled), validated but not
  /// specialized: the driver gets this and the --spec values, so it
  /// specializes the module itself, as an application's pipeline would.
  SpirvBinary original;
  /// Specialized by our front end: what the CPU backend compiles, reflected
  /// for the binding checks and the buffer layouts.
  SpirvBinary prepared;
  ModuleReflection reflection;
  /// The resolved entry point name.
  std::string entryPoint;
};

/// Loads, validates (unless options.validate is off), specializes and
/// reflects \p path; errors are the front end's.
llvm::Expected<VulkanShader> loadVulkanShader(llvm::StringRef path,
                                              const CompileOptions &options);

/// The Vulkan backend's binding of an --image for the shader's \p resource
/// (an image, texel buffer or combined image sampler). Error:
///   error: --image S:B: the Vulkan backend cannot bind KIND 'NAME'
llvm::Expected<vulkan::ImageBinding>
makeVulkanImage(const ResourceInfo &resource, const ImageArgument &image,
                const std::optional<spvb_sampler> &sampler);

/// The --json fields of a Vulkan run; the CPU backend's where they apply
/// (no threads or workgroup_entry: the driver decides), plus
/// first_dispatch_ms (lavapipe compiles at the first dispatch).
llvm::json::Object describeVulkanRun(const VulkanShader &shader,
                                     const vulkan::Result &result,
                                     std::array<uint32_t, 3> groups,
                                     uint32_t repeat);

/// The text lines of a Vulkan run (device, entry, compile, dispatch).
void printVulkanRun(llvm::raw_ostream &os, const VulkanShader &shader,
                    const vulkan::Result &result,
                    std::array<uint32_t, 3> groups, uint32_t repeat);

/// The Vulkan descriptors of spv-run's buffers, images and samplers.
struct VulkanDescriptors {
  std::vector<vulkan::BufferBinding> buffers;
  std::vector<vulkan::ImageBinding> images;
  std::vector<vulkan::SamplerBinding> samplers;
  std::vector<vulkan::DeviceBuffer> deviceBuffers;
  /// Where each HostBuffer went: its place and index there (images: the
  /// index into `images`, with the unused place PushConstants).
  std::vector<std::pair<vulkan::AddressPatch::Place, size_t>> places;
};

/// \p findResource gives the shader's declaration of (set, binding), or
/// null. Errors: makeVulkanImage's, and
///   error: --image S:B: the shader has no image there
llvm::Expected<VulkanDescriptors> makeVulkanDescriptors(
    llvm::function_ref<const ResourceInfo *(uint32_t, uint32_t)> findResource,
    llvm::ArrayRef<HostBuffer> buffers, llvm::ArrayRef<HostSampler> samplers);

/// As loadVulkanShader, for a module already loaded (a generated one).
llvm::Expected<VulkanShader> prepareVulkanShader(SpirvBinary original,
                                                 const CompileOptions &options);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_VULKANRUN_H

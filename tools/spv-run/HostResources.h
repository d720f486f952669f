//===- HostResources.h - spv-run's buffers, images and samplers -*- C++ -*-===//
//
// What the command line gives a run: each --buffer, --image and
// --device-buffer with the bytes the shader works on, and each separate
// --sampler.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_HOSTRESOURCES_H
#define SPVBRIDGE_TOOLS_SPV_RUN_HOSTRESOURCES_H

#include "RunArguments.h"

#include "spvbridge/cpu_runtime/GuardedBuffer.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <optional>
#include <string>
#include <vector>

namespace spvb {

/// A buffer as given (--buffer, --image or --device-buffer), and the copy
/// the shader works on.
struct HostBuffer {
  /// For descriptors: set, binding and element; for all: the bytes given.
  run::BufferArgument argument;
  /// A --device-buffer's name; empty for descriptors.
  std::string device;
  /// What each CPU run starts from: the bytes given with the CPU's
  /// addresses written in (--address).
  std::vector<uint8_t> initial;
  /// Between guard regions: an access past its end faults and is reported.
  runtime::GuardedBuffer working;
  /// For --image: its shape, and the descriptor and sampler bound on the
  /// CPU (their data pointer is `working`).
  std::optional<run::ImageArgument> image;
  spvb_image descriptor{};
  std::optional<spvb_sampler> sampler;

  bool isDevice() const { return !device.empty(); }
  run::BufferName getName() const {
    run::BufferName name;
    name.device = device;
    name.set = argument.set;
    name.binding = argument.binding;
    name.element = argument.element;
    return name;
  }
  /// Whether this is the descriptor (set, binding) of the shader.
  bool isDescriptor(uint32_t set, uint32_t binding) const {
    return !isDevice() && argument.set == set && argument.binding == binding;
  }
};

/// A --sampler for a binding no --image gives: a separate sampler
/// (OpTypeSampler).
struct HostSampler {
  std::string arg;
  uint32_t set = 0;
  uint32_t binding = 0;
  std::optional<uint32_t> element;
  spvb_sampler settings{};
};

} // namespace spvb

#endif // SPVBRIDGE_TOOLS_SPV_RUN_HOSTRESOURCES_H

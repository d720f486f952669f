//===- HostJob.h - The resources spv-run's flags give a run -----*- C++ -*-===//
//
// The buffers, images, samplers, push constants and addresses of one run,
// collected from the flags, and bound for the CPU to a Dispatch (compute)
// or a Draw (graphics) alike.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_HOSTJOB_H
#define SPVBRIDGE_TOOLS_SPV_RUN_HOSTJOB_H

#include "DeviceAddresses.h"
#include "HostResources.h"

#include "spvbridge/spirv/Reflection.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace spvb {

/// The flags' values, as given.
struct JobFlags {
  llvm::ArrayRef<std::string> buffers, images, samplers, deviceBuffers,
      addresses, outputs, prints;
  llvm::StringRef push;
};

struct HostJob {
  std::vector<HostBuffer> buffers;
  std::vector<HostSampler> samplers;
  std::vector<run::OutputArgument> outputs;
  std::vector<run::PrintArgument> prints;
  /// --push as given, and with the CPU's addresses written in.
  std::optional<std::vector<uint8_t>> push, cpuPush;
  std::vector<run::ResolvedAddress> addresses;
};

/// Parses and checks the flags against each other (a binding given twice,
/// --out of a buffer no flag gives, ...); the errors are RunArguments.h's
/// and DeviceAddresses.h's, and
///   error: FLAG 'ARG': set S binding B [element E] is given twice
///   error: FLAG 'ARG': device buffer 'NAME' is given twice
///   error: FLAG 'ARG': no --buffer for set S binding B [element E]
///   error: FLAG 'ARG': no --device-buffer named 'NAME'
///   error: --sampler 'ARG': no --image S:B to sample
llvm::Expected<HostJob> collectHostJob(const JobFlags &flags);

/// --out: each named buffer's bytes after the run.
llvm::Error writeOutputs(llvm::ArrayRef<run::OutputArgument> outputs,
                         llvm::ArrayRef<HostBuffer> buffers);

/// --print: each named buffer's values, after \p label (with --json on
/// stderr, so stdout stays JSON).
void printBuffers(llvm::ArrayRef<run::PrintArgument> prints,
                  llvm::ArrayRef<HostBuffer> buffers, bool json,
                  llvm::StringRef label = "");

/// Binds \p job for a CPU run to \p binder (a Dispatch or a Draw): each
/// buffer's working copy starts as given and `initial` gets the CPU's
/// addresses (--address) written in; \p findResource gives an image's
/// declaration (its Dim), or null.
template <typename Binder>
void bindHostJob(
    Binder &binder, HostJob &job,
    llvm::function_ref<const ResourceInfo *(uint32_t, uint32_t)> findResource) {
  std::vector<HostBuffer> &buffers = job.buffers;
  // Every buffer's working copy first: the addresses are theirs.
  for (HostBuffer &buffer : buffers) {
    buffer.working.assign(buffer.argument.bytes);
    buffer.initial = buffer.argument.bytes;
  }
  job.cpuPush = job.push;
  for (const run::ResolvedAddress &address : job.addresses) {
    uint64_t value =
        reinterpret_cast<uintptr_t>(buffers[address.target].working.data()) +
        address.addend;
    run::writeAddress(address.where ? buffers[*address.where].initial
                                    : *job.cpuPush,
                      address.offset, value);
  }
  for (HostBuffer &buffer : buffers) {
    if (buffer.isDevice()) {
      binder.nameMemory(buffer.device, buffer.working.data(),
                        buffer.working.size());
      continue;
    }
    uint32_t element = buffer.argument.element.value_or(0);
    if (!buffer.image) {
      binder.bindBuffer(buffer.argument.set, buffer.argument.binding,
                        buffer.working.data(), buffer.working.size(), element);
      continue;
    }
    const ResourceInfo *resource =
        findResource(buffer.argument.set, buffer.argument.binding);
    spvb_image &image = buffer.descriptor;
    image.data = buffer.working.data();
    image.format = buffer.image->format;
    image.dim = resource && resource->image ? resource->image->dim : spv::Dim2D;
    for (int d = 0; d < 3; ++d)
      image.extent[d] = buffer.image->extent[d];
    image.layers = buffer.image->layers;
    image.levels = buffer.image->levels;
    image.samples = buffer.image->samples;
    image.size = buffer.working.size();
    image.sampler = buffer.sampler ? &*buffer.sampler : nullptr;
    binder.bindImage(buffer.argument.set, buffer.argument.binding, &image,
                     element);
  }
  for (const HostSampler &sampler : job.samplers)
    binder.bindSampler(sampler.set, sampler.binding, &sampler.settings,
                       sampler.element.value_or(0));
  if (job.cpuPush)
    binder.setPushConstants(*job.cpuPush);
}

} // namespace spvb

#endif // SPVBRIDGE_TOOLS_SPV_RUN_HOSTJOB_H

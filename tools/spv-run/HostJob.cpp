//===- HostJob.cpp - The resources spv-run's flags give a run
//--------------===//
#include "HostJob.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace spvb {

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

Expected<HostJob> collectHostJob(const JobFlags &flags) {
  HostJob job;
  std::vector<HostBuffer> &buffers = job.buffers;
  std::vector<HostSampler> &samplers = job.samplers;
  auto findBuffer = [&](const run::BufferName &name) -> HostBuffer * {
    for (HostBuffer &buffer : buffers)
      if (buffer.getName().refersTo(name))
        return &buffer;
    return nullptr;
  };
  auto checkNew = [&](StringRef flag, StringRef arg,
                      const run::BufferName &name) -> Error {
    if (!findBuffer(name))
      return Error::success();
    if (name.isDevice())
      return createStringError(
          inconvertibleErrorCode(),
          formatv("error: {0} '{1}': device buffer '{2}' is given twice", flag,
                  arg, name.device));
    return createStringError(
        inconvertibleErrorCode(),
        formatv("error: {0} '{1}': set {2} binding {3}{4} is given twice", flag,
                arg, name.set, name.binding,
                name.element ? formatv(" element {0}", *name.element).str()
                             : ""));
  };
  for (const std::string &arg : flags.buffers) {
    Expected<run::BufferArgument> parsed = run::parseBufferArgument(arg);
    if (!parsed)
      return parsed.takeError();
    HostBuffer buffer;
    buffer.argument = std::move(*parsed);
    if (Error error = checkNew("--buffer", arg, buffer.getName()))
      return error;
    buffers.push_back(std::move(buffer));
  }
  for (const std::string &arg : flags.images) {
    Expected<run::ImageArgument> parsed = run::parseImageArgument(arg);
    if (!parsed)
      return parsed.takeError();
    HostBuffer buffer;
    buffer.argument.set = parsed->set;
    buffer.argument.binding = parsed->binding;
    buffer.argument.element = parsed->element;
    buffer.argument.bytes = parsed->bytes;
    buffer.image = std::move(*parsed);
    if (Error error = checkNew("--image", arg, buffer.getName()))
      return error;
    buffers.push_back(std::move(buffer));
  }
  for (const std::string &arg : flags.deviceBuffers) {
    Expected<run::DeviceBufferArgument> parsed =
        run::parseDeviceBufferArgument(arg);
    if (!parsed)
      return parsed.takeError();
    HostBuffer buffer;
    buffer.device = parsed->name;
    buffer.argument.bytes = std::move(parsed->bytes);
    if (Error error = checkNew("--device-buffer", arg, buffer.getName()))
      return error;
    buffers.push_back(std::move(buffer));
  }
  for (const std::string &arg : flags.samplers) {
    Expected<run::SamplerArgument> parsed = run::parseSamplerArgument(arg);
    if (!parsed)
      return parsed.takeError();
    run::BufferName name;
    name.set = parsed->set;
    name.binding = parsed->binding;
    name.element = parsed->element;
    HostBuffer *image = findBuffer(name);
    if (image && !image->image)
      return makeError(formatv("--sampler '{0}': no --image {1} to sample", arg,
                               name.str()));
    spvb_sampler sampler{};
    sampler.mag_filter = sampler.min_filter = parsed->filter;
    sampler.mipmap_mode = parsed->mipmapMode;
    for (uint32_t &mode : sampler.address_mode)
      mode = parsed->addressMode;
    sampler.mip_lod_bias = parsed->lodBias;
    sampler.min_lod = parsed->minLod;
    sampler.max_lod = parsed->maxLod;
    sampler.border_color = parsed->borderColor;
    sampler.unnormalized_coordinates = parsed->unnormalized;
    sampler.compare_enable = parsed->compareOp.has_value();
    sampler.compare_op = parsed->compareOp.value_or(0);
    if (image) {
      image->sampler = sampler;
      continue;
    }
    // No --image there: a separate sampler, checked against the shader's.
    if (any_of(samplers, [&](const HostSampler &other) {
          return other.set == parsed->set && other.binding == parsed->binding &&
                 other.element == parsed->element;
        }))
      return makeError(
          formatv("--sampler '{0}': {1} is given twice", arg, name.str()));
    samplers.push_back(
        {arg, parsed->set, parsed->binding, parsed->element, sampler});
  }
  // --out and --print name a buffer some other flag gives.
  auto checkNamed = [&](StringRef flag, StringRef arg,
                        const run::BufferName &name) -> Error {
    if (findBuffer(name))
      return Error::success();
    std::string message =
        name.isDevice()
            ? formatv("no --device-buffer named '{0}'", name.device).str()
            : formatv("no --buffer for set {0} binding {1}{2}", name.set,
                      name.binding,
                      name.element
                          ? formatv(" element {0}", *name.element).str()
                          : "")
                  .str();
    return createStringError(
        inconvertibleErrorCode(),
        formatv("error: {0} '{1}': {2}", flag, arg, message));
  };
  for (const std::string &arg : flags.outputs) {
    Expected<run::OutputArgument> parsed = run::parseOutputArgument(arg);
    if (!parsed)
      return parsed.takeError();
    if (Error error = checkNamed("--out", arg, parsed->buffer))
      return error;
    job.outputs.push_back(std::move(*parsed));
  }
  for (const std::string &arg : flags.prints) {
    Expected<run::PrintArgument> parsed = run::parsePrintArgument(arg);
    if (!parsed)
      return parsed.takeError();
    if (Error error = checkNamed("--print", arg, parsed->buffer))
      return error;
    job.prints.push_back(std::move(*parsed));
  }
  if (!flags.push.empty()) {
    Expected<std::vector<uint8_t>> data = run::parsePushArgument(flags.push);
    if (!data)
      return data.takeError();
    job.push = std::move(*data);
  }
  std::vector<run::AddressArgument> addressArguments;
  for (const std::string &arg : flags.addresses) {
    Expected<run::AddressArgument> parsed = run::parseAddressArgument(arg);
    if (!parsed)
      return parsed.takeError();
    addressArguments.push_back(std::move(*parsed));
  }
  std::vector<run::AddressableBuffer> addressable;
  for (const HostBuffer &buffer : buffers)
    addressable.push_back({buffer.getName(), buffer.argument.bytes.size(),
                           buffer.image.has_value()});
  Expected<std::vector<run::ResolvedAddress>> addresses = run::resolveAddresses(
      addressArguments, addressable,
      job.push ? std::optional<uint64_t>(job.push->size()) : std::nullopt);
  if (!addresses)
    return addresses.takeError();
  job.addresses = std::move(*addresses);
  return job;
}

Error writeOutputs(ArrayRef<run::OutputArgument> outputs,
                   ArrayRef<HostBuffer> buffers) {
  for (const run::OutputArgument &output : outputs)
    for (const HostBuffer &buffer : buffers)
      if (buffer.getName().refersTo(output.buffer))
        if (Error error = run::writeFile(output.path, buffer.working))
          return error;
  return Error::success();
}

void printBuffers(ArrayRef<run::PrintArgument> prints,
                  ArrayRef<HostBuffer> buffers, bool json, StringRef label) {
  for (const run::PrintArgument &print : prints)
    for (const HostBuffer &buffer : buffers)
      if (buffer.getName().refersTo(print.buffer))
        (json ? errs() : outs())
            << label
            << formatv("buffer {0} ({1}): ", print.buffer.str(), print.type)
            << run::formatBuffer(buffer.working, print.type) << "\n";
}

} // namespace spvb

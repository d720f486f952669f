//===- spv-run.cpp - Run one compute shader on the CPU --------------------===//
//
// Takes the flags of ../shared/tools/vkref (lavapipe) unchanged, so the same
// command line runs on both; the shader is the first positional argument
// (anything spv-to-ll takes) instead of --spv:
//
//   spv-run SHADER --groups X Y Z [--entry NAME]
//           [--buffer SET:BINDING[ELEMENT]:storage|uniform:DATA]...
//           [--device-buffer NAME:DATA]... [--push DATA]
//           [--address WHERE:OFFSET:BUFFER[+BYTES]]...
//           [--spec ID:TYPE:VALUE]... [--out SET:BINDING[ELEMENT]:FILE]...
//           [--repeat N] [--json] [--threads N] [--print SET:BINDING:TYPE]...
//           [--backend=cpu|vulkan] [--compare [--ulp N] [--abs-tolerance X]]
//           [--device N] [--robust]
//
// --backend=vulkan runs the job on the system's Vulkan driver instead
// (VulkanBackend.h); --compare runs it on both and compares the storage
// buffers (BufferCompare.h).
//
//===----------------------------------------------------------------------===//
#include "CompileFlags.h"
#include "DeviceAddresses.h"
#include "DrawRun.h"
#include "HostJob.h"
#include "HostResources.h"
#include "HugePageHeap.h"
#include "JitCompilerFlags.h"
#include "ReflectionJson.h"
#include "ResourceChecks.h"
#include "RunArguments.h"
#include "ScriptRun.h"
#include "VulkanRun.h"
#include "spvbridge/cpu_runtime/Watchdog.h"
#include "spvbridge/vulkan/BufferCompare.h"

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/DebugTarget.h"
#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

using namespace llvm;
using namespace spvb;

static cl::OptionCategory &category = spvb::tools::getToolCategory();

static cl::list<std::string> shaderPaths(
    cl::Positional, cl::OneOrMore,
    cl::desc("<shader or Amber script (.amber, .vkscript); with "
             "--framebuffer: a fragment shader, a vertex and a fragment "
             "shader, or a vertex, a geometry and a fragment shader>"),
    cl::cat(category));
/// The first of shaderPaths: the shader or script of every mode.
static std::string shaderPath;
static cl::opt<std::string> framebufferArg(
    "framebuffer",
    cl::desc("Draw the fragment shader over a framebuffer of WxH[:FORMAT] "
             "(default format R8G8B8A8_UNORM) instead of dispatching"),
    cl::value_desc("WxH[:FORMAT]"), cl::cat(category));
static cl::list<std::string>
    pngArgs("png",
            cl::desc("Draws: write output Location LOC's attachment (default "
                     "0) as a PNG"),
            cl::value_desc("[LOC:]FILE"), cl::cat(category));
static cl::list<std::string> attachmentOutArgs(
    "attachment-out",
    cl::desc("Draws: write output Location LOC's attachment (default 0) "
             "as raw texels: rows of W texels in its format, top row first"),
    cl::value_desc("[LOC:]FILE"), cl::cat(category));
static cl::list<std::string> vertexDataArgs(
    "vertex-data",
    cl::desc("Draws with a vertex shader: per-vertex values of input "
             "LOCATION in a VkFormat"),
    cl::value_desc("LOCATION:FORMAT:DATA"), cl::cat(category));
static cl::opt<std::string>
    indexDataArg("index-data",
                 cl::desc("Draws with a vertex shader: an index buffer"),
                 cl::value_desc("u8|u16|u32:DATA"), cl::cat(category));
static cl::opt<std::string> topologyArg(
    "topology",
    cl::desc("Draws with a vertex shader: the primitive topology (default "
             "triangle_list)"),
    cl::cat(category));
static cl::opt<std::string> patchControlPointsArg(
    "patch-control-points",
    cl::desc("Draws with tessellation shaders: the control points of each "
             "patch (default 3)"),
    cl::value_desc("N"), cl::cat(category));
static cl::opt<std::string> domainOriginArg(
    "tessellation-domain-origin",
    cl::desc("Draws with tessellation shaders: where the tessellation "
             "domain's origin is, upper-left (default) or lower-left "
             "(VkPipelineTessellationDomainOriginStateCreateInfo)"),
    cl::value_desc("upper-left|lower-left"), cl::cat(category));
static cl::opt<std::string> verticesArg(
    "vertices",
    cl::desc("Draws with a vertex shader: vertices (or indices) to draw "
             "(default: all the vertex or index data has)"),
    cl::cat(category));
static cl::opt<std::string>
    instancesArg("instances",
                 cl::desc("Draws with a vertex shader: instances (default 1)"),
                 cl::cat(category));
static cl::opt<std::string> samplesArg(
    "samples",
    cl::desc("Draws: samples per pixel, 1 or 4 (default 1); with 4 the "
             "attachments are multisampled and --png/--attachment-out write "
             "their resolve (CPU only)"),
    cl::value_desc("N"), cl::cat(category));
static cl::list<std::string> groupsArg("groups", cl::multi_val(3),
                                       cl::desc("Workgroup counts X Y Z"),
                                       cl::cat(category));
static cl::list<std::string> bufferArgs(
    "buffer",
    cl::desc("SET:BINDING[ELEMENT]:storage|uniform:DATA ([ELEMENT] for each "
             "element of a descriptor array)"),
    cl::cat(category));
static cl::list<std::string>
    imageArgs("image", cl::desc("SET:BINDING[ELEMENT]:FORMAT:EXTENT:DATA"),
              cl::cat(category));
static cl::list<std::string>
    samplerArgs("sampler", cl::desc("SET:BINDING[ELEMENT]:SETTINGS"),
                cl::cat(category));
static cl::list<std::string> deviceBufferArgs(
    "device-buffer",
    cl::desc("NAME:DATA: a buffer bound to no descriptor, which the shader "
             "reaches through its address (--address)"),
    cl::cat(category));
static cl::list<std::string> addressArgs(
    "address",
    cl::desc("WHERE:OFFSET:BUFFER[+BYTES]: before the run, write the 8-byte "
             "device address of BUFFER (a device buffer's NAME or "
             "SET:BINDING[ELEMENT]) plus BYTES at byte OFFSET of WHERE (push, "
             "SET:BINDING[ELEMENT] or NAME). --robust does not bound accesses "
             "through addresses: make the buffers large enough"),
    cl::cat(category));
static cl::opt<std::string> pushArg("push", cl::desc("Push-constant DATA"),
                                    cl::cat(category));
static cl::list<std::string>
    outArgs("out", cl::desc("SET:BINDING[ELEMENT]:FILE or NAME:FILE"),
            cl::cat(category));
static cl::list<std::string>
    printArgs("print", cl::desc("SET:BINDING[ELEMENT]:TYPE or NAME:TYPE"),
              cl::cat(category));
static cl::opt<std::string>
    repeatArg("repeat", cl::desc("Timed dispatches after one untimed warm-up"),
              cl::init("10"), cl::cat(category));
static cl::opt<std::string> subgroupSizeArg(
    "subgroup-size",
    cl::desc("Invocations per subgroup: a power of two from 1 to 64 "
             "(default 32; with --compare the Vulkan device's)"),
    cl::init("32"), cl::cat(category));
static cl::opt<std::string> workgroupOrderArg(
    "workgroup-order",
    cl::desc("The order the CPU starts workgroups in: forward (default) or "
             "reverse; with --threads 1 an output that changes depends on "
             "scheduling"),
    cl::init("forward"), cl::cat(category));
static cl::opt<std::string> debugInvocationArg(
    "debug-invocation",
    cl::desc("X[,Y[,Z]] (a global invocation id) or WX,WY,WZ/LX,LY,LZ (a "
             "workgroup and a local id): that invocation runs through a "
             "debug build of the kernel (as --debug compiles it, registered "
             "with gdb and lldb), the others optimized, so a breakpoint "
             "stops in it alone; its workgroup runs on fibers and its thread "
             "is named \"inv X,Y,Z\""),
    cl::cat(category));
static cl::opt<std::string> debugPixelArg(
    "debug-pixel",
    cl::desc("X,Y: draws: the fragment invocations that cover pixel (X, Y) "
             "run through a debug build of the fragment shader (registered "
             "with gdb and lldb), the rest optimized, so a breakpoint in the "
             "fragment shader stops for that pixel alone, in a thread named "
             "\"pixel X,Y\""),
    cl::value_desc("X,Y"), cl::cat(category));
static cl::opt<std::string> timeoutArg(
    "timeout",
    cl::desc("Seconds a CPU dispatch, or a whole script, may run before "
             "spv-run stops with an error (default 60; 0 waits forever): "
             "generated code cannot be interrupted, so a shader that loops "
             "forever would hang"),
    cl::init("60"), cl::cat(category));
static cl::opt<std::string> limitsArg(
    "limits",
    cl::desc("The device limits a CPU dispatch must meet, as a Vulkan device "
             "would check them: lavapipe (default: the Vulkan backend's "
             "device), min (the minimums Vulkan requires of every device) or "
             "none"),
    cl::init("lavapipe"), cl::cat(category));
static cl::opt<bool>
    reflectArg("reflect",
               cl::desc("Print the entry point's interface (resources, "
                        "push constants, spec constants, layouts) as JSON "
                        "and run nothing"),
               cl::cat(category));
static cl::opt<bool> jsonOutput("json", cl::desc("Print results as JSON"),
                                cl::cat(category));
static cl::opt<std::string> dumpImagesArg(
    "dump-images",
    cl::desc("Scripts: write every attachment and image as DIR/NAME.png "
             "after the run"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<bool>
    cold("cold",
         cl::desc("Vulkan: disable Mesa's shader cache (as vkref --cold); the "
                  "CPU backend compiles anew every run anyway"),
         cl::cat(category));
static cl::opt<std::string>
    device("device",
           cl::desc("Vulkan physical device index (default: the first CPU "
                    "device)"),
           cl::cat(category));
static cl::opt<std::string>
    backendArg("backend",
               cl::desc("Where the shader runs: cpu (default) or vulkan (the "
                        "system's Vulkan driver)"),
               cl::init("cpu"), cl::cat(category));
static cl::opt<bool>
    compareArg("compare",
               cl::desc("Run on the CPU and on Vulkan from the same buffers "
                        "and compare the storage buffers"),
               cl::cat(category));
static cl::opt<std::string>
    ulpArg("ulp",
           cl::desc("--compare: floats within this many units in the last "
                    "place agree (default 4)"),
           cl::init("4"), cl::cat(category));
static cl::opt<std::string> absToleranceArg(
    "abs-tolerance",
    cl::desc("--compare: floats this close agree (default 2^-21)"),
    cl::init("0x1p-21"), cl::cat(category));

using spvb::tools::fail;

/// Takes `--threads N` / `--threads=N` out of argv. LLVM's libraries already
/// register a "threads" option, so it cannot be a cl::opt here.
static std::string takeThreadsArgument(std::vector<const char *> &args) {
  std::string value = "0";
  for (size_t i = 1; i < args.size();) {
    StringRef arg = args[i];
    if (arg == "--threads" || arg == "-threads") {
      value = i + 1 < args.size() ? args[i + 1] : "";
      args.erase(args.begin() + i, args.begin() + std::min(i + 2, args.size()));
    } else if (arg.consume_front("--threads=") ||
               arg.consume_front("-threads=")) {
      value = arg.str();
      args.erase(args.begin() + i);
    } else {
      ++i;
    }
  }
  return value;
}

namespace {
/// Which backends run (--backend, --compare) and how Vulkan's is set up.
struct BackendChoice {
  bool cpu = true;
  bool vulkan = false;
  std::optional<uint32_t> device;
  vulkan::Tolerance tolerance;

  bool compare() const { return cpu && vulkan; }
};
} // namespace

static Expected<BackendChoice> parseBackendChoice() {
  auto error = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), "error: " + message);
  };
  if (backendArg != "cpu" && backendArg != "vulkan")
    return error("--backend '" + backendArg +
                 "': unknown backend (expected cpu or vulkan)");
  if (compareArg && backendArg.getNumOccurrences())
    return error("--compare runs both backends; it takes no --backend");
  for (cl::Option *option : {static_cast<cl::Option *>(&ulpArg),
                             static_cast<cl::Option *>(&absToleranceArg)})
    if (!compareArg && option->getNumOccurrences())
      return error("--" + option->ArgStr + " is only used with --compare");
  BackendChoice choice;
  choice.cpu = compareArg || backendArg == "cpu";
  choice.vulkan = compareArg || backendArg == "vulkan";
  Expected<vulkan::Tolerance> tolerance =
      vulkan::parseTolerance(ulpArg, absToleranceArg);
  if (!tolerance)
    return tolerance.takeError();
  choice.tolerance = *tolerance;
  if (!device.empty()) {
    Expected<uint32_t> index = run::parseUnsigned(device, "--device");
    if (!index)
      return index.takeError();
    choice.device = *index;
  }
  return choice;
}

/// --reflect runs nothing, so a flag that configures a run is a mistake.
/// The flags that give a shader run its resources, dispatch and backend.
static std::vector<cl::Option *> getJobFlags() {
  // cl::list overloads operator& to give its storage.
  return {std::addressof(groupsArg),
          std::addressof(bufferArgs),
          std::addressof(imageArgs),
          std::addressof(samplerArgs),
          std::addressof(deviceBufferArgs),
          std::addressof(addressArgs),
          &pushArg,
          std::addressof(outArgs),
          std::addressof(printArgs),
          &repeatArg,
          &workgroupOrderArg,
          &cold,
          &device,
          &backendArg,
          &compareArg,
          &ulpArg,
          &absToleranceArg,
          &framebufferArg,
          std::addressof(pngArgs),
          std::addressof(attachmentOutArgs),
          std::addressof(vertexDataArgs),
          &indexDataArg,
          &topologyArg,
          &patchControlPointsArg,
          &domainOriginArg,
          &verticesArg,
          &instancesArg,
          &samplesArg,
          &debugPixelArg};
}

static Error checkReflectFlags(StringRef threadsArg) {
  std::vector<cl::Option *> runFlags = getJobFlags();
  runFlags.push_back(&subgroupSizeArg);
  runFlags.push_back(&timeoutArg);
  runFlags.push_back(&limitsArg);
  for (cl::Option *option : runFlags)
    if (option->getNumOccurrences())
      return createStringError(inconvertibleErrorCode(),
                               "error: --reflect prints the shader's "
                               "interface and runs nothing; it takes no --" +
                                   option->ArgStr);
  if (threadsArg != "0")
    return createStringError(inconvertibleErrorCode(),
                             "error: --reflect prints the shader's interface "
                             "and runs nothing; it takes no --threads");
  return Error::success();
}

/// A debug build of a shader without source lines steps through its
/// disassembly: says where that is, since the user types its name.
static void noteListing(const Kernel &kernel) {
  if (!kernel.listingPath.empty())
    errs() << "note: " << shaderPath
           << " has no debug info; stepping through its disassembly "
           << kernel.listingPath << "\n";
}

/// Runs the job on Vulkan from the buffers' initial contents; the result's
/// buffers are those of \p buffers in order, images' texels and device
/// buffers included.
static Expected<vulkan::Result>
runOnVulkan(const run::VulkanShader &shader, ArrayRef<HostBuffer> buffers,
            ArrayRef<HostSampler> samplers,
            ArrayRef<run::ResolvedAddress> addresses,
            const std::optional<std::vector<uint8_t>> &push,
            const CompileOptions &options, std::array<uint32_t, 3> groups,
            uint32_t repeat, const BackendChoice &backends) {
  vulkan::Job job;
  job.spirv = &shader.original;
  job.entryPoint = shader.entryPoint;
  job.specializations = options.specializations;
  job.groups = groups;
  Expected<run::VulkanDescriptors> descriptors = run::makeVulkanDescriptors(
      [&](uint32_t set, uint32_t binding) {
        return shader.reflection.findResource(set, binding);
      },
      buffers, samplers);
  if (!descriptors)
    return descriptors.takeError();
  job.buffers = std::move(descriptors->buffers);
  job.images = std::move(descriptors->images);
  job.samplers = std::move(descriptors->samplers);
  job.deviceBuffers = std::move(descriptors->deviceBuffers);
  const auto &places = descriptors->places;
  for (const run::ResolvedAddress &address : addresses) {
    vulkan::AddressPatch patch;
    if (address.where)
      std::tie(patch.where, patch.whereIndex) = places[*address.where];
    patch.offset = address.offset;
    std::tie(patch.target, patch.targetIndex) = places[address.target];
    patch.addend = address.addend;
    job.addresses.push_back(patch);
  }
  if (push)
    job.pushConstants = *push;
  job.repeat = repeat;
  job.deviceIndex = backends.device;
  job.robust = options.robust;
  Expected<vulkan::Result> result = vulkan::runJob(job);
  if (!result)
    return result.takeError();
  // Back in the order of `buffers`, as the CPU has them; images have no
  // address (0).
  std::vector<std::vector<uint8_t>> results;
  std::vector<uint64_t> bufferAddresses;
  size_t nextBuffer = 0, nextImage = 0, nextDevice = 0;
  for (const HostBuffer &buffer : buffers) {
    size_t index =
        buffer.isDevice() ? job.buffers.size() + nextDevice : nextBuffer;
    if (!result->bufferAddresses.empty())
      bufferAddresses.push_back(buffer.image ? 0
                                             : result->bufferAddresses[index]);
    results.push_back(
        std::move(buffer.isDevice() ? result->deviceBuffers[nextDevice++]
                  : buffer.image    ? result->images[nextImage++]
                                    : result->buffers[nextBuffer++]));
  }
  result->buffers = std::move(results);
  result->bufferAddresses = std::move(bufferAddresses);
  result->images.clear();
  result->deviceBuffers.clear();
  return result;
}

/// Adds \p placement's scalars and pointers to \p layout, but for those
/// at offsets it already has; its runtime array if \p layout has none.
static void mergeLayout(BlockScalarLayout &layout,
                        BlockScalarLayout placement) {
  for (ScalarField &field : placement.fields)
    if (none_of(layout.fields,
                [&](const ScalarField &f) { return f.offset == field.offset; }))
      layout.fields.push_back(std::move(field));
  for (PointerField &pointer : placement.pointers)
    if (none_of(layout.pointers, [&](const PointerField &p) {
          return p.offset == pointer.offset;
        }))
      layout.pointers.push_back(std::move(pointer));
  if (!layout.runtimeArrayStride && placement.runtimeArrayStride) {
    layout.runtimeArrayPath = placement.runtimeArrayPath;
    layout.runtimeArrayOffset = placement.runtimeArrayOffset;
    layout.runtimeArrayStride = placement.runtimeArrayStride;
    layout.elementFields = std::move(placement.elementFields);
    layout.elementPointers = std::move(placement.elementPointers);
  }
  auto byOffset = [](const auto &a, const auto &b) {
    return a.offset < b.offset;
  };
  llvm::stable_sort(layout.fields, byOffset);
  llvm::stable_sort(layout.pointers, byOffset);
}

/// The layout --compare gives each device buffer of \p buffers: at each
/// --address that points into it, the pointee type of the pointer there
/// (all of them merged: a buffer of linked nodes is one node at each node's
/// address); 32-bit words when no pointer type tells.
static Expected<std::vector<BlockScalarLayout>>
getDeviceBufferLayouts(const run::VulkanShader &shader,
                       ArrayRef<HostBuffer> buffers,
                       ArrayRef<run::ResolvedAddress> addresses) {
  std::vector<std::optional<BlockScalarLayout>> layouts(buffers.size());
  // Descriptors' and the push constants' layouts come from reflection; a
  // device buffer's from the addresses into it found so far.
  auto getWhereLayout = [&](const run::ResolvedAddress &address)
      -> Expected<std::optional<BlockScalarLayout>> {
    const ModuleReflection &reflection = shader.reflection;
    uint32_t variable = 0;
    if (!address.where) {
      if (!reflection.pushConstants)
        return std::nullopt;
      variable = reflection.pushConstants->variableId;
    } else if (buffers[*address.where].isDevice()) {
      return layouts[*address.where];
    } else {
      const HostBuffer &where = buffers[*address.where];
      const ResourceInfo *resource =
          reflection.findResource(where.argument.set, where.argument.binding);
      if (!resource || resource->image)
        return std::nullopt;
      variable = resource->variableId;
    }
    Expected<BlockScalarLayout> layout =
        getBlockScalarLayout(shader.prepared, variable);
    if (!layout)
      return layout.takeError();
    return std::optional<BlockScalarLayout>(std::move(*layout));
  };
  std::vector<bool> placed(addresses.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [i, address] : enumerate(addresses)) {
      if (placed[i] || !buffers[address.target].isDevice())
        continue;
      Expected<std::optional<BlockScalarLayout>> where =
          getWhereLayout(address);
      if (!where)
        return where.takeError();
      if (!*where)
        continue;
      Expected<std::optional<BlockScalarLayout>> placement =
          run::getAddressedLayout(shader.prepared, **where, address.offset,
                                  address.addend);
      if (!placement)
        return placement.takeError();
      if (!*placement)
        continue;
      std::optional<BlockScalarLayout> &layout = layouts[address.target];
      if (!layout)
        layout.emplace();
      mergeLayout(*layout, std::move(**placement));
      placed[i] = true;
      changed = true;
    }
  }
  std::vector<BlockScalarLayout> result;
  for (std::optional<BlockScalarLayout> &layout : layouts)
    result.push_back(layout ? std::move(*layout) : run::getWordLayout());
  return result;
}

/// --compare: both runs' results, then each storage buffer's comparison and
/// a summary line (or all of it as one JSON object). Returns the exit code:
/// 0 when every storage buffer agrees, 1 otherwise.
static int reportComparison(json::Object cpuResult,
                            const run::VulkanShader &shader,
                            const vulkan::Result &vulkanResult,
                            ArrayRef<HostBuffer> buffers,
                            ArrayRef<run::ResolvedAddress> addresses,
                            ArrayRef<run::PrintArgument> prints,
                            std::array<uint32_t, 3> groups, uint32_t repeat,
                            const vulkan::Tolerance &tolerance) {
  std::vector<std::vector<uint8_t>> cpuBytes, vulkanBytes;
  for (size_t i = 0; i < buffers.size(); ++i) {
    cpuBytes.push_back(buffers[i].working.toVector());
    vulkanBytes.push_back(vulkanResult.buffers[i]);
  }
  // Addresses (--address's, and those the shader stores) differ between
  // the backends: 8 aligned bytes that hold the same place in the same
  // buffer on both sides are not compared.
  if (!vulkanResult.bufferAddresses.empty()) {
    std::vector<run::AddressRange> cpuRanges, vulkanRanges;
    for (size_t i = 0; i < buffers.size(); ++i) {
      if (buffers[i].image)
        continue;
      cpuRanges.push_back(
          {reinterpret_cast<uintptr_t>(buffers[i].working.data()),
           buffers[i].working.size()});
      vulkanRanges.push_back(
          {vulkanResult.bufferAddresses[i], buffers[i].working.size()});
    }
    for (size_t i = 0; i < buffers.size(); ++i)
      if (!buffers[i].image)
        run::maskSameAddresses(cpuBytes[i], vulkanBytes[i], cpuRanges,
                               vulkanRanges);
  }
  std::vector<vulkan::BufferResults> results;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!buffers[i].isDevice() && !buffers[i].image)
      results.push_back({buffers[i].argument.set, buffers[i].argument.binding,
                         buffers[i].argument.element, cpuBytes[i],
                         vulkanBytes[i]});
  Expected<std::vector<vulkan::BufferComparison>> comparisons =
      vulkan::compareStorageBuffers(shader.prepared, shader.reflection, results,
                                    tolerance);
  if (!comparisons)
    return fail(comparisons.takeError());
  std::vector<vulkan::ImageResults> images;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (const std::optional<run::ImageArgument> &image = buffers[i].image)
      images.push_back({image->set,
                        image->binding,
                        image->element,
                        image->format,
                        {image->extent[0], image->extent[1], image->extent[2]},
                        image->layers,
                        image->levels,
                        buffers[i].working,
                        vulkanResult.buffers[i]});
  llvm::append_range(*comparisons, vulkan::compareStorageImages(
                                       shader.reflection, images, tolerance));
  Expected<std::vector<BlockScalarLayout>> deviceLayouts =
      getDeviceBufferLayouts(shader, buffers, addresses);
  if (!deviceLayouts)
    return fail(deviceLayouts.takeError());
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i].isDevice())
      continue;
    comparisons->push_back(vulkan::compareBuffer(
        0, 0, (*deviceLayouts)[i], cpuBytes[i], vulkanBytes[i], tolerance));
    comparisons->back().device = buffers[i].device;
  }
  bool agree =
      llvm::all_of(*comparisons, [](const vulkan::BufferComparison &c) {
        return c.agrees();
      });
  json::Object vulkanJson =
      run::describeVulkanRun(shader, vulkanResult, groups, repeat);
  if (jsonOutput) {
    json::Object report{{"cpu", std::move(cpuResult)},
                        {"vulkan", std::move(vulkanJson)},
                        {"compare", vulkan::toJSON(*comparisons, tolerance)}};
    outs() << formatv("{0:2}", json::Value(std::move(report))) << "\n";
  } else {
    outs() << formatv("cpu:       compile {0:F3} ms, dispatch {1:F3} ms "
                      "median over {2} on {3} threads\n",
                      *cpuResult.getNumber("compile_ms"),
                      *cpuResult.getNumber("dispatch_ms"), repeat,
                      *cpuResult.getInteger("threads"));
    outs() << formatv("vulkan:    compile {0:F3} ms, dispatch {1:F3} ms "
                      "median over {2} on {3}\n",
                      vulkanResult.compileMilliseconds,
                      *vulkanJson.getNumber("dispatch_ms"), repeat,
                      vulkanResult.deviceName);
    for (const vulkan::BufferComparison &comparison : *comparisons)
      outs() << vulkan::formatComparison(comparison);
  }
  printBuffers(prints, buffers, jsonOutput, "cpu ");
  std::vector<HostBuffer> vulkanBuffers(buffers.begin(), buffers.end());
  for (size_t i = 0; i < vulkanBuffers.size(); ++i)
    vulkanBuffers[i].working.assign(vulkanResult.buffers[i]);
  printBuffers(prints, vulkanBuffers, jsonOutput, "vulkan ");
  // The verdict comes last, also after --print's lines.
  if (!jsonOutput)
    outs() << vulkan::formatSummary(*comparisons) << "\n";
  return agree ? 0 : 1;
}

/// Whether a debugger may stop the run (--debug, --debug-invocation,
/// --debug-pixel): the
/// watchdog then waits forever and the shader runs once, unless the
/// command line says otherwise.
static bool isDebugging() {
  return cl::getRegisteredOptions().lookup("debug")->getNumOccurrences() ||
         debugInvocationArg.getNumOccurrences() ||
         debugPixelArg.getNumOccurrences();
}

static Expected<uint32_t> parseRepeat() {
  if (isDebugging() && !repeatArg.getNumOccurrences())
    return 0;
  return run::parsePositive(repeatArg, "--repeat");
}

static Expected<double> parseTimeout() {
  if (isDebugging() && !timeoutArg.getNumOccurrences())
    return 0.0;
  double seconds = 0;
  if (StringRef(timeoutArg).getAsDouble(seconds) || !(seconds >= 0))
    return createStringError(
        inconvertibleErrorCode(),
        "error: --timeout '" + timeoutArg +
            "': expected seconds (a number, 0 waits forever)");
  return seconds;
}

static Expected<DeviceLimits> parseLimits() {
  if (std::optional<DeviceLimits> limits = DeviceLimits::find(limitsArg))
    return *limits;
  return createStringError(inconvertibleErrorCode(),
                           "error: --limits '" + limitsArg +
                               "': unknown device limits (expected " +
                               DeviceLimits::getProfileNames() + ")");
}

/// CompilePhases as --json's compile_phases_ms.
static json::Object describePhases(const CompilePhases &phases) {
  return json::Object{
      {"frontend", phases.frontend}, {"validate", phases.validate},
      {"reflect", phases.reflect},   {"deserialize", phases.deserialize},
      {"lower", phases.lower},       {"translate", phases.translate},
      {"optimize", phases.optimize}, {"codegen", phases.codegen},
      {"load", phases.load}};
}

/// `spv-run SCRIPT`: the script gives resources and dispatches, so the
/// flags that give them for a shader are mistakes.
static int runScript(StringRef threadsArg) {
  std::vector<cl::Option *> jobFlags = getJobFlags();
  jobFlags.push_back(&reflectArg);
  for (cl::Option *option : jobFlags)
    if (option != &debugPixelArg && option != &backendArg &&
        option->getNumOccurrences())
      return fail("--" + option->ArgStr +
                  " is not used with a script (it gives its own resources; "
                  "--backend=vulkan runs its draws on the Vulkan driver)");
  if (backendArg != "cpu" && backendArg != "vulkan")
    return fail("--backend '" + backendArg + "': expected cpu or vulkan");
  amber::ExecutorOptions options;
  options.vulkanDraws = backendArg == "vulkan";
  if (options.vulkanDraws && debugPixelArg.getNumOccurrences())
    return fail("--debug-pixel debugs the CPU's draws, not those of "
                "--backend=vulkan");
  options.imageDirectory = dumpImagesArg;
  if (debugPixelArg.getNumOccurrences()) {
    // Each draw's framebuffer is its pipeline's: a pixel outside one is
    // covered by none of its fragments.
    Expected<std::array<uint32_t, 2>> pixel =
        run::parseDebugPixelArgument(debugPixelArg, UINT32_MAX, UINT32_MAX);
    if (!pixel)
      return fail(pixel.takeError());
    options.debugPixel = *pixel;
  }
  if (threadsArg != "0") {
    Expected<uint32_t> parsed = run::parsePositive(threadsArg, "--threads");
    if (!parsed)
      return fail(parsed.takeError());
    options.threads = *parsed;
  }
  Expected<uint32_t> subgroupSize = run::parseSubgroupSize(subgroupSizeArg);
  if (!subgroupSize)
    return fail(subgroupSize.takeError());
  options.subgroupSize = *subgroupSize;
  Expected<DeviceLimits> limits = parseLimits();
  if (!limits)
    return fail(limits.takeError());
  options.limits = std::move(*limits);
  Expected<double> timeoutSeconds = parseTimeout();
  if (!timeoutSeconds)
    return fail(timeoutSeconds.takeError());
  Expected<CompileOptions> compile = spvb::tools::getCompileOptions();
  if (!compile)
    return fail(compile.takeError());
  if (!compile->specializations.empty() || !compile->entryPoint.empty())
    return fail("--spec and --entry are not used with a script (its "
                "pipelines give them)");
  // Without --target-env each shader gets the version it needs.
  if (cl::getRegisteredOptions().lookup("target-env")->getNumOccurrences())
    options.targetEnv = compile->source.targetEnv;
  options.compile = std::move(*compile);
  // Generated code cannot be interrupted: the watchdog ends the process.
  runtime::Watchdog watchdog(
      std::chrono::duration<double>(*timeoutSeconds), [&]() -> std::string {
        return formatv("error: {0}: the script did not "
                       "finish in {1} s (--timeout; 0 "
                       "waits forever); a shader may loop "
                       "forever",
                       shaderPath, timeoutArg);
      });
  watchdog.arm();
  return runScriptFile(shaderPath, options, jsonOutput);
}

/// spv-run SHADER.frag --framebuffer WxH (DrawRun.h).
static int runDraw(StringRef threadsArg) {
  for (cl::Option *option :
       {static_cast<cl::Option *>(std::addressof(groupsArg)),
        static_cast<cl::Option *>(&workgroupOrderArg),
        static_cast<cl::Option *>(std::addressof(deviceBufferArgs)),
        static_cast<cl::Option *>(std::addressof(addressArgs))})
    if (option->getNumOccurrences())
      return fail("--" + option->ArgStr +
                  " is for dispatches; --framebuffer draws");
  run::DrawOptions options;
  options.shaderPaths.assign(shaderPaths.begin(), shaderPaths.end());
  if (subgroupSizeArg.getNumOccurrences()) {
    Expected<uint32_t> subgroupSize = run::parseSubgroupSize(subgroupSizeArg);
    if (!subgroupSize)
      return fail(subgroupSize.takeError());
    options.subgroupSize = *subgroupSize;
  }
  Expected<run::FramebufferArgument> framebuffer =
      run::parseFramebufferArgument(framebufferArg);
  if (!framebuffer)
    return fail(framebuffer.takeError());
  options.framebuffer = *framebuffer;
  for (const std::string &arg : pngArgs) {
    Expected<run::AttachmentFileArgument> png =
        run::parseAttachmentFileArgument(arg, "--png");
    if (!png)
      return fail(png.takeError());
    options.pngs.push_back(std::move(*png));
  }
  for (const std::string &arg : attachmentOutArgs) {
    Expected<run::AttachmentFileArgument> out =
        run::parseAttachmentFileArgument(arg, "--attachment-out");
    if (!out)
      return fail(out.takeError());
    options.attachmentOutputs.push_back(std::move(*out));
  }
  if (shaderPaths.size() == 1)
    for (cl::Option *option :
         {static_cast<cl::Option *>(&topologyArg),
          static_cast<cl::Option *>(&patchControlPointsArg),
          static_cast<cl::Option *>(&domainOriginArg),
          static_cast<cl::Option *>(&verticesArg),
          static_cast<cl::Option *>(&instancesArg)})
      if (option->getNumOccurrences())
        return fail("--" + option->ArgStr +
                    ": a fragment shader alone is drawn over the whole "
                    "framebuffer; give a vertex shader first");
  for (const std::string &arg : vertexDataArgs) {
    Expected<run::VertexDataArgument> data = run::parseVertexDataArgument(arg);
    if (!data)
      return fail(data.takeError());
    if (any_of(options.vertexData, [&](const run::VertexDataArgument &other) {
          return other.location == data->location;
        }))
      return fail(formatv("--vertex-data '{0}': Location {1} is given twice",
                          arg, data->location));
    options.vertexData.push_back(std::move(*data));
  }
  if (indexDataArg.getNumOccurrences()) {
    Expected<run::IndexDataArgument> indices =
        run::parseIndexDataArgument(indexDataArg);
    if (!indices)
      return fail(indices.takeError());
    options.indices = std::move(*indices);
  }
  if (topologyArg.getNumOccurrences()) {
    Expected<VkPrimitiveTopology> topology =
        run::parseTopologyArgument(topologyArg);
    if (!topology)
      return fail(topology.takeError());
    options.topology = *topology;
  }
  if (patchControlPointsArg.getNumOccurrences()) {
    Expected<uint32_t> points =
        run::parsePositive(patchControlPointsArg, "--patch-control-points");
    if (!points)
      return fail(points.takeError());
    options.patchControlPoints = *points;
  }
  if (domainOriginArg.getNumOccurrences()) {
    if (domainOriginArg != "upper-left" && domainOriginArg != "lower-left")
      return fail(formatv("--tessellation-domain-origin '{0}': expected "
                          "upper-left or lower-left",
                          domainOriginArg));
    options.lowerLeftDomainOrigin = domainOriginArg == "lower-left";
  }
  if (verticesArg.getNumOccurrences()) {
    Expected<uint32_t> vertices = run::parsePositive(verticesArg, "--vertices");
    if (!vertices)
      return fail(vertices.takeError());
    options.vertices = *vertices;
  }
  if (instancesArg.getNumOccurrences()) {
    Expected<uint32_t> instances =
        run::parsePositive(instancesArg, "--instances");
    if (!instances)
      return fail(instances.takeError());
    options.instances = *instances;
  }
  Expected<uint32_t> repeat = parseRepeat();
  if (!repeat)
    return fail(repeat.takeError());
  options.repeat = *repeat;
  if (threadsArg != "0") {
    Expected<uint32_t> parsed = run::parsePositive(threadsArg, "--threads");
    if (!parsed)
      return fail(parsed.takeError());
    options.threads = *parsed;
  }
  Expected<double> timeoutSeconds = parseTimeout();
  if (!timeoutSeconds)
    return fail(timeoutSeconds.takeError());
  options.timeoutSeconds = *timeoutSeconds;
  Expected<DeviceLimits> limits = parseLimits();
  if (!limits)
    return fail(limits.takeError());
  options.limits = std::move(*limits);
  options.json = jsonOutput;
  Expected<BackendChoice> backends = parseBackendChoice();
  if (!backends)
    return fail(backends.takeError());
  if (debugPixelArg.getNumOccurrences()) {
    Expected<std::array<uint32_t, 2>> pixel = run::parseDebugPixelArgument(
        debugPixelArg, options.framebuffer.width, options.framebuffer.height);
    if (!pixel)
      return fail(pixel.takeError());
    if (backends->vulkan)
      return fail("--debug-pixel runs on the CPU backend, not with "
                  "--backend=vulkan or --compare");
    options.debugPixel = *pixel;
  }
  options.cpu = backends->cpu;
  options.vulkan = backends->vulkan;
  options.device = backends->device;
  options.tolerance = backends->tolerance;
  if (samplesArg.getNumOccurrences()) {
    if (samplesArg != "1" && samplesArg != "4")
      return fail("--samples '" + samplesArg + "': draws take 1 or 4 samples");
    options.samples = samplesArg == "4" ? 4 : 1;
  }
  if (cold)
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);

  JobFlags flags{bufferArgs,  imageArgs, samplerArgs, deviceBufferArgs,
                 addressArgs, outArgs,   printArgs,   pushArg};
  Expected<HostJob> job = collectHostJob(flags);
  if (!job)
    return fail(job.takeError());
  Expected<CompileOptions> compile = spvb::tools::getCompileOptions();
  if (!compile)
    return fail(compile.takeError());
  Expected<int> status = run::runDrawCommand(options, *job, *compile);
  if (!status)
    return fail(status.takeError());
  return *status;
}

int main(int argc, char **argv) {
  spvb::tools::backHeapWithHugePages();
  InitLLVM init(argc, argv);
  std::vector<const char *> args(argv, argv + argc);
  std::string threadsArg = takeThreadsArgument(args);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      args.size(), args.data(),
      "spv-run: run a compute shader or an Amber script on the CPU\n\n"
      "  --threads N  host threads (default: all hardware threads)\n");

  shaderPath = shaderPaths.front();
  if (debugInvocationArg.getNumOccurrences() &&
      (isScriptPath(shaderPath) || framebufferArg.getNumOccurrences()))
    return fail("--debug-invocation names an invocation of a compute "
                "dispatch; debug a script or a draw with --debug");
  if (isScriptPath(shaderPath))
    return runScript(threadsArg);
  if (shaderPaths.size() > 5 ||
      (shaderPaths.size() >= 2 && !framebufferArg.getNumOccurrences()))
    return fail("spv-run takes one shader or script; a vertex shader, "
                "optional tessellation control and evaluation and geometry "
                "shaders, and a fragment shader are drawn with --framebuffer "
                "WxH");
  if (framebufferArg.getNumOccurrences() && !reflectArg)
    return runDraw(threadsArg);
  for (cl::Option *option :
       {static_cast<cl::Option *>(std::addressof(pngArgs)),
        static_cast<cl::Option *>(std::addressof(attachmentOutArgs)),
        static_cast<cl::Option *>(std::addressof(vertexDataArgs)),
        static_cast<cl::Option *>(&indexDataArg),
        static_cast<cl::Option *>(&topologyArg),
        static_cast<cl::Option *>(&patchControlPointsArg),
        static_cast<cl::Option *>(&domainOriginArg),
        static_cast<cl::Option *>(&verticesArg),
        static_cast<cl::Option *>(&instancesArg),
        static_cast<cl::Option *>(&samplesArg),
        static_cast<cl::Option *>(&debugPixelArg)})
    if (option->getNumOccurrences() && !reflectArg)
      return fail("--" + option->ArgStr +
                  " is used with --framebuffer WxH (a draw)");
  if (dumpImagesArg.getNumOccurrences())
    return fail("--dump-images is used with a script (.amber, .vkscript)");
  if (reflectArg) {
    if (Error error = checkReflectFlags(threadsArg))
      return fail(std::move(error));
    Expected<CompileOptions> options = spvb::tools::getCompileOptions();
    if (!options)
      return fail(options.takeError());
    if (Error error = run::printReflection(outs(), shaderPath, *options))
      return fail(std::move(error));
    return 0;
  }
  if (groupsArg.empty())
    return fail("--groups X Y Z is required");
  Expected<double> timeoutSeconds = parseTimeout();
  if (!timeoutSeconds)
    return fail(timeoutSeconds.takeError());
  Expected<DeviceLimits> limits = parseLimits();
  if (!limits)
    return fail(limits.takeError());
  if (workgroupOrderArg != "forward" && workgroupOrderArg != "reverse")
    return fail("--workgroup-order '" + workgroupOrderArg +
                "': unknown order (expected forward or reverse)");
  std::array<uint32_t, 3> groups;
  for (int d = 0; d < 3; ++d) {
    Expected<uint32_t> count = run::parsePositive(groupsArg[d], "--groups");
    if (!count)
      return fail(count.takeError());
    groups[d] = *count;
  }
  Expected<uint32_t> repeat = parseRepeat();
  if (!repeat)
    return fail(repeat.takeError());
  uint32_t threads = 0;
  if (threadsArg != "0") {
    Expected<uint32_t> parsed = run::parsePositive(threadsArg, "--threads");
    if (!parsed)
      return fail(parsed.takeError());
    threads = *parsed;
  }
  Expected<uint32_t> subgroupSize = run::parseSubgroupSize(subgroupSizeArg);
  if (!subgroupSize)
    return fail(subgroupSize.takeError());
  Expected<CompileOptions> options = spvb::tools::getCompileOptions();
  if (!options)
    return fail(options.takeError());
  Expected<BackendChoice> backends = parseBackendChoice();
  if (!backends)
    return fail(backends.takeError());
  if (debugInvocationArg.getNumOccurrences() && backends->vulkan)
    return fail("--debug-invocation runs on the CPU backend, not with "
                "--backend=vulkan or --compare");
  // Made before the inputs are read: it prepares its first compile on a
  // second thread meanwhile (CompileWarmup).
  std::unique_ptr<JitCompiler> jit;
  if (backends->cpu) {
    Expected<std::unique_ptr<JitCompiler>> created =
        tools::createJitCompiler(options->debug);
    if (!created)
      return fail(created.takeError());
    jit = std::move(*created);
  }

  JobFlags flags{bufferArgs,  imageArgs, samplerArgs, deviceBufferArgs,
                 addressArgs, outArgs,   printArgs,   pushArg};
  Expected<HostJob> collected = collectHostJob(flags);
  if (!collected)
    return fail(collected.takeError());
  HostJob &job = *collected;
  std::vector<HostBuffer> &buffers = job.buffers;

  // Vulkan first: with --compare the CPU's buffers stay in `working` for
  // --out and --print, which show the CPU's results.
  std::optional<run::VulkanShader> vulkanShader;
  std::optional<vulkan::Result> vulkanResult;
  if (backends->vulkan) {
    // lavapipe's on-disk shader cache, as vkref --cold turns it off.
    if (cold)
      setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    Expected<run::VulkanShader> shader =
        run::loadVulkanShader(shaderPath, *options);
    if (!shader)
      return fail(shader.takeError());
    if (Error error = checkResources(shader->reflection, buffers, job.samplers,
                                     job.push.has_value(), shaderPath))
      return fail(std::move(error));
    Expected<vulkan::Result> result =
        runOnVulkan(*shader, buffers, job.samplers, job.addresses, job.push,
                    *options, groups, *repeat, *backends);
    if (!result)
      return fail(result.takeError());
    vulkanShader = std::move(*shader);
    vulkanResult = std::move(*result);
  }
  if (!backends->cpu) {
    for (size_t i = 0; i < buffers.size(); ++i)
      buffers[i].working.assign(vulkanResult->buffers[i]);
    if (Error error = writeOutputs(job.outputs, buffers))
      return fail(std::move(error));
    if (jsonOutput)
      outs() << formatv("{0:2}",
                        json::Value(run::describeVulkanRun(
                            *vulkanShader, *vulkanResult, groups, *repeat)))
             << "\n";
    else
      run::printVulkanRun(outs(), *vulkanShader, *vulkanResult, groups,
                          *repeat);
    printBuffers(job.prints, buffers, jsonOutput);
    return 0;
  }

  // Subgroup results depend on the subgroup size, so --compare runs the CPU
  // with the device's unless the command line picks one. The kernel is
  // compiled for it, as a GPU driver compiles a pipeline.
  uint32_t cpuSubgroupSize = *subgroupSize;
  if (backends->compare() && !subgroupSizeArg.getNumOccurrences()) {
    Expected<uint32_t> deviceSize =
        run::getCompareSubgroupSize(vulkanResult->subgroupSize);
    if (!deviceSize)
      return fail(deviceSize.takeError());
    cpuSubgroupSize = *deviceSize;
  }
  options->subgroupSize = cpuSubgroupSize;

  auto compileStart = std::chrono::steady_clock::now();
  Expected<std::shared_ptr<const Kernel>> kernel =
      jit->compileFile(shaderPath, *options);
  if (!kernel)
    return fail(kernel.takeError());
  noteListing(**kernel);
  double compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - compileStart)
                         .count();

  if (Error error = checkResources((*kernel)->reflection, buffers, job.samplers,
                                   job.push.has_value(), shaderPath))
    return fail(std::move(error));

  runtime::Launcher launcher(threads, cpuSubgroupSize);
  launcher.setReverseOrder(workgroupOrderArg == "reverse");
  // The invocation to debug, through a build a debugger sees; the JIT that
  // holds it outlives the runs.
  std::unique_ptr<JitCompiler> debugJit;
  std::shared_ptr<const Kernel> debugKernel;
  if (debugInvocationArg.getNumOccurrences()) {
    Expected<runtime::DebugInvocation> target = runtime::parseDebugInvocation(
        debugInvocationArg, groups, (*kernel)->entry.info.workgroup_size,
        "--debug-invocation");
    if (!target)
      return fail(target.takeError());
    Expected<std::unique_ptr<JitCompiler>> created =
        JitCompiler::create(/*debuggable=*/true);
    if (!created)
      return fail(created.takeError());
    debugJit = std::move(*created);
    CompileOptions debugOptions = *options;
    debugOptions.debug = true;
    Expected<std::shared_ptr<const Kernel>> compiled =
        debugJit->compileFile(shaderPath, debugOptions);
    if (!compiled)
      return fail(compiled.takeError());
    debugKernel = *compiled;
    noteListing(*debugKernel);
    target->entry = debugKernel->entry.invocation;
    // With barriers or subgroup operations, the whole workgroup in the
    // debug build, an invocation per thread: a debugger switches between
    // them where they wait for each other.
    target->wholeWorkgroup = debugKernel->entry.info.uses_barriers != 0 ||
                             debugKernel->reflection.usesSubgroupOps;
    launcher.setDebugInvocation(*target);
  }
  Dispatch dispatch(*kernel);
  dispatch.setLimits(*limits);
  bindHostJob(dispatch, job, [&](uint32_t set, uint32_t binding) {
    return (*kernel)->reflection.findResource(set, binding);
  });

  // Every run starts from the initial contents, restored outside the timing.
  // debugPrintfEXT output is shown for the last run only.
  std::vector<double> timings;
  uint64_t workgroups = uint64_t(groups[0]) * groups[1] * groups[2];
  runtime::Watchdog watchdog(
      std::chrono::duration<double>(*timeoutSeconds), [&]() -> std::string {
        return formatv("error: the dispatch did not finish in {0} s "
                       "(--timeout; 0 waits forever): {1} of {2} workgroups "
                       "finished; the shader may loop forever",
                       timeoutArg, launcher.getFinishedWorkgroups(),
                       workgroups);
      });
  for (uint32_t i = 0; i <= *repeat; ++i) {
    runtime::setPrintfSink(i == *repeat ? stdout : nullptr);
    for (HostBuffer &buffer : buffers)
      std::memcpy(buffer.working.data(), buffer.initial.data(),
                  buffer.working.size());
    auto start = std::chrono::steady_clock::now();
    watchdog.arm();
    Error error = dispatch.run(launcher, groups);
    watchdog.disarm();
    if (error)
      return fail(std::move(error));
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    if (i > 0 || *repeat == 0) // one run: the warm-up only
      timings.push_back(ms);
  }

  if (Error error = writeOutputs(job.outputs, buffers))
    return fail(std::move(error));
  run::TimingSummary summary = run::summarize(timings);
  const uint32_t *size = (*kernel)->entry.info.workgroup_size;
  json::Object result{
      {"device", "spvbridge (host CPU)"},
      {"entry", (*kernel)->entryPoint},
      {"local_size", json::Array{size[0], size[1], size[2]}},
      {"groups", json::Array{groups[0], groups[1], groups[2]}},
      {"compile_ms", compileMs},
      {"compile_phases_ms", describePhases((*kernel)->phases)},
      {"kernel_cache", getDiskCacheUseName((*kernel)->diskCache)},
      {"invocation_entry",
       (*kernel)->invocationDeferred ? "on first call" : "compiled"},
      {"repeat", *repeat},
      {"dispatch_ms", summary.median},
      {"dispatch_ms_min", summary.min},
      {"dispatch_ms_max", summary.max},
      {"threads", launcher.getThreadCount()},
      {"subgroup_size", launcher.getSubgroupSize()},
      {"uses_barriers", (*kernel)->entry.info.uses_barriers != 0},
      {"workgroup_entry",
       getWorkgroupEntryName((*kernel)->entry.info.workgroup_entry)},
      {"simd_lanes", (*kernel)->entry.info.simd_lanes},
      {"subgroups_in_lanes", (*kernel)->entry.info.subgroup_size != 0}};
  if (backends->compare())
    return reportComparison(std::move(result), *vulkanShader, *vulkanResult,
                            buffers, job.addresses, job.prints, groups, *repeat,
                            backends->tolerance);
  if (jsonOutput) {
    outs() << formatv("{0:2}", json::Value(std::move(result))) << "\n";
  } else {
    outs() << formatv("entry:     {0} local_size={1}x{2}x{3} "
                      "groups={4}x{5}x{6}\n",
                      (*kernel)->entryPoint, size[0], size[1], size[2],
                      groups[0], groups[1], groups[2]);
    outs() << formatv("compile:   {0:F3} ms\n", compileMs);
    outs() << formatv("dispatch:  {0:F3} ms median over {1} (min {2:F3}, "
                      "max {3:F3}) on {4} threads\n",
                      summary.median, timings.size(), summary.min, summary.max,
                      launcher.getThreadCount());
  }
  printBuffers(job.prints, buffers, jsonOutput);
  return 0;
}

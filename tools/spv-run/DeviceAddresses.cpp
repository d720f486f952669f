//===- DeviceAddresses.cpp - spv-run's --device-buffer and --address ------===//

#include "DeviceAddresses.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace spvb;
using namespace spvb::run;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// How errors name a buffer: "buffer 0:1", "device buffer 'X'".
static std::string describe(const BufferName &name) {
  return name.isDevice() ? "device buffer '" + name.device + "'"
                         : "buffer " + name.str();
}

/// The buffer \p name names among \p buffers.
static Expected<size_t> findBuffer(ArrayRef<AddressableBuffer> buffers,
                                   const BufferName &name, StringRef context) {
  for (auto [i, buffer] : enumerate(buffers)) {
    if (!buffer.name.refersTo(name))
      continue;
    if (buffer.image)
      return makeError(formatv("{0}: {1} is an image; addresses are of "
                               "buffers",
                               context, name.str()));
    return i;
  }
  if (name.isDevice())
    return makeError(
        formatv("{0}: no --device-buffer named '{1}'", context, name.device));
  return makeError(formatv("{0}: no --buffer {1}", context, name.str()));
}

Expected<std::vector<ResolvedAddress>>
spvb::run::resolveAddresses(ArrayRef<AddressArgument> addresses,
                            ArrayRef<AddressableBuffer> buffers,
                            std::optional<uint64_t> pushSize) {
  std::vector<ResolvedAddress> resolved;
  for (const AddressArgument &address : addresses) {
    std::string context = "error: --address '" + address.text + "'";
    ResolvedAddress result;
    result.argument = &address;
    result.offset = address.offset;
    result.addend = address.addend;
    uint64_t whereSize = 0;
    std::string whereName = "the push constants";
    if (address.push) {
      if (!pushSize)
        return makeError(context + ": no --push to write the address into");
      whereSize = *pushSize;
    } else {
      Expected<size_t> where = findBuffer(buffers, address.where, context);
      if (!where)
        return where.takeError();
      result.where = *where;
      whereSize = buffers[*where].size;
      whereName = describe(address.where);
    }
    if (address.offset > whereSize || whereSize - address.offset < 8)
      return makeError(formatv("{0}: the 8-byte address at offset {1} runs "
                               "past the end of {2} ({3} bytes)",
                               context, address.offset, whereName, whereSize));
    Expected<size_t> target = findBuffer(buffers, address.target, context);
    if (!target)
      return target.takeError();
    result.target = *target;
    if (address.addend > buffers[*target].size)
      return makeError(formatv(
          "{0}: +{1} is past the end of {2} ({3} bytes)", context,
          address.addend, describe(address.target), buffers[*target].size));
    for (const ResolvedAddress &other : resolved)
      if (other.where == result.where && other.offset < result.offset + 8 &&
          result.offset < other.offset + 8)
        return makeError(formatv("{0}: bytes {1}..{2} of {3} are written by "
                                 "--address '{4}' too",
                                 context, result.offset, result.offset + 7,
                                 whereName, other.argument->text));
    resolved.push_back(result);
  }
  return resolved;
}

void spvb::run::writeAddress(std::vector<uint8_t> &bytes, uint64_t offset,
                             uint64_t value) {
  for (unsigned i = 0; i < 8; ++i)
    bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

void spvb::run::maskSameAddresses(std::vector<uint8_t> &cpu,
                                  std::vector<uint8_t> &vulkan,
                                  ArrayRef<AddressRange> cpuRanges,
                                  ArrayRef<AddressRange> vulkanRanges) {
  auto read = [](ArrayRef<uint8_t> bytes, size_t offset) {
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; ++i)
      value |= uint64_t(bytes[offset + i]) << (8 * i);
    return value;
  };
  size_t size = std::min(cpu.size(), vulkan.size());
  for (size_t offset = 0; offset + 8 <= size; offset += 8) {
    uint64_t cpuValue = read(cpu, offset), vulkanValue = read(vulkan, offset);
    if (cpuValue == vulkanValue)
      continue;
    for (size_t k = 0; k < cpuRanges.size() && k < vulkanRanges.size(); ++k) {
      const AddressRange &c = cpuRanges[k], &v = vulkanRanges[k];
      if (cpuValue < c.base || cpuValue - c.base > c.size ||
          vulkanValue < v.base || cpuValue - c.base != vulkanValue - v.base)
        continue;
      writeAddress(cpu, offset, 0);
      writeAddress(vulkan, offset, 0);
      break;
    }
  }
}

/// The pointer at byte \p offset of a block laid out as \p layout, if any.
static const PointerField *findPointer(const BlockScalarLayout &layout,
                                       uint64_t offset) {
  for (const PointerField &pointer : layout.pointers)
    if (pointer.offset == offset)
      return &pointer;
  if (!layout.runtimeArrayStride || offset < layout.runtimeArrayOffset)
    return nullptr;
  uint64_t inElement =
      (offset - layout.runtimeArrayOffset) % layout.runtimeArrayStride;
  for (const PointerField &pointer : layout.elementPointers)
    if (pointer.offset == inElement)
      return &pointer;
  return nullptr;
}

Expected<std::optional<BlockScalarLayout>>
spvb::run::getAddressedLayout(const SpirvBinary &binary,
                              const BlockScalarLayout &where, uint64_t offset,
                              uint64_t addend) {
  const PointerField *pointer = findPointer(where, offset);
  if (!pointer)
    return std::nullopt;
  Expected<BlockScalarLayout> layout =
      getPointeeScalarLayout(binary, pointer->pointeeTypeId);
  if (!layout)
    return layout.takeError();
  if (pointer->arrayStride && !layout->runtimeArrayStride) {
    // OpPtrAccessChain steps over whole pointees: pointee i is at i * stride.
    auto asElementPath = [](std::string &path) {
      if (!path.empty() && path[0] != '[')
        path = "." + path;
    };
    layout->runtimeArrayOffset = 0;
    layout->runtimeArrayStride = pointer->arrayStride;
    layout->elementFields = std::move(layout->fields);
    layout->elementPointers = std::move(layout->pointers);
    layout->fields.clear();
    layout->pointers.clear();
    for (ScalarField &field : layout->elementFields)
      asElementPath(field.path);
    for (PointerField &field : layout->elementPointers)
      asElementPath(field.path);
    layout->staticSize = 0;
  }
  if (addend) {
    for (ScalarField &field : layout->fields)
      field.offset += addend;
    for (PointerField &field : layout->pointers)
      field.offset += addend;
    layout->runtimeArrayOffset += addend;
    layout->staticSize += addend;
  }
  return std::optional<BlockScalarLayout>(std::move(*layout));
}

BlockScalarLayout spvb::run::getWordLayout() {
  BlockScalarLayout layout;
  layout.runtimeArrayPath = "word";
  layout.runtimeArrayStride = 4;
  layout.elementFields.push_back({0, ScalarKind::Unsigned, 4, ""});
  return layout;
}

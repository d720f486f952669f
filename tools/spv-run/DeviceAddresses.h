//===- DeviceAddresses.h - spv-run's --device-buffer and --address -*- C++ -*-//
//
// Buffer device addresses on spv-run's command line: `--device-buffer
// NAME:DATA` makes a buffer bound to no descriptor, and `--address
// WHERE:OFFSET:BUFFER[+BYTES]` writes the 8-byte address of BUFFER (a device
// buffer or a descriptor's buffer) plus BYTES at byte OFFSET of WHERE (the
// push constants, a descriptor's buffer or a device buffer) before the run.
// On the CPU the address is the host pointer of spv-run's copy; on Vulkan it
// is vkGetBufferDeviceAddress's.
//
// Here: checking the addresses against the job's buffers, and the layout
// --compare gives a device buffer (the type a pointer at its address
// points to).
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_SPV_RUN_DEVICEADDRESSES_H
#define SPVBRIDGE_TOOLS_SPV_RUN_DEVICEADDRESSES_H

#include "RunArguments.h"

#include "spvbridge/spirv/ScalarLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace spvb::run {

/// What resolveAddresses needs to know of each buffer of the job.
struct AddressableBuffer {
  BufferName name;
  uint64_t size = 0;
  /// An --image: it has no address, and takes none.
  bool image = false;
};

/// An --address, checked: indices into the job's buffers.
struct ResolvedAddress {
  const AddressArgument *argument = nullptr;
  /// Where the address goes; none: the push constants.
  std::optional<size_t> where;
  uint64_t offset = 0;
  size_t target = 0;
  uint64_t addend = 0;
};

/// Finds each address's WHERE and BUFFER among \p buffers. \p pushSize is
/// the --push data's size, or none without --push. Errors (ARG the whole
/// argument):
///   error: --address 'ARG': no --push to write the address into
///   error: --address 'ARG': no --buffer S:B[E]
///   error: --address 'ARG': no --device-buffer named 'X'
///   error: --address 'ARG': S:B is an image; addresses are of buffers
///   error: --address 'ARG': the 8-byte address at offset N runs past the
///          end of WHERE (M bytes)
///   error: --address 'ARG': +N is past the end of BUFFER (M bytes)
///   error: --address 'ARG': bytes A..B of WHERE are written by --address
///          'OTHER' too
llvm::Expected<std::vector<ResolvedAddress>>
resolveAddresses(llvm::ArrayRef<AddressArgument> addresses,
                 llvm::ArrayRef<AddressableBuffer> buffers,
                 std::optional<uint64_t> pushSize);

/// Writes \p value as 8 little-endian bytes at \p offset of \p bytes.
void writeAddress(std::vector<uint8_t> &bytes, uint64_t offset, uint64_t value);

/// Where a buffer lives on one backend: its address and size.
struct AddressRange {
  uint64_t base = 0;
  uint64_t size = 0;
};

/// Zeroes every 8 aligned bytes of \p cpu and \p vulkan (one buffer after
/// each backend's run) that differ but hold the same place on both sides:
/// an address in buffer k of \p cpuRanges (end included) and, at the same
/// offset, in buffer k of \p vulkanRanges. Such values are the same
/// pointer, and --compare does not compare them.
void maskSameAddresses(std::vector<uint8_t> &cpu, std::vector<uint8_t> &vulkan,
                       llvm::ArrayRef<AddressRange> cpuRanges,
                       llvm::ArrayRef<AddressRange> vulkanRanges);

/// The layout of the buffer an address at byte \p offset of a block laid
/// out as \p where points into, \p addend bytes past its start: the
/// pointee's layout of the PhysicalStorageBuffer pointer at that offset
/// (moved by the addend; a pointer type with ArrayStride makes its pointee
/// repeat as a runtime array, as OpPtrAccessChain steps over it), or none
/// when no pointer sits there (an address in a uint64 or uvec2, converted
/// by the shader). Errors are getPointeeScalarLayout's.
llvm::Expected<std::optional<BlockScalarLayout>>
getAddressedLayout(const SpirvBinary &binary, const BlockScalarLayout &where,
                   uint64_t offset, uint64_t addend);

/// The layout --compare gives a device buffer whose type nothing tells:
/// 32-bit unsigned words, "word[N]", compared exactly.
BlockScalarLayout getWordLayout();

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_DEVICEADDRESSES_H

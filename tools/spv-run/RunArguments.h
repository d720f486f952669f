//===- RunArguments.h - spv-run's argument and data handling ----*- C++ -*-===//
//
// The command-line values spv-run shares with vkref (../shared/tools/vkref),
// so that one command line runs on both: DATA (--buffer, --push), --buffer,
// --out, --groups and --repeat, with vkref's grammar. Plus spv-run's own
// --print and --threads, descriptor array elements (SET:BINDING[ELEMENT]),
// --device-buffer and --address, the text of a printed buffer, writing
// output files and the timing summary of --json.
//
// Every error is an llvm::Error whose message starts with "error: ", names
// the flag and quotes the whole argument as given, e.g.
//   error: --buffer '0:1:storag:f32:1': unknown descriptor kind 'storag'
//   (expected storage or uniform)
// (one line). Where vkref exits, these functions return such an error.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_SPV_RUN_RUNARGUMENTS_H
#define SPVBRIDGE_TOOLS_SPV_RUN_RUNARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb::run {

/// The most bytes one DATA may hold: the largest range a Vulkan buffer
/// descriptor can have (maxStorageBufferRange is a uint32_t).
constexpr uint64_t MaxDataBytes = UINT32_MAX;
/// The most push constant bytes --push takes: far above any device's
/// maxPushConstantsSize (128 to 4096), which the run checks after.
constexpr uint64_t MaxPushBytes = 65536;

/// Size in bytes of a scalar type of inline lists and --print (u8 i8 u16 i16
/// u32 i32 u64 i64 f16 f32 f64), or 0 if \p type is none of them.
unsigned scalarTypeSize(llvm::StringRef type);

/// Loads DATA as vkref does:
///   - `zero:NBYTES`: NBYTES zero bytes (decimal or 0x hex);
///   - `TYPE:v1,v2,...` when TYPE is a scalar type: the values,
///     little-endian, one after the other. An item `T:v` switches the type
///     for itself and the items after it (`f32:2.5,u32:7`). Integers are
///     decimal or 0x hex (C strtoll/strtoull syntax) and must fit the type;
///     floats use C strtod syntax (incl. inf, nan, hex floats), a float too
///     large for its type becomes inf, as in vkref. f16 is an addition to
///     vkref's types;
///   - anything else: the path of a file whose raw bytes are the data.
/// Errors (\p flag names the flag, DATA is \p data):
///   error: FLAG 'DATA': empty DATA (expected FILE, zero:NBYTES or
///          TYPE:v1,v2,...)
///   error: FLAG 'DATA': bad zero:NBYTES size 'N' (expected an unsigned
///          integer)
///   error: FLAG 'DATA': zero:NBYTES size 'N' is too large (at most
///          4294967295 bytes)
///   error: FLAG 'DATA': unknown type 'T' (expected u8, i8, u16, i16, u32,
///          i32, u64, i64, f16, f32 or f64)
///   error: FLAG 'DATA': empty T value
///   error: FLAG 'DATA': bad T value 'V' (not an integer)
///   error: FLAG 'DATA': bad T value 'V' (not a number)            [floats]
///   error: FLAG 'DATA': bad T value 'V' (out of range LO..HI)
///   error: FLAG 'DATA': cannot open data file 'PATH': REASON
///   error: FLAG 'DATA': data file 'PATH' is too large (N bytes; at most
///          4294967295)
/// The result may be empty (`zero:0`, an empty file).
llvm::Expected<std::vector<uint8_t>> loadData(llvm::StringRef data,
                                              llvm::StringRef flag);

/// `--push DATA`: loadData(DATA, "--push") padded with zeros to a multiple
/// of 4 bytes, as vkref does. Errors: those of loadData (with at most
/// MaxPushBytes bytes), and
///   error: --push 'DATA': the push constant data is empty
llvm::Expected<std::vector<uint8_t>> parsePushArgument(llvm::StringRef data);

enum class DescriptorKind { Storage, Uniform };

/// A buffer as --out, --print and --address name it: a descriptor,
/// `SET:BINDING` or `SET:BINDING[ELEMENT]` (an element of a descriptor
/// array), or a --device-buffer by its NAME.
struct BufferName {
  /// The device buffer's name; empty for a descriptor.
  std::string device;
  uint32_t set = 0;
  uint32_t binding = 0;
  /// [ELEMENT], when given.
  std::optional<uint32_t> element;

  bool isDevice() const { return !device.empty(); }
  uint32_t getElement() const { return element.value_or(0); }
  /// "0:1", "0:1[2]" or the name.
  std::string str() const;
  /// Whether both name the same buffer (no [ELEMENT] is element 0).
  bool refersTo(const BufferName &other) const;
};

/// "SET:BINDING" or "SET:BINDING[ELEMENT]".
std::string formatDescriptor(uint32_t set, uint32_t binding,
                             std::optional<uint32_t> element);

/// A device buffer's NAME: a letter or '_', then letters, digits, '_', '-'
/// or '.'; not "push".
bool isDeviceBufferName(llvm::StringRef name);

/// "storage" or "uniform".
llvm::StringRef kindName(DescriptorKind kind);

/// `--buffer SET:BINDING[ELEMENT]:storage|uniform:DATA`.
struct BufferArgument {
  uint32_t set = 0;
  uint32_t binding = 0;
  /// [ELEMENT] of a descriptor array, when given.
  std::optional<uint32_t> element;
  DescriptorKind kind = DescriptorKind::Storage;
  /// The loaded DATA (never empty).
  std::vector<uint8_t> bytes;
};

/// Parses `SET:BINDING[ELEMENT]:storage|uniform:DATA` and loads DATA (which
/// may hold further colons). SET, BINDING and ELEMENT are decimal or 0x hex.
/// Errors (ARG is \p arg):
///   error: --buffer 'ARG': expected SET:BINDING:storage|uniform:DATA
///   error: --buffer 'ARG': bad set 'X' (expected an unsigned 32-bit integer)
///   error: --buffer 'ARG': bad binding 'X' (expected an unsigned 32-bit
///          integer)
///   error: --buffer 'ARG': bad element 'X' (expected an unsigned 32-bit
///          integer in BINDING[ELEMENT])
///   error: --buffer 'ARG': unknown descriptor kind 'K' (expected storage or
///          uniform)
///   error: --buffer 'ARG': <a loadData error after the quoted argument>
///   error: --buffer 'ARG': the buffer is empty
/// Duplicate (set, binding) pairs are the caller's to reject.
llvm::Expected<BufferArgument> parseBufferArgument(llvm::StringRef arg);

/// `--out SET:BINDING[ELEMENT]:FILE` or `--out NAME:FILE`.
struct OutputArgument {
  BufferName buffer;
  std::string path;
};

/// Parses `SET:BINDING[ELEMENT]:FILE` or `NAME:FILE` (FILE may hold colons;
/// a first part that starts with a letter or '_' is a NAME). Errors:
///   error: --out 'ARG': expected SET:BINDING[ELEMENT]:FILE or NAME:FILE
///   error: --out 'ARG': bad set|binding|element 'X' (expected an unsigned
///          32-bit integer...)
///   error: --out 'ARG': empty FILE
llvm::Expected<OutputArgument> parseOutputArgument(llvm::StringRef arg);

/// `--print SET:BINDING[ELEMENT]:TYPE` or `--print NAME:TYPE` (spv-run
/// only).
struct PrintArgument {
  BufferName buffer;
  /// A scalar type, see scalarTypeSize.
  std::string type;
};

/// Parses `SET:BINDING[ELEMENT]:TYPE` or `NAME:TYPE`. Errors:
///   error: --print 'ARG': expected SET:BINDING[ELEMENT]:TYPE or NAME:TYPE
///   error: --print 'ARG': bad set|binding|element 'X' (expected an unsigned
///          32-bit integer...)
///   error: --print 'ARG': unknown type 'T' (expected u8, i8, u16, i16, u32,
///          i32, u64, i64, f16, f32 or f64)
llvm::Expected<PrintArgument> parsePrintArgument(llvm::StringRef arg);

/// `--device-buffer NAME:DATA`: a buffer bound to no descriptor, which the
/// shader reaches through its address (--address).
struct DeviceBufferArgument {
  std::string name;
  /// The loaded DATA (never empty).
  std::vector<uint8_t> bytes;
};

/// Errors:
///   error: --device-buffer 'ARG': expected NAME:DATA
///   error: --device-buffer 'ARG': bad name 'X' (expected a letter or '_'
///          followed by letters, digits, '_', '-' or '.', and not 'push')
///   error: --device-buffer 'ARG': the buffer is empty
///   and those of loadData.
llvm::Expected<DeviceBufferArgument>
parseDeviceBufferArgument(llvm::StringRef arg);

/// `--address WHERE:OFFSET:BUFFER[+BYTES]`: before the run, the 8-byte
/// address of BUFFER (plus BYTES) is written at byte OFFSET of WHERE, the
/// push constants (`push`), a descriptor's buffer (SET:BINDING[ELEMENT]) or
/// a device buffer (NAME). BUFFER is a NAME or SET:BINDING[ELEMENT].
struct AddressArgument {
  /// The argument as given, for errors.
  std::string text;
  /// WHERE is `push` (then `where` is unused).
  bool push = false;
  BufferName where;
  uint64_t offset = 0;
  BufferName target;
  uint64_t addend = 0;
};

/// Errors:
///   error: --address 'ARG': expected WHERE:OFFSET:BUFFER[+BYTES] (WHERE:
///          push, SET:BINDING[ELEMENT] or NAME; BUFFER: NAME or
///          SET:BINDING[ELEMENT])
///   error: --address 'ARG': bad offset 'X' (expected an unsigned integer)
///   error: --address 'ARG': bad +BYTES 'X' (expected an unsigned integer)
///   error: --address 'ARG': bad set|binding|element 'X' (...)
llvm::Expected<AddressArgument> parseAddressArgument(llvm::StringRef arg);

/// The buffer as text for --print: its values of scalar type \p type,
/// little-endian, separated by ", ". Integers are decimal; floats print so
/// that they read back exactly (%.5g for f16, %.9g for f32, %.17g for f64;
/// inf, -inf, nan, -nan). At most \p limit values (0: no limit) are shown,
/// then " ... (N more)". Bytes after the last whole value are shown as
/// " (+K trailing bytes: xx xx)". An empty buffer is "(empty)".
/// Example: `1, 2 ... (3 more) (+1 trailing byte: ff)`.
std::string formatBuffer(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef type,
                         size_t limit = 64);

/// Writes \p bytes to the file \p path (created or truncated; "-" is a file
/// named "-", as in vkref). Error:
///   error: cannot write file 'PATH': REASON
llvm::Error writeFile(llvm::StringRef path, llvm::ArrayRef<uint8_t> bytes);

/// Median (mean of the middle two for an even count, as vkref), minimum and
/// maximum of timings for --json. All zero for no timings.
struct TimingSummary {
  double median = 0;
  double min = 0;
  double max = 0;
};
TimingSummary summarize(llvm::ArrayRef<double> milliseconds);

/// A count given to \p flag (`--groups X Y Z` one at a time, `--repeat N`,
/// `--threads N`): a positive 32-bit integer, decimal or 0x hex. Errors:
///   error: FLAG 'V': expected a positive integer
///   error: FLAG 'V': too large (at most 4294967295)
llvm::Expected<uint32_t> parsePositive(llvm::StringRef value,
                                       llvm::StringRef flag);

/// As parsePositive, but 0 is allowed (`--device N`). Errors:
///   error: FLAG 'V': expected an unsigned integer
///   error: FLAG 'V': too large (at most 4294967295)
llvm::Expected<uint32_t> parseUnsigned(llvm::StringRef value,
                                       llvm::StringRef flag);

/// `--image SET:BINDING:FORMAT:EXTENT:DATA`: an image or texel buffer.
/// FORMAT is a GLSL image format (rgba8, r32f, rgba32ui, ...); EXTENT is W,
/// WxH or WxHxD, optionally followed by `,layers=N`, `,levels=N` and
/// `,samples=N`; DATA holds every texel (every sample of each), tightly
/// packed as kernel_abi.h's spvb_image says.
struct ImageArgument {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::optional<uint32_t> element;
  uint32_t format = 0; ///< SPIR-V ImageFormat
  std::string formatName;
  unsigned texelBytes = 0;
  unsigned dimensions = 1; ///< how many of W, H, D were given
  uint32_t extent[3] = {1, 1, 1};
  uint32_t layers = 1;
  uint32_t levels = 1;
  /// More than 1 for a multisampled image (`,samples=N`).
  uint32_t samples = 1;
  std::vector<uint8_t> bytes;
};

/// Bytes of all texels (every sample) of every layer and level.
uint64_t getImageByteSize(const ImageArgument &image);

/// Errors:
///   error: --image 'ARG': expected SET:BINDING:FORMAT:EXTENT:DATA
///   error: --image 'ARG': unknown image format 'F' (expected a GLSL image
///          format such as rgba8, r32f or rgba32ui)
///   error: --image 'ARG': bad extent 'E' (expected W, WxH or WxHxD with
///          positive sizes, optionally followed by ,layers=N, ,levels=N and
///          ,samples=N)
///   error: --image 'ARG': bad sample count N (expected 1, 2, 4, 8, 16, 32
///          or 64)
///   error: --image 'ARG': a multisampled image has one level, not N
///   error: --image 'ARG': DATA has N bytes but the image needs M
///   and those of loadData.
llvm::Expected<ImageArgument> parseImageArgument(llvm::StringRef arg);

/// `--sampler SET:BINDING:SETTINGS`, SETTINGS a comma-separated list of
/// nearest | linear (both filters), mipmap=nearest|linear,
/// address=repeat|mirrored-repeat|clamp-to-edge|clamp-to-border|
/// mirror-clamp-to-edge, border=transparent-black|opaque-black|opaque-white,
/// min-lod=X, max-lod=X, lod-bias=X, unnormalized, compare=OP (a
/// VkCompareOp in lower case with dashes: depth-compare sampling). Unset:
/// no comparison, nearest, mipmap
/// nearest, clamp-to-edge, transparent black, LOD 0 to 1000.
struct SamplerArgument {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::optional<uint32_t> element;
  uint32_t filter = 0;
  uint32_t mipmapMode = 0;
  uint32_t addressMode = 2;
  uint32_t borderColor = 0;
  float minLod = 0;
  float maxLod = 1000;
  float lodBias = 0;
  bool unnormalized = false;
  /// compare=OP as a VkCompareOp.
  std::optional<uint32_t> compareOp;
};

/// Errors:
///   error: --sampler 'ARG': expected SET:BINDING:SETTINGS
///   error: --sampler 'ARG': unknown setting 'S' (expected nearest, linear,
///          mipmap=, address=, border=, compare=, min-lod=, max-lod=,
///          lod-bias= or
///          unnormalized)
///   error: --sampler 'ARG': bad value 'V' for 'KEY'
llvm::Expected<SamplerArgument> parseSamplerArgument(llvm::StringRef arg);

/// `--subgroup-size N`: a power of two from 1 to 64. Errors:
///   error: --subgroup-size 'V': expected a power of two from 1 to 64
llvm::Expected<uint32_t> parseSubgroupSize(llvm::StringRef value);

/// The CPU's subgroup size for --compare without --subgroup-size: the
/// Vulkan device's `deviceSize`, so subgroup results can agree. Errors:
///   error: --compare: the Vulkan device's subgroup size N is not one the
///          CPU runtime has (a power of two from 1 to 64); pass
///          --subgroup-size
llvm::Expected<uint32_t> getCompareSubgroupSize(uint32_t deviceSize);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_RUNARGUMENTS_H

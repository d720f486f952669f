//===- RunArguments.cpp - spv-run's argument and data handling -----------===//
//
// Numbers are read with the C library's strtoull/strtoll/strtof/strtod, as
// vkref reads them, so both tools accept and reject the same text.
//
//===----------------------------------------------------------------------===//

#include "RunArguments.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

using namespace spvb::run;

namespace {

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// "error: FLAG 'VALUE'", the start of every message about one argument.
std::string argumentContext(llvm::StringRef flag, llvm::StringRef value) {
  return ("error: " + flag + " '" + value + "'").str();
}

enum class ScalarKind { Unsigned, Signed, Float };

struct ScalarType {
  ScalarKind kind;
  unsigned bytes;
};

std::optional<ScalarType> lookupType(llvm::StringRef type) {
  static const struct {
    const char *name;
    ScalarType type;
  } types[] = {
      {"u8", {ScalarKind::Unsigned, 1}},  {"i8", {ScalarKind::Signed, 1}},
      {"u16", {ScalarKind::Unsigned, 2}}, {"i16", {ScalarKind::Signed, 2}},
      {"u32", {ScalarKind::Unsigned, 4}}, {"i32", {ScalarKind::Signed, 4}},
      {"u64", {ScalarKind::Unsigned, 8}}, {"i64", {ScalarKind::Signed, 8}},
      {"f16", {ScalarKind::Float, 2}},    {"f32", {ScalarKind::Float, 4}},
      {"f64", {ScalarKind::Float, 8}},
  };
  for (const auto &entry : types)
    if (type == entry.name)
      return entry.type;
  return std::nullopt;
}

const char *const TypeList =
    "u8, i8, u16, i16, u32, i32, u64, i64, f16, f32 or f64";

/// vkref's base_of: 0x/0X after an optional sign means hex, else decimal
/// (so "010" is ten, not octal eight).
int baseOf(llvm::StringRef text) {
  if (text.starts_with("-") || text.starts_with("+"))
    text = text.drop_front();
  return text.starts_with_insensitive("0x") ? 16 : 10;
}

/// True if the first non-blank character (strto* skip C isspace blanks) is a
/// minus sign.
bool isNegative(llvm::StringRef text) {
  return text.ltrim(" \t\n\v\f\r").starts_with("-");
}

enum class NumberStatus { Ok, Malformed, OutOfRange };

/// An unsigned integer no larger than \p max, read as vkref's parse_uint
/// reads it (strtoull; leading blanks and '+' allowed, '-' not).
NumberStatus parseUnsignedText(llvm::StringRef text, uint64_t max,
                               uint64_t &result) {
  std::string s = text.str();
  const char *begin = s.c_str();
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(begin, &end, baseOf(s));
  if (s.empty() || end != begin + s.size())
    return NumberStatus::Malformed;
  if (isNegative(s))
    return NumberStatus::Malformed;
  if (errno == ERANGE || value > max)
    return NumberStatus::OutOfRange;
  result = value;
  return NumberStatus::Ok;
}

/// SET or BINDING of --buffer, --out and --print.
llvm::Error parseIndex(llvm::StringRef text, llvm::StringRef what,
                       llvm::StringRef context, uint32_t &result) {
  uint64_t value;
  if (parseUnsignedText(text, UINT32_MAX, value) != NumberStatus::Ok)
    return makeError(context + ": bad " + what + " '" + text +
                     "' (expected an unsigned 32-bit integer)");
  result = static_cast<uint32_t>(value);
  return llvm::Error::success();
}

/// The bits of a half-precision value, from \p text that strtod has read as
/// \p parsed. APFloat rounds the decimal text straight to half (no double
/// rounding through double); text it does not read (e.g. hex floats without
/// an exponent) is converted from the double.
uint64_t halfBits(llvm::StringRef text, double parsed) {
  llvm::APFloat half(llvm::APFloat::IEEEhalf());
  llvm::Expected<llvm::APFloat::opStatus> status = half.convertFromString(
      text.ltrim(" \t\n\v\f\r"), llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    half = llvm::APFloat(parsed);
    bool losesInfo;
    half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
  }
  return half.bitcastToAPInt().getZExtValue();
}

/// vkref's push_scalar: appends one value of \p typeName read from \p text,
/// little-endian.
llvm::Error appendScalar(std::vector<uint8_t> &out, llvm::StringRef typeName,
                         llvm::StringRef text, llvm::StringRef context) {
  std::optional<ScalarType> type = lookupType(typeName);
  if (!type)
    return makeError(context + ": unknown type '" + typeName + "' (expected " +
                     TypeList + ")");
  if (text.empty())
    return makeError(context + ": empty " + typeName + " value");

  std::string s = text.str();
  const char *begin = s.c_str();
  char *end = nullptr;
  errno = 0;
  uint64_t bits = 0;
  bool outOfRange = false;
  std::string range;
  unsigned bitWidth = 8 * type->bytes;
  switch (type->kind) {
  case ScalarKind::Float:
    // A float too large for its type becomes inf and tiny ones denormal or
    // zero: vkref accepts those (it ignores ERANGE for floats).
    if (type->bytes == 4) {
      float value = std::strtof(begin, &end);
      uint32_t word;
      std::memcpy(&word, &value, sizeof word);
      bits = word;
    } else {
      double value = std::strtod(begin, &end);
      if (type->bytes == 8)
        std::memcpy(&bits, &value, sizeof bits);
      else if (end == begin + s.size())
        bits = halfBits(text, value);
    }
    break;
  case ScalarKind::Signed: {
    long long value = std::strtoll(begin, &end, baseOf(s));
    int64_t min = bitWidth == 64 ? INT64_MIN : -(int64_t(1) << (bitWidth - 1));
    int64_t max =
        bitWidth == 64 ? INT64_MAX : (int64_t(1) << (bitWidth - 1)) - 1;
    outOfRange = errno == ERANGE || value < min || value > max;
    range = std::to_string(min) + ".." + std::to_string(max);
    bits = static_cast<uint64_t>(value);
    break;
  }
  case ScalarKind::Unsigned: {
    unsigned long long value = std::strtoull(begin, &end, baseOf(s));
    uint64_t max = bitWidth == 64 ? UINT64_MAX : (uint64_t(1) << bitWidth) - 1;
    outOfRange = errno == ERANGE || isNegative(s) || value > max;
    range = "0.." + std::to_string(max);
    bits = value;
    break;
  }
  }
  if (end != begin + s.size())
    return makeError(context + ": bad " + typeName + " value '" + text +
                     (type->kind == ScalarKind::Float ? "' (not a number)"
                                                      : "' (not an integer)"));
  if (outOfRange)
    return makeError(context + ": bad " + typeName + " value '" + text +
                     "' (out of range " + range + ")");
  for (unsigned i = 0; i < type->bytes; ++i)
    out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  return llvm::Error::success();
}

/// vkref's load_data, with errors that start with \p context.
llvm::Expected<std::vector<uint8_t>>
loadDataIn(llvm::StringRef data, llvm::StringRef context,
           uint64_t maxBytes = MaxDataBytes) {
  if (data.empty())
    return makeError(
        context +
        ": empty DATA (expected FILE, zero:NBYTES or TYPE:v1,v2,...)");
  size_t colon = data.find(':');
  llvm::StringRef head =
      colon == llvm::StringRef::npos ? "" : data.take_front(colon);

  if (head == "zero") {
    llvm::StringRef sizeText = data.drop_front(colon + 1);
    uint64_t size = 0;
    switch (parseUnsignedText(sizeText, maxBytes, size)) {
    case NumberStatus::Ok:
      return std::vector<uint8_t>(size, 0);
    case NumberStatus::Malformed:
      return makeError(context + ": bad zero:NBYTES size '" + sizeText +
                       "' (expected an unsigned integer)");
    case NumberStatus::OutOfRange:
      return makeError(context + ": zero:NBYTES size '" + sizeText +
                       "' is too large (at most " + llvm::Twine(maxBytes) +
                       " bytes)");
    }
    llvm_unreachable("every NumberStatus is handled");
  }

  if (!lookupType(head)) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(data, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!file)
      return makeError(context + ": cannot open data file '" + data +
                       "': " + file.getError().message());
    llvm::StringRef contents = (*file)->getBuffer();
    if (contents.size() > maxBytes)
      return makeError(context + ": data file '" + data + "' is too large (" +
                       llvm::Twine(uint64_t(contents.size())) +
                       " bytes; at most " + llvm::Twine(maxBytes) + ")");
    return std::vector<uint8_t>(contents.bytes_begin(), contents.bytes_end());
  }

  std::vector<uint8_t> out;
  llvm::StringRef type = head;
  llvm::SmallVector<llvm::StringRef, 16> items;
  data.drop_front(colon + 1).split(items, ',', /*MaxSplit=*/-1,
                                   /*KeepEmpty=*/true);
  for (llvm::StringRef item : items) {
    size_t itemColon = item.find(':');
    if (itemColon != llvm::StringRef::npos) {
      type = item.take_front(itemColon);
      item = item.drop_front(itemColon + 1);
    }
    if (llvm::Error error = appendScalar(out, type, item, context))
      return error;
  }
  if (out.size() > maxBytes)
    return makeError(context + ": " + llvm::Twine(uint64_t(out.size())) +
                     " bytes of values; at most " + llvm::Twine(maxBytes));
  return out;
}

/// BINDING or BINDING[ELEMENT].
llvm::Error parseBindingAndElement(llvm::StringRef text,
                                   llvm::StringRef context, uint32_t &binding,
                                   std::optional<uint32_t> &element) {
  size_t open = text.find('[');
  if (open == llvm::StringRef::npos || !text.ends_with("]"))
    return parseIndex(text, "binding", context, binding);
  if (llvm::Error error =
          parseIndex(text.take_front(open), "binding", context, binding))
    return error;
  llvm::StringRef inside = text.slice(open + 1, text.size() - 1);
  uint64_t value;
  if (parseUnsignedText(inside, UINT32_MAX, value) != NumberStatus::Ok)
    return makeError(context + ": bad element '" + inside +
                     "' (expected an unsigned 32-bit integer in "
                     "BINDING[ELEMENT])");
  element = static_cast<uint32_t>(value);
  return llvm::Error::success();
}

/// Splits ARG at every colon; SET and BINDING[ELEMENT] are the first two
/// parts.
struct SplitArgument {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  uint32_t set = 0;
  uint32_t binding = 0;
  std::optional<uint32_t> element;
};

llvm::Error parseSetAndBinding(llvm::StringRef arg, size_t minParts,
                               llvm::StringRef usage, llvm::StringRef context,
                               SplitArgument &result, bool exact = false) {
  arg.split(result.parts, ':');
  if (result.parts.size() < minParts ||
      (exact && result.parts.size() != minParts))
    return makeError(context + ": expected " + usage);
  if (llvm::Error error =
          parseIndex(result.parts[0], "set", context, result.set))
    return error;
  return parseBindingAndElement(result.parts[1], context, result.binding,
                                result.element);
}

/// Whether \p text starts like a NAME rather than a SET.
bool startsLikeName(llvm::StringRef text) {
  return !text.empty() && (llvm::isAlpha(text[0]) || text[0] == '_');
}

/// A buffer named by parts[at] (NAME) or parts[at], parts[at + 1]
/// (SET:BINDING[ELEMENT]); \p used is how many parts that took.
llvm::Error parseBufferName(llvm::ArrayRef<llvm::StringRef> parts, size_t at,
                            llvm::StringRef context, llvm::StringRef usage,
                            BufferName &result, size_t &used) {
  if (at >= parts.size())
    return makeError(context + ": expected " + usage);
  if (startsLikeName(parts[at])) {
    if (!isDeviceBufferName(parts[at]))
      return makeError(context + ": bad name '" + parts[at] +
                       "' (expected a letter or '_' followed by letters, "
                       "digits, '_', '-' or '.', and not 'push')");
    result.device = parts[at].str();
    used = 1;
    return llvm::Error::success();
  }
  if (at + 1 >= parts.size())
    return makeError(context + ": expected " + usage);
  if (llvm::Error error = parseIndex(parts[at], "set", context, result.set))
    return error;
  used = 2;
  return parseBindingAndElement(parts[at + 1], context, result.binding,
                                result.element);
}

/// An unsigned 64-bit OFFSET or BYTES of --address.
llvm::Error parseByteCount(llvm::StringRef text, llvm::StringRef what,
                           llvm::StringRef context, uint64_t &result) {
  if (parseUnsignedText(text, UINT64_MAX, result) != NumberStatus::Ok)
    return makeError(context + ": bad " + what + " '" + text +
                     "' (expected an unsigned integer)");
  return llvm::Error::success();
}

/// The text after the first \p count colons of \p arg.
llvm::StringRef afterColons(llvm::StringRef arg, unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    arg = arg.split(':').second;
  return arg;
}

void appendFormatted(std::string &out, const char *format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  out += text;
}

} // namespace

unsigned spvb::run::scalarTypeSize(llvm::StringRef type) {
  std::optional<ScalarType> info = lookupType(type);
  return info ? info->bytes : 0;
}

llvm::Expected<std::vector<uint8_t>> spvb::run::loadData(llvm::StringRef data,
                                                         llvm::StringRef flag) {
  return loadDataIn(data, argumentContext(flag, data));
}

llvm::Expected<std::vector<uint8_t>>
spvb::run::parsePushArgument(llvm::StringRef data) {
  std::string context = argumentContext("--push", data);
  llvm::Expected<std::vector<uint8_t>> bytes =
      loadDataIn(data, context, MaxPushBytes);
  if (!bytes)
    return bytes.takeError();
  if (bytes->empty())
    return makeError(context + ": the push constant data is empty");
  bytes->resize((bytes->size() + 3) & ~size_t(3), 0);
  return bytes;
}

llvm::StringRef spvb::run::kindName(DescriptorKind kind) {
  return kind == DescriptorKind::Uniform ? "uniform" : "storage";
}

std::string spvb::run::formatDescriptor(uint32_t set, uint32_t binding,
                                        std::optional<uint32_t> element) {
  std::string text = std::to_string(set) + ":" + std::to_string(binding);
  if (element)
    text += "[" + std::to_string(*element) + "]";
  return text;
}

std::string BufferName::str() const {
  return isDevice() ? device : formatDescriptor(set, binding, element);
}

bool BufferName::refersTo(const BufferName &other) const {
  if (isDevice() || other.isDevice())
    return device == other.device;
  return set == other.set && binding == other.binding &&
         getElement() == other.getElement();
}

bool spvb::run::isDeviceBufferName(llvm::StringRef name) {
  if (!startsLikeName(name) || name == "push")
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
  });
}

llvm::Expected<BufferArgument>
spvb::run::parseBufferArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--buffer", arg);
  SplitArgument split;
  if (llvm::Error error = parseSetAndBinding(
          arg, 4, "SET:BINDING:storage|uniform:DATA", context, split))
    return error;
  BufferArgument result;
  result.set = split.set;
  result.binding = split.binding;
  result.element = split.element;
  llvm::StringRef kind = split.parts[2];
  if (kind == "storage")
    result.kind = DescriptorKind::Storage;
  else if (kind == "uniform")
    result.kind = DescriptorKind::Uniform;
  else
    return makeError(context + ": unknown descriptor kind '" + kind +
                     "' (expected storage or uniform)");
  llvm::Expected<std::vector<uint8_t>> bytes =
      loadDataIn(afterColons(arg, 3), context);
  if (!bytes)
    return bytes.takeError();
  if (bytes->empty())
    return makeError(context + ": the buffer is empty");
  result.bytes = std::move(*bytes);
  return result;
}

llvm::Expected<OutputArgument>
spvb::run::parseOutputArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--out", arg);
  llvm::StringRef usage = "SET:BINDING[ELEMENT]:FILE or NAME:FILE";
  llvm::SmallVector<llvm::StringRef, 4> parts;
  arg.split(parts, ':');
  OutputArgument result;
  size_t used = 0;
  if (llvm::Error error =
          parseBufferName(parts, 0, context, usage, result.buffer, used))
    return error;
  if (parts.size() <= used)
    return makeError(context + ": expected " + usage);
  result.path = afterColons(arg, used).str();
  if (result.path.empty())
    return makeError(context + ": empty FILE");
  return result;
}

llvm::Expected<PrintArgument>
spvb::run::parsePrintArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--print", arg);
  llvm::StringRef usage = "SET:BINDING[ELEMENT]:TYPE or NAME:TYPE";
  llvm::SmallVector<llvm::StringRef, 4> parts;
  arg.split(parts, ':');
  PrintArgument result;
  size_t used = 0;
  if (llvm::Error error =
          parseBufferName(parts, 0, context, usage, result.buffer, used))
    return error;
  if (parts.size() != used + 1)
    return makeError(context + ": expected " + usage);
  llvm::StringRef type = parts[used];
  if (!lookupType(type))
    return makeError(context + ": unknown type '" + type + "' (expected " +
                     TypeList + ")");
  result.type = type.str();
  return result;
}

llvm::Expected<DeviceBufferArgument>
spvb::run::parseDeviceBufferArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--device-buffer", arg);
  auto [name, data] = arg.split(':');
  if (name.size() == arg.size())
    return makeError(context + ": expected NAME:DATA");
  if (!isDeviceBufferName(name))
    return makeError(context + ": bad name '" + name +
                     "' (expected a letter or '_' followed by letters, "
                     "digits, '_', '-' or '.', and not 'push')");
  llvm::Expected<std::vector<uint8_t>> bytes = loadDataIn(data, context);
  if (!bytes)
    return bytes.takeError();
  if (bytes->empty())
    return makeError(context + ": the buffer is empty");
  return DeviceBufferArgument{name.str(), std::move(*bytes)};
}

llvm::Expected<AddressArgument>
spvb::run::parseAddressArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--address", arg);
  llvm::StringRef usage =
      "WHERE:OFFSET:BUFFER[+BYTES] (WHERE: push, SET:BINDING[ELEMENT] or "
      "NAME; BUFFER: NAME or SET:BINDING[ELEMENT])";
  llvm::SmallVector<llvm::StringRef, 6> parts;
  arg.split(parts, ':');
  AddressArgument result;
  result.text = arg.str();
  size_t at = 0;
  if (!parts.empty() && parts[0] == "push") {
    result.push = true;
    at = 1;
  } else {
    size_t used = 0;
    if (llvm::Error error =
            parseBufferName(parts, 0, context, usage, result.where, used))
      return error;
    at = used;
  }
  if (at + 1 >= parts.size())
    return makeError(context + ": expected " + usage);
  if (llvm::Error error =
          parseByteCount(parts[at], "offset", context, result.offset))
    return error;
  ++at;
  // BUFFER[+BYTES]: the suffix is on its last part.
  llvm::SmallVector<llvm::StringRef, 2> target(parts.begin() + at, parts.end());
  if (target.size() > 2)
    return makeError(context + ": expected " + usage);
  auto [last, bytes] = target.back().split('+');
  if (last.size() != target.back().size()) {
    if (llvm::Error error =
            parseByteCount(bytes, "+BYTES", context, result.addend))
      return error;
    target.back() = last;
  }
  if (target.size() == 1 && target[0] == "push")
    return makeError(context + ": expected " + usage);
  size_t used = 0;
  if (llvm::Error error =
          parseBufferName(target, 0, context, usage, result.target, used))
    return error;
  if (used != target.size())
    return makeError(context + ": expected " + usage);
  return result;
}

std::string spvb::run::formatBuffer(llvm::ArrayRef<uint8_t> bytes,
                                    llvm::StringRef type, size_t limit) {
  std::optional<ScalarType> info = lookupType(type);
  if (!info)
    return ("(unknown type '" + type + "')").str();
  if (bytes.empty())
    return "(empty)";
  size_t count = bytes.size() / info->bytes;
  size_t shown = limit == 0 ? count : std::min(count, limit);
  std::string out;
  for (size_t i = 0; i < shown; ++i) {
    if (i)
      out += ", ";
    uint64_t bits = 0;
    for (unsigned b = 0; b < info->bytes; ++b)
      bits |= uint64_t(bytes[i * info->bytes + b]) << (8 * b);
    unsigned width = 8 * info->bytes;
    switch (info->kind) {
    case ScalarKind::Unsigned:
      out += std::to_string(bits);
      break;
    case ScalarKind::Signed:
      out += std::to_string(width == 64
                                ? static_cast<int64_t>(bits)
                                : static_cast<int64_t>(bits << (64 - width)) >>
                                      (64 - width));
      break;
    case ScalarKind::Float:
      if (width == 64) {
        double value;
        std::memcpy(&value, &bits, sizeof value);
        appendFormatted(out, "%.17g", value);
      } else if (width == 32) {
        uint32_t word = static_cast<uint32_t>(bits);
        float value;
        std::memcpy(&value, &word, sizeof value);
        appendFormatted(out, "%.9g", value);
      } else {
        llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
        bool losesInfo;
        half.convert(llvm::APFloat::IEEEdouble(),
                     llvm::APFloat::rmNearestTiesToEven, &losesInfo);
        appendFormatted(out, "%.5g", half.convertToDouble());
      }
      break;
    }
  }
  if (shown < count)
    out += " ... (" + std::to_string(count - shown) + " more)";
  size_t trailing = bytes.size() % info->bytes;
  if (trailing) {
    if (!out.empty())
      out += ' ';
    out += "(+" + std::to_string(trailing) + " trailing byte" +
           (trailing == 1 ? ":" : "s:");
    for (uint8_t byte : bytes.take_back(trailing)) {
      char hex[4];
      std::snprintf(hex, sizeof hex, " %02x", byte);
      out += hex;
    }
    out += ')';
  }
  return out;
}

llvm::Error spvb::run::writeFile(llvm::StringRef path,
                                 llvm::ArrayRef<uint8_t> bytes) {
  auto fail = [&](const std::error_code &ec) {
    return makeError("error: cannot write file '" + path +
                     "': " + ec.message());
  };
  // Not raw_fd_ostream(path, ...): that would take "-" for stdout.
  int fd;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(
          path, fd, llvm::sys::fs::CD_CreateAlways, llvm::sys::fs::OF_None))
    return fail(ec);
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  os.close();
  if (os.has_error()) {
    std::error_code ec = os.error();
    os.clear_error();
    return fail(ec);
  }
  return llvm::Error::success();
}

TimingSummary spvb::run::summarize(llvm::ArrayRef<double> milliseconds) {
  if (milliseconds.empty())
    return {};
  std::vector<double> sorted(milliseconds.begin(), milliseconds.end());
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  TimingSummary summary;
  summary.median =
      n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  summary.min = sorted.front();
  summary.max = sorted.back();
  return summary;
}

namespace {

llvm::Expected<uint32_t> parseCount(llvm::StringRef value, llvm::StringRef flag,
                                    bool allowZero) {
  uint64_t result = 0;
  NumberStatus status = parseUnsignedText(value, UINT32_MAX, result);
  if (status == NumberStatus::OutOfRange)
    return makeError(argumentContext(flag, value) + ": too large (at most " +
                     llvm::Twine(UINT32_MAX) + ")");
  if (status == NumberStatus::Malformed || (!allowZero && result == 0))
    return makeError(argumentContext(flag, value) +
                     (allowZero ? ": expected an unsigned integer"
                                : ": expected a positive integer"));
  return static_cast<uint32_t>(result);
}

} // namespace

llvm::Expected<uint32_t> spvb::run::parsePositive(llvm::StringRef value,
                                                  llvm::StringRef flag) {
  return parseCount(value, flag, /*allowZero=*/false);
}

llvm::Expected<uint32_t> spvb::run::parseUnsigned(llvm::StringRef value,
                                                  llvm::StringRef flag) {
  return parseCount(value, flag, /*allowZero=*/true);
}

llvm::Expected<uint32_t> spvb::run::parseSubgroupSize(llvm::StringRef value) {
  uint32_t size = 0;
  if (value.getAsInteger(10, size) || !runtime::isSubgroupSize(size))
    return makeError("error: --subgroup-size '" + value +
                     "': expected a power of two from 1 to 64");
  return size;
}

llvm::Expected<uint32_t>
spvb::run::getCompareSubgroupSize(uint32_t deviceSize) {
  if (!runtime::isSubgroupSize(deviceSize))
    return makeError(llvm::formatv(
        "error: --compare: the Vulkan device's subgroup size {0} is not one "
        "the CPU runtime has (a power of two from 1 to 64); pass "
        "--subgroup-size",
        deviceSize));
  return deviceSize;
}

uint64_t spvb::run::getImageByteSize(const ImageArgument &image) {
  // Saturates: an absurd extent needs more bytes than any DATA has.
  uint64_t texels = 0;
  for (uint32_t level = 0; level < image.levels && level < 32; ++level) {
    uint64_t count = image.layers;
    for (int d = 0; d < 3; ++d)
      count = llvm::SaturatingMultiply(
          count, std::max<uint64_t>(1, image.extent[d] >> level));
    texels = llvm::SaturatingAdd(texels, count);
  }
  return llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(texels, uint64_t(image.samples)),
      uint64_t(image.texelBytes));
}

llvm::Expected<ImageArgument>
spvb::run::parseImageArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--image", arg);
  SplitArgument split;
  if (llvm::Error error = parseSetAndBinding(
          arg, 5, "SET:BINDING:FORMAT:EXTENT:DATA", context, split))
    return error;
  ImageArgument result;
  result.set = split.set;
  result.binding = split.binding;
  result.element = split.element;
  result.formatName = split.parts[2].str();
  const runtime::ImageFormat *format = runtime::findImageFormat(split.parts[2]);
  if (!format)
    return makeError(context + ": unknown image format '" + split.parts[2] +
                     "' (expected a GLSL image format such as rgba8, r32f "
                     "or rgba32ui)");
  result.format = format->format;
  result.texelBytes = format->texelBytes;

  llvm::StringRef extentText = split.parts[3];
  auto badExtent = [&] {
    return makeError(context + ": bad extent '" + extentText +
                     "' (expected W, WxH or WxHxD with positive sizes, "
                     "optionally followed by ,layers=N, ,levels=N and "
                     ",samples=N)");
  };
  llvm::SmallVector<llvm::StringRef, 3> fields;
  extentText.split(fields, ',');
  llvm::SmallVector<llvm::StringRef, 3> sizes;
  fields[0].split(sizes, 'x');
  if (sizes.size() > 3)
    return badExtent();
  result.dimensions = sizes.size();
  for (auto [d, text] : llvm::enumerate(sizes))
    if (text.getAsInteger(10, result.extent[d]) || result.extent[d] == 0)
      return badExtent();
  for (llvm::StringRef field : llvm::drop_begin(fields)) {
    auto [key, value] = field.split('=');
    uint32_t number = 0;
    if (value.getAsInteger(10, number) || number == 0)
      return badExtent();
    if (key == "layers")
      result.layers = number;
    else if (key == "levels")
      result.levels = number;
    else if (key == "samples")
      result.samples = number;
    else
      return badExtent();
  }
  // Vulkan's sample counts (VkSampleCountFlagBits).
  if (result.samples > 64 || (result.samples & (result.samples - 1)) != 0)
    return makeError(context + ": bad sample count " +
                     llvm::Twine(result.samples) +
                     " (expected 1, 2, 4, 8, 16, 32 or 64)");
  if (result.samples > 1 && result.levels > 1)
    return makeError(context + ": a multisampled image has one level, not " +
                     llvm::Twine(result.levels));
  // A full mip chain ends at 1x1x1 (VkImageCreateInfo::mipLevels).
  uint32_t largest =
      std::max({result.extent[0], result.extent[1], result.extent[2]});
  uint32_t fullChain = llvm::Log2_32(largest) + 1;
  if (result.levels > fullChain)
    return makeError(context + ": " + llvm::Twine(result.levels) +
                     " levels, but a full mip chain of this extent has " +
                     llvm::Twine(fullChain));
  llvm::Expected<std::vector<uint8_t>> bytes =
      loadDataIn(afterColons(arg, 4), context);
  if (!bytes)
    return bytes.takeError();
  uint64_t needed = getImageByteSize(result);
  if (bytes->size() != needed)
    return makeError(context + ": DATA has " + llvm::Twine(bytes->size()) +
                     " bytes but the image needs " + llvm::Twine(needed));
  result.bytes = std::move(*bytes);
  return result;
}

llvm::Expected<SamplerArgument>
spvb::run::parseSamplerArgument(llvm::StringRef arg) {
  std::string context = argumentContext("--sampler", arg);
  SplitArgument split;
  if (llvm::Error error = parseSetAndBinding(arg, 3, "SET:BINDING:SETTINGS",
                                             context, split, /*exact=*/true))
    return error;
  SamplerArgument result;
  result.set = split.set;
  result.binding = split.binding;
  result.element = split.element;
  llvm::SmallVector<llvm::StringRef, 8> settings;
  split.parts[2].split(settings, ',');
  for (llvm::StringRef setting : settings) {
    // Named, not structured bindings: the lambdas below capture them.
    std::pair<llvm::StringRef, llvm::StringRef> keyAndValue =
        setting.split('=');
    llvm::StringRef key = keyAndValue.first, value = keyAndValue.second;
    auto badValue = [&] {
      return makeError(context + ": bad value '" + value + "' for '" + key +
                       "'");
    };
    auto pick = [&](std::initializer_list<const char *> names,
                    uint32_t &out) -> bool {
      for (auto [i, name] : llvm::enumerate(names))
        if (value == name) {
          out = i;
          return true;
        }
      return false;
    };
    auto number = [&](float &out) -> bool {
      double parsed;
      if (value.getAsDouble(parsed))
        return false;
      out = static_cast<float>(parsed);
      return true;
    };
    bool ok = true;
    if (setting == "nearest" || setting == "linear")
      result.filter = setting == "linear";
    else if (setting == "unnormalized")
      result.unnormalized = true;
    else if (key == "mipmap")
      ok = pick({"nearest", "linear"}, result.mipmapMode);
    else if (key == "address")
      ok = pick({"repeat", "mirrored-repeat", "clamp-to-edge",
                 "clamp-to-border", "mirror-clamp-to-edge"},
                result.addressMode);
    else if (key == "border") {
      uint32_t choice = 0;
      // VkBorderColor: the float variants 0, 2 and 4.
      ok = pick({"transparent-black", "opaque-black", "opaque-white"}, choice);
      result.borderColor = 2 * choice;
    } else if (key == "compare") {
      uint32_t op = 0;
      ok = pick({"never", "less", "equal", "less-or-equal", "greater",
                 "not-equal", "greater-or-equal", "always"},
                op);
      result.compareOp = op;
    } else if (key == "min-lod")
      ok = number(result.minLod);
    else if (key == "max-lod")
      ok = number(result.maxLod);
    else if (key == "lod-bias")
      ok = number(result.lodBias);
    else
      return makeError(context + ": unknown setting '" + setting +
                       "' (expected nearest, linear, mipmap=, address=, "
                       "border=, compare=, min-lod=, max-lod=, lod-bias= "
                       "or unnormalized)");
    if (!ok)
      return badValue();
  }
  return result;
}

//===- Printf.cpp - debugPrintfEXT for shaders ----------------------------===//
//
// Formats a DebugPrintf call the way the Vulkan validation layers do: C
// printf conversions, `%v2f`..`%v4f` for vectors (components joined by
// ", "), `l` for 64-bit values. Lines from concurrent invocations never
// interleave.
//
//===----------------------------------------------------------------------===//
#include "Printf.h"

#include "spvbridge/cpu_runtime/Launcher.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>

namespace {

std::mutex sinkMutex;
FILE *sink = stdout;
std::function<void(const std::string &)> handler;

/// One component of a value as the conversion asks for it.
std::string formatComponent(const std::string &spec, char conversion,
                            uint32_t desc, const uint8_t *bytes) {
  uint32_t kind = desc >> 16, size = (desc >> 8) & 0xff;
  char buffer[128];
  std::string c = spec; // "%[flags][width][.precision]"
  bool isFloat = std::strchr("fFeEgGaA", conversion) != nullptr;
  if (isFloat) {
    double value = 0;
    if (kind == SPVB_KIND_FLOAT && size == 8)
      std::memcpy(&value, bytes, 8);
    else if (kind == SPVB_KIND_FLOAT && size == 4) {
      float f;
      std::memcpy(&f, bytes, 4);
      value = f;
    } else if (kind == SPVB_KIND_FLOAT && size == 2) {
      uint16_t h;
      std::memcpy(&h, bytes, 2);
      // binary16 to double, exactly.
      int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
      double magnitude = exponent == 0 ? std::ldexp(mantissa, -24)
                         : exponent == 31
                             ? (mantissa ? NAN : INFINITY)
                             : std::ldexp(mantissa | 0x400, exponent - 25);
      value = (h & 0x8000) ? -magnitude : magnitude;
    }
    std::snprintf(buffer, sizeof(buffer), (c + conversion).c_str(), value);
    return buffer;
  }
  uint64_t raw = 0;
  std::memcpy(&raw, bytes, std::min<uint32_t>(size, 8));
  if (conversion == 'd' || conversion == 'i') {
    int64_t value = size >= 8
                        ? int64_t(raw)
                        : int64_t(raw << (64 - 8 * size)) >> (64 - 8 * size);
    std::snprintf(buffer, sizeof(buffer), (c + "lld").c_str(),
                  static_cast<long long>(value));
  } else if (conversion == 'c') {
    std::snprintf(buffer, sizeof(buffer), (c + 'c').c_str(), int(raw));
  } else {
    std::snprintf(buffer, sizeof(buffer), (c + "ll" + conversion).c_str(),
                  static_cast<unsigned long long>(raw));
  }
  return buffer;
}

} // namespace

void spvb::runtime::setPrintfSink(FILE *file) {
  std::lock_guard<std::mutex> lock(sinkMutex);
  sink = file;
}

void spvb::runtime::setPrintfHandler(
    std::function<void(const std::string &)> newHandler) {
  std::lock_guard<std::mutex> lock(sinkMutex);
  handler = std::move(newHandler);
}

std::string spvb::runtime::formatShaderPrintf(const char *format,
                                              uint32_t argCount,
                                              const uint32_t *argDescs,
                                              const void *const *args) {
  std::string out;
  uint32_t next = 0;
  for (const char *p = format; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    // %[flags][width][.precision][v N][l]conversion
    std::string spec = "%";
    const char *q = p + 1;
    while (*q && std::strchr("-+ #0123456789.", *q))
      spec += *q++;
    unsigned vectorSize = 0;
    if (*q == 'v' && q[1] >= '2' && q[1] <= '4') {
      vectorSize = q[1] - '0';
      q += 2;
    }
    while (*q == 'l' || *q == 'h')
      ++q;
    char conversion = *q;
    if (!conversion || !std::strchr("diuxXocfFeEgGaA", conversion) ||
        next >= argCount) {
      out.append(p, q + (conversion ? 1 : 0)); // Not a conversion: as is.
      p = conversion ? q : q - 1;
      continue;
    }
    uint32_t desc = argDescs[next];
    const auto *bytes = static_cast<const uint8_t *>(args[next++]);
    uint32_t count = desc & 0xff, size = (desc >> 8) & 0xff;
    unsigned components = vectorSize ? std::min(vectorSize, count) : 1;
    for (unsigned i = 0; i < components; ++i) {
      if (i)
        out += ", ";
      out += formatComponent(spec, conversion, desc, bytes + i * size);
    }
    p = q;
  }
  return out;
}

extern "C" void spvb_rt_printf(spvb_invocation *, const char *format,
                               uint32_t argCount, const uint32_t *argDescs,
                               const void *const *args) {
  std::string out =
      spvb::runtime::formatShaderPrintf(format, argCount, argDescs, args);
  if (out.empty() || out.back() != '\n')
    out += '\n';
  std::lock_guard<std::mutex> lock(sinkMutex);
  if (handler)
    handler(out);
  else if (sink)
    std::fwrite(out.data(), 1, out.size(), sink);
}

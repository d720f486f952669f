//===- StageValues.h - Values in stage input and output records -*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_STAGEVALUES_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_STAGEVALUES_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <cstdint>
#include <cstring>

namespace spvb::runtime {

/// A 16-, 32- or 64-bit float at `at`.
inline double loadFloat(const uint8_t *at, unsigned bytes) {
  if (bytes == 2) {
    _Float16 value;
    std::memcpy(&value, at, 2);
    return double(value);
  }
  if (bytes == 8) {
    double value;
    std::memcpy(&value, at, 8);
    return value;
  }
  float value;
  std::memcpy(&value, at, 4);
  return value;
}

/// One component of `var`'s type at `at`: `f` for floats, `i` for integers
/// (its low bytes) and booleans.
inline void storeScalar(uint8_t *at, const spvb_stage_variable &var, double f,
                        int64_t i) {
  if (var.kind == SPVB_KIND_FLOAT) {
    if (var.bytes == 2) {
      _Float16 value = _Float16(f);
      std::memcpy(at, &value, 2);
    } else if (var.bytes == 8) {
      std::memcpy(at, &f, 8);
    } else {
      float value = float(f);
      std::memcpy(at, &value, 4);
    }
    return;
  }
  if (var.kind == SPVB_KIND_BOOL) {
    *at = i != 0;
    return;
  }
  std::memcpy(at, &i, var.bytes);
}

/// Copies `bytes` bytes of a record; the common sizes as fixed-size
/// copies, which compile to a move or two, not a library call.
inline void copyStageBytes(uint8_t *to, const uint8_t *from, uint32_t bytes) {
  switch (bytes) {
  case 4:
    std::memcpy(to, from, 4);
    return;
  case 8:
    std::memcpy(to, from, 8);
    return;
  case 12:
    std::memcpy(to, from, 12);
    return;
  case 16:
    std::memcpy(to, from, 16);
    return;
  default:
    std::memcpy(to, from, bytes);
  }
}

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_STAGEVALUES_H

//===- Printf.h - DebugPrintf formatting ------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_PRINTF_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_PRINTF_H

#include <cstdint>
#include <string>

namespace spvb::runtime {

/// `format` with DebugPrintf's conversions applied to `args`, typed by
/// `argDescs` (see spvb_rt_printf in kernel_abi.h); no newline added.
std::string formatShaderPrintf(const char *format, uint32_t argCount,
                               const uint32_t *argDescs,
                               const void *const *args);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_PRINTF_H

//===- AbiSymbols.h - The symbol names of the kernel ABI --------*- C++ -*-===//
//
// The one owner of the names generated code and the runtime meet by: the
// runtime calls kernel_abi.h declares, the symbols a compiled module exports
// for each entry point, and the internal globals the conversion creates and
// the bridge's passes look for. The conversion emits calls by these names,
// the bridge's passes recognize them, and the JIT binds them to the runtime's
// functions; none of them spells a name itself.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_ABISYMBOLS_H
#define SPVBRIDGE_CPU_RUNTIME_ABISYMBOLS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace spvb::abi {

// Runtime calls (kernel_abi.h has their signatures and semantics).
inline constexpr llvm::StringLiteral kControlBarrier =
    "spvb_rt_control_barrier";
inline constexpr llvm::StringLiteral kFault = "spvb_rt_fault";
inline constexpr llvm::StringLiteral kUndefined = "spvb_rt_undefined";
inline constexpr llvm::StringLiteral kRecordAccess = "spvb_rt_record_access";
inline constexpr llvm::StringLiteral kPrintf = "spvb_rt_printf";
inline constexpr llvm::StringLiteral kSubgroup = "spvb_rt_subgroup";
inline constexpr llvm::StringLiteral kSubgroupAll = "spvb_rt_subgroup_all";
inline constexpr llvm::StringLiteral kImage = "spvb_rt_image";
inline constexpr llvm::StringLiteral kSample2 = "spvb_rt_sample2";
inline constexpr llvm::StringLiteral kSample2Lanes = "spvb_rt_sample2_lanes";
inline constexpr llvm::StringLiteral kSample2Uniform =
    "spvb_rt_sample2_uniform";
inline constexpr llvm::StringLiteral kInterpolate = "spvb_rt_interpolate";

/// The prefix of every symbol of ours in a compiled module.
inline constexpr llvm::StringLiteral kSymbolPrefix = "spvb_";

// What a module exports for entry point NAME: spvb_NAME_invocation,
// spvb_NAME_workgroup, spvb_NAME_info, spvb_NAME_private_atomics and
// spvb_NAME_stage_variables.
inline constexpr llvm::StringLiteral kInvocationEntrySuffix = "_invocation";
inline constexpr llvm::StringLiteral kWorkgroupEntrySuffix = "_workgroup";
inline constexpr llvm::StringLiteral kKernelInfoSuffix = "_info";
inline constexpr llvm::StringLiteral kStageVariablesSuffix = "_stage_variables";
inline constexpr llvm::StringLiteral kPrivateAtomicsSuffix = "_private_atomics";

inline std::string getInvocationEntrySymbol(llvm::StringRef entryName) {
  return (kSymbolPrefix + entryName + kInvocationEntrySuffix).str();
}
inline std::string getWorkgroupEntrySymbol(llvm::StringRef entryName) {
  return (kSymbolPrefix + entryName + kWorkgroupEntrySuffix).str();
}
inline std::string getKernelInfoSymbol(llvm::StringRef entryName) {
  return (kSymbolPrefix + entryName + kKernelInfoSuffix).str();
}
inline std::string getStageVariablesSymbol(llvm::StringRef entryName) {
  return (kSymbolPrefix + entryName + kStageVariablesSuffix).str();
}
inline std::string getPrivateAtomicsSymbol(llvm::StringRef entryName) {
  return (kSymbolPrefix + entryName + kPrivateAtomicsSuffix).str();
}

/// The entry point name of a kernel-info symbol (spvb_NAME_info), or an
/// empty string for any other symbol.
inline llvm::StringRef getKernelInfoEntryName(llvm::StringRef symbol) {
  if (!symbol.consume_front(kSymbolPrefix) ||
      !symbol.consume_back(kKernelInfoSuffix))
    return {};
  return symbol;
}

// Internal globals of a compiled module.
/// A fragment shader's "this invocation is a helper" flag.
inline constexpr llvm::StringLiteral kHelperInvocationGlobal =
    "spvb_helper_invocation";
/// Under robust access an out-of-bounds buffer access reads spare memory
/// named kRobustZeroPrefix + size (zeros) or writes kRobustSinkPrefix + size,
/// selected by an interval check of the byte offset from the buffer's start.
/// Lane widening relies on that shape to check a group of consecutive lanes
/// at its two ends.
inline constexpr llvm::StringLiteral kRobustZeroPrefix = "spvb_robust_zero_";
inline constexpr llvm::StringLiteral kRobustSinkPrefix = "spvb_robust_sink_";

} // namespace spvb::abi

#endif // SPVBRIDGE_CPU_RUNTIME_ABISYMBOLS_H

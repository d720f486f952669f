//===- Specialization.h - Apply and freeze spec constants -------*- C++ -*-===//
//
// Turns a module with specialization constants into one without: the given
// values replace the defaults, every OpSpecConstant* becomes a plain
// constant, and OpSpecConstantOp / OpSpecConstantComposite are folded (with
// SPIRV-Tools' optimizer passes). What SPIRV-Tools cannot fold (some vector
// and 64-bit operations) stays as OpSpecConstantOp/OpSpecConstantComposite
// over plain constants; the deserializer evaluates those. Debug info (OpLine,
// OpName, OpSource) is kept. Later stages only ever see the result.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_SPECIALIZATION_H
#define SPVBRIDGE_SPIRV_SPECIALIZATION_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spvb {

/// One specialization value, as given by --spec ID:TYPE:VALUE.
struct SpecConstantValue {
  uint32_t id = 0;
  /// bool u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64.
  std::string type;
  /// The value as SPIR-V literal words: low word first; types narrower than
  /// 32 bits sign-extended (signed) or zero-extended (others); bool is 0 or 1.
  std::vector<uint32_t> words;
};

/// Parses ID:TYPE:VALUE (the syntax of vkref's --spec). ID is decimal or 0x
/// hex; VALUE is decimal, 0x hex (optionally negative for signed types), a
/// float for f16/f32/f64 (anything APFloat reads, incl. inf/nan and hex
/// floats), or true/false/1/0 for bool. Errors:
///   error: --spec 'ARG': expected ID:TYPE:VALUE
///   error: --spec 'ARG': bad id 'X' (expected an unsigned 32-bit integer)
///   error: --spec 'ARG': unknown type 'T' (expected bool, u8, ...)
///   error: --spec 'ARG': bad value 'V' for type T
llvm::Expected<SpecConstantValue> parseSpecArgument(llvm::StringRef arg);

/// Applies \p values and freezes every specialization constant. A value
/// must match its constant's kind (bool, integer, float) and width; integer
/// signedness may differ (the bits are reinterpreted, as Vulkan does).
/// Errors:
///   error: FILE: no specialization constant with SpecId N
///   error: FILE: specialization constant SpecId N ('NAME') has type u32, but
///          the value given has type f32
///   error: FILE: SpecId N is given more than once
///   error: FILE: cannot specialize: <SPIRV-Tools message>
/// The result contains no OpSpecConstant, OpSpecConstantTrue/False and no
/// SpecId decorations.
llvm::Expected<SpirvBinary>
specialize(const SpirvBinary &binary, llvm::ArrayRef<SpecConstantValue> values);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_SPECIALIZATION_H

//===- DescriptorEntry.h - A descriptor's binding-table entry ---*- C++ -*-===//
//
// Where the spvb_binding of one descriptor lives (kernel_abi.h): a single
// descriptor or an element of a fixed-size array has its own slot of the
// dispatch's binding table; a runtime-sized array's one slot points at the
// array's own table of spvb_binding entries (base) and gives its byte size
// (size = count * sizeof(spvb_binding)).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_DESCRIPTORENTRY_H
#define SPVBRIDGE_CONVERSION_LIB_DESCRIPTORENTRY_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace spvb {

/// The global variable a pointer is derived from through access chains and,
/// for a descriptor array, the (original) index of the element.
struct VariableRoot {
  mlir::spirv::AddressOfOp variable;
  mlir::Value descriptorIndex;
};

/// The root of \p pointer, if it can be traced through access chains; none
/// for the whole of a descriptor array.
std::optional<VariableRoot> findVariableRoot(mlir::Value pointer);

/// "buffer 'Y' (set 0, binding 1)", for diagnostics.
std::string describeBuffer(llvm::StringRef name, const InterfaceVariable &var,
                           const InterfaceLayout &layout);

/// The address of the spvb_binding of element \p index (an integer value of
/// any width, signed; null for element 0) of descriptor variable \p var,
/// given the kernel's `const spvb_dispatch *` \p dispatch. An index past the
/// end of an array (negative ones included) picks its last element: SPIR-V
/// leaves it undefined, and it must not read past the table. The table
/// loads are invariant (nothing changes it during a dispatch).
mlir::Value getDescriptorEntry(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value dispatch,
                               const InterfaceVariable &var, mlir::Value index);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_DESCRIPTORENTRY_H

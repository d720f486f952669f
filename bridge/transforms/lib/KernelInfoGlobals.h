//===- KernelInfoGlobals.h - The kernels of a module and their info -*- C++
//-*-===//
//
// The module passes that build workgroup entries find each kernel through
// its spvb_NAME_info global, read the fields and write back the entry kind.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_KERNELINFOGLOBALS_H
#define SPVBRIDGE_TRANSFORMS_KERNELINFOGLOBALS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <string>
#include <vector>

namespace spvb {

/// One kernel: its defined invocation entry and its info's fields.
struct KernelInfoGlobal {
  llvm::GlobalVariable *global;
  llvm::Function *invocation;
  /// spvb_NAME_workgroup's symbol (the function may not exist yet).
  std::string workgroupSymbol;
  llvm::SmallVector<uint32_t> fields;

  /// The field at `offset` bytes into spvb_kernel_info.
  uint32_t &field(size_t offset) { return fields[offset / sizeof(uint32_t)]; }
  /// Writes the fields back into the global.
  void store();
};

/// The kernels whose invocation entry the module defines.
std::vector<KernelInfoGlobal> getKernelInfoGlobals(llvm::Module &module);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_KERNELINFOGLOBALS_H

//===- PrivateAtomics.cpp - Buffers only relaxed atomics change -----------===//
#include "PrivateAtomics.h"

#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

using namespace mlir;
using namespace spvb;

namespace {

/// What the atomics on one buffer do; empty until the first.
struct BufferAtomics {
  uint32_t operation = 0;
  uint32_t bytes = 0;
};

/// The commutative operation `op` is, if it is one whose identity is zero.
std::optional<spvb_private_atomic_operation> getOperation(Operation *op) {
  if (isa<spirv::AtomicIAddOp, spirv::AtomicISubOp, spirv::AtomicIIncrementOp,
          spirv::AtomicIDecrementOp>(op))
    return SPVB_PRIVATE_ATOMIC_ADD;
  if (isa<spirv::AtomicOrOp>(op))
    return SPVB_PRIVATE_ATOMIC_OR;
  if (isa<spirv::AtomicXorOp>(op))
    return SPVB_PRIVATE_ATOMIC_XOR;
  if (isa<spirv::AtomicUMaxOp>(op))
    return SPVB_PRIVATE_ATOMIC_UMAX;
  return std::nullopt;
}

/// Without ordering an atomic synchronizes with nothing, so which value it
/// read (its own thread's copy) cannot be seen either.
bool isRelaxed(spirv::MemorySemantics semantics) {
  using S = spirv::MemorySemantics;
  constexpr auto ordered =
      static_cast<uint32_t>(S::Acquire | S::Release | S::AcquireRelease |
                            S::SequentiallyConsistent | S::Volatile);
  return (static_cast<uint32_t>(semantics) & ordered) == 0;
}

spirv::MemorySemantics getSemantics(Operation *op) {
  return cast<spirv::MemorySemanticsAttr>(op->getAttr("semantics")).getValue();
}

/// Whether every use of `pointer` (transitively through access chains) is
/// an unused relaxed atomic agreeing with `atomics`.
bool onlyUnusedAtomics(Value pointer, BufferAtomics &atomics) {
  for (OpOperand &use : pointer.getUses()) {
    Operation *user = use.getOwner();
    if (auto chain = dyn_cast<spirv::AccessChainOp>(user)) {
      if (chain.getBasePtr() != pointer ||
          !onlyUnusedAtomics(chain.getResult(), atomics))
        return false;
      continue;
    }
    // Reads the binding's size, not its contents.
    if (isa<ArrayLengthOp>(user))
      continue;
    std::optional<spvb_private_atomic_operation> operation = getOperation(user);
    if (!operation || use.getOperandNumber() != 0 || !user->use_empty() ||
        !isRelaxed(getSemantics(user)))
      return false;
    unsigned bits = user->getResult(0).getType().getIntOrFloatBitWidth();
    if (bits != 32 && bits != 64)
      return false;
    if (atomics.operation == 0)
      atomics = {uint32_t(*operation), bits / 8};
    else if (atomics.operation != uint32_t(*operation) ||
             atomics.bytes != bits / 8)
      return false;
  }
  return true;
}

bool isBuffer(spirv::StorageClass storage) {
  return storage == spirv::StorageClass::StorageBuffer ||
         storage == spirv::StorageClass::Uniform;
}

bool hasPhysicalPointers(ModuleOp module) {
  auto isPhysical = [](Type type) {
    auto pointer = dyn_cast<spirv::PointerType>(type);
    return pointer && pointer.getStorageClass() ==
                          spirv::StorageClass::PhysicalStorageBuffer;
  };
  WalkResult walk = module.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), isPhysical))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

} // namespace

void spvb::findPrivateAtomicBuffers(ModuleOp module, InterfaceLayout &layout) {
  // A physical pointer may alias any buffer; so may another descriptor of
  // an array, which the runtime could not tell apart.
  if (hasPhysicalPointers(module))
    return;
  // Two variables on one binding alias: the copy would be both's.
  llvm::DenseMap<uint32_t, unsigned> variablesPerSlot;
  for (const auto &entry : layout.variables) {
    const InterfaceVariable &var = entry.second;
    if (!isBuffer(var.storageClass))
      continue;
    if (var.descriptorCount != 1)
      return;
    ++variablesPerSlot[var.slot];
  }
  llvm::DenseMap<StringAttr, BufferAtomics> buffers;
  llvm::DenseSet<StringAttr> disqualified;
  module.walk([&](spirv::AddressOfOp address) {
    StringAttr name = address.getVariableAttr().getAttr();
    auto it = layout.variables.find(name.getValue());
    if (it == layout.variables.end() || disqualified.contains(name) ||
        !isBuffer(it->second.storageClass))
      return;
    BufferAtomics &atomics = buffers[name];
    if (!onlyUnusedAtomics(address.getResult(), atomics))
      disqualified.insert(name);
  });
  for (const auto &[name, atomics] : buffers) {
    // A buffer named but never changed needs no copy.
    const InterfaceVariable &var = layout.variables.lookup(name.getValue());
    if (disqualified.contains(name) || atomics.operation == 0 ||
        variablesPerSlot.lookup(var.slot) != 1)
      continue;
    layout.privateAtomics.push_back(
        {var.slot, atomics.operation, atomics.bytes});
    layout.privateAtomicVariables.insert(name.getValue());
  }
  llvm::sort(layout.privateAtomics,
             [](const spvb_private_atomics &a, const spvb_private_atomics &b) {
               return a.slot < b.slot;
             });
}

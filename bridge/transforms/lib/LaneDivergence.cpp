//===- LaneDivergence.cpp - Which values differ between invocations -------===//
#include "LaneDivergence.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cstddef>

using namespace llvm;
using namespace spvb;

std::optional<InvocationFieldAccess> spvb::getInvocationField(int64_t offset,
                                                              uint64_t bytes) {
  struct Field {
    size_t offset;
    unsigned components;
    unsigned bytes;
    InvocationField field;
  };
  static constexpr Field kFields[] = {
      {offsetof(spvb_invocation, workgroup_id), 3, 4,
       InvocationField::WorkgroupId},
      {offsetof(spvb_invocation, local_id), 3, 4, InvocationField::LocalId},
      {offsetof(spvb_invocation, global_id), 3, 4, InvocationField::GlobalId},
      {offsetof(spvb_invocation, local_index), 1, 4,
       InvocationField::LocalIndex},
      {offsetof(spvb_invocation, shared_memory), 1, sizeof(void *),
       InvocationField::SharedMemory},
      {offsetof(spvb_invocation, private_memory), 1, sizeof(void *),
       InvocationField::PrivateMemory},
      {offsetof(spvb_invocation, runtime), 1, sizeof(void *),
       InvocationField::Runtime},
      {offsetof(spvb_invocation, subgroup_id), 1, 4,
       InvocationField::SubgroupId},
      {offsetof(spvb_invocation, subgroup_local_id), 1, 4,
       InvocationField::SubgroupLocalId},
  };
  for (const Field &candidate : kFields)
    for (unsigned c = 0; c < candidate.components; ++c)
      if (offset == int64_t(candidate.offset + c * candidate.bytes) &&
          bytes == candidate.bytes)
        return InvocationFieldAccess{candidate.field, c};
  return std::nullopt;
}

bool spvb::isWorkgroupUniform(InvocationField field) {
  return field == InvocationField::WorkgroupId ||
         field == InvocationField::SharedMemory ||
         field == InvocationField::Runtime;
}

namespace {

/// The generic cost model (StructurizeCFG asks for costs) and the body's
/// divergence.
class LaneDivergenceTTI
    : public TargetTransformInfoImplCRTPBase<LaneDivergenceTTI> {
public:
  explicit LaneDivergenceTTI(const DataLayout &layout)
      : TargetTransformInfoImplCRTPBase(layout) {}

  bool hasBranchDivergence(const Function *) const override { return true; }

  InstructionUniformity
  getInstructionUniformity(const Value *value) const override {
    if (isa<AllocaInst, AtomicRMWInst, AtomicCmpXchgInst>(value))
      return InstructionUniformity::NeverUniform;
    if (const auto *load = dyn_cast<LoadInst>(value))
      return isVaryingFieldLoad(*load) ? InstructionUniformity::NeverUniform
                                       : InstructionUniformity::Default;
    if (const auto *call = dyn_cast<CallBase>(value)) {
      // Pure intrinsics are as uniform as their operands; anything else
      // (the runtime's calls) may answer each invocation differently.
      const auto *intrinsic = dyn_cast<IntrinsicInst>(call);
      if (intrinsic && intrinsic->doesNotAccessMemory())
        return InstructionUniformity::Default;
      return InstructionUniformity::NeverUniform;
    }
    return InstructionUniformity::Default;
  }

private:
  /// A load from the invocation block (the body's second argument) of a
  /// field that differs between the invocations of a workgroup.
  bool isVaryingFieldLoad(const LoadInst &load) const {
    const Function *function = load.getFunction();
    if (!function || function->arg_size() < 2)
      return false;
    int64_t offset = 0;
    const Value *base = GetPointerBaseWithConstantOffset(
        load.getPointerOperand(), offset, getDataLayout());
    if (base != function->getArg(1))
      return false;
    std::optional<InvocationFieldAccess> field = getInvocationField(
        offset, getDataLayout().getTypeStoreSize(load.getType()));
    return !field || !isWorkgroupUniform(field->field);
  }
};

} // namespace

TargetIRAnalysis spvb::getLaneDivergenceAnalysis() {
  return TargetIRAnalysis([](const Function &function) {
    return TargetTransformInfo(
        std::make_unique<LaneDivergenceTTI>(function.getDataLayout()));
  });
}

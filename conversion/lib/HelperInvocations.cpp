//===- HelperInvocations.cpp - No side effects from helpers ---------------===//
#include "HelperInvocations.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <spirv/unified1/spirv.hpp>

using namespace mlir;
using namespace spvb;

static bool isSharedStorage(Type type) {
  auto pointer = dyn_cast<spirv::PointerType>(type);
  if (!pointer)
    return false;
  switch (pointer.getStorageClass()) {
  case spirv::StorageClass::StorageBuffer:
  case spirv::StorageClass::PhysicalStorageBuffer:
  case spirv::StorageClass::Uniform: // BufferBlock: a storage buffer
  case spirv::StorageClass::Image:
    return true;
  default:
    return false;
  }
}

/// Whether `op` writes memory other invocations can see.
static bool hasVisibleSideEffect(Operation *op) {
  if (isa<spirv::StoreOp, spirv::CopyMemoryOp>(op))
    return isSharedStorage(op->getOperand(0).getType());
  if (auto image = dyn_cast<ImageOp>(op))
    return image.getOpcode() == spv::OpImageWrite;
  llvm::StringRef name = op->getName().getStringRef();
  if (isa<AtomicLoadOp>(op) || !(name.starts_with("spirv.Atomic") ||
                                 name.starts_with("spirv.EXT.Atomic") ||
                                 name.starts_with("spvb.atomic")))
    return false;
  return op->getNumOperands() && isSharedStorage(op->getOperand(0).getType());
}

/// The entry point's HelperInvocation input, added if it has none.
static spirv::GlobalVariableOp getHelperVariable(ModuleOp module,
                                                 spirv::EntryPointOp entry) {
  SymbolTable symbols(module);
  for (Attribute symbol : entry.getInterface()) {
    auto global = symbols.lookup<spirv::GlobalVariableOp>(
        cast<FlatSymbolRefAttr>(symbol).getValue());
    if (global && global.getBuiltInAttr() &&
        global.getBuiltInAttr().getValue() == "HelperInvocation")
      return global;
  }
  OpBuilder b(module.getContext());
  b.setInsertionPointToStart(module.getBody());
  auto global = spirv::GlobalVariableOp::create(
      b, entry.getLoc(),
      spirv::PointerType::get(b.getI1Type(), spirv::StorageClass::Input),
      abi::kHelperInvocationGlobal, /*initializer=*/nullptr,
      /*location=*/nullptr,
      /*binding=*/nullptr, /*set=*/nullptr, b.getStringAttr("HelperInvocation"),
      /*linkage=*/nullptr);
  symbols.insert(global);
  SmallVector<Attribute> interface(entry.getInterface().begin(),
                                   entry.getInterface().end());
  interface.push_back(SymbolRefAttr::get(global.getSymNameAttr()));
  entry.setInterfaceAttr(b.getArrayAttr(interface));
  return global;
}

/// Splits `op` into a block of its own that runs only when the invocation
/// is not a helper.
static void guard(Operation *op, spirv::GlobalVariableOp helper) {
  OpBuilder b(op->getContext());
  Location loc = op->getLoc();
  Block *before = op->getBlock();
  Block *body = before->splitBlock(op);
  Block *after = body->splitBlock(std::next(op->getIterator()));
  SmallVector<Value> undefs;
  for (Value result : op->getResults()) {
    BlockArgument argument = after->addArgument(result.getType(), loc);
    result.replaceAllUsesWith(argument);
  }
  b.setInsertionPointToEnd(before);
  for (Value result : op->getResults())
    undefs.push_back(spirv::UndefOp::create(b, loc, result.getType()));
  Value isHelper =
      spirv::LoadOp::create(b, loc, spirv::AddressOfOp::create(b, loc, helper));
  spirv::BranchConditionalOp::create(b, loc, isHelper, after, undefs, body,
                                     ValueRange{});
  b.setInsertionPointToEnd(body);
  spirv::BranchOp::create(b, loc, after, op->getResults());
}

void spvb::guardHelperSideEffects(ModuleOp module, llvm::StringRef entryName) {
  spirv::EntryPointOp entry;
  for (auto candidate : module.getOps<spirv::EntryPointOp>()) {
    auto name = candidate->getAttrOfType<StringAttr>(kEntryNameAttr);
    if (candidate.getExecutionModel() == spirv::ExecutionModel::Fragment &&
        (entryName.empty() ||
         (name ? name.getValue() : candidate.getFn()) == entryName)) {
      entry = candidate;
      break;
    }
  }
  if (!entry)
    return;
  SmallVector<Operation *> writes;
  module.walk([&](Operation *op) {
    if (hasVisibleSideEffect(op))
      writes.push_back(op);
  });
  if (writes.empty())
    return;
  spirv::GlobalVariableOp helper = getHelperVariable(module, entry);
  for (Operation *op : writes)
    guard(op, helper);
}

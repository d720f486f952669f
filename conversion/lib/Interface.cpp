//===- Interface.cpp - Where each SPIR-V global lives in the ABI ----------===//
#include "spvbridge/conversion/Interface.h"

#include "spvbridge/conversion/Layout.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/Deserializer.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace spvb;

static bool isBlock(mlir::Type type) {
  auto structType = mlir::dyn_cast<mlir::spirv::StructType>(type);
  if (!structType)
    return false;
  llvm::SmallVector<mlir::spirv::StructType::StructDecorationInfo> decorations;
  structType.getStructDecorations(decorations);
  return llvm::any_of(decorations, [](const auto &info) {
    return info.decoration == mlir::spirv::Decoration::Block;
  });
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

bool spvb::isInvocationBuiltin(spirv::BuiltIn builtin) {
  switch (builtin) {
  case spirv::BuiltIn::GlobalInvocationId:
  case spirv::BuiltIn::LocalInvocationId:
  case spirv::BuiltIn::LocalInvocationIndex:
  case spirv::BuiltIn::WorkgroupId:
  case spirv::BuiltIn::NumWorkgroups:
  case spirv::BuiltIn::WorkgroupSize:
  case spirv::BuiltIn::SubgroupSize:
  case spirv::BuiltIn::SubgroupLocalInvocationId:
  case spirv::BuiltIn::SubgroupId:
  case spirv::BuiltIn::NumSubgroups:
  case spirv::BuiltIn::SubgroupEqMask:
  case spirv::BuiltIn::SubgroupGeMask:
  case spirv::BuiltIn::SubgroupGtMask:
  case spirv::BuiltIn::SubgroupLeMask:
  case spirv::BuiltIn::SubgroupLtMask:
    return true;
  default:
    return false;
  }
}

static llvm::StringRef getEntryName(spirv::EntryPointOp entry) {
  if (auto name = entry->getAttrOfType<StringAttr>(kEntryNameAttr))
    return name.getValue();
  return entry.getFn();
}

static bool isGraphicsModel(spirv::ExecutionModel model) {
  return model == spirv::ExecutionModel::Vertex ||
         model == spirv::ExecutionModel::TessellationControl ||
         model == spirv::ExecutionModel::TessellationEvaluation ||
         model == spirv::ExecutionModel::Geometry ||
         model == spirv::ExecutionModel::Fragment;
}

llvm::Expected<InterfaceLayout> spvb::computeInterfaceLayout(
    ModuleOp module, llvm::ArrayRef<DescriptorBinding> bindings,
    llvm::StringRef entryPoint, spirv::ExecutionModel model) {
  InterfaceLayout layout;
  spirv::EntryPointOp graphicsEntry;
  for (auto entry : module.getOps<spirv::EntryPointOp>()) {
    if (entryPoint.empty()
            ? entry.getExecutionModel() != spirv::ExecutionModel::GLCompute
            : (entry.getExecutionModel() != model ||
               getEntryName(entry) != entryPoint))
      continue;
    if (!entryPoint.empty() && !layout.entryPoints.empty())
      continue;
    EntryPointLayout info;
    info.function = entry.getFn().str();
    // The deserializer names entry functions after their entry point.
    info.name = info.function;
    info.model = entry.getExecutionModel();
    // A tessellation control shader's is its OutputVertices (below).
    if (info.model == spirv::ExecutionModel::Vertex ||
        info.model == spirv::ExecutionModel::TessellationEvaluation ||
        info.model == spirv::ExecutionModel::Geometry)
      info.workgroupSize[0] = SPVB_VERTICES_PER_WORKGROUP;
    if (info.model == spirv::ExecutionModel::Fragment)
      info.workgroupSize[0] = 4 * SPVB_FRAGMENT_QUADS_PER_WORKGROUP;
    if (isGraphicsModel(info.model))
      graphicsEntry = entry;
    layout.entryPoints.push_back(info);
  }
  if (!entryPoint.empty() && layout.entryPoints.empty())
    return makeError("error: no " + spirv::stringifyExecutionModel(model) +
                     " entry point named '" + entryPoint + "'");

  // The binding table.
  if (!bindings.empty()) {
    layout.bindings.assign(bindings.begin(), bindings.end());
  } else {
    for (auto global : module.getOps<spirv::GlobalVariableOp>()) {
      auto set = global.getDescriptorSetAttr();
      auto binding = global.getBindingAttr();
      if (!set || !binding)
        continue;
      DescriptorBinding key{static_cast<uint32_t>(set.getInt()),
                            static_cast<uint32_t>(binding.getInt())};
      // A descriptor array of N takes N slots (a runtime-sized one: 1).
      Type pointee =
          cast<spirv::PointerType>(global.getType()).getPointeeType();
      uint32_t count = 1;
      if (auto array = dyn_cast<spirv::ArrayType>(pointee))
        count = array.getNumElements();
      if (llvm::is_contained(layout.bindings, key))
        continue;
      layout.bindings.insert(layout.bindings.end(), count, key);
    }
    llvm::stable_sort(layout.bindings);
  }

  for (auto global : module.getOps<spirv::GlobalVariableOp>()) {
    auto pointer = cast<spirv::PointerType>(global.getType());
    InterfaceVariable var;
    var.storageClass = pointer.getStorageClass();
    Type pointee = pointer.getPointeeType();
    llvm::StringRef name = global.getSymName();
    switch (var.storageClass) {
    case spirv::StorageClass::StorageBuffer:
    case spirv::StorageClass::Uniform:
    case spirv::StorageClass::UniformConstant: {
      auto set = global.getDescriptorSetAttr();
      auto binding = global.getBindingAttr();
      if (!set || !binding)
        return makeError("error: resource variable '" + name +
                         "' has no DescriptorSet/Binding decoration");
      DescriptorBinding key{static_cast<uint32_t>(set.getInt()),
                            static_cast<uint32_t>(binding.getInt())};
      auto it = llvm::find(layout.bindings, key);
      if (it == layout.bindings.end())
        return makeError(llvm::formatv(
            "error: resource variable '{0}' (set {1}, binding {2}) is not in "
            "the binding table",
            name, key.set, key.binding));
      var.slot = it - layout.bindings.begin();
      if (auto array = dyn_cast<spirv::ArrayType>(pointee))
        var.descriptorCount = array.getNumElements();
      else if (isa<spirv::RuntimeArrayType>(pointee))
        var.descriptorCount = 0;
      break;
    }
    case spirv::StorageClass::PushConstant:
      break;
    case spirv::StorageClass::Workgroup:
      // SPV_KHR_workgroup_memory_explicit_layout: Block-decorated Workgroup
      // variables all alias, from the start of the workgroup's memory.
      if (isBlock(pointee)) {
        var.offset = 0;
        layout.sharedMemorySize =
            std::max<uint64_t>(layout.sharedMemorySize, getByteSize(pointee));
        break;
      }
      layout.sharedMemorySize =
          llvm::alignTo(layout.sharedMemorySize, getAlignment(pointee));
      var.offset = layout.sharedMemorySize;
      layout.sharedMemorySize += getByteSize(pointee);
      break;
    case spirv::StorageClass::Private:
      layout.privateMemorySize =
          llvm::alignTo(layout.privateMemorySize, getAlignment(pointee));
      var.offset = layout.privateMemorySize;
      layout.privateMemorySize += getByteSize(pointee);
      break;
    case spirv::StorageClass::Input: {
      auto builtinName = global.getBuiltInAttr();
      std::optional<spirv::BuiltIn> builtin;
      if (builtinName)
        builtin = spirv::symbolizeBuiltIn(builtinName.getValue());
      // Graphics stages keep their inputs in the stage record
      // (layoutStageInterface); user inputs of other stages' entry points
      // fail to lower with their location if a compute function uses one.
      if (!builtin || (graphicsEntry && !isInvocationBuiltin(*builtin)))
        continue;
      if (!isInvocationBuiltin(*builtin))
        return makeError("error: builtin '" + builtinName.getValue() +
                         "' of variable '" + name + "' is not supported yet");
      var.builtin = builtin;
      break;
    }
    case spirv::StorageClass::Output:
      continue; // Graphics stages' outputs (layoutStageInterface).
    default:
      return makeError("error: variable '" + name + "' has storage class " +
                       spirv::stringifyStorageClass(var.storageClass) +
                       ", which is not supported yet");
    }
    layout.variables[name] = var;
  }

  for (auto func : module.getOps<spirv::FuncOp>())
    layout.functionSymbols[func.getSymName()] = func.getSymName().str();
  for (const EntryPointLayout &info : layout.entryPoints)
    layout.functionSymbols[info.function] =
        abi::getInvocationEntrySymbol(info.name);
  for (auto mode : module.getOps<spirv::ExecutionModeOp>()) {
    bool localSize = mode.getExecutionMode() == spirv::ExecutionMode::LocalSize;
    if (!localSize &&
        mode.getExecutionMode() != spirv::ExecutionMode::OutputVertices)
      continue;
    for (EntryPointLayout &entry : layout.entryPoints) {
      if (entry.function != mode.getFn() ||
          (!localSize &&
           entry.model != spirv::ExecutionModel::TessellationControl))
        continue;
      auto values = mode.getValues().getValue();
      for (unsigned i = 0; i < 3 && i < values.size(); ++i)
        entry.workgroupSize[i] = cast<IntegerAttr>(values[i]).getInt();
    }
  }
  if (graphicsEntry)
    if (llvm::Error error = layoutStageInterface(module, graphicsEntry, layout))
      return error;
  // The deserializer already folded a WorkgroupSize builtin into LocalSize;
  // usesBarriers is set by the lowering once unreached functions are gone.
  return layout;
}

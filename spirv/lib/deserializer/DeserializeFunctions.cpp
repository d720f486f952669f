//===- DeserializeFunctions.cpp - Function bodies, control flow -----------===//
#include "Deserializer.h"

#include "spvbridge/spirv/SpvbDialect.h"

using namespace mlir;
using namespace spvb;
using namespace spvb::detail;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult Deserializer::processFunctions() {
  size_t begin = 0;
  for (size_t i = 0; i < parsed.instructions.size(); ++i) {
    uint32_t opcode = parsed.instructions[i].opcode;
    if (opcode == spv::OpFunction)
      begin = i;
    else if (opcode == spv::OpFunctionEnd && failed(processFunction(begin, i)))
      return failure();
  }
  return success();
}

LogicalResult Deserializer::processFunction(size_t begin, size_t end) {
  const auto &insts = parsed.instructions;
  spirv::FuncOp func = functions.lookup(insts[begin].resultId);
  values.clear();
  blocks.clear();
  phis.clear();
  currentLine.reset();
  currentScope = currentInlinedAt = 0;
  currentFunctionScope = nullptr;
  lastInlinedAt.clear();
  prologue = std::make_unique<Block>();

  // Blocks, with OpPhi as block arguments. The entry block also holds the
  // function parameters, which precede the first OpLabel.
  Region &body = func.getBody();
  Block *entry = nullptr;
  Block *block = nullptr;
  auto getEntry = [&]() {
    if (!entry) {
      entry = new Block();
      body.push_back(entry);
    }
    return entry;
  };
  for (size_t i = begin + 1; i < end; ++i) {
    const ParsedInstruction &inst = insts[i];
    if (std::optional<FileLineColLoc> listed = getListingLocation(inst))
      currentLine = listed;
    if (inst.opcode == spv::OpFunctionParameter) {
      Type type = getType(inst.typeId);
      if (holdsBufferReference(type)) {
        // A buffer reference is Aliased/Restrict; a pointer to one is
        // AliasedPointer/RestrictPointer.
        auto pointee = dyn_cast<spirv::PointerType>(
            cast<spirv::PointerType>(type).getPointeeType());
        bool isReference =
            !pointee || pointee.getStorageClass() !=
                            spirv::StorageClass::PhysicalStorageBuffer;
        bool restrict =
            hasDecoration(inst.resultId, spv::DecorationRestrict) ||
            hasDecoration(inst.resultId, spv::DecorationRestrictPointer);
        spirv::Decoration decoration =
            isReference ? (restrict ? spirv::Decoration::Restrict
                                    : spirv::Decoration::Aliased)
                        : (restrict ? spirv::Decoration::RestrictPointer
                                    : spirv::Decoration::AliasedPointer);
        func.setArgAttr(getEntry()->getNumArguments(), "spirv.decoration",
                        spirv::DecorationAttr::get(&context, decoration));
      }
      unsigned index = getEntry()->getNumArguments();
      if (std::string name = names.lookup(inst.resultId);
          debugInfo && !name.empty()) {
        func.setArgAttr(index, kDebugNameAttr, builder.getStringAttr(name));
        uint32_t pointee = pointeeTypeIds.lookup(inst.typeId);
        func.setArgAttr(index, kDebugTypeNamesAttr,
                        getDebugTypeNames(pointee ? pointee : inst.typeId));
      }
      values[inst.resultId] =
          getEntry()->addArgument(type, currentLocation(inst));
    } else if (inst.opcode == spv::OpLabel) {
      if (blocks.empty()) {
        block = getEntry();
      } else {
        block = new Block();
        body.push_back(block);
      }
      blocks[inst.resultId] = block;
    } else if (inst.opcode == spv::OpPhi) {
      values[inst.resultId] =
          block->addArgument(getType(inst.typeId), currentLocation(inst));
      phis[block].push_back(&inst);
    }
  }
  if (!entry)
    return success(); // A declaration: spirv.func without a body.

  bool inEntryVariables = true;
  Block *entryBlock = &body.front();
  for (size_t i = begin + 1; i < end; ++i) {
    const ParsedInstruction &inst = insts[i];
    currentInst = &inst;
    // A module without lines: each instruction at its line of the listing.
    if (std::optional<FileLineColLoc> listed = getListingLocation(inst))
      currentLine = listed;
    switch (inst.opcode) {
    case spv::OpFunctionParameter:
    case spv::OpPhi:
    case spv::OpSelectionMerge:
    case spv::OpLoopMerge:
    case spv::OpNop:
      continue;
    case spv::OpLine: {
      auto file = strings.find(inst.arg(0));
      currentLine = FileLineColLoc::get(
          &context, file != strings.end() ? file->second : "<unknown>",
          inst.arg(1), inst.arg(2));
      continue;
    }
    case spv::OpNoLine:
      currentLine.reset();
      continue;
    case spv::OpLabel:
      currentBlock = blocks[inst.resultId];
      currentLabel = inst.resultId;
      builder.setInsertionPointToEnd(currentBlock);
      continue;
    default:
      break;
    }
    if (inEntryVariables && inst.opcode != spv::OpVariable) {
      // The entry block's variables are done: what follows the prologue
      // starts here, beginning with the Private initializers of entry points.
      inEntryVariables = false;
      const EntryPoint *entry = nullptr;
      for (const EntryPoint &e : entryPoints)
        if (functions.lookup(e.functionId) == func)
          entry = &e;
      bool outputs = false;
      if (entry)
        for (auto [varId, initId] : entryInitializers) {
          auto store = spirv::StoreOp::create(
              builder, func.getLoc(), getValue(varId), getValue(initId));
          if (cast<spirv::PointerType>(store.getPtr().getType())
                  .getStorageClass() == spirv::StorageClass::Output) {
            store->setAttr(kOutputInitializerAttr, builder.getUnitAttr());
            outputs = true;
          }
        }
      // A tessellation control shader's outputs are the patch's: its first
      // invocation stores their initializers, and every invocation waits
      // for them before its own accesses (which LLVM could otherwise move
      // ahead of them, once the invocations run in SIMD lanes).
      if (outputs && entry->model == spirv::ExecutionModel::TessellationControl)
        spirv::ControlBarrierOp::create(
            builder, func.getLoc(), spirv::Scope::Workgroup,
            spirv::Scope::Workgroup,
            spirv::MemorySemantics::AcquireRelease |
                spirv::MemorySemantics::OutputMemory);
    }
    if (failed(processInstruction(inst)))
      return failure();
    if (listing && debugInfo && inst.resultId)
      declareListedValue(inst);
  }
  // Splice the prologue after the entry block's variables.
  Block::iterator insertAt = entryBlock->begin();
  while (insertAt != entryBlock->end() && isa<spirv::VariableOp>(*insertAt))
    ++insertAt;
  entryBlock->getOperations().splice(insertAt, prologue->getOperations());
  prologue.reset();
  return success();
}

/// LLVM IR cannot give a phi two incoming values from one predecessor, so a
/// second edge to a block with arguments goes through a block of its own.
/// `operands` become that edge's (empty) operands.
Block *Deserializer::createForwardingBlock(Block *dest,
                                           SmallVector<Value> &operands,
                                           Location loc) {
  auto *forward = new Block();
  forward->insertBefore(dest);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(forward);
  spirv::BranchOp::create(builder, loc, dest, operands);
  operands.clear();
  return forward;
}

LogicalResult Deserializer::processBranch(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  auto target = [&](uint32_t label) { return blocks.lookup(label); };
  switch (inst.opcode) {
  case spv::OpBranch: {
    Block *dest = target(inst.arg(0));
    spirv::BranchOp::create(builder, loc, dest, getSuccessorOperands(dest));
    return success();
  }
  case spv::OpBranchConditional: {
    Block *t = target(inst.arg(1));
    SmallVector<Value> tOperands = getSuccessorOperands(t);
    Block *f = target(inst.arg(2));
    SmallVector<Value> fOperands = getSuccessorOperands(f);
    if (t == f && !tOperands.empty())
      f = createForwardingBlock(f, fOperands, loc);
    spirv::BranchConditionalOp::create(builder, loc, getValue(inst.arg(0)), t,
                                       tOperands, f, fOperands);
    return success();
  }
  case spv::OpSwitch: {
    Value selector = getValue(inst.arg(0));
    unsigned width = selector.getType().getIntOrFloatBitWidth();
    Block *defaultDest = target(inst.arg(1));
    SmallVector<Value> defaultOperands = getSuccessorOperands(defaultDest);
    llvm::SmallPtrSet<Block *, 8> seen{defaultDest};
    SmallVector<llvm::APInt> literals;
    SmallVector<Block *> dests;
    SmallVector<SmallVector<Value>> operandStorage;
    for (unsigned i = 2; i + 1 < inst.getNumArgs(); i += 2) {
      llvm::ArrayRef<uint32_t> words = inst.argWords(i);
      uint64_t value = words[0];
      if (words.size() > 1)
        value |= static_cast<uint64_t>(words[1]) << 32;
      literals.push_back(llvm::APInt(width, value, false, true));
      Block *dest = target(inst.arg(i + 1));
      SmallVector<Value> destOperands = getSuccessorOperands(dest);
      if (!seen.insert(dest).second && !destOperands.empty())
        dest = createForwardingBlock(dest, destOperands, loc);
      dests.push_back(dest);
      operandStorage.push_back(destOperands);
    }
    SmallVector<ValueRange> operands(operandStorage.begin(),
                                     operandStorage.end());
    spirv::SwitchOp::create(builder, loc, selector, defaultDest,
                            defaultOperands, literals, dests, operands);
    return success();
  }
  default:
    return failure();
  }
}

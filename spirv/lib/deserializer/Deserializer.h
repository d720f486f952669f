//===- Deserializer.h - SPIR-V binary to MLIR spirv dialect ----*- C++ -*-===//
//
// The deserializer's class, private to the files that implement it:
// Deserializer.cpp (module-level declarations and the driver),
// DeserializeTypes.cpp (types and constants), DeserializeDebugInfo.cpp,
// DeserializeFunctions.cpp (function bodies and control flow) and
// DeserializeOps.cpp (instructions), as MLIR's own deserializer is split.
//
// Two passes over the parsed instructions: module-level declarations (names,
// decorations, types, constants, globals, function signatures), then function
// bodies. Constants, undefs and global addresses are built lazily into a
// per-function prologue that is spliced after the entry block's variables.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_DESERIALIZER_DESERIALIZER_H
#define SPVBRIDGE_SPIRV_DESERIALIZER_DESERIALIZER_H

#include "ParsedModule.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/OpcodeNames.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>
#include <spirv/unified1/spirv.hpp>

#include <map>

namespace spvb::detail {

// The implementation files' names, for the class written in their terms.
using namespace mlir;

/// The pre-NonSemantic debug information sets: no execution semantics.
inline bool isDebugInfoSet(llvm::StringRef set) {
  return set == "DebugInfo" || set == "OpenCL.DebugInfo.100";
}

struct DecorationInfo {
  uint32_t decoration;
  std::vector<uint32_t> literals;
};

/// A module-level constant before it is materialized in a function.
struct ConstantInfo {
  uint32_t typeId = 0;
  enum Kind { Scalar, Composite, Null, Undef, Operation } kind = Scalar;
  Attribute scalar;                 // Scalar
  std::vector<uint32_t> components; // Composite
  /// Operation: an OpSpecConstantOp that specialization could not fold.
  const ParsedInstruction *operation = nullptr;
};

/// Where the deserializer reports an error; raised as llvm::Error once.
class DeserializeError {
public:
  explicit operator bool() const { return !message.empty(); }
  std::string message;
};

class Deserializer {
public:
  Deserializer(const SpirvBinary &binary, const ParsedModule &parsed,
               MLIRContext &context, bool debugInfo,
               const DisassemblyListing *listing)
      : binary(binary), parsed(parsed), context(context), builder(&context),
        debugInfo(debugInfo), listing(listing) {}

  llvm::Expected<OwningOpRef<ModuleOp>> run();

private:
  // Module-level passes.
  LogicalResult collectDebugAndDecorations();
  LogicalResult processDeclarations();
  LogicalResult processType(const ParsedInstruction &inst);
  /// kDebugTypeNamesAttr's tree for the type `typeId`.
  Attribute getDebugTypeNames(uint32_t typeId);
  /// Sets the debug attributes of the variable `id` of pointer type
  /// `pointerTypeId`.
  void setDebugNames(Operation *variable, uint32_t id, uint32_t pointerTypeId);
  LogicalResult processConstant(const ParsedInstruction &inst);
  LogicalResult processGlobalVariable(const ParsedInstruction &inst);
  LogicalResult declareFunctions();
  LogicalResult processFunctions();
  LogicalResult processFunction(size_t begin, size_t end);
  LogicalResult processInstruction(const ParsedInstruction &inst);
  LogicalResult processExtInst(const ParsedInstruction &inst);
  LogicalResult processAtomic(const ParsedInstruction &inst);
  LogicalResult processImage(const ParsedInstruction &inst);
  LogicalResult processSubgroup(const ParsedInstruction &inst);
  LogicalResult processBranch(const ParsedInstruction &inst);
  Block *createForwardingBlock(Block *dest, SmallVector<Value> &operands,
                               Location loc);
  void emitEntryPoints();

  // Helpers.
  LogicalResult fail(const ParsedInstruction &inst, const llvm::Twine &msg);
  Type getType(uint32_t id);
  Value getValue(uint32_t id);
  Value materializeConstant(uint32_t id);
  Value materializeNull(Type type);
  std::optional<uint64_t> getConstantInt(uint32_t id);
  SmallVector<Value> getSuccessorOperands(Block *target);
  Location currentLocation(const ParsedInstruction &inst);
  /// The line of `inst` in the listing, when there is one.
  std::optional<FileLineColLoc>
  getListingLocation(const ParsedInstruction &inst);
  std::string uniqueSymbol(llvm::StringRef base, uint32_t id);
  bool hasDecoration(uint32_t id, uint32_t decoration,
                     uint32_t *literal = nullptr);
  Value addressOf(spirv::GlobalVariableOp global);
  bool isUnsignedType(uint32_t typeId) const;
  LogicalResult divideProjectiveCoordinate(const ParsedInstruction &inst,
                                           SmallVectorImpl<Value> &operands);
  uint32_t getInterfaceBlockId(uint32_t typeId) const;
  LogicalResult splitBuiltinBlock(const ParsedInstruction &inst,
                                  spirv::PointerType pointerType,
                                  llvm::StringRef symbol);
  LogicalResult useBuiltinBlock(const ParsedInstruction &inst, Type resultType);
  static uint32_t getLocationCount(Type type);
  Operation *createGeneric(llvm::StringRef name, Location loc,
                           TypeRange results, ValueRange operands,
                           ArrayRef<NamedAttribute> attrs = {});
  /// Whether a pointer (or its pointee) is a PhysicalStorageBuffer pointer:
  /// the dialect wants those declared Aliased or Restrict.
  static bool holdsBufferReference(Type type) {
    auto isReference = [](Type t) {
      auto pointer = dyn_cast<spirv::PointerType>(t);
      return pointer && pointer.getStorageClass() ==
                            spirv::StorageClass::PhysicalStorageBuffer;
    };
    if (isReference(type))
      return true;
    auto pointer = dyn_cast<spirv::PointerType>(type);
    if (!pointer)
      return false;
    Type pointee = pointer.getPointeeType();
    if (auto array = dyn_cast<spirv::ArrayType>(pointee))
      pointee = array.getElementType();
    return isReference(pointee);
  }
  void mapResult(const ParsedInstruction &inst, Value value) {
    values[inst.resultId] = value;
  }

  const SpirvBinary &binary;
  const ParsedModule &parsed;
  MLIRContext &context;
  OpBuilder builder;
  ModuleOp module;
  std::string errorMessage;
  bool debugInfo;
  const DisassemblyListing *listing;

  // Debug information.
  llvm::DenseMap<uint32_t, std::string> names;
  llvm::DenseMap<uint32_t, std::map<uint32_t, std::string>> memberNames;
  llvm::DenseMap<uint32_t, std::string> strings;
  uint32_t shaderDebugInfoSet = 0;
  /// NonSemantic.Shader.DebugInfo.100's scopes: a DebugFunction's name and
  /// line, a DebugLexicalBlock's parent, a DebugInlinedAt's call line,
  /// caller scope and outer DebugInlinedAt.
  struct DebugScopeInfo {
    std::string functionName;
    uint32_t line = 0, parent = 0, source = 0;
  };
  struct DebugInlinedAtInfo {
    uint32_t line = 0, scope = 0, inlinedAt = 0;
  };
  struct DebugLocalVariableInfo {
    std::string name;
    uint32_t line = 0, argument = 0, source = 0, scope = 0;
  };
  llvm::DenseMap<uint32_t, DebugScopeInfo> debugScopes;
  llvm::DenseMap<uint32_t, DebugInlinedAtInfo> debugInlinedAts;
  llvm::DenseMap<uint32_t, DebugLocalVariableInfo> debugLocalVariables;
  llvm::DenseSet<uint32_t> emptyDebugExpressions;
  /// The DebugScope in effect: its scope and DebugInlinedAt (0 for none).
  uint32_t currentScope = 0, currentInlinedAt = 0;
  /// In the function being read: its own DebugFunction, and the last
  /// DebugInlinedAt of each function inlined into it.
  const DebugScopeInfo *currentFunctionScope = nullptr;
  llvm::DenseMap<const DebugScopeInfo *, uint32_t> lastInlinedAt;
  void collectShaderDebugInfo(const ParsedInstruction &inst);
  const DebugScopeInfo *getScopeFunction(uint32_t scope);
  Location getInlinedLocation(Location loc, uint32_t scope, uint32_t inlinedAt,
                              unsigned depth = 0);
  /// Result id -> type id, for the types of DebugValue's values.
  llvm::DenseMap<uint32_t, uint32_t> resultTypeIds;
  void processDebugValue(const ParsedInstruction &inst);
  /// In a module debugged through its listing: `inst`'s scalar or vector
  /// result as a variable `_ID` (or its OpName), so a debugger prints the
  /// values the listing shows.
  void declareListedValue(const ParsedInstruction &inst);
  /// Source text the module carries, by file name.
  std::map<std::string, std::string> sourceTexts;
  std::string lastSourceFile;
  llvm::DenseMap<uint32_t, std::string> debugSources;
  llvm::DenseMap<uint32_t, uint32_t> literalConstants;
  std::optional<FileLineColLoc> currentLine;
  const ParsedInstruction *currentInst = nullptr;

  // Module-level tables.
  llvm::DenseMap<uint32_t, std::vector<DecorationInfo>> decorations;
  llvm::DenseMap<uint32_t, std::map<uint32_t, std::vector<DecorationInfo>>>
      memberDecorations;
  llvm::DenseMap<uint32_t, Type> types;
  llvm::DenseMap<uint32_t, uint32_t> pointeeTypeIds;
  /// Each type's first component type (arrays, vectors, matrices: the
  /// element; structs: the members), and the unsigned OpTypeInts: where
  /// isUnsignedType looks for the signedness the dialect drops.
  llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 1>> componentTypeIds;
  llvm::DenseSet<uint32_t> unsignedIntTypeIds;
  /// Structs reached through OpTypeForwardPointer before their definition:
  /// identified structs whose body is set when the OpTypeStruct comes.
  llvm::DenseMap<uint32_t, spirv::StructType> pendingStructs;
  llvm::DenseMap<uint32_t, ConstantInfo> constants;
  llvm::DenseMap<uint32_t, spirv::GlobalVariableOp> globals;
  /// Whether the module lays out Workgroup memory itself: its Workgroup
  /// variables are Blocks (SPV_KHR_workgroup_memory_explicit_layout: all
  /// or none are).
  bool explicitWorkgroupLayout = false;
  /// Input blocks whose members are builtins (clspv's {LocalInvocationId,
  /// WorkgroupId}): a builtin variable per member instead.
  llvm::DenseMap<uint32_t, SmallVector<spirv::GlobalVariableOp>> builtinBlocks;
  /// The variables of builtinBlocks that are arrays of blocks.
  llvm::DenseSet<uint32_t> blockArrays;
  /// Private and Output variables' initializers (variable id -> value
  /// id), stored at the start of each entry point.
  llvm::DenseMap<uint32_t, uint32_t> entryInitializers;
  llvm::DenseMap<uint32_t, std::string> extInstSets;
  llvm::DenseMap<uint32_t, spirv::FuncOp> functions;
  llvm::StringSet<> usedSymbols;
  llvm::DenseMap<uint32_t, std::string> reservedFunctionNames;
  struct EntryPoint {
    spirv::ExecutionModel model;
    uint32_t functionId;
    std::string name;
    std::vector<uint32_t> interface;
  };
  std::vector<EntryPoint> entryPoints;
  std::vector<const ParsedInstruction *> executionModes;
  uint32_t addressingModel = spv::AddressingModelLogical;
  uint32_t memoryModel = spv::MemoryModelGLSL450;

  // Per-function state.
  llvm::DenseMap<uint32_t, Value> values;
  llvm::DenseMap<uint32_t, Block *> blocks;
  /// OpPhi instructions per block, in order: they become block arguments.
  llvm::DenseMap<Block *, std::vector<const ParsedInstruction *>> phis;
  Block *currentBlock = nullptr;
  uint32_t currentLabel = 0;
  /// Constants, undefs and global addresses used by the function; spliced
  /// into the entry block after its variables.
  std::unique_ptr<Block> prologue;
};

} // namespace spvb::detail

#endif // SPVBRIDGE_SPIRV_DESERIALIZER_DESERIALIZER_H

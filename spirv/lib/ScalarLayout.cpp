//===- ScalarLayout.cpp - The scalar at each byte of a buffer block -------===//
//
// Walks types, constants, names and layout decorations through the shared
// module index; it must not depend on the reflection's readable type strings.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/spirv/ScalarLayout.h"

#include "ParsedModule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <optional>

using namespace spvb;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Guards recursion on malformed (cyclic) modules.
constexpr int MaxDepth = 64;

/// The MatrixStride and RowMajor of the struct member a matrix sits in.
struct MatrixLayout {
  uint32_t stride = 0;
  bool rowMajor = false;
};

/// Where a walk puts what it finds.
struct WalkOutput {
  std::vector<ScalarField> &fields;
  std::vector<PointerField> &pointers;
};

class Walker {
public:
  Walker(const SpirvBinary &binary, ModuleIndex index)
      : binary(binary), index(std::move(index)) {}

  llvm::Expected<BlockScalarLayout> run(uint32_t variableId);
  llvm::Expected<BlockScalarLayout> runType(uint32_t typeId);
  std::vector<uint32_t> listPhysicalPointees() const;

private:
  /// The words of the instruction defining \p id; empty if none.
  llvm::ArrayRef<uint32_t> def(uint32_t id) const {
    const ParsedInstruction *inst = index.lookup(id);
    return inst ? llvm::ArrayRef<uint32_t>(inst->words)
                : llvm::ArrayRef<uint32_t>();
  }
  std::optional<uint32_t> decoration(uint32_t id, spv::Decoration kind) const {
    return index.getDecorationArg(id, kind);
  }
  std::optional<uint32_t> memberDecoration(uint32_t id, uint32_t member,
                                           spv::Decoration kind) const {
    return index.getMemberDecorationArg(id, member, kind);
  }
  std::string memberName(uint32_t structId, uint32_t member) const {
    std::string name = index.getMemberName(structId, member);
    return name.empty() ? "member" + std::to_string(member) : name;
  }
  MatrixLayout matrixLayout(uint32_t structId, uint32_t member) const {
    MatrixLayout layout;
    layout.stride =
        memberDecoration(structId, member, spv::DecorationMatrixStride)
            .value_or(0);
    layout.rowMajor =
        index.findMemberDecoration(structId, member, spv::DecorationRowMajor);
    return layout;
  }
  /// The value of an integer constant (a spec constant's default).
  std::optional<uint64_t> constantValue(uint32_t id) const {
    return index.getConstantBits(id);
  }
  /// Appends the scalars and pointers of \p typeId placed at \p offset,
  /// named \p path.
  llvm::Error walk(uint32_t typeId, uint64_t offset, const std::string &path,
                   MatrixLayout matrix, WalkOutput out, int depth) const;
  /// Bytes \p typeId takes in a block (no tail padding; a runtime array 0).
  uint64_t typeSize(uint32_t typeId, MatrixLayout matrix, int depth) const;
  /// The static part, runtime array and pointers of the struct \p blockId.
  llvm::Error walkStruct(uint32_t blockId, BlockScalarLayout &layout);
  static void sortByOffset(BlockScalarLayout &layout);
  /// Bytes one element of an array without ArrayStride takes: never in a
  /// valid block, but keeps a malformed one from looping.
  uint64_t scalarBytes(uint32_t typeId) const;

  const SpirvBinary &binary;
  ModuleIndex index;
};

/// Whether \p op declares a type (OpTypeVoid .. OpTypePipe).
bool isTypeDeclaration(uint32_t op) {
  return op >= spv::OpTypeVoid && op <= spv::OpTypePipe;
}

} // namespace

uint64_t Walker::scalarBytes(uint32_t typeId) const {
  llvm::ArrayRef<uint32_t> inst = def(typeId);
  if (inst.size() >= 3 && ((inst[0] & 0xffff) == spv::OpTypeInt ||
                           (inst[0] & 0xffff) == spv::OpTypeFloat))
    return inst[2] / 8;
  return 4;
}

uint64_t Walker::typeSize(uint32_t typeId, MatrixLayout matrix,
                          int depth) const {
  llvm::ArrayRef<uint32_t> inst = def(typeId);
  if (inst.empty() || depth > MaxDepth)
    return 0;
  switch (static_cast<spv::Op>(inst[0] & 0xffff)) {
  case spv::OpTypeBool:
    return 4;
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
    return inst.size() >= 3 ? inst[2] / 8 : 4;
  case spv::OpTypePointer:
    return 8;
  case spv::OpTypeVector:
    return inst.size() >= 4 ? inst[3] * scalarBytes(inst[2]) : 0;
  case spv::OpTypeMatrix: {
    llvm::ArrayRef<uint32_t> column = def(inst.size() >= 4 ? inst[2] : 0);
    if (column.size() < 4)
      return 0;
    uint32_t columns = inst[3], rows = column[3];
    uint64_t componentBytes = scalarBytes(column[2]);
    uint64_t stride = matrix.stride
                          ? matrix.stride
                          : (matrix.rowMajor ? columns : rows) * componentBytes;
    return (matrix.rowMajor ? rows : columns) * stride;
  }
  case spv::OpTypeArray: {
    if (inst.size() < 4)
      return 0;
    uint64_t stride = decoration(typeId, spv::DecorationArrayStride)
                          .value_or(scalarBytes(inst[2]));
    return constantValue(inst[3]).value_or(0) * stride;
  }
  case spv::OpTypeStruct: {
    uint64_t size = 0;
    for (uint32_t i = 0; i + 2 < inst.size(); ++i)
      size = std::max(
          size, memberDecoration(typeId, i, spv::DecorationOffset).value_or(0) +
                    typeSize(inst[2 + i], matrixLayout(typeId, i), depth + 1));
    return size;
  }
  default:
    return 0;
  }
}

llvm::Error Walker::walk(uint32_t typeId, uint64_t offset,
                         const std::string &path, MatrixLayout matrix,
                         WalkOutput out, int depth) const {
  llvm::ArrayRef<uint32_t> inst = def(typeId);
  if (inst.empty() || depth > MaxDepth)
    return llvm::Error::success();
  switch (static_cast<spv::Op>(inst[0] & 0xffff)) {
  case spv::OpTypeBool:
    out.fields.push_back({offset, ScalarKind::Bool, 4, path});
    return llvm::Error::success();
  case spv::OpTypeInt:
    if (inst.size() >= 4)
      out.fields.push_back({offset,
                            inst[3] ? ScalarKind::Signed : ScalarKind::Unsigned,
                            inst[2] / 8, path});
    return llvm::Error::success();
  case spv::OpTypeFloat:
    if (inst.size() >= 3)
      out.fields.push_back({offset, ScalarKind::Float, inst[2] / 8, path});
    return llvm::Error::success();
  case spv::OpTypePointer:
    if (inst.size() >= 4 &&
        inst[2] == uint32_t(spv::StorageClassPhysicalStorageBuffer))
      out.pointers.push_back(
          {offset, path, inst[3],
           decoration(typeId, spv::DecorationArrayStride).value_or(0)});
    return llvm::Error::success();
  case spv::OpTypeVector: {
    if (inst.size() < 4)
      return llvm::Error::success();
    uint64_t componentBytes = scalarBytes(inst[2]);
    for (uint32_t i = 0; i < inst[3]; ++i)
      if (llvm::Error error =
              walk(inst[2], offset + i * componentBytes,
                   path + "[" + std::to_string(i) + "]", {}, out, depth + 1))
        return error;
    return llvm::Error::success();
  }
  case spv::OpTypeMatrix: {
    llvm::ArrayRef<uint32_t> column = def(inst.size() >= 4 ? inst[2] : 0);
    if (column.size() < 4)
      return llvm::Error::success();
    uint32_t columns = inst[3], rows = column[3];
    uint64_t componentBytes = scalarBytes(column[2]);
    // Without MatrixStride (not a valid block) columns are tightly packed.
    uint64_t stride = matrix.stride
                          ? matrix.stride
                          : (matrix.rowMajor ? columns : rows) * componentBytes;
    for (uint32_t c = 0; c < columns; ++c)
      for (uint32_t r = 0; r < rows; ++r) {
        uint64_t at = matrix.rowMajor ? r * stride + c * componentBytes
                                      : c * stride + r * componentBytes;
        out.fields.push_back(
            {offset + at, ScalarKind::Float,
             static_cast<uint32_t>(componentBytes),
             path + "[" + std::to_string(c) + "][" + std::to_string(r) + "]"});
      }
    return llvm::Error::success();
  }
  case spv::OpTypeArray: {
    if (inst.size() < 4)
      return llvm::Error::success();
    std::optional<uint64_t> length = constantValue(inst[3]);
    if (!length)
      return makeError("error: " + binary.name +
                       ": the length of array type %" + llvm::Twine(typeId) +
                       " is not a constant");
    uint64_t stride = decoration(typeId, spv::DecorationArrayStride)
                          .value_or(scalarBytes(inst[2]));
    for (uint64_t i = 0; i < *length; ++i)
      if (llvm::Error error = walk(inst[2], offset + i * stride,
                                   path + "[" + std::to_string(i) + "]", matrix,
                                   out, depth + 1))
        return error;
    return llvm::Error::success();
  }
  case spv::OpTypeStruct:
    for (uint32_t i = 0; i + 2 < inst.size(); ++i)
      if (llvm::Error error =
              walk(inst[2 + i],
                   offset + memberDecoration(typeId, i, spv::DecorationOffset)
                                .value_or(0),
                   path + "." + memberName(typeId, i), matrixLayout(typeId, i),
                   out, depth + 1))
        return error;
    return llvm::Error::success();
  default:
    // Anything else holds no comparable scalar.
    return llvm::Error::success();
  }
}

llvm::Error Walker::walkStruct(uint32_t blockId, BlockScalarLayout &layout) {
  llvm::ArrayRef<uint32_t> block = def(blockId);
  layout.typeName = index.getName(blockId);
  uint32_t memberCount = static_cast<uint32_t>(block.size() - 2);
  for (uint32_t i = 0; i < memberCount; ++i) {
    uint32_t memberType = block[2 + i];
    uint64_t offset =
        memberDecoration(blockId, i, spv::DecorationOffset).value_or(0);
    std::string name = memberName(blockId, i);
    llvm::ArrayRef<uint32_t> type = def(memberType);
    if (!type.empty() && (type[0] & 0xffff) == spv::OpTypeRuntimeArray) {
      layout.runtimeArrayPath = name;
      layout.runtimeArrayOffset = offset;
      layout.runtimeArrayStride =
          decoration(memberType, spv::DecorationArrayStride)
              .value_or(scalarBytes(type[2]));
      if (llvm::Error error =
              walk(type[2], 0, "", matrixLayout(blockId, i),
                   {layout.elementFields, layout.elementPointers}, 1))
        return error;
      continue;
    }
    MatrixLayout matrix = matrixLayout(blockId, i);
    layout.staticSize =
        std::max(layout.staticSize, offset + typeSize(memberType, matrix, 1));
    if (llvm::Error error = walk(memberType, offset, name, matrix,
                                 {layout.fields, layout.pointers}, 1))
      return error;
  }
  return llvm::Error::success();
}

void Walker::sortByOffset(BlockScalarLayout &layout) {
  auto byOffset = [](const auto &a, const auto &b) {
    return a.offset < b.offset;
  };
  llvm::stable_sort(layout.fields, byOffset);
  llvm::stable_sort(layout.elementFields, byOffset);
  llvm::stable_sort(layout.pointers, byOffset);
  llvm::stable_sort(layout.elementPointers, byOffset);
}

llvm::Expected<BlockScalarLayout> Walker::run(uint32_t variableId) {
  auto notABlock = [&] {
    return makeError("error: " + binary.name + ": id " +
                     llvm::Twine(variableId) +
                     " is not a variable of a block type");
  };
  llvm::ArrayRef<uint32_t> variable = def(variableId);
  if (variable.size() < 4 || (variable[0] & 0xffff) != spv::OpVariable)
    return notABlock();
  llvm::ArrayRef<uint32_t> pointer = def(variable[1]);
  if (pointer.size() < 4 || (pointer[0] & 0xffff) != spv::OpTypePointer)
    return notABlock();
  uint32_t blockId = pointer[3];
  // A descriptor array: each element is one block.
  llvm::ArrayRef<uint32_t> block = def(blockId);
  if (!block.empty() && ((block[0] & 0xffff) == spv::OpTypeArray ||
                         (block[0] & 0xffff) == spv::OpTypeRuntimeArray)) {
    blockId = block.size() >= 3 ? block[2] : 0;
    block = def(blockId);
  }
  if (block.empty() || (block[0] & 0xffff) != spv::OpTypeStruct)
    return notABlock();

  BlockScalarLayout layout;
  if (llvm::Error error = walkStruct(blockId, layout))
    return error;
  sortByOffset(layout);
  return layout;
}

llvm::Expected<BlockScalarLayout> Walker::runType(uint32_t typeId) {
  llvm::ArrayRef<uint32_t> type = def(typeId);
  if (type.empty() || !isTypeDeclaration(type[0] & 0xffff))
    return makeError("error: " + binary.name + ": id " + llvm::Twine(typeId) +
                     " is not a type");
  BlockScalarLayout layout;
  auto op = static_cast<spv::Op>(type[0] & 0xffff);
  if (op == spv::OpTypeStruct) {
    if (llvm::Error error = walkStruct(typeId, layout))
      return error;
  } else if (op == spv::OpTypeRuntimeArray) {
    layout.runtimeArrayStride = decoration(typeId, spv::DecorationArrayStride)
                                    .value_or(scalarBytes(type[2]));
    if (llvm::Error error =
            walk(type[2], 0, "", {},
                 {layout.elementFields, layout.elementPointers}, 1))
      return error;
  } else {
    layout.staticSize = typeSize(typeId, {}, 1);
    if (llvm::Error error =
            walk(typeId, 0, "", {}, {layout.fields, layout.pointers}, 1))
      return error;
  }
  layout.typeName = index.getName(typeId);
  sortByOffset(layout);
  return layout;
}

std::vector<uint32_t> Walker::listPhysicalPointees() const {
  std::vector<uint32_t> pointees;
  for (const ParsedInstruction &inst : index.getInstructions())
    if (inst.opcode == spv::OpTypePointer && inst.size() >= 4 &&
        inst.word(2) == uint32_t(spv::StorageClassPhysicalStorageBuffer))
      pointees.push_back(inst.word(3));
  llvm::sort(pointees);
  pointees.erase(std::unique(pointees.begin(), pointees.end()), pointees.end());
  return pointees;
}

std::string ScalarField::getTypeName() const {
  switch (kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Signed:
    return "i" + std::to_string(8 * size);
  case ScalarKind::Unsigned:
    return "u" + std::to_string(8 * size);
  case ScalarKind::Float:
    return "f" + std::to_string(8 * size);
  }
  return "?";
}

void BlockScalarLayout::forEachScalar(
    uint64_t bufferSize,
    llvm::function_ref<void(const BufferScalar &)> callback) const {
  BufferScalar scalar;
  for (const ScalarField &field : fields) {
    if (field.offset + field.size > bufferSize)
      continue;
    scalar.offset = field.offset;
    scalar.field = &field;
    scalar.path = field.path;
    callback(scalar);
    ++scalar.index;
  }
  if (runtimeArrayStride == 0 || runtimeArrayOffset >= bufferSize)
    return;
  uint64_t elements =
      (bufferSize - runtimeArrayOffset + runtimeArrayStride - 1) /
      runtimeArrayStride;
  for (uint64_t element = 0; element < elements; ++element) {
    uint64_t base = runtimeArrayOffset + element * runtimeArrayStride;
    std::string prefix = runtimeArrayPath + "[" + std::to_string(element) + "]";
    for (const ScalarField &field : elementFields) {
      if (base + field.offset + field.size > bufferSize)
        continue;
      scalar.offset = base + field.offset;
      scalar.field = &field;
      scalar.path = prefix + field.path;
      callback(scalar);
      ++scalar.index;
    }
  }
}

/// Parses and indexes \p binary for a walk.
static llvm::Expected<Walker> makeWalker(const SpirvBinary &binary) {
  llvm::Expected<ModuleIndex> index = ModuleIndex::build(binary);
  if (!index)
    return index.takeError();
  return Walker(binary, std::move(*index));
}

llvm::Expected<BlockScalarLayout>
spvb::getBlockScalarLayout(const SpirvBinary &binary, uint32_t variableId) {
  llvm::Expected<Walker> walker = makeWalker(binary);
  if (!walker)
    return walker.takeError();
  return walker->run(variableId);
}

llvm::Expected<BlockScalarLayout>
spvb::getPointeeScalarLayout(const SpirvBinary &binary, uint32_t typeId) {
  llvm::Expected<Walker> walker = makeWalker(binary);
  if (!walker)
    return walker.takeError();
  return walker->runType(typeId);
}

llvm::Expected<std::vector<uint32_t>>
spvb::getPhysicalPointeeTypes(const SpirvBinary &binary) {
  llvm::Expected<Walker> walker = makeWalker(binary);
  if (!walker)
    return walker.takeError();
  return walker->listPhysicalPointees();
}

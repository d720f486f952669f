//===- ScalarLayout.cpp - The scalar at each byte of a buffer block -------===//
//
// A small walk over the module's words of its own: it needs only types,
// constants, names and layout decorations, and must not depend on the
// reflection's readable type strings.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/spirv/ScalarLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <map>
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
  Walker(const SpirvBinary &binary) : binary(binary) {}

  llvm::Error index();
  llvm::Expected<BlockScalarLayout> run(uint32_t variableId);
  llvm::Expected<BlockScalarLayout> runType(uint32_t typeId);
  std::vector<uint32_t> listPhysicalPointees() const;

private:
  llvm::ArrayRef<uint32_t> def(uint32_t id) const {
    auto it = defs.find(id);
    return it == defs.end() ? llvm::ArrayRef<uint32_t>() : it->second;
  }
  std::optional<uint32_t> decoration(uint32_t id, spv::Decoration kind) const {
    auto it = decorations.find({id, kind});
    if (it == decorations.end())
      return std::nullopt;
    return it->second;
  }
  std::optional<uint32_t> memberDecoration(uint32_t id, uint32_t member,
                                           spv::Decoration kind) const {
    auto it = memberDecorations.find({id, member, kind});
    if (it == memberDecorations.end())
      return std::nullopt;
    return it->second;
  }
  std::string memberName(uint32_t structId, uint32_t member) const {
    auto it = memberNames.find({structId, member});
    if (it == memberNames.end() || it->second.empty())
      return "member" + std::to_string(member);
    return it->second;
  }
  MatrixLayout matrixLayout(uint32_t structId, uint32_t member) const {
    MatrixLayout layout;
    layout.stride =
        memberDecoration(structId, member, spv::DecorationMatrixStride)
            .value_or(0);
    layout.rowMajor =
        memberDecoration(structId, member, spv::DecorationRowMajor).has_value();
    return layout;
  }
  /// The value of an integer constant (a spec constant's default).
  std::optional<uint64_t> constantValue(uint32_t id) const;
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
  llvm::DenseMap<uint32_t, llvm::ArrayRef<uint32_t>> defs;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> decorations;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>
      memberDecorations;
  std::map<std::pair<uint32_t, uint32_t>, std::string> memberNames;
  llvm::DenseMap<uint32_t, std::string> names;
};

/// The literal string starting at \p words[0].
std::string literalString(llvm::ArrayRef<uint32_t> words) {
  std::string out;
  for (uint32_t word : words)
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((word >> (8 * byte)) & 0xff);
      if (c == '\0')
        return out;
      out += c;
    }
  return out;
}

/// Result id position of the type and constant instructions we index.
bool definesResultInWord1(spv::Op op) {
  switch (op) {
  case spv::OpTypeBool:
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
  case spv::OpTypeVector:
  case spv::OpTypeMatrix:
  case spv::OpTypeArray:
  case spv::OpTypeRuntimeArray:
  case spv::OpTypeStruct:
  case spv::OpTypePointer:
    return true;
  default:
    return false;
  }
}

} // namespace

llvm::Error Walker::index() {
  llvm::ArrayRef<uint32_t> words = binary.words;
  for (size_t i = 5; i < words.size();) {
    uint32_t length = words[i] >> 16;
    if (length == 0 || i + length > words.size())
      return makeError("error: " + binary.name +
                       ": malformed SPIR-V (instruction at word " +
                       llvm::Twine(i) + " runs past the end)");
    llvm::ArrayRef<uint32_t> inst = words.slice(i, length);
    auto op = static_cast<spv::Op>(inst[0] & 0xffff);
    i += length;
    if (definesResultInWord1(op) && length >= 2) {
      defs[inst[1]] = inst;
    } else if ((op == spv::OpConstant || op == spv::OpSpecConstant ||
                op == spv::OpVariable) &&
               length >= 3) {
      defs[inst[2]] = inst;
    } else if (op == spv::OpName && length >= 3) {
      names[inst[1]] = literalString(inst.drop_front(2));
    } else if (op == spv::OpMemberName && length >= 3) {
      memberNames[{inst[1], inst[2]}] = literalString(inst.drop_front(3));
    } else if (op == spv::OpDecorate && length >= 3) {
      decorations[{inst[1], inst[2]}] = length >= 4 ? inst[3] : 0;
    } else if (op == spv::OpMemberDecorate && length >= 4) {
      memberDecorations[{inst[1], inst[2], inst[3]}] =
          length >= 5 ? inst[4] : 0;
    } else if (op == spv::OpFunction) {
      break; // Types, constants and annotations all come before.
    }
  }
  return llvm::Error::success();
}

std::optional<uint64_t> Walker::constantValue(uint32_t id) const {
  llvm::ArrayRef<uint32_t> inst = def(id);
  if (inst.size() < 4)
    return std::nullopt;
  auto op = static_cast<spv::Op>(inst[0] & 0xffff);
  if (op != spv::OpConstant && op != spv::OpSpecConstant)
    return std::nullopt;
  uint64_t value = inst[3];
  if (inst.size() >= 5)
    value |= uint64_t(inst[4]) << 32;
  return value;
}

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
  auto it = names.find(blockId);
  if (it != names.end())
    layout.typeName = it->second;
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
  if (type.empty() || (type[0] & 0xffff) == spv::OpVariable ||
      (type[0] & 0xffff) == spv::OpConstant ||
      (type[0] & 0xffff) == spv::OpSpecConstant)
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
  auto it = names.find(typeId);
  if (it != names.end())
    layout.typeName = it->second;
  sortByOffset(layout);
  return layout;
}

std::vector<uint32_t> Walker::listPhysicalPointees() const {
  std::vector<uint32_t> pointees;
  for (const auto &[id, inst] : defs)
    if ((inst[0] & 0xffff) == spv::OpTypePointer && inst.size() >= 4 &&
        inst[2] == uint32_t(spv::StorageClassPhysicalStorageBuffer))
      pointees.push_back(inst[3]);
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

llvm::Expected<BlockScalarLayout>
spvb::getBlockScalarLayout(const SpirvBinary &binary, uint32_t variableId) {
  Walker walker(binary);
  if (llvm::Error error = walker.index())
    return error;
  return walker.run(variableId);
}

llvm::Expected<BlockScalarLayout>
spvb::getPointeeScalarLayout(const SpirvBinary &binary, uint32_t typeId) {
  Walker walker(binary);
  if (llvm::Error error = walker.index())
    return error;
  return walker.runType(typeId);
}

llvm::Expected<std::vector<uint32_t>>
spvb::getPhysicalPointeeTypes(const SpirvBinary &binary) {
  Walker walker(binary);
  if (llvm::Error error = walker.index())
    return error;
  return walker.listPhysicalPointees();
}

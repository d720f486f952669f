//===- DebugTypes.cpp - DWARF types of shader variables -------------------===//
//
// Types as a shader developer reads them: GLSL's scalar and vector names,
// vectors as structs of x, y, z, w, matrices as arrays of columns, blocks
// and structs with their member names, all laid out exactly as the
// lowering lays out memory (Layout.h), so a debugger reads the right
// bytes.
//
//===----------------------------------------------------------------------===//
#include "DebugTypes.h"

#include "spvbridge/conversion/Layout.h"

#include "llvm/BinaryFormat/Dwarf.h"

using namespace mlir;

namespace {

class DebugTypeBuilder {
public:
  explicit DebugTypeBuilder(MLIRContext *context) : context(context) {}

  LLVM::DITypeAttr get(Type type, Attribute names, spvb::MatrixLayout matrix);

private:
  LLVM::DITypeAttr getScalar(Type type, bool isUnsigned);
  LLVM::DITypeAttr getVector(VectorType type, bool isUnsigned);
  LLVM::DIDerivedTypeAttr getMember(llvm::StringRef name, LLVM::DITypeAttr type,
                                    uint64_t bytes, uint64_t offset);
  LLVM::DICompositeTypeAttr
  getComposite(unsigned tag, StringAttr name, LLVM::DITypeAttr baseType,
               uint64_t bytes, llvm::ArrayRef<LLVM::DINodeAttr> elements);
  LLVM::DICompositeTypeAttr getArray(LLVM::DITypeAttr element,
                                     uint64_t elementBytes,
                                     std::optional<uint64_t> count,
                                     uint64_t stride);

  MLIRContext *context;
};

} // namespace

static bool isUnsignedName(Attribute names) {
  auto text = dyn_cast_or_null<StringAttr>(names);
  return text && text.getValue() == "u";
}

LLVM::DICompositeTypeAttr
DebugTypeBuilder::getComposite(unsigned tag, StringAttr name,
                               LLVM::DITypeAttr baseType, uint64_t bytes,
                               llvm::ArrayRef<LLVM::DINodeAttr> elements) {
  return LLVM::DICompositeTypeAttr::get(
      context, tag, name, /*file=*/nullptr, /*line=*/0, /*scope=*/nullptr,
      baseType, LLVM::DIFlags::Zero, bytes * 8, /*alignInBits=*/0,
      /*dataLocation=*/nullptr, /*rank=*/nullptr, /*allocated=*/nullptr,
      /*associated=*/nullptr, elements);
}

LLVM::DITypeAttr DebugTypeBuilder::getScalar(Type type, bool isUnsigned) {
  unsigned bits = type.isInteger(1) ? 8 : type.getIntOrFloatBitWidth();
  std::string name;
  unsigned encoding;
  if (type.isInteger(1)) {
    name = "bool";
    encoding = llvm::dwarf::DW_ATE_boolean;
  } else if (isa<FloatType>(type)) {
    name = bits == 32 ? "float" : bits == 64 ? "double" : "float16_t";
    encoding = llvm::dwarf::DW_ATE_float;
  } else {
    name = bits == 32
               ? (isUnsigned ? "uint" : "int")
               : (isUnsigned ? "uint" : "int") + std::to_string(bits) + "_t";
    encoding =
        isUnsigned ? llvm::dwarf::DW_ATE_unsigned : llvm::dwarf::DW_ATE_signed;
  }
  return LLVM::DIBasicTypeAttr::get(context, llvm::dwarf::DW_TAG_base_type,
                                    name, bits, encoding);
}

LLVM::DIDerivedTypeAttr DebugTypeBuilder::getMember(llvm::StringRef name,
                                                    LLVM::DITypeAttr type,
                                                    uint64_t bytes,
                                                    uint64_t offset) {
  return LLVM::DIDerivedTypeAttr::get(
      context, llvm::dwarf::DW_TAG_member, StringAttr::get(context, name), type,
      bytes * 8, /*alignInBits=*/0, offset * 8,
      /*dwarfAddressSpace=*/std::nullopt, /*extraData=*/nullptr);
}

LLVM::DITypeAttr DebugTypeBuilder::getVector(VectorType type, bool isUnsigned) {
  Type element = type.getElementType();
  uint64_t bytes = spvb::getByteSize(element);
  std::string prefix = element.isInteger(1)      ? "b"
                       : element.isF64()         ? "d"
                       : element.isF16()         ? "f16"
                       : isa<FloatType>(element) ? ""
                       : isUnsigned              ? "u"
                                                 : "i";
  if (isa<IntegerType>(element) && !element.isInteger(1) &&
      element.getIntOrFloatBitWidth() != 32)
    prefix += std::to_string(element.getIntOrFloatBitWidth());
  LLVM::DITypeAttr scalar = getScalar(element, isUnsigned);
  SmallVector<LLVM::DINodeAttr> members;
  static const char *const kComponents[] = {"x", "y", "z", "w"};
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    members.push_back(
        getMember(i < 4 ? kComponents[i] : "_" + std::to_string(i), scalar,
                  bytes, i * bytes));
  std::string name = prefix + "vec" + std::to_string(type.getNumElements());
  return getComposite(llvm::dwarf::DW_TAG_structure_type,
                      StringAttr::get(context, name), nullptr,
                      bytes * type.getNumElements(), members);
}

LLVM::DICompositeTypeAttr
DebugTypeBuilder::getArray(LLVM::DITypeAttr element, uint64_t elementBytes,
                           std::optional<uint64_t> count, uint64_t stride) {
  IntegerAttr countAttr;
  if (count)
    countAttr = IntegerAttr::get(IntegerType::get(context, 64), *count);
  // Explicit layouts may pad elements (std140): the stride is then given.
  IntegerAttr strideAttr;
  if (stride != elementBytes)
    strideAttr = IntegerAttr::get(IntegerType::get(context, 64), stride * 8);
  auto subrange = LLVM::DISubrangeAttr::get(context, countAttr,
                                            /*lowerBound=*/nullptr,
                                            /*upperBound=*/nullptr, strideAttr);
  return getComposite(llvm::dwarf::DW_TAG_array_type, nullptr, element,
                      count ? stride * *count : 0, {subrange});
}

LLVM::DITypeAttr DebugTypeBuilder::get(Type type, Attribute names,
                                       spvb::MatrixLayout matrix) {
  bool isUnsigned = isUnsignedName(names);
  if (type.isIntOrFloat())
    return getScalar(type, isUnsigned);
  if (auto vector = dyn_cast<VectorType>(type))
    return getVector(vector, isUnsigned);
  auto tree = dyn_cast_or_null<ArrayAttr>(names);
  Attribute elementNames = tree && tree.size() == 1 ? tree[0] : Attribute();
  if (auto array = dyn_cast<spirv::ArrayType>(type))
    return getArray(get(array.getElementType(), elementNames, matrix),
                    spvb::getByteSize(array.getElementType(), matrix),
                    array.getNumElements(), spvb::getArrayStride(array));
  if (auto array = dyn_cast<spirv::RuntimeArrayType>(type))
    return getArray(get(array.getElementType(), elementNames, matrix),
                    spvb::getByteSize(array.getElementType(), matrix),
                    std::nullopt, spvb::getArrayStride(array));
  if (auto mat = dyn_cast<spirv::MatrixType>(type)) {
    // Columns, as GLSL indexes them (m[column][row]); row-major storage
    // has no such array: its rows are shown instead.
    auto column = cast<VectorType>(mat.getColumnType());
    uint64_t stride = spvb::getMatrixStride(mat, matrix);
    if (matrix.rowMajor) {
      auto row = VectorType::get({int64_t(mat.getNumColumns())},
                                 column.getElementType());
      return getArray(getVector(row, false), spvb::getByteSize(row),
                      column.getNumElements(), stride);
    }
    return getArray(getVector(column, false), spvb::getByteSize(column),
                    mat.getNumColumns(), stride);
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    StringAttr name;
    ArrayAttr memberNames, memberTrees;
    if (tree && tree.size() == 3) {
      name = dyn_cast<StringAttr>(tree[0]);
      memberNames = dyn_cast<ArrayAttr>(tree[1]);
      memberTrees = dyn_cast<ArrayAttr>(tree[2]);
    }
    SmallVector<LLVM::DINodeAttr> members;
    for (unsigned i = 0; i < structType.getNumElements(); ++i) {
      std::string memberName = "_" + std::to_string(i);
      if (memberNames && i < memberNames.size())
        if (auto text = dyn_cast<StringAttr>(memberNames[i]))
          memberName = text.str();
      Attribute memberTree =
          memberTrees && i < memberTrees.size() ? memberTrees[i] : Attribute();
      spvb::MatrixLayout memberMatrix =
          spvb::getMemberMatrixLayout(structType, i);
      Type memberType = structType.getElementType(i);
      members.push_back(getMember(memberName,
                                  get(memberType, memberTree, memberMatrix),
                                  spvb::getByteSize(memberType, memberMatrix),
                                  spvb::getMemberOffset(structType, i)));
    }
    return getComposite(llvm::dwarf::DW_TAG_structure_type,
                        name && !name.getValue().empty() ? name : StringAttr(),
                        nullptr, spvb::getByteSize(structType), members);
  }
  // Pointers (buffer references) and opaque handles: their address bits.
  return LLVM::DIBasicTypeAttr::get(context, llvm::dwarf::DW_TAG_base_type,
                                    "uint64_t", 64,
                                    llvm::dwarf::DW_ATE_unsigned);
}

LLVM::DITypeAttr spvb::getDebugType(Type type, Attribute names) {
  return DebugTypeBuilder(type.getContext()).get(type, names, {});
}

//===- ScalarLayout.h - The scalar at each byte of a buffer block -*- C++ -*-=//
//
// For a buffer variable, every scalar its block holds: byte offset, type and
// a readable path ("s.p[2]", "m[1][0]", "items[7].w"). The block is a static
// part plus, optionally, a trailing runtime array whose element repeats every
// ArrayStride bytes; both come from the Offset, ArrayStride, MatrixStride and
// RowMajor decorations, the same rules as Reflection.h's block layout.
//
// Vectors are indexed like arrays (v[1]); matrices as in GLSL, column first
// (m[column][row]), whatever their majorness. Members without an OpMemberName
// are "memberN". Bytes no scalar covers (padding) belong to no field.
// PhysicalStorageBuffer pointers are no scalar fields (their values are
// addresses, different in every run) but are listed on their own with the
// type they point to, whose layout getPointeeScalarLayout gives, so that a
// tool can make a buffer for each and write its address there.
//
// Used to compare buffers element by element (spv-run --compare) and to name
// the element at a byte offset.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_SCALARLAYOUT_H
#define SPVBRIDGE_SPIRV_SCALARLAYOUT_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spvb {

enum class ScalarKind { Bool, Signed, Unsigned, Float };

/// One scalar of a block.
struct ScalarField {
  /// Bytes from the start of the block (static part) or of the runtime
  /// array's element.
  uint64_t offset = 0;
  ScalarKind kind = ScalarKind::Unsigned;
  /// 1, 2, 4 or 8 (a bool is 4 bytes, as VkBool32).
  uint32_t size = 4;
  /// Static part: the whole path ("s.p[2]"). Runtime element: the part after
  /// the element's index ("", ".w", "[1]").
  std::string path;

  /// "bool", "i8".."i64", "u8".."u64", "f16", "f32", "f64".
  std::string getTypeName() const;
};

/// A PhysicalStorageBuffer pointer (8 bytes) in a block.
struct PointerField {
  /// As ScalarField::offset.
  uint64_t offset = 0;
  /// As ScalarField::path.
  std::string path;
  /// The pointer type's pointee type (the OpTypePointer's last operand).
  uint32_t pointeeTypeId = 0;
  /// ArrayStride of the pointer type (the step of OpPtrAccessChain's
  /// Element operand); 0 when it has none.
  uint64_t arrayStride = 0;
};

/// One scalar of a bound buffer, as forEachScalar reports it.
struct BufferScalar {
  /// Position among the buffer's scalars in offset order (static part
  /// first, then element by element).
  uint64_t index = 0;
  /// Bytes from the start of the buffer.
  uint64_t offset = 0;
  const ScalarField *field = nullptr;
  /// The whole path ("items[7].w").
  std::string path;
};

struct BlockScalarLayout {
  /// The static part, sorted by offset.
  std::vector<ScalarField> fields;
  /// Path of the trailing runtime array member ("items"); empty if none.
  std::string runtimeArrayPath;
  uint64_t runtimeArrayOffset = 0;
  /// ArrayStride of the runtime array; 0 when there is none.
  uint64_t runtimeArrayStride = 0;
  /// The scalars of one runtime array element, sorted by offset.
  std::vector<ScalarField> elementFields;
  /// Bytes of the static part: the end of the last member that is not the
  /// runtime array (no tail padding), as ResourceInfo::staticSize.
  uint64_t staticSize = 0;
  /// The PhysicalStorageBuffer pointers of the static part and of one
  /// runtime array element, sorted by offset.
  std::vector<PointerField> pointers;
  std::vector<PointerField> elementPointers;
  /// OpName of the block or pointee type; empty when it has none.
  std::string typeName;

  /// Calls \p callback for every scalar that lies wholly inside a buffer of
  /// \p bufferSize bytes, in offset order.
  void
  forEachScalar(uint64_t bufferSize,
                llvm::function_ref<void(const BufferScalar &)> callback) const;
};

/// The scalar layout of the block that the OpVariable \p variableId points
/// to (a descriptor array's element block for arrays of buffers). Array
/// lengths must be constants (specialize the module first). Errors:
///   error: FILE: id N is not a variable of a block type
///   error: FILE: the length of array type %N is not a constant
///   error: FILE: malformed SPIR-V (instruction at word W runs past the end)
llvm::Expected<BlockScalarLayout>
getBlockScalarLayout(const SpirvBinary &binary, uint32_t variableId);

/// The layout of what a PhysicalStorageBuffer pointer to type \p typeId
/// points at: a struct as a block (with its trailing runtime array), a
/// runtime array as a runtime array at offset 0 (path ""), anything else as
/// its scalars from offset 0 (path "" for a scalar, "[i]" for vectors and
/// arrays). Errors:
///   error: FILE: id N is not a type
///   and those of getBlockScalarLayout.
llvm::Expected<BlockScalarLayout>
getPointeeScalarLayout(const SpirvBinary &binary, uint32_t typeId);

/// The pointee types of every PhysicalStorageBuffer pointer type the module
/// declares (what OpConvertUToPtr and OpBitcast can make of an integer too),
/// each once, by id. Errors are getBlockScalarLayout's malformed-module one.
llvm::Expected<std::vector<uint32_t>>
getPhysicalPointeeTypes(const SpirvBinary &binary);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_SCALARLAYOUT_H

//===- Reflection.h - What a dispatch needs to know about a module -*- C++ -*-//
//
// One pass over a SPIR-V binary that gathers every fact the runtime, the
// conversion and the tools need: entry points and workgroup sizes, the
// resources and the binding table order, block layouts, push constants,
// specialization constants, Workgroup/Private storage sizes, capabilities and
// a few "does it use X" flags.
//
// Binding table order (the kernel ABI's spvb_dispatch::bindings):
//   every descriptor-bound variable of the module (all resources except push
//   constants, whether or not an entry point uses them) sorted by
//   (descriptor set, binding, variable id). Each distinct (set, binding) gets
//   the next slot; a descriptor array of N elements takes N consecutive slots
//   (element i at slot + i; a runtime-sized array takes one, which points at
//   the array's own table: kernel_abi.h). Variables that alias one (set,
//   binding) share its slot. ResourceInfo::slot is the first slot and
//   ModuleReflection::bindingTableSize the number of slots.
//
// Natural layout (Workgroup and Private storage, which carry no Offset
// decorations):
//   - bool: size 1, alignment 1; an N-bit int or float: size = alignment =
//     N/8; a pointer: 8 and 8;
//   - vectors of n components: size n * component size, alignment = the
//     component's (a vec3<f32> is 12 bytes aligned to 4);
//   - matrices: an array of their column vectors;
//   - arrays: stride = element size rounded up to the element alignment,
//     size = length * stride, alignment = the element's;
//   - structs: as C: each member at the next offset aligned to the member's
//     alignment, size rounded up to the largest member alignment;
//   - variables are placed in declaration (OpVariable) order, each at the next
//     offset aligned to its own alignment; the storage size is the end of the
//     last one (no tail padding).
//
// Block layout (buffers and push constants): offsets come only from the
// Offset, ArrayStride and MatrixStride decorations. A member's size is
// component size * components for scalars and vectors, length * ArrayStride
// for arrays, columns (or rows if RowMajor) * MatrixStride for matrices, and
// for structs the largest member offset + that member's size. A block's
// staticSize is the largest member offset + member size, so it has no tail
// padding, and a trailing runtime array contributes 0.
//
// Readable type strings:
//   bool, i8 u8 i16 u16 i32 u32 i64 u64, f16 f32 f64, vec3<f32>,
//   mat4x3<f32> (4 columns of 3 rows), in blocks mat4x3<f32,stride=16> and
//   mat4x3<f32,stride=16,row_major>, array<f32,4,stride=16>, runtime arrays
//   array<f32,stride=4> (without ",stride=" outside blocks), structs by their
//   OpName (or "struct.ID"), ptr<StorageBuffer,f32>, image, sampler,
//   sampled_image, accel_struct.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_REFLECTION_H
#define SPVBRIDGE_SPIRV_REFLECTION_H

#include "spvbridge/spirv/ShaderSource.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <spirv/unified1/spirv.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb {

/// How a resource variable is bound. Only buffers and push constants are
/// supported by the runtime; the rest are listed so tools can name them.
enum class ResourceKind {
  StorageBuffer,         ///< StorageBuffer class, or Uniform + BufferBlock.
  UniformBuffer,         ///< Uniform class + Block.
  PushConstant,          ///< PushConstant class; never in the binding table.
  StorageImage,          ///< OpTypeImage with Sampled = 2.
  SampledImage,          ///< OpTypeImage with Sampled = 1 (separate image).
  CombinedImageSampler,  ///< OpTypeSampledImage.
  Sampler,               ///< OpTypeSampler.
  UniformTexelBuffer,    ///< Dim Buffer image with Sampled = 1.
  StorageTexelBuffer,    ///< Dim Buffer image with Sampled = 2.
  InputAttachment,       ///< Dim SubpassData image.
  AccelerationStructure, ///< OpTypeAccelerationStructureKHR.
};

/// "storage-buffer", "uniform-buffer", "push-constant", ...
llvm::StringRef getResourceKindName(ResourceKind kind);

/// The OpTypeImage of an image, texel buffer or combined image sampler.
struct ImageInfo {
  spv::Dim dim = spv::Dim2D;
  bool depth = false;
  bool arrayed = false;
  bool multisampled = false;
  /// 1 sampled, 2 storage (OpTypeImage's Sampled operand).
  uint32_t sampled = 1;
  spv::ImageFormat format = spv::ImageFormatUnknown;
  /// The Sampled Type: 'f' float, 'i' signed or 'u' unsigned integer.
  char componentKind = 'f';
  uint32_t componentBits = 32;
};

/// One top-level member of a buffer or push-constant block.
struct BlockMember {
  std::string name;    ///< OpMemberName, or "" when there is none.
  uint32_t offset = 0; ///< The Offset decoration, bytes from the block start.
  uint64_t size = 0;   ///< Bytes covered (block layout rule); 0 for a
                       ///< runtime array.
  std::string type;    ///< Readable type, e.g. "vec3<f32>".
};

/// A variable bound through a descriptor, or the push-constant block.
struct ResourceInfo {
  /// Result id of the OpVariable.
  uint32_t variableId = 0;
  /// OpName of the variable; glslang names anonymous blocks "" (then use
  /// blockTypeName).
  std::string name;
  ResourceKind kind = ResourceKind::StorageBuffer;
  /// DescriptorSet and Binding decorations (0 for push constants).
  uint32_t set = 0;
  uint32_t binding = 0;
  /// Descriptor array length; 1 for a single descriptor, 0 for a
  /// runtime-sized descriptor array.
  uint32_t arraySize = 1;
  /// First binding table slot (see the file comment); NoSlot for push
  /// constants.
  static constexpr uint32_t NoSlot = ~0u;
  uint32_t slot = NoSlot;
  /// Readable type of one descriptor (the block struct's name for buffers).
  std::string type;

  // Buffers and push constants only.
  /// OpName of the block's struct type.
  std::string blockTypeName;
  /// Bytes up to the end of the last fixed-size member.
  uint64_t staticSize = 0;
  /// ArrayStride of a trailing runtime array member, 0 if there is none. The
  /// bound buffer holds (size - runtimeArrayOffset) / stride elements.
  uint64_t runtimeArrayStride = 0;
  /// Offset of that runtime array member.
  uint64_t runtimeArrayOffset = 0;
  std::vector<BlockMember> members;
  /// NonWritable / NonReadable on the variable or on every member.
  bool nonWritable = false;
  bool nonReadable = false;
  /// For images, texel buffers and combined image samplers.
  std::optional<ImageInfo> image;
};

/// How an entry point's workgroup size was given.
enum class WorkgroupSizeSource {
  None,                 ///< Not a compute-like entry point, or no size given.
  LocalSize,            ///< OpExecutionMode LocalSize.
  LocalSizeId,          ///< OpExecutionModeId LocalSizeId.
  WorkgroupSizeBuiltin, ///< A constant decorated BuiltIn WorkgroupSize; it
                        ///< overrides the execution mode.
};

struct EntryPointInfo {
  std::string name;
  uint32_t functionId = 0;
  spv::ExecutionModel executionModel = spv::ExecutionModelGLCompute;
  /// The graphics stage, or none for Kernel, task/mesh and ray tracing.
  std::optional<ShaderStage> stage;
  /// The OpEntryPoint interface list (all globals used, from SPIR-V 1.4).
  std::vector<uint32_t> interfaceIds;
  /// Workgroup size. Spec constants that decide it take their default value
  /// unless the module was specialized first. {1, 1, 1} when none is given.
  std::array<uint32_t, 3> workgroupSize = {1, 1, 1};
  WorkgroupSizeSource workgroupSizeSource = WorkgroupSizeSource::None;
  /// For each dimension given directly by an OpSpecConstant, its SpecId, so a
  /// tool can tell which --spec changes it.
  std::array<std::optional<uint32_t>, 3> workgroupSizeSpecIds;
  /// Fragment shaders: OpExecutionMode EarlyFragmentTests (depth and
  /// stencil tests before the shader runs).
  bool earlyFragmentTests = false;
  /// Geometry shaders' execution modes: the input primitive's vertex count
  /// (InputPoints 1, InputLines 2, InputLinesAdjacency 4, Triangles 3,
  /// InputTrianglesAdjacency 6), the output (ExecutionModeOutputPoints,
  /// OutputLineStrip or OutputTriangleStrip), OutputVertices and
  /// Invocations.
  struct GeometryModes {
    uint32_t inputVertices = 0;
    uint32_t output = 0;
    uint32_t maxVertices = 0;
    uint32_t invocations = 1;
  } geometry;
  /// Tessellation shaders' execution modes (either stage may declare
  /// them; a pipeline takes both): the domain (ExecutionModeTriangles,
  /// Quads or Isolines), the spacing (ExecutionModeSpacingEqual,
  /// SpacingFractionalEven or SpacingFractionalOdd), the vertex order
  /// (ExecutionModeVertexOrderCw or VertexOrderCcw), PointMode, and
  /// OutputVertices (the control shader's invocations per patch); 0 where
  /// not declared.
  struct TessellationModes {
    uint32_t domain = 0;
    uint32_t spacing = 0;
    uint32_t vertexOrder = 0;
    bool pointMode = false;
    uint32_t outputVertices = 0;
  } tessellation;
};

struct SpecConstantInfo {
  uint32_t specId = 0;
  /// Result id of the OpSpecConstant / OpSpecConstantTrue / False.
  uint32_t resultId = 0;
  /// OpName of the constant, or "".
  std::string name;
  /// bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32 or f64 (the names
  /// --spec takes).
  std::string type;
  /// The default as SPIR-V literal words (low word first; bool: 0 or 1).
  std::vector<uint32_t> defaultWords;
};

/// A Workgroup or Private variable placed by the natural layout rule.
struct StorageVariable {
  uint32_t variableId = 0;
  std::string name;
  std::string type;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t alignment = 1;
  /// The OpVariable has an initializer the runtime must copy in.
  bool hasInitializer = false;
};

struct StorageLayout {
  /// Bytes needed for all variables (end of the last one).
  uint64_t size = 0;
  /// Largest variable alignment (the base must be at least this aligned).
  uint64_t alignment = 1;
  std::vector<StorageVariable> variables;
};

struct ModuleReflection {
  /// SpirvBinary::name, for messages.
  std::string sourceName;
  /// Header: version word (0x00010500 is 1.5), generator and id bound.
  uint32_t spirvVersion = 0;
  uint32_t generator = 0;
  uint32_t idBound = 0;
  spv::AddressingModel addressingModel = spv::AddressingModelLogical;
  spv::MemoryModel memoryModel = spv::MemoryModelGLSL450;

  std::vector<spv::Capability> capabilities;
  /// Names of capabilities, parallel to capabilities ("Shader", ...).
  std::vector<std::string> capabilityNames;
  /// OpExtension strings.
  std::vector<std::string> extensions;
  /// OpExtInstImport set names ("GLSL.std.450", "NonSemantic.DebugPrintf").
  std::vector<std::string> extInstImports;

  std::vector<EntryPointInfo> entryPoints;

  /// Descriptor-bound resources in binding table order (see file comment).
  std::vector<ResourceInfo> resources;
  /// Number of binding table slots.
  uint32_t bindingTableSize = 0;

  /// The push-constant block. A module may declare one per entry point; this
  /// is the largest.
  std::optional<ResourceInfo> pushConstants;
  /// pushConstants->staticSize, or 0.
  uint64_t pushConstantSize = 0;

  /// Spec constants with a SpecId, sorted by SpecId.
  std::vector<SpecConstantInfo> specConstants;

  StorageLayout workgroupStorage;
  StorageLayout privateStorage;

  bool usesBarriers = false;    ///< Any OpControlBarrier.
  bool usesAtomics = false;     ///< Any OpAtomic*.
  bool usesSubgroupOps = false; ///< Any OpGroupNonUniform* / OpSubgroup*KHR
                                ///< or subgroup builtin variable.

  const EntryPointInfo *findEntryPoint(llvm::StringRef name) const;
  /// As findEntryPoint, with "error: FILE: no entry point named 'X'
  /// (available: main, ...)".
  llvm::Expected<const EntryPointInfo *>
  getEntryPoint(llvm::StringRef name) const;
  const ResourceInfo *findResource(uint32_t set, uint32_t binding) const;
  const SpecConstantInfo *findSpecConstant(uint32_t specId) const;
};

/// Reflects a module. Fails on a malformed binary or a workgroup size that
/// depends on something other than constants.
llvm::Expected<ModuleReflection> reflectModule(const SpirvBinary &binary);

/// Only the specialization constants; cheaper than reflectModule and works
/// on modules whose workgroup size cannot be resolved yet.
llvm::Expected<std::vector<SpecConstantInfo>>
listSpecConstants(const SpirvBinary &binary);

/// The stages spvbridge compiles, by the name messages give them
/// ("compute", "vertex", "tessellation control", "tessellation
/// evaluation", "geometry", "fragment"); empty for any other model.
llvm::StringRef getCompiledStageName(uint32_t executionModel);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_REFLECTION_H

//===- AmberScript.h - The model of an Amber script -------------*- C++ -*-===//
//
// What an AmberScript or VkScript file says, as data for an executor:
// shaders, buffers and images with their element types and initial values,
// samplers, pipelines with their attachments and bindings, and the commands
// to run in order. Both formats produce this one model (ScriptParser.h); a
// VkScript file becomes one pipeline with generated names (VkScriptParser.h
// says which).
//
// Names refer to objects: commands and bindings name the buffers,
// samplers, pipelines and shaders they use, and the parser has checked that
// every name resolves (Script::findBuffer and friends).
//
// Graphics (vertex and fragment stages, draws, colour probes of a
// framebuffer, pipeline state) is recorded, not modelled in full: an
// executor that only runs compute can tell from Pipeline::kind and the
// command kinds what it must skip, and say why.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_AMBERSCRIPT_H
#define SPVBRIDGE_TOOLS_AMBER_AMBERSCRIPT_H

#include "spvbridge/amber/AmberLayout.h"
#include "spvbridge/amber/AmberType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spvb::amber {

enum class ScriptFormat : uint8_t { AmberScript, VkScript };

enum class ShaderStage : uint8_t {
  Vertex,
  TessellationControl,
  TessellationEvaluation,
  Geometry,
  Fragment,
  Compute,
  /// A SPIR-V module with several entry points; ATTACH ... TYPE picks one.
  Multi,
  RayGeneration,
  AnyHit,
  ClosestHit,
  Miss,
  Intersection,
  Callable,
};

/// The AmberScript name of \p stage ("compute", "tessellation_control", ...).
llvm::StringRef stageName(ShaderStage stage);

enum class ShaderFormat : uint8_t {
  Glsl,
  Hlsl,
  SpirvAsm,
  SpirvHex,
  SpirvBin,
  OpenClC,
};

/// The AmberScript name of \p format ("GLSL", "SPIRV-ASM", ...).
llvm::StringRef shaderFormatName(ShaderFormat format);

/// `SHADER stage name FORMAT ...` or a VkScript shader section.
struct Shader {
  std::string name;
  ShaderStage stage = ShaderStage::Compute;
  ShaderFormat format = ShaderFormat::Glsl;
  /// `SHADER vertex name PASSTHROUGH` (VkScript `[vertex shader
  /// passthrough]`): Amber's built-in vertex shader passing location 0 to
  /// gl_Position; source is empty.
  bool passthrough = false;
  /// The source: inline text (without the END line), a FILE's contents (the
  /// bytes of a SPIRV-BIN file), or a VIRTUAL_FILE's text.
  std::string source;
  /// FILE: the path as written, and resolved against the script's folder.
  std::string filePath;
  std::string resolvedPath;
  /// VIRTUAL_FILE: the virtual file's name (its text is in source).
  std::string virtualFile;
  /// TARGET_ENV (e.g. "spv1.4", "vulkan1.1"); empty: the default.
  std::string targetEnv;
  unsigned line = 0;
};

/// `VIRTUAL_FILE "name" ... END`: a file shaders may #include or name.
struct VirtualFile {
  std::string name;
  std::string contents;
  unsigned line = 0;
};

enum class ImageDimension : uint8_t { None, Dim1D, Dim2D, Dim3D };

/// Where a buffer's first contents come from.
enum class InitKind : uint8_t {
  /// Zeros (a FORMAT buffer sized by its pipeline, `SIZE n` alone, VkScript
  /// buffers whose contents come from write commands).
  None,
  /// `DATA ... END` or `FILE TEXT`: Buffer::values.
  Values,
  /// `FILL v`: every number of every element is Buffer::fill.
  Fill,
  /// `SERIES_FROM a INC_BY b`: element i is a + i * b (accumulated the way
  /// Amber does: in double for floats, wrapping uint64 for integers).
  Series,
  /// `FILE BINARY`: Buffer::bytes, as they are.
  Bytes,
  /// `FILE PNG`: the image file at Buffer::resolvedPath, for the executor
  /// to decode.
  Png,
};

/// `BUFFER`, `IMAGE`, or a buffer VkScript implies.
struct Buffer {
  std::string name;
  /// The element type: DATA_TYPE's type, or FORMAT's format type.
  Type type;
  /// STD140/STD430 (AmberScript's default is std430).
  Layout layout = Layout::Std430;
  /// Declared with FORMAT rather than DATA_TYPE (an image or attachment
  /// format; such a buffer without SIZE/DATA is sized by its use).
  bool declaredWithFormat = false;
  /// Elements: SIZE, DATA's value count / valuesPerElement (rounded up),
  /// WIDTH x HEIGHT x DEPTH (mip level 0), a FILE's contents, VkScript's
  /// `ssbo B size`, or 0 when unknown (a FORMAT buffer its pipeline sizes).
  uint64_t elementCount = 0;
  /// At least this many bytes (VkScript: the largest write; 0 otherwise).
  /// byteSize() is what to allocate.
  uint64_t minSizeInBytes = 0;

  InitKind init = InitKind::None;
  /// InitKind::Values: the numbers in order, each of its slot's type (see
  /// scalarSlots).
  std::vector<Value> values;
  /// InitKind::Fill: the value for every number, as written (a struct may
  /// mix types: convertValue it to each slot's); InitKind::Series: the
  /// first value and the increment, of the (scalar) element type.
  Value fill;
  Value seriesStart;
  Value seriesIncrement;
  /// InitKind::Bytes.
  std::vector<uint8_t> bytes;
  /// FILE: the path as written and resolved against the script's folder.
  std::string filePath;
  std::string resolvedPath;

  /// IMAGE (and BUFFER ... WIDTH/HEIGHT): the extent.
  ImageDimension dimension = ImageDimension::None;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t depth = 0;
  uint32_t mipLevels = 1;
  uint32_t samples = 1;

  unsigned line = 0;

  /// elementStride(type, layout).
  uint64_t stride() const { return elementStride(type, layout); }
  /// The bytes to allocate: the larger of the elements, the initial data
  /// and minSizeInBytes.
  uint64_t byteSize() const;
  /// The initial numbers, FILL and SERIES_FROM expanded (empty for the
  /// kinds without numbers).
  std::vector<Value> expandValues() const;
  /// The initial bytes, byteSize() long: values packed by type and layout,
  /// raw FILE BINARY bytes, zeros otherwise (PNG: the executor decodes).
  std::vector<uint8_t> initialBytes() const;
};

enum class Filter : uint8_t { Nearest, Linear };
enum class AddressMode : uint8_t {
  Repeat,
  MirroredRepeat,
  ClampToEdge,
  ClampToBorder,
  MirrorClampToEdge,
};
enum class BorderColor : uint8_t {
  FloatTransparentBlack,
  IntTransparentBlack,
  FloatOpaqueBlack,
  IntOpaqueBlack,
  FloatOpaqueWhite,
  IntOpaqueWhite,
};
enum class CompareOp : uint8_t {
  Never,
  Less,
  Equal,
  LessOrEqual,
  Greater,
  NotEqual,
  GreaterOrEqual,
  Always,
};

/// `SAMPLER name ...`, with Amber's defaults.
struct Sampler {
  std::string name;
  Filter magFilter = Filter::Nearest;
  Filter minFilter = Filter::Nearest;
  Filter mipmapMode = Filter::Nearest;
  AddressMode addressU = AddressMode::Repeat;
  AddressMode addressV = AddressMode::Repeat;
  AddressMode addressW = AddressMode::Repeat;
  BorderColor borderColor = BorderColor::FloatTransparentBlack;
  float minLod = 0.0f;
  float maxLod = 1.0f;
  bool normalizedCoords = true;
  bool compareEnable = false;
  CompareOp compareOp = CompareOp::Never;
  unsigned line = 0;
};

/// `SPECIALIZE id AS type value`: a 32-bit scalar (int32, uint32, float).
struct Specialization {
  uint32_t id = 0;
  ScalarType scalar;
  Value value;
};

/// `SUBGROUP shader ... END` (VK_EXT_subgroup_size_control).
struct SubgroupControl {
  bool fullyPopulated = false;
  bool varyingSize = false;
  /// REQUIRED_SIZE: a power of two, or 0 when not given.
  uint32_t requiredSize = 0;
  /// REQUIRED_SIZE MIN / MAX: the device's minimum or maximum size.
  bool requiredSizeMin = false;
  bool requiredSizeMax = false;
};

/// `ATTACH shader ...` with what the pipeline body says about the shader.
struct ShaderAttachment {
  std::string shader;
  /// The shader's stage, or TYPE's for a multi shader.
  ShaderStage stage = ShaderStage::Compute;
  std::string entryPoint = "main";
  std::vector<Specialization> specializations;
  /// SHADER_OPTIMIZATION: spirv-opt pass names (e.g. "--inline-...").
  std::vector<std::string> optimizations;
  /// COMPILE_OPTIONS (OpenCL C).
  std::vector<std::string> compileOptions;
  std::optional<SubgroupControl> subgroup;
  unsigned line = 0;
};

/// The `AS` kinds of BIND that make a descriptor.
enum class DescriptorKind : uint8_t {
  UniformBuffer,
  StorageBuffer,
  UniformBufferDynamic,
  StorageBufferDynamic,
  StorageImage,
  SampledImage,
  CombinedImageSampler,
  UniformTexelBuffer,
  StorageTexelBuffer,
  /// BIND SAMPLER / SAMPLER_ARRAY.
  Sampler,
};

/// The AmberScript name of \p kind ("storage", "uniform_dynamic", ...;
/// "sampler" for Sampler).
llvm::StringRef descriptorKindName(DescriptorKind kind);

/// A descriptor (or descriptor array: BUFFER_ARRAY / SAMPLER_ARRAY) at a
/// set and binding. A later BIND to the same set and binding replaces it
/// (that is how DERIVE_PIPELINE rebinds).
struct DescriptorBinding {
  DescriptorKind kind = DescriptorKind::StorageBuffer;
  uint32_t set = 0;
  uint32_t binding = 0;
  /// The buffers, one per array element (empty for Sampler).
  std::vector<std::string> buffers;
  /// Sampler: one per array element; CombinedImageSampler: the SAMPLER,
  /// shared by every element.
  std::vector<std::string> samplers;
  /// Dynamic buffers: OFFSET, one per element.
  std::vector<uint32_t> dynamicOffsets;
  /// DESCRIPTOR_OFFSET and DESCRIPTOR_RANGE, one per element (defaults 0
  /// and kWholeSize).
  std::vector<uint64_t> descriptorOffsets;
  std::vector<uint64_t> descriptorRanges;
  /// Images: BASE_MIP_LEVEL.
  uint32_t baseMipLevel = 0;
  unsigned line = 0;

  static constexpr uint64_t kWholeSize = ~uint64_t(0);
};

/// `BIND BUFFER|SAMPLER name [AS kind] KERNEL ARG_NAME n | ARG_NUMBER n`:
/// an OpenCL kernel argument (the descriptor comes from clspv's map).
struct KernelArgBinding {
  std::string buffer;
  std::string sampler;
  std::optional<DescriptorKind> kind;
  std::string argName;
  std::optional<uint32_t> argNumber;
  unsigned line = 0;
};

/// `SET KERNEL ARG_NAME n | ARG_NUMBER n AS type value`: a plain-old-data
/// OpenCL argument.
struct KernelArgValue {
  std::string argName;
  std::optional<uint32_t> argNumber;
  ScalarType scalar;
  Value value;
  unsigned line = 0;
};

/// `BIND BUFFER name AS color LOCATION n [BASE_MIP_LEVEL m]`.
struct ColorAttachment {
  std::string buffer;
  uint32_t location = 0;
  uint32_t baseMipLevel = 0;
};

/// `VERTEX_DATA buffer LOCATION n [RATE vertex|instance] [FORMAT f]
/// [OFFSET o] [STRIDE s]`.
struct VertexBinding {
  std::string buffer;
  uint32_t location = 0;
  bool instanceRate = false;
  std::string format;
  uint32_t offset = 0;
  std::optional<uint32_t> stride;
};

/// A graphics pipeline setting recorded as written (DEPTH, STENCIL and
/// BLEND blocks' lines, VIEWPORT, POLYGON_MODE, PATCH_CONTROL_POINTS, ...).
struct GraphicsSetting {
  std::string text;
  unsigned line = 0;
};

enum class PipelineKind : uint8_t { Compute, Graphics };

/// `PIPELINE kind name ... END`, `DERIVE_PIPELINE name FROM parent ... END`
/// (a copy of the parent changed by the body), or VkScript's pipeline.
struct Pipeline {
  std::string name;
  PipelineKind kind = PipelineKind::Compute;
  /// DERIVE_PIPELINE's parent.
  std::string derivedFrom;
  std::vector<ShaderAttachment> shaders;
  std::vector<DescriptorBinding> bindings;
  /// `BIND BUFFER name AS push_constant`.
  std::string pushConstantBuffer;
  std::vector<KernelArgBinding> kernelArgs;
  std::vector<KernelArgValue> kernelArgValues;

  // Graphics only.
  uint32_t framebufferWidth = 250;
  uint32_t framebufferHeight = 250;
  std::vector<ColorAttachment> colorAttachments;
  std::string depthStencilBuffer;
  std::vector<std::string> resolveTargets;
  std::vector<VertexBinding> vertexData;
  std::string indexBuffer;
  std::vector<GraphicsSetting> graphicsSettings;

  unsigned line = 0;

  bool isCompute() const { return kind == PipelineKind::Compute; }
  const ShaderAttachment *findAttachment(llvm::StringRef shader) const;
  const DescriptorBinding *findBinding(uint32_t set, uint32_t binding) const;
};

/// A tolerance of EXPECT ... TOLERANCE or VkScript's `tolerance`: an
/// absolute difference, or a percentage of the expected value.
struct Tolerance {
  double value = 0;
  bool percent = false;

  bool operator==(const Tolerance &other) const {
    return value == other.value && percent == other.percent;
  }
};

/// The comparisons of EXPECT and `probe ssbo`.
enum class Comparator : uint8_t {
  Equal,
  NotEqual,
  Less,
  LessOrEqual,
  Greater,
  GreaterOrEqual,
  /// EXPECT ... TOLERANCE ... EQ, VkScript's `~=`: equal within the
  /// tolerances.
  FuzzyEqual,
};

/// A step of the script. Kinds with graphics in their comment are what a
/// compute-only executor skips.
class Command {
public:
  enum class Kind : uint8_t {
    Run,
    Draw,
    Expect,
    ExpectRect,
    CompareBuffers,
    Copy,
    BufferWrite,
    Clear,
    EntryPoint,
    GraphicsState,
    Repeat,
    Debug,
  };

  virtual ~Command();

  Kind getKind() const { return kind; }
  /// The script line the command starts on (EXPECT failures print it).
  unsigned line = 0;

protected:
  explicit Command(Kind kind) : kind(kind) {}

private:
  Kind kind;
};

/// `RUN [TIMED_EXECUTION] pipeline x y z` and VkScript's `compute x y z`: a
/// compute dispatch of x * y * z workgroups.
struct RunCommand : Command {
  RunCommand() : Command(Kind::Run) {}
  std::string pipeline;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  bool timed = false;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Run;
  }
};

/// Graphics: RUN ... DRAW_RECT / DRAW_GRID / DRAW_ARRAY and VkScript's
/// `draw rect` / `draw arrays`.
struct DrawCommand : Command {
  enum class DrawKind : uint8_t { Rect, Grid, Array };
  DrawCommand() : Command(Kind::Draw) {}
  std::string pipeline;
  DrawKind drawKind = DrawKind::Rect;
  bool timed = false;
  /// Rect and Grid: POS and SIZE; Grid: CELLS.
  float x = 0, y = 0, width = 0, height = 0;
  /// Rect and Grid: POS and SIZE are in framebuffer pixels (AmberScript,
  /// VkScript's `draw rect ortho`), else in normalized device coordinates.
  bool ortho = false;
  /// VkScript's `draw rect patch`: the rectangle as a patch list.
  bool patch = false;
  uint32_t columns = 0, rows = 0;
  /// Array: the topology as written (TRIANGLE_LIST, triangle_fan, ...).
  std::string topology;
  bool indexed = false;
  uint32_t firstVertex = 0;
  /// 0: to the end of the vertex data.
  uint32_t vertexCount = 0;
  uint32_t firstInstance = 0;
  uint32_t instanceCount = 1;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Draw;
  }
};

/// `EXPECT buffer IDX offset [TOLERANCE t...] CMP values...` and VkScript's
/// `probe ssbo type set:binding offset CMP values...`.
///
/// offset is in bytes. The values are typed and laid out as elements of
/// (type, layout) starting at offset: value i is compared with the number at
/// offset + (i / slots) * elementStride + slots[i % slots].offset (see
/// scalarSlots). For AmberScript type and layout are the buffer's; for
/// VkScript the probe's type in the binding's layout.
struct ExpectCommand : Command {
  ExpectCommand() : Command(Kind::Expect) {}
  std::string buffer;
  uint64_t offset = 0;
  Type type;
  Layout layout = Layout::Std430;
  Comparator comparator = Comparator::Equal;
  /// FuzzyEqual's tolerances: 1 to 4, for the components of a vector in
  /// turn; none means the executor's default.
  std::vector<Tolerance> tolerances;
  std::vector<Value> values;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Expect;
  }
};

/// `EXPECT image IDX x y SIZE w h EQ_RGB|EQ_RGBA r g b [a] [TOLERANCE
/// ...]` and VkScript's `[relative] probe [rect|all] rgb|rgba ...`: every
/// pixel of a rectangle of an image has this colour.
struct ExpectRectCommand : Command {
  ExpectRectCommand() : Command(Kind::ExpectRect) {}
  std::string buffer;
  /// VkScript `probe all`: the whole image; x, y, width and height unused.
  bool wholeImage = false;
  /// VkScript `relative probe`: x, y, width and height are fractions of the
  /// image's size.
  bool relative = false;
  /// VkScript `probe (x, y)`: one pixel, whatever `relative` says.
  bool point = false;
  float x = 0, y = 0, width = 1, height = 1;
  bool hasAlpha = false;
  /// The colour in [0, 1]: AmberScript's 0..255 integers divided by 255,
  /// VkScript's floats as written.
  std::array<double, 4> color = {0, 0, 0, 0};
  /// AmberScript: TOLERANCE after EQ_RGB(A), as written (0..255 units or
  /// percent); VkScript: the last `tolerance` line's.
  std::vector<Tolerance> tolerances;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::ExpectRect;
  }
};

/// `EXPECT a EQ_BUFFER b`, `EXPECT a RMSE_BUFFER b TOLERANCE t`, `EXPECT a
/// EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE t`.
struct CompareBuffersCommand : Command {
  enum class Method : uint8_t { Equal, Rmse, HistogramEmd };
  CompareBuffersCommand() : Command(Kind::CompareBuffers) {}
  std::string buffer;
  std::string other;
  Method method = Method::Equal;
  double tolerance = 0;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::CompareBuffers;
  }
};

/// `COPY from TO to`: all of a buffer's bytes into another.
struct CopyCommand : Command {
  CopyCommand() : Command(Kind::Copy) {}
  std::string from;
  std::string to;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Copy;
  }
};

/// VkScript's `ssbo B subdata type offset values`, `uniform ubo B type
/// offset values` and `uniform type offset values` (push constants): write
/// the values, laid out as elements of (type, layout), at a byte offset of
/// the buffer, when the command's turn comes.
struct BufferWriteCommand : Command {
  BufferWriteCommand() : Command(Kind::BufferWrite) {}
  std::string buffer;
  uint64_t offset = 0;
  Type type;
  Layout layout = Layout::Std430;
  std::vector<Value> values;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::BufferWrite;
  }
};

/// Graphics: CLEAR, CLEAR_COLOR, CLEAR_DEPTH, CLEAR_STENCIL and VkScript's
/// `clear [color|depth|stencil]`.
struct ClearCommand : Command {
  enum class Target : uint8_t { Attachments, Color, Depth, Stencil };
  ClearCommand() : Command(Kind::Clear) {}
  std::string pipeline;
  Target target = Target::Attachments;
  /// Color: in [0, 1] (AmberScript's 0..255 divided by 255); Depth: [0];
  /// Stencil: [0].
  std::array<double, 4> values = {0, 0, 0, 0};
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Clear;
  }
};

/// VkScript's `compute entrypoint name` (and the other stages'): later runs
/// use this entry point for the stage.
struct EntryPointCommand : Command {
  EntryPointCommand() : Command(Kind::EntryPoint) {}
  std::string pipeline;
  ShaderStage stage = ShaderStage::Compute;
  std::string entryPoint;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::EntryPoint;
  }
};

/// Graphics: VkScript's pipeline settings (`depthTestEnable true`, `patch
/// parameter vertices 3`, ...), recorded as written.
struct GraphicsStateCommand : Command {
  GraphicsStateCommand() : Command(Kind::GraphicsState) {}
  std::string pipeline;
  std::string text;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::GraphicsState;
  }
};

/// `REPEAT n ... END`.
struct RepeatCommand : Command {
  RepeatCommand() : Command(Kind::Repeat) {}
  uint32_t count = 1;
  std::vector<std::unique_ptr<Command>> commands;
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Repeat;
  }
};

/// `DEBUG pipeline x y z ... END` (shader debugging): recorded, with the
/// dispatch it would make, for an executor to report as unsupported.
struct DebugCommand : Command {
  DebugCommand() : Command(Kind::Debug) {}
  std::string pipeline;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  static bool classof(const Command *command) {
    return command->getKind() == Kind::Debug;
  }
};

/// A whole script.
struct Script {
  ScriptFormat format = ScriptFormat::AmberScript;
  /// The name errors use (the path given to the parser).
  std::string fileName;

  /// DEVICE_FEATURE (VkScript: [require] features), e.g.
  /// "shaderInt16", "VariablePointerFeatures.variablePointers".
  std::vector<std::string> deviceFeatures;
  /// DEVICE_EXTENSION (VkScript: [require] extensions).
  std::vector<std::string> deviceExtensions;
  std::vector<std::string> instanceExtensions;
  /// DEVICE_PROPERTY names.
  std::vector<std::string> deviceProperties;
  /// SET ENGINE_DATA fence_timeout_ms (VkScript: fence_timeout).
  std::optional<uint32_t> fenceTimeoutMs;
  /// The line of the first ray-tracing command (ACCELERATION_STRUCTURE,
  /// PIPELINE raytracing), or 0. Such a script is skipped, so what follows
  /// is not parsed.
  unsigned rayTracingLine = 0;

  std::vector<Shader> shaders;
  std::vector<VirtualFile> virtualFiles;
  std::vector<std::shared_ptr<const StructType>> structs;
  std::vector<Buffer> buffers;
  std::vector<Sampler> samplers;
  std::vector<Pipeline> pipelines;
  std::vector<std::unique_ptr<Command>> commands;

  const Shader *findShader(llvm::StringRef name) const;
  const Buffer *findBuffer(llvm::StringRef name) const;
  const Sampler *findSampler(llvm::StringRef name) const;
  const Pipeline *findPipeline(llvm::StringRef name) const;
  const StructType *findStruct(llvm::StringRef name) const;
  const VirtualFile *findVirtualFile(llvm::StringRef name) const;
};

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_AMBERSCRIPT_H

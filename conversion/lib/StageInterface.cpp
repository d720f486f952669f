//===- StageInterface.cpp - Graphics stages' inputs and outputs -------===//
//
// A graphics invocation's Input and Output variables live in its input and
// output records (kernel_abi.h): natural layout in declaration order, so
// that loads and stores are plain memory accesses, and a table of where
// each Location and builtin is, which the runtime reads to fill the inputs
// and to pass outputs on (vertex to fragment by Location, fragment to the
// colour attachments).
//
//===----------------------------------------------------------------------===//
#include "spvbridge/conversion/Interface.h"

#include "spvbridge/conversion/Layout.h"
#include "spvbridge/spirv/Deserializer.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace spvb;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

static llvm::StringRef getStageName(spirv::ExecutionModel model) {
  switch (model) {
  case spirv::ExecutionModel::Vertex:
    return "vertex";
  case spirv::ExecutionModel::TessellationControl:
    return "tessellation control";
  case spirv::ExecutionModel::TessellationEvaluation:
    return "tessellation evaluation";
  case spirv::ExecutionModel::Geometry:
    return "geometry";
  default:
    return "fragment";
  }
}

/// Builtins of gl_PerVertex: arrays over the vertices where a stage reads
/// or writes a primitive's or patch's vertices.
static bool isPerVertexBuiltin(spirv::BuiltIn builtin) {
  using spirv::BuiltIn;
  return builtin == BuiltIn::Position || builtin == BuiltIn::PointSize ||
         builtin == BuiltIn::ClipDistance || builtin == BuiltIn::CullDistance;
}

/// The builtins a stage's records hold, by direction.
static bool isStageBuiltin(spirv::ExecutionModel model, bool output,
                           spirv::BuiltIn builtin) {
  using spirv::BuiltIn;
  using spirv::ExecutionModel;
  bool tessellationLevel =
      builtin == BuiltIn::TessLevelOuter || builtin == BuiltIn::TessLevelInner;
  switch (model) {
  case ExecutionModel::Vertex:
    if (output)
      return isPerVertexBuiltin(builtin);
    return builtin == BuiltIn::VertexIndex ||
           builtin == BuiltIn::InstanceIndex ||
           builtin == BuiltIn::BaseVertex || builtin == BuiltIn::BaseInstance ||
           builtin == BuiltIn::DrawIndex;
  case ExecutionModel::TessellationControl:
    if (output)
      return isPerVertexBuiltin(builtin) || tessellationLevel;
    return isPerVertexBuiltin(builtin) || builtin == BuiltIn::PatchVertices ||
           builtin == BuiltIn::PrimitiveId;
  case ExecutionModel::TessellationEvaluation:
    if (output)
      return isPerVertexBuiltin(builtin);
    return isPerVertexBuiltin(builtin) || tessellationLevel ||
           builtin == BuiltIn::TessCoord || builtin == BuiltIn::PatchVertices ||
           builtin == BuiltIn::PrimitiveId;
  case ExecutionModel::Geometry:
    if (output)
      return isPerVertexBuiltin(builtin) || builtin == BuiltIn::PrimitiveId ||
             builtin == BuiltIn::Layer || builtin == BuiltIn::ViewportIndex;
    return isPerVertexBuiltin(builtin) || builtin == BuiltIn::PrimitiveId ||
           builtin == BuiltIn::InvocationId;
  default:
    break;
  }
  if (output)
    return builtin == BuiltIn::FragDepth || builtin == BuiltIn::SampleMask ||
           builtin == BuiltIn::FragStencilRefEXT;
  return builtin == BuiltIn::FragCoord || builtin == BuiltIn::FrontFacing ||
         builtin == BuiltIn::HelperInvocation ||
         builtin == BuiltIn::PointCoord || builtin == BuiltIn::SampleId ||
         builtin == BuiltIn::SamplePosition || builtin == BuiltIn::SampleMask ||
         builtin == BuiltIn::PrimitiveId || builtin == BuiltIn::Layer ||
         builtin == BuiltIn::ViewportIndex ||
         builtin == BuiltIn::ClipDistance || builtin == BuiltIn::CullDistance;
}

namespace {

/// Lists the Location-consuming parts of one variable.
class LocationWalker {
public:
  LocationWalker(std::vector<spvb_stage_variable> &table, uint32_t flags,
                 bool isUnsigned, uint32_t vertex = 0)
      : table(table), flags(flags), isUnsigned(isUnsigned), vertex(vertex) {}

  /// Adds the parts of a value of `type` at `offset`, from `location`.
  llvm::Error walk(Type type, uint64_t offset, uint32_t &location,
                   uint32_t component) {
    if (auto array = dyn_cast<spirv::ArrayType>(type)) {
      uint64_t stride = getArrayStride(array);
      for (unsigned i = 0; i < array.getNumElements(); ++i)
        if (llvm::Error error = walk(array.getElementType(),
                                     offset + i * stride, location, component))
          return error;
      return llvm::Error::success();
    }
    if (auto matrix = dyn_cast<spirv::MatrixType>(type)) {
      uint64_t stride = getMatrixStride(matrix, {});
      for (unsigned i = 0; i < matrix.getNumColumns(); ++i)
        if (llvm::Error error = walk(matrix.getColumnType(),
                                     offset + i * stride, location, component))
          return error;
      return llvm::Error::success();
    }
    if (auto structType = dyn_cast<spirv::StructType>(type)) {
      for (unsigned i = 0; i < structType.getNumElements(); ++i)
        if (llvm::Error error =
                walk(structType.getElementType(i),
                     offset + getMemberOffset(structType, i), location, 0))
          return error;
      return llvm::Error::success();
    }
    auto vector = dyn_cast<VectorType>(type);
    Type scalar = vector ? vector.getElementType() : type;
    if (!scalar.isIntOrFloat() || scalar.isInteger(1))
      return makeError("a stage interface of type bool");
    spvb_stage_variable entry{};
    entry.location = location;
    entry.component = component;
    entry.builtin = ~0u;
    entry.offset = static_cast<uint32_t>(offset);
    entry.kind = isa<FloatType>(scalar) ? SPVB_KIND_FLOAT : SPVB_KIND_INT;
    entry.bytes = scalar.getIntOrFloatBitWidth() / 8;
    entry.count = vector ? vector.getNumElements() : 1;
    entry.flags = flags;
    entry.vertex = vertex;
    // The dialect's integers are signless; the deserializer marks unsigned
    // interface variables.
    if (isa<IntegerType>(scalar) && !isUnsigned)
      entry.flags |= SPVB_STAGE_SIGNED;
    table.push_back(entry);
    location += entry.bytes == 8 && entry.count > 2 ? 2 : 1;
    return llvm::Error::success();
  }

private:
  std::vector<spvb_stage_variable> &table;
  uint32_t flags;
  bool isUnsigned;
  uint32_t vertex;
};

/// Per-vertex variables are arrays over a primitive's or patch's vertices:
/// a geometry shader's inputs, a tessellation control shader's inputs and
/// outputs, a tessellation evaluation shader's inputs; not per-patch ones
/// (Patch, the tessellation levels) nor the primitive's and invocation's
/// ids. Their element type and stride, else null.
spirv::ArrayType getPerVertexArray(spirv::ExecutionModel model, bool output,
                                   std::optional<spirv::BuiltIn> builtin,
                                   bool patch, Type type) {
  bool arrayed =
      model == spirv::ExecutionModel::TessellationControl ||
      (!output && (model == spirv::ExecutionModel::Geometry ||
                   model == spirv::ExecutionModel::TessellationEvaluation));
  if (!arrayed || patch || (builtin && !isPerVertexBuiltin(*builtin)))
    return {};
  return dyn_cast<spirv::ArrayType>(type);
}

} // namespace

/// The Output variables the entry point's first block stores whole before
/// any op with regions (structured control flow, which may return early):
/// every invocation that is not terminated writes them.
static llvm::DenseSet<StringRef>
getOutputsWrittenFirst(ModuleOp module, spirv::EntryPointOp entry) {
  llvm::DenseSet<StringRef> written;
  auto function = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
  if (!function || function.getBody().empty())
    return written;
  for (Operation &op : function.getBody().front()) {
    if (op.getNumRegions())
      break;
    auto store = dyn_cast<spirv::StoreOp>(op);
    if (!store)
      continue;
    if (auto address = store.getPtr().getDefiningOp<spirv::AddressOfOp>())
      written.insert(address.getVariable());
  }
  return written;
}

llvm::Error spvb::layoutStageInterface(ModuleOp module,
                                       spirv::EntryPointOp entry,
                                       InterfaceLayout &layout) {
  spirv::ExecutionModel model = entry.getExecutionModel();
  bool fragment = model == spirv::ExecutionModel::Fragment;
  // The fragment records' first words: the helper flag and the status.
  uint64_t sizes[2] = {fragment ? 4u : 0u, fragment ? 4u : 0u};
  llvm::DenseSet<StringRef> interface;
  for (Attribute symbol : entry.getInterface())
    interface.insert(cast<FlatSymbolRefAttr>(symbol).getValue());
  // An input nothing takes the address of is never read.
  llvm::DenseSet<StringRef> addressed;
  module.walk(
      [&](spirv::AddressOfOp op) { addressed.insert(op.getVariable()); });
  llvm::DenseSet<StringRef> written = getOutputsWrittenFirst(module, entry);

  for (auto global : module.getOps<spirv::GlobalVariableOp>()) {
    auto pointer = cast<spirv::PointerType>(global.getType());
    spirv::StorageClass storage = pointer.getStorageClass();
    bool output = storage == spirv::StorageClass::Output;
    if ((storage != spirv::StorageClass::Input && !output) ||
        !interface.contains(global.getSymName()))
      continue;
    StringRef name = global.getSymName();
    Type type = pointer.getPointeeType();
    InterfaceVariable var;
    var.storageClass = storage;
    var.inStageRecord = true;
    uint32_t flags = output ? SPVB_STAGE_OUTPUT : 0;
    if (!output && !addressed.contains(name))
      flags |= SPVB_STAGE_UNREAD;
    if (output && written.contains(name))
      flags |= SPVB_STAGE_WRITTEN;
    if (global->hasAttr(kFlatAttr))
      flags |= SPVB_STAGE_FLAT;
    if (global->hasAttr(kNoPerspectiveAttr))
      flags |= SPVB_STAGE_NOPERSPECTIVE;
    if (global->hasAttr(kCentroidAttr))
      flags |= SPVB_STAGE_CENTROID;
    if (global->hasAttr(kSampleAttr))
      flags |= SPVB_STAGE_SAMPLE;
    bool patch = global->hasAttr(kPatchAttr);
    if (patch)
      flags |= SPVB_STAGE_PATCH;

    if (auto builtinName = global.getBuiltInAttr()) {
      std::optional<spirv::BuiltIn> builtin =
          spirv::symbolizeBuiltIn(builtinName.getValue());
      // A tessellation control invocation's id is its index in the
      // patch's workgroup.
      if (model == spirv::ExecutionModel::TessellationControl &&
          *builtin == spirv::BuiltIn::InvocationId)
        builtin = spirv::BuiltIn::LocalInvocationIndex;
      if (isInvocationBuiltin(*builtin)) {
        var.inStageRecord = false;
        var.builtin = builtin;
        layout.variables[name] = var;
        continue;
      }
      if (!isStageBuiltin(model, output, *builtin))
        return makeError(llvm::formatv(
            "error: builtin '{0}' of variable '{1}' is not supported in a {2} "
            "shader's {3} yet",
            builtinName.getValue(), name, getStageName(model),
            output ? "outputs" : "inputs"));
      if (*builtin == spirv::BuiltIn::TessLevelOuter ||
          *builtin == spirv::BuiltIn::TessLevelInner)
        flags |= SPVB_STAGE_PATCH;
      var.builtin = builtin;
      if (*builtin == spirv::BuiltIn::HelperInvocation) {
        var.offset = 0; // the helper flag the record starts with
      } else {
        uint64_t &size = sizes[output];
        size = llvm::alignTo(size, getAlignment(type));
        var.offset = size;
        size += getByteSize(type);
      }
      // Per-vertex builtins (gl_in[v].gl_Position): an entry per vertex.
      spirv::ArrayType vertices =
          getPerVertexArray(model, output, builtin, patch, type);
      Type element = vertices ? vertices.getElementType() : type;
      uint32_t count = 1;
      if (auto array = dyn_cast<spirv::ArrayType>(element)) {
        element = array.getElementType();
        count = array.getNumElements();
      }
      if (auto vector = dyn_cast<VectorType>(element)) {
        element = vector.getElementType();
        count = vector.getNumElements();
      }
      spvb_stage_variable entry{};
      entry.location = ~0u;
      entry.builtin = static_cast<uint32_t>(*builtin);
      entry.offset = static_cast<uint32_t>(var.offset);
      entry.kind = element.isInteger(1)      ? SPVB_KIND_BOOL
                   : isa<FloatType>(element) ? SPVB_KIND_FLOAT
                                             : SPVB_KIND_INT;
      entry.bytes =
          element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
      entry.count = count;
      entry.flags = flags;
      if (!vertices) {
        layout.stageVariables.push_back(entry);
      } else {
        entry.flags |= SPVB_STAGE_PER_VERTEX;
        for (uint32_t v = 0; v < vertices.getNumElements(); ++v) {
          entry.vertex = v;
          entry.offset =
              static_cast<uint32_t>(var.offset + v * getArrayStride(vertices));
          layout.stageVariables.push_back(entry);
        }
      }
      layout.variables[name] = var;
      continue;
    }

    auto location = global.getLocationAttr();
    if (!location)
      return makeError(
          llvm::formatv("error: {0} variable '{1}' has no Location decoration",
                        output ? "Output" : "Input", name));
    uint64_t &size = sizes[output];
    size = llvm::alignTo(size, getAlignment(type));
    var.offset = size;
    size += getByteSize(type);
    uint32_t component = 0;
    if (auto attr = global->getAttrOfType<IntegerAttr>(kComponentAttr))
      component = attr.getInt();
    // Per-vertex inputs: each vertex's element from the same Location.
    spirv::ArrayType vertices =
        getPerVertexArray(model, output, std::nullopt, patch, type);
    Type element = vertices ? vertices.getElementType() : type;
    uint32_t vertexFlags = vertices ? flags | SPVB_STAGE_PER_VERTEX : flags;
    for (uint32_t v = 0; v < (vertices ? vertices.getNumElements() : 1); ++v) {
      uint32_t next = location.getInt();
      uint64_t offset =
          var.offset + (vertices ? v * getArrayStride(vertices) : 0);
      if (llvm::Error error = LocationWalker(layout.stageVariables, vertexFlags,
                                             global->hasAttr(kUnsignedAttr), v)
                                  .walk(element, offset, next, component))
        return makeError(llvm::formatv("error: variable '{0}': {1} is not "
                                       "supported",
                                       name, llvm::toString(std::move(error))));
    }
    layout.variables[name] = var;
  }
  layout.recordsPerWorkgroup =
      model == spirv::ExecutionModel::TessellationControl;
  if (fragment)
    layout.recordLanes = SPVB_FRAGMENT_RECORD_LANES;
  // Records follow each other in arrays: keep 8-byte members aligned.
  layout.stageInputSize = llvm::alignTo(sizes[0], 8);
  layout.stageOutputSize = llvm::alignTo(sizes[1], 8);
  return llvm::Error::success();
}

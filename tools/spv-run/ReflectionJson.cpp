//===- ReflectionJson.cpp - spv-run --reflect -----------------------------===//

#include "ReflectionJson.h"

#include "VulkanRun.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/spirv/ScalarLayout.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace llvm;
using namespace spvb;

/// \p path with the indices taken out ("m[1][0]" -> "m[][]"): scalars of
/// one array or matrix share it.
static std::string getPathShape(StringRef path) {
  std::string shape;
  bool inIndex = false;
  for (char c : path) {
    if (c == '[')
      inIndex = true;
    else if (c == ']')
      inIndex = false;
    else if (inIndex)
      continue;
    shape += c;
  }
  return shape;
}

/// Folds \p fields (sorted by offset) into runs of one type, one array and
/// a constant stride, so that large arrays stay small in the output.
static json::Array describeFields(ArrayRef<ScalarField> fields) {
  json::Array runs;
  for (size_t i = 0; i < fields.size();) {
    std::string type = fields[i].getTypeName();
    std::string shape = getPathShape(fields[i].path);
    auto continues = [&](size_t j) {
      return j < fields.size() && fields[j].getTypeName() == type &&
             getPathShape(fields[j].path) == shape;
    };
    size_t end = i + 1;
    uint64_t stride = fields[i].size;
    if (continues(end)) {
      stride = fields[end].offset - fields[i].offset;
      while (continues(end) &&
             fields[end].offset - fields[end - 1].offset == stride)
        ++end;
    }
    runs.push_back(json::Object{{"offset", fields[i].offset},
                                {"type", type},
                                {"count", static_cast<uint64_t>(end - i)},
                                {"stride", stride},
                                {"path", fields[i].path}});
    i = end;
  }
  return runs;
}

/// PhysicalStorageBuffer pointers; their pointee types go to \p pointees.
static json::Array describePointers(ArrayRef<PointerField> pointers,
                                    SetVector<uint32_t> &pointees) {
  json::Array result;
  for (const PointerField &pointer : pointers) {
    pointees.insert(pointer.pointeeTypeId);
    result.push_back(json::Object{{"offset", pointer.offset},
                                  {"path", pointer.path},
                                  {"pointee", pointer.pointeeTypeId},
                                  {"array_stride", pointer.arrayStride}});
  }
  return result;
}

static json::Value describeLayout(const BlockScalarLayout &layout,
                                  SetVector<uint32_t> &pointees) {
  json::Value runtimeArray = nullptr;
  if (layout.runtimeArrayStride)
    runtimeArray = json::Object{
        {"path", layout.runtimeArrayPath},
        {"offset", layout.runtimeArrayOffset},
        {"stride", layout.runtimeArrayStride},
        {"fields", describeFields(layout.elementFields)},
        {"pointers", describePointers(layout.elementPointers, pointees)}};
  return json::Object{
      {"fields", describeFields(layout.fields)},
      {"runtime_array", std::move(runtimeArray)},
      {"pointers", describePointers(layout.pointers, pointees)}};
}

static Expected<json::Value> describeLayout(const SpirvBinary &binary,
                                            uint32_t variableId,
                                            SetVector<uint32_t> &pointees) {
  Expected<BlockScalarLayout> layout = getBlockScalarLayout(binary, variableId);
  if (!layout)
    return layout.takeError();
  return describeLayout(*layout, pointees);
}

/// Every type a PhysicalStorageBuffer pointer points to, those their
/// pointers point to included: {"id", "name", "size", "layout"}.
static Expected<json::Array> describePointees(const SpirvBinary &binary,
                                              SetVector<uint32_t> &pointees) {
  json::Array result;
  // describeLayout appends to pointees as it goes.
  for (size_t i = 0; i < pointees.size(); ++i) {
    Expected<BlockScalarLayout> layout =
        getPointeeScalarLayout(binary, pointees[i]);
    if (!layout)
      return layout.takeError();
    result.push_back(
        json::Object{{"id", pointees[i]},
                     {"name", layout->typeName},
                     {"size", layout->staticSize},
                     {"layout", describeLayout(*layout, pointees)}});
  }
  return result;
}

static json::Array describeMembers(ArrayRef<BlockMember> members) {
  json::Array result;
  for (const BlockMember &member : members)
    result.push_back(json::Object{{"name", member.name},
                                  {"offset", member.offset},
                                  {"size", member.size},
                                  {"type", member.type}});
  return result;
}

static bool isBuffer(ResourceKind kind) {
  return kind == ResourceKind::StorageBuffer ||
         kind == ResourceKind::UniformBuffer ||
         kind == ResourceKind::PushConstant;
}

static StringRef getDimName(spv::Dim dim) {
  switch (dim) {
  case spv::Dim1D:
    return "1D";
  case spv::Dim2D:
    return "2D";
  case spv::Dim3D:
    return "3D";
  case spv::DimCube:
    return "Cube";
  case spv::DimRect:
    return "Rect";
  case spv::DimBuffer:
    return "Buffer";
  case spv::DimSubpassData:
    return "SubpassData";
  default:
    return "other";
  }
}

static StringRef getNumericKindName(runtime::NumericKind kind) {
  switch (kind) {
  case runtime::NumericKind::Float:
    return "float";
  case runtime::NumericKind::Unorm:
    return "unorm";
  case runtime::NumericKind::Snorm:
    return "snorm";
  case runtime::NumericKind::Sint:
    return "sint";
  case runtime::NumericKind::Uint:
    return "uint";
  }
  return "float";
}

/// The OpTypeImage of an image, texel buffer or combined image sampler.
static json::Object describeImage(const ImageInfo &image) {
  json::Object result{{"dim", getDimName(image.dim)},
                      {"arrayed", image.arrayed},
                      {"multisampled", image.multisampled},
                      {"sampled", image.sampled},
                      {"depth", image.depth},
                      {"component", image.componentKind == 'f'   ? "float"
                                    : image.componentKind == 'i' ? "int"
                                                                 : "uint"},
                      {"component_bits", image.componentBits}};
  if (const runtime::ImageFormat *format =
          runtime::getImageFormat(image.format)) {
    result["format"] = format->name;
    result["format_kind"] = getNumericKindName(format->kind);
    result["format_components"] = format->components;
    result["texel_bytes"] = format->texelBytes;
  } else {
    result["format"] = "unknown";
    result["format_kind"] = nullptr;
    result["format_components"] = nullptr;
    result["texel_bytes"] = nullptr;
  }
  return result;
}

static Expected<json::Object> describeResource(const SpirvBinary &binary,
                                               const ResourceInfo &resource,
                                               SetVector<uint32_t> &pointees) {
  json::Object result{{"set", resource.set},
                      {"binding", resource.binding},
                      {"kind", getResourceKindName(resource.kind)},
                      {"name", resource.name},
                      {"block", resource.blockTypeName},
                      {"type", resource.type},
                      {"array_size", resource.arraySize},
                      {"static_size", resource.staticSize},
                      {"runtime_array_stride", resource.runtimeArrayStride},
                      {"runtime_array_offset", resource.runtimeArrayOffset},
                      {"non_writable", resource.nonWritable},
                      {"non_readable", resource.nonReadable},
                      {"members", describeMembers(resource.members)}};
  if (isBuffer(resource.kind)) {
    Expected<json::Value> layout =
        describeLayout(binary, resource.variableId, pointees);
    if (!layout)
      return layout.takeError();
    result["layout"] = std::move(*layout);
  }
  if (resource.image)
    result["image"] = describeImage(*resource.image);
  return result;
}

/// A float default as JSON, which has no infinities or NaNs.
static json::Value describeFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}

/// A spec constant's default from its literal words (low word first).
static json::Value describeDefault(const SpecConstantInfo &constant) {
  ArrayRef<uint32_t> words = constant.defaultWords;
  uint64_t bits = words.empty() ? 0 : words[0];
  if (words.size() > 1)
    bits |= static_cast<uint64_t>(words[1]) << 32;
  StringRef type = constant.type;
  if (type == "bool")
    return bits != 0;
  if (type == "f16") {
    APFloat half(APFloat::IEEEhalf(), APInt(16, bits & 0xffff));
    bool losesInfo = false;
    half.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
    return describeFloat(half.convertToDouble());
  }
  if (type == "f32")
    return describeFloat(llvm::bit_cast<float>(static_cast<uint32_t>(bits)));
  if (type == "f64")
    return describeFloat(llvm::bit_cast<double>(bits));
  unsigned width = 32;
  type.drop_front().getAsInteger(10, width);
  // Narrow literals may carry anything in their high bits; the type decides.
  if (width < 64)
    bits &= (uint64_t(1) << width) - 1;
  if (type.starts_with("i"))
    return width < 64 ? SignExtend64(bits, width) : static_cast<int64_t>(bits);
  return bits;
}

static json::Value describeSpecIds(const SpirvBinary &original,
                                   StringRef entryPoint) {
  // The specialized module has no SpecIds left; the original says which
  // --spec changes the workgroup size. Its size may not resolve without
  // the values, so this is best effort.
  Expected<ModuleReflection> reflection = reflectModule(original);
  if (!reflection) {
    consumeError(reflection.takeError());
    return json::Array{nullptr, nullptr, nullptr};
  }
  const EntryPointInfo *entry = reflection->findEntryPoint(entryPoint);
  json::Array ids;
  for (int d = 0; d < 3; ++d) {
    if (entry && entry->workgroupSizeSpecIds[d])
      ids.push_back(*entry->workgroupSizeSpecIds[d]);
    else
      ids.push_back(nullptr);
  }
  return ids;
}

Error spvb::run::printReflection(raw_ostream &os, StringRef path,
                                 const CompileOptions &options) {
  Expected<VulkanShader> shader = loadVulkanShader(path, options);
  if (!shader)
    return shader.takeError();
  const ModuleReflection &reflection = shader->reflection;
  const EntryPointInfo *entry = reflection.findEntryPoint(shader->entryPoint);
  std::array<uint32_t, 3> size =
      entry ? entry->workgroupSize : std::array<uint32_t, 3>{1, 1, 1};

  json::Array resources;
  SetVector<uint32_t> pointees;
  for (const ResourceInfo &resource : reflection.resources) {
    Expected<json::Object> described =
        describeResource(shader->prepared, resource, pointees);
    if (!described)
      return described.takeError();
    resources.push_back(std::move(*described));
  }
  json::Value pushConstants = nullptr;
  if (reflection.pushConstants) {
    Expected<json::Value> layout = describeLayout(
        shader->prepared, reflection.pushConstants->variableId, pointees);
    if (!layout)
      return layout.takeError();
    pushConstants = json::Object{
        {"size", reflection.pushConstantSize},
        {"members", describeMembers(reflection.pushConstants->members)},
        {"layout", std::move(*layout)}};
  }
  // Also what the shader can make of an integer (OpConvertUToPtr).
  Expected<std::vector<uint32_t>> allPointees =
      getPhysicalPointeeTypes(shader->prepared);
  if (!allPointees)
    return allPointees.takeError();
  pointees.insert(allPointees->begin(), allPointees->end());
  Expected<json::Array> pointeeTypes =
      describePointees(shader->prepared, pointees);
  if (!pointeeTypes)
    return pointeeTypes.takeError();
  Expected<std::vector<SpecConstantInfo>> specConstants =
      listSpecConstants(shader->original);
  if (!specConstants)
    return specConstants.takeError();
  json::Array specs;
  for (const SpecConstantInfo &constant : *specConstants)
    specs.push_back(json::Object{{"id", constant.specId},
                                 {"name", constant.name},
                                 {"type", constant.type},
                                 {"default", describeDefault(constant)}});

  json::Object result{
      {"file", path},
      {"entry", shader->entryPoint},
      {"local_size", json::Array{size[0], size[1], size[2]}},
      {"local_size_spec_ids",
       describeSpecIds(shader->original, shader->entryPoint)},
      {"resources", std::move(resources)},
      {"push_constants", std::move(pushConstants)},
      {"pointee_types", std::move(*pointeeTypes)},
      {"spec_constants", std::move(specs)},
      {"uses_barriers", reflection.usesBarriers},
      {"uses_atomics", reflection.usesAtomics},
      {"uses_subgroups", reflection.usesSubgroupOps},
      {"workgroup_storage_size", reflection.workgroupStorage.size},
      {"capabilities", json::Array(reflection.capabilityNames)},
      {"extensions", json::Array(reflection.extensions)}};
  os << formatv("{0:2}", json::Value(std::move(result))) << "\n";
  return Error::success();
}

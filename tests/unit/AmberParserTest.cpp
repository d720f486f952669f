//===- AmberParserTest.cpp - AmberScript into the script model ------------===//
//
// Scripts written inline (line 1 is `#!amber`, so the line numbers in the
// expected messages can be counted in the source), parsed with
// parseScriptText under the name "t.amber"; files they name are written to
// a temporary directory.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/AmberParser.h"
#include "AmberTestUtil.h"
#include "TestUtil.h"
#include "spvbridge/amber/ScriptParser.h"
#include "spvbridge/amber/ScriptRequirements.h"

#include "llvm/Support/Casting.h"

#include <cmath>
#include <cstring>

using namespace spvb::amber;
using spvb::test::commandAt;
using spvb::test::doubles;
using spvb::test::errorText;
using spvb::test::parseScriptOk;
using spvb::test::TempDir;

namespace {

Script parseOk(llvm::StringRef text, llvm::StringRef name = "t.amber") {
  return parseScriptOk(text, name);
}

std::string parseError(llvm::StringRef text) {
  return errorText(parseScriptText(text, "t.amber"));
}

float floatAt(const std::vector<uint8_t> &bytes, size_t offset) {
  float value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

const char *kComputeScript = R"(#!amber
# A compute test.
DEVICE_FEATURE shaderInt16
DEVICE_EXTENSION VK_KHR_16bit_storage
INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2
SET ENGINE_DATA fence_timeout_ms 3000

SHADER compute main GLSL TARGET_ENV vulkan1.1
#version 450
layout(local_size_x = 1) in;
void main() {}
END

BUFFER in DATA_TYPE vec2<int32> DATA
  1 -2   # first
  0x10 \
  4
END
BUFFER out DATA_TYPE float SIZE 4 FILL 0.5
BUFFER out2 DATA_TYPE float SIZE 4 FILL 0
BUFFER series DATA_TYPE uint32 SIZE 5 SERIES_FROM 3 INC_BY 2
BUFFER ubo DATA_TYPE vec3<float> STD140 DATA 1 2 3 END
BUFFER push DATA_TYPE uint32 DATA 7 END

PIPELINE compute pipe
  ATTACH main ENTRY_POINT main \
    SPECIALIZE 1 AS uint32 4 SPECIALIZE 2 AS float 1.5
  SHADER_OPTIMIZATION main
    --inline-entry-points-exhaustive
    --eliminate-dead-code-aggressive
  END
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER ubo AS uniform DESCRIPTOR_SET 1 BINDING 0
  BIND BUFFER push AS push_constant
END

RUN pipe 4 2 1
RUN TIMED_EXECUTION pipe 1 1 1
REPEAT 3
  RUN pipe 1 1 1
  EXPECT out IDX 4 TOLERANCE 0.1 2% EQ 0.5 0.5
END
EXPECT in IDX 0 EQ 1 -2 16 4
EXPECT series IDX 8 GT 4
COPY out TO out2
EXPECT out EQ_BUFFER out2
EXPECT out RMSE_BUFFER out2 TOLERANCE 0.25
)";

TEST(AmberParser, ComputeScript) {
  Script script = parseOk(kComputeScript);
  EXPECT_EQ(script.format, ScriptFormat::AmberScript);
  EXPECT_EQ(script.fileName, "t.amber");
  EXPECT_EQ(script.deviceFeatures, std::vector<std::string>{"shaderInt16"});
  EXPECT_EQ(script.deviceExtensions,
            std::vector<std::string>{"VK_KHR_16bit_storage"});
  EXPECT_EQ(script.instanceExtensions,
            std::vector<std::string>{"VK_KHR_get_physical_device_properties2"});
  EXPECT_EQ(script.fenceTimeoutMs, 3000u);

  ASSERT_EQ(script.shaders.size(), 1u);
  const Shader &shader = script.shaders[0];
  EXPECT_EQ(shader.name, "main");
  EXPECT_EQ(shader.stage, ShaderStage::Compute);
  EXPECT_EQ(shader.format, ShaderFormat::Glsl);
  EXPECT_EQ(shader.targetEnv, "vulkan1.1");
  EXPECT_EQ(shader.line, 8u);
  EXPECT_EQ(shader.source,
            "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  EXPECT_EQ(shaderFormatName(shader.format), "GLSL");
  EXPECT_EQ(stageName(shader.stage), "compute");

  const Buffer *in = script.findBuffer("in");
  ASSERT_TRUE(in);
  EXPECT_EQ(in->type.name, "vec2<int32>");
  EXPECT_EQ(in->layout, Layout::Std430);
  EXPECT_EQ(in->init, InitKind::Values);
  // Comments, hex and a continuation line; int32 values are int64s.
  EXPECT_EQ(in->values,
            (std::vector<Value>{Value::fromInt(1), Value::fromInt(-2),
                                Value::fromInt(16), Value::fromInt(4)}));
  EXPECT_EQ(in->elementCount, 2u);
  EXPECT_EQ(in->stride(), 8u);
  EXPECT_EQ(in->initialBytes(),
            (std::vector<uint8_t>{1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 16, 0, 0,
                                  0, 4, 0, 0, 0}));

  const Buffer *out = script.findBuffer("out");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->init, InitKind::Fill);
  EXPECT_EQ(out->elementCount, 4u);
  EXPECT_EQ(doubles(out->expandValues()),
            (std::vector<double>{0.5, 0.5, 0.5, 0.5}));
  std::vector<uint8_t> outBytes = out->initialBytes();
  ASSERT_EQ(outBytes.size(), 16u);
  EXPECT_EQ(floatAt(outBytes, 12), 0.5f);

  const Buffer *series = script.findBuffer("series");
  ASSERT_TRUE(series);
  EXPECT_EQ(series->expandValues(),
            (std::vector<Value>{Value::fromUint(3), Value::fromUint(5),
                                Value::fromUint(7), Value::fromUint(9),
                                Value::fromUint(11)}));

  const Buffer *ubo = script.findBuffer("ubo");
  ASSERT_TRUE(ubo);
  EXPECT_EQ(ubo->layout, Layout::Std140);
  EXPECT_EQ(ubo->byteSize(), 16u);
  EXPECT_EQ(layoutName(ubo->layout), "std140");

  ASSERT_EQ(script.pipelines.size(), 1u);
  const Pipeline &pipe = script.pipelines[0];
  EXPECT_TRUE(pipe.isCompute());
  EXPECT_EQ(pipe.pushConstantBuffer, "push");
  ASSERT_EQ(pipe.shaders.size(), 1u);
  EXPECT_EQ(pipe.findAttachment("main"), &pipe.shaders[0]);
  EXPECT_FALSE(pipe.findAttachment("other"));
  const ShaderAttachment &attachment = pipe.shaders[0];
  EXPECT_EQ(attachment.entryPoint, "main");
  ASSERT_EQ(attachment.specializations.size(), 2u);
  EXPECT_EQ(attachment.specializations[0].id, 1u);
  EXPECT_EQ(attachment.specializations[0].scalar, ScalarType::uint(32));
  EXPECT_EQ(attachment.specializations[0].value, Value::fromUint(4));
  EXPECT_EQ(attachment.specializations[1].scalar, ScalarType::sfloat(32));
  EXPECT_EQ(attachment.specializations[1].value, Value::fromDouble(1.5));
  EXPECT_EQ(attachment.optimizations,
            (std::vector<std::string>{"--inline-entry-points-exhaustive",
                                      "--eliminate-dead-code-aggressive"}));
  ASSERT_EQ(pipe.bindings.size(), 3u);
  const DescriptorBinding *uniform = pipe.findBinding(1, 0);
  ASSERT_TRUE(uniform);
  EXPECT_EQ(uniform->kind, DescriptorKind::UniformBuffer);
  EXPECT_EQ(descriptorKindName(uniform->kind), "uniform");
  EXPECT_EQ(uniform->buffers, std::vector<std::string>{"ubo"});
  EXPECT_EQ(uniform->descriptorRanges,
            std::vector<uint64_t>{DescriptorBinding::kWholeSize});

  ASSERT_EQ(script.commands.size(), 8u);
  const RunCommand *run = commandAt<RunCommand>(script, 0);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->pipeline, "pipe");
  EXPECT_EQ(run->groups, (std::array<uint32_t, 3>{4, 2, 1}));
  EXPECT_FALSE(run->timed);
  EXPECT_EQ(run->line, 38u);
  const RunCommand *timed = commandAt<RunCommand>(script, 1);
  ASSERT_TRUE(timed);
  EXPECT_TRUE(timed->timed);

  const RepeatCommand *repeat = commandAt<RepeatCommand>(script, 2);
  ASSERT_TRUE(repeat);
  EXPECT_EQ(repeat->count, 3u);
  ASSERT_EQ(repeat->commands.size(), 2u);
  const auto *fuzzy = llvm::dyn_cast<ExpectCommand>(repeat->commands[1].get());
  ASSERT_TRUE(fuzzy);
  EXPECT_EQ(fuzzy->line, 42u);
  EXPECT_EQ(fuzzy->offset, 4u);
  EXPECT_EQ(fuzzy->comparator, Comparator::FuzzyEqual);
  EXPECT_EQ(fuzzy->tolerances,
            (std::vector<Tolerance>{{0.1, false}, {2.0, true}}));
  EXPECT_EQ(doubles(fuzzy->values), (std::vector<double>{0.5, 0.5}));

  const ExpectCommand *expectIn = commandAt<ExpectCommand>(script, 3);
  ASSERT_TRUE(expectIn);
  EXPECT_EQ(expectIn->line, 44u);
  EXPECT_EQ(expectIn->buffer, "in");
  EXPECT_EQ(expectIn->type.name, "vec2<int32>");
  EXPECT_EQ(expectIn->comparator, Comparator::Equal);
  EXPECT_EQ(expectIn->values, in->values);
  const ExpectCommand *greater = commandAt<ExpectCommand>(script, 4);
  ASSERT_TRUE(greater);
  EXPECT_EQ(greater->comparator, Comparator::Greater);
  EXPECT_EQ(greater->offset, 8u);

  const CopyCommand *copy = commandAt<CopyCommand>(script, 5);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->from, "out");
  EXPECT_EQ(copy->to, "out2");
  const CompareBuffersCommand *equal =
      commandAt<CompareBuffersCommand>(script, 6);
  ASSERT_TRUE(equal);
  EXPECT_EQ(equal->method, CompareBuffersCommand::Method::Equal);
  const CompareBuffersCommand *rmse =
      commandAt<CompareBuffersCommand>(script, 7);
  ASSERT_TRUE(rmse);
  EXPECT_EQ(rmse->method, CompareBuffersCommand::Method::Rmse);
  EXPECT_EQ(rmse->tolerance, 0.25);
  EXPECT_EQ(rmse->other, "out2");
}

TEST(AmberParser, SeriesAndFill) {
  Script script = parseOk(R"(#!amber
STRUCT pair
  int32 i
  float f
END
BUFFER halves DATA_TYPE float SIZE 4 SERIES_FROM 0.5 INC_BY 0.25
BUFFER down DATA_TYPE int8 SIZE 3 SERIES_FROM -1 INC_BY -1
BUFFER pairs DATA_TYPE pair SIZE 2 FILL 3
BUFFER ones DATA_TYPE uint32 SIZE 2 FILL -1
BUFFER grid DATA_TYPE vec4<float> WIDTH 2 HEIGHT 3 FILL 1.5
)");
  EXPECT_EQ(doubles(script.findBuffer("halves")->expandValues()),
            (std::vector<double>{0.5, 0.75, 1.0, 1.25}));
  const Buffer *down = script.findBuffer("down");
  EXPECT_EQ(down->expandValues(),
            (std::vector<Value>{Value::fromInt(-1), Value::fromInt(-2),
                                Value::fromInt(-3)}));
  EXPECT_EQ(down->initialBytes(), (std::vector<uint8_t>{0xFF, 0xFE, 0xFD}));

  // FILL into a struct: each number of its member's type.
  const Buffer *pairs = script.findBuffer("pairs");
  EXPECT_EQ(pairs->expandValues(),
            (std::vector<Value>{Value::fromInt(3), Value::fromDouble(3),
                                Value::fromInt(3), Value::fromDouble(3)}));
  std::vector<uint8_t> pairBytes = pairs->initialBytes();
  ASSERT_EQ(pairBytes.size(), 16u);
  EXPECT_EQ(pairBytes[8], 3);
  EXPECT_EQ(floatAt(pairBytes, 12), 3.0f);

  EXPECT_EQ(script.findBuffer("ones")->initialBytes(),
            std::vector<uint8_t>(8, 0xFF));

  const Buffer *grid = script.findBuffer("grid");
  EXPECT_EQ(grid->dimension, ImageDimension::Dim2D);
  EXPECT_EQ(grid->elementCount, 6u);
  EXPECT_EQ(grid->expandValues().size(), 24u);
}

TEST(AmberParser, NumbersAsAmberReadsThem) {
  // Amber casts integers to the type (256 into uint8 is 0, -1 is 255),
  // reads "nan" in any case as a float, and lets FILL and SERIES_FROM put
  // a float into an integer buffer (converted toward zero).
  Script script = parseOk(R"(#!amber
BUFFER bytes DATA_TYPE uint8 DATA 255 256 -1 END
BUFFER nans DATA_TYPE float DATA nan NaN 1 END
BUFFER zeros DATA_TYPE int32 SIZE 2 FILL 0.0
BUFFER cut DATA_TYPE int32 SIZE 2 FILL -2.75
BUFFER steps DATA_TYPE uint32 SIZE 3 SERIES_FROM 1.0 INC_BY 2.5
)");
  EXPECT_EQ(script.findBuffer("bytes")->initialBytes(),
            (std::vector<uint8_t>{0xFF, 0x00, 0xFF}));
  std::vector<uint8_t> nans = script.findBuffer("nans")->initialBytes();
  ASSERT_EQ(nans.size(), 12u);
  EXPECT_TRUE(std::isnan(floatAt(nans, 0)));
  EXPECT_TRUE(std::isnan(floatAt(nans, 4)));
  EXPECT_EQ(floatAt(nans, 8), 1.0f);
  EXPECT_EQ(script.findBuffer("zeros")->initialBytes(),
            std::vector<uint8_t>(8, 0));
  EXPECT_EQ(
      script.findBuffer("cut")->initialBytes(),
      (std::vector<uint8_t>{0xFE, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF}));
  // Start 1, increment 2 (2.5 toward zero): 1, 3, 5.
  EXPECT_EQ(script.findBuffer("steps")->expandValues(),
            (std::vector<Value>{Value::fromUint(1), Value::fromUint(3),
                                Value::fromUint(5)}));
}

TEST(AmberParser, ScriptsAsAmberReadsThem) {
  // What Amber's parser accepts and ours used to refuse: IMAGE options in
  // any order and without DIM_*, MIP_LEVELS 0, a second compute shader
  // replacing the first, TYPE on a plain shader, an inline shader named as
  // the virtual file embedded-shaders/NAME, SUBGROUP on one line, a command
  // on the REPEAT line, and integers past 64 bits (strtoull's maximum).
  Script script = parseOk(R"(#!amber
SHADER compute first GLSL
void main() {}
END
SHADER compute second GLSL VIRTUAL_FILE embedded-shaders/first
IMAGE img DIM_2D WIDTH 2 FORMAT R8G8B8A8_UNORM HEIGHT 3 MIP_LEVELS 0
IMAGE flat FORMAT R32_SFLOAT WIDTH 4 HEIGHT 2
BUFFER big DATA_TYPE uint64 DATA 18446744073709551616 END
BUFFER pc DATA_TYPE uint32 DATA 1 END
SAMPLER smp
PIPELINE compute p
  ATTACH first
  ATTACH second TYPE compute ENTRY_POINT main \
    SPECIALIZE 3 AS uint32 4.5 SPECIALIZE 4 AS vec4<float> 2
  SUBGROUP second REQUIRED_SIZE 16 END
  BIND BUFFER pc AS push_constant
  BIND SAMPLER smp DESCRIPTOR_SET 0 BINDING 1
END
DERIVE_PIPELINE q FROM p
END
REPEAT 2 RUN p 1 1 1
END
)");
  EXPECT_EQ(script.findShader("second")->source, "void main() {}\n");
  const Buffer *img = script.findBuffer("img");
  EXPECT_EQ(img->dimension, ImageDimension::Dim2D);
  EXPECT_EQ(img->elementCount, 6u);
  EXPECT_EQ(img->mipLevels, 1u);
  EXPECT_EQ(script.findBuffer("flat")->dimension, ImageDimension::Dim2D);
  EXPECT_EQ(script.findBuffer("big")->initialBytes(),
            std::vector<uint8_t>(8, 0xFF));
  const Pipeline *p = script.findPipeline("p");
  ASSERT_EQ(p->shaders.size(), 1u);
  EXPECT_EQ(p->shaders[0].shader, "second");
  // SPECIALIZE takes any number for any type of 32-bit scalars.
  ASSERT_EQ(p->shaders[0].specializations.size(), 2u);
  EXPECT_EQ(p->shaders[0].specializations[0].value, Value::fromUint(4));
  EXPECT_EQ(p->shaders[0].specializations[1].scalar, ScalarType::sfloat(32));
  EXPECT_EQ(p->shaders[0].specializations[1].value, Value::fromDouble(2));
  ASSERT_TRUE(p->shaders[0].subgroup);
  EXPECT_EQ(p->shaders[0].subgroup->requiredSize, 16u);
  EXPECT_EQ(p->pushConstantBuffer, "pc");
  // Amber's Pipeline::Clone leaves the push constants and samplers behind.
  const Pipeline *q = script.findPipeline("q");
  EXPECT_TRUE(q->pushConstantBuffer.empty());
  EXPECT_EQ(q->bindings.size(), 0u);
  const auto *repeat = commandAt<RepeatCommand>(script, 0);
  ASSERT_TRUE(repeat);
  EXPECT_EQ(repeat->commands.size(), 1u);
}

TEST(AmberParser, RayTracingIsSkippedUnread) {
  // Amber's ray-tracing commands are not read: the script is skipped from
  // the first of them on.
  Script script = parseOk(R"(#!amber
SHADER ray_generation raygen GLSL
void main() {}
END
ACCELERATION_STRUCTURE BOTTOM_LEVEL blas
  GEOMETRY TRIANGLES
    0 0 0  1 0 0  0 1 0
  END
END
PIPELINE raytracing rt
  SHADER_GROUP g raygen
END
RUN rt RAYGEN sbt 1 1 1
)");
  EXPECT_EQ(script.rayTracingLine, 5u);
  EXPECT_EQ(script.shaders.size(), 1u);
  EXPECT_EQ(findUnmetRequirement(script),
            "a ray-tracing pipeline (spvbridge runs compute only)");
}

TEST(AmberParser, FileContentsDecideTheSize) {
  // FILE TEXT and FILE BINARY override SIZE, as in Amber: 6 numbers are 6
  // uint32s, 12 bytes are 3 (the CTS's frexp scripts say SIZE 1296 and
  // give 4 values per element).
  TempDir dir;
  dir.write("six.txt", "1 2 3\n4 5 6\n");
  dir.write("twelve.bin", std::string(12, '\x01'));
  std::string path = dir.write("t.amber", R"(#!amber
BUFFER text DATA_TYPE uint32 SIZE 2 FILE TEXT six.txt
BUFFER binary DATA_TYPE uint32 SIZE 8 FILE BINARY twelve.bin
BUFFER rgb DATA_TYPE R32G32B32_SFLOAT DATA 1 2 3 4 5 6 END
)");
  llvm::Expected<Script> parsed = parseScript(path);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->findBuffer("text")->elementCount, 6u);
  EXPECT_EQ(parsed->findBuffer("binary")->elementCount, 3u);
  // A three-component format is padded to four, as Amber pads it: the
  // second texel starts at byte 16.
  std::vector<uint8_t> rgb = parsed->findBuffer("rgb")->initialBytes();
  ASSERT_EQ(rgb.size(), 32u);
  EXPECT_EQ(floatAt(rgb, 12), 0.0f);
  EXPECT_EQ(floatAt(rgb, 16), 4.0f);
}

TEST(AmberParser, BufferLayouts) {
  Script script = parseOk(R"(#!amber
BUFFER padded DATA_TYPE float[] STD140 DATA 1 2 END
BUFFER tight DATA_TYPE float[] STD430 DATA 1 2 END
BUFFER single DATA_TYPE float STD140 DATA 1 2 END
BUFFER columns DATA_TYPE mat2x2<float> STD140 DATA 1 2 3 4 END
)");
  const Buffer *padded = script.findBuffer("padded");
  EXPECT_TRUE(padded->type.isArray);
  EXPECT_EQ(padded->stride(), 16u);
  std::vector<uint8_t> bytes = padded->initialBytes();
  ASSERT_EQ(bytes.size(), 32u);
  EXPECT_EQ(floatAt(bytes, 16), 2.0f);
  EXPECT_EQ(script.findBuffer("tight")->byteSize(), 8u);
  EXPECT_EQ(script.findBuffer("single")->byteSize(), 8u);
  std::vector<uint8_t> columns = script.findBuffer("columns")->initialBytes();
  ASSERT_EQ(columns.size(), 32u);
  EXPECT_EQ(floatAt(columns, 16), 3.0f);
}

TEST(AmberParser, Structs) {
  Script script = parseOk(R"(#!amber
STRUCT s STRIDE 32
  int32 d OFFSET 8
  mat2x2<float> m MATRIX_STRIDE 8
END
STRUCT outer
  float a OFFSET 4
  s inner
  float[3] list ARRAY_STRIDE 4
END
BUFFER data DATA_TYPE outer STD430 DATA
1.5
2   3 4 5 6
7 8 9
END
)");
  const StructType *inner = script.findStruct("s");
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->stride, 32u);
  ASSERT_EQ(inner->members.size(), 2u);
  EXPECT_EQ(inner->members[0].offset, 8u);
  EXPECT_EQ(inner->members[1].matrixStride, 8u);
  const StructType *outer = script.findStruct("outer");
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->members[2].type.arraySize, 3u);
  EXPECT_EQ(outer->members[2].arrayStride, 4u);

  // a at 4; inner at 8 (aligned to 8 by the mat2's columns): d at 16 and
  // m's columns at 24 and 32 (MATRIX_STRIDE 8); list after inner's 32
  // bytes (its STRIDE) at 40; 52 bytes rounded up to 8.
  const Buffer *data = script.findBuffer("data");
  ASSERT_TRUE(data);
  EXPECT_EQ(data->elementCount, 1u);
  EXPECT_EQ(data->values[1], Value::fromInt(2));
  EXPECT_EQ(data->values[2], Value::fromDouble(3));
  std::vector<ScalarSlot> slots = scalarSlots(data->type, data->layout);
  std::vector<uint64_t> offsets;
  for (const ScalarSlot &slot : slots)
    offsets.push_back(slot.offset);
  EXPECT_EQ(offsets,
            (std::vector<uint64_t>{4, 16, 24, 28, 32, 36, 40, 44, 48}));
  EXPECT_EQ(data->stride(), 56u);
}

TEST(AmberParser, ImagesSamplersAndBindings) {
  Script script = parseOk(R"(#!amber
SHADER compute main GLSL
void main() {}
END
IMAGE volume DATA_TYPE vec4<int32> DIM_3D \
  WIDTH 2 HEIGHT 2 DEPTH 2 FILL 0
IMAGE texture FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 4 MIP_LEVELS 2
BUFFER fb FORMAT B8G8R8A8_UNORM SAMPLES 4
BUFFER a DATA_TYPE uint32 SIZE 128 FILL 0
BUFFER b DATA_TYPE uint32 SIZE 128 FILL 0
BUFFER texels DATA_TYPE R32G32B32A32_SFLOAT DATA 1 2 3 4 END
SAMPLER s MAG_FILTER linear MIN_FILTER linear ADDRESS_MODE_U clamp_to_border \
  BORDER_COLOR int_opaque_white MIN_LOD 1 MAX_LOD 4.5 UNNORMALIZED_COORDS \
  COMPARE on COMPARE_OP less_or_equal MIPMAP_MODE linear
SAMPLER t

PIPELINE compute p
  ATTACH main
  BIND BUFFER volume AS storage_image DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER texture AS combined_image_sampler SAMPLER s \
    DESCRIPTOR_SET 0 BINDING 1 BASE_MIP_LEVEL 1
  BIND SAMPLER t DESCRIPTOR_SET 0 BINDING 2
  BIND SAMPLER_ARRAY s t DESCRIPTOR_SET 0 BINDING 3
  BIND BUFFER_ARRAY a b AS storage_dynamic DESCRIPTOR_SET 1 BINDING 0 \
    OFFSET 0 256 DESCRIPTOR_OFFSET 0 16 DESCRIPTOR_RANGE 64 32
  BIND BUFFER texels AS uniform_texel_buffer DESCRIPTOR_SET 1 BINDING 1
END
)");
  const Buffer *volume = script.findBuffer("volume");
  ASSERT_TRUE(volume);
  EXPECT_EQ(volume->dimension, ImageDimension::Dim3D);
  EXPECT_EQ(volume->elementCount, 8u);
  EXPECT_EQ(volume->byteSize(), 128u);
  const Buffer *texture = script.findBuffer("texture");
  EXPECT_TRUE(texture->declaredWithFormat);
  EXPECT_EQ(texture->mipLevels, 2u);
  EXPECT_EQ(texture->elementCount, 16u);
  EXPECT_EQ(texture->stride(), 4u);
  EXPECT_EQ(script.findBuffer("fb")->samples, 4u);
  EXPECT_EQ(script.findBuffer("fb")->elementCount, 0u);
  EXPECT_EQ(script.findBuffer("texels")->elementCount, 1u);

  const Sampler *s = script.findSampler("s");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->magFilter, Filter::Linear);
  EXPECT_EQ(s->minFilter, Filter::Linear);
  EXPECT_EQ(s->mipmapMode, Filter::Linear);
  EXPECT_EQ(s->addressU, AddressMode::ClampToBorder);
  EXPECT_EQ(s->addressV, AddressMode::Repeat);
  EXPECT_EQ(s->borderColor, BorderColor::IntOpaqueWhite);
  // UNNORMALIZED_COORDS after them resets the LODs, as in Amber.
  EXPECT_EQ(s->minLod, 0.0f);
  EXPECT_EQ(s->maxLod, 0.0f);
  EXPECT_FALSE(s->normalizedCoords);
  EXPECT_TRUE(s->compareEnable);
  EXPECT_EQ(s->compareOp, CompareOp::LessOrEqual);
  // Amber's defaults.
  const Sampler *t = script.findSampler("t");
  EXPECT_EQ(t->magFilter, Filter::Nearest);
  EXPECT_EQ(t->maxLod, 1.0f);
  EXPECT_TRUE(t->normalizedCoords);

  const Pipeline *p = script.findPipeline("p");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->bindings.size(), 6u);
  const DescriptorBinding *combined = p->findBinding(0, 1);
  EXPECT_EQ(combined->kind, DescriptorKind::CombinedImageSampler);
  EXPECT_EQ(combined->samplers, std::vector<std::string>{"s"});
  EXPECT_EQ(combined->baseMipLevel, 1u);
  EXPECT_EQ(p->findBinding(0, 2)->kind, DescriptorKind::Sampler);
  EXPECT_EQ(p->findBinding(0, 3)->samplers,
            (std::vector<std::string>{"s", "t"}));
  const DescriptorBinding *dynamic = p->findBinding(1, 0);
  EXPECT_EQ(dynamic->kind, DescriptorKind::StorageBufferDynamic);
  EXPECT_EQ(dynamic->buffers, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(dynamic->dynamicOffsets, (std::vector<uint32_t>{0, 256}));
  EXPECT_EQ(dynamic->descriptorOffsets, (std::vector<uint64_t>{0, 16}));
  EXPECT_EQ(dynamic->descriptorRanges, (std::vector<uint64_t>{64, 32}));
  EXPECT_EQ(p->findBinding(1, 1)->kind, DescriptorKind::UniformTexelBuffer);
}

TEST(AmberParser, DerivedPipelinesAndOpenCl) {
  Script script = parseOk(R"(#!amber
SHADER compute kernel OPENCL-C
kernel void line(global uint* in, global uint* out, uint slope) {}
END
BUFFER in DATA_TYPE uint32 DATA 3 END
BUFFER out1 DATA_TYPE uint32 DATA 0 END
BUFFER out2 DATA_TYPE uint32 DATA 0 END
BUFFER s0 DATA_TYPE uint32 DATA 0 END
BUFFER s1 DATA_TYPE uint32 DATA 0 END

PIPELINE compute p1
  ATTACH kernel ENTRY_POINT line
  BIND BUFFER in KERNEL ARG_NAME in
  BIND BUFFER out1 AS storage KERNEL ARG_NUMBER 1
  SET KERNEL ARG_NAME slope AS int32 -3
  BIND BUFFER s0 AS storage DESCRIPTOR_SET 2 BINDING 0
  SUBGROUP kernel
    FULLY_POPULATED on
    REQUIRED_SIZE 16
  END
END
DERIVE_PIPELINE p2 FROM p1
  BIND BUFFER out2 AS storage KERNEL ARG_NUMBER 1
  BIND BUFFER s1 AS storage DESCRIPTOR_SET 2 BINDING 0
  COMPILE_OPTIONS kernel
    -cluster-pod-kernel-args -pod-ubo
  END
END
RUN p2 1 1 1
)");
  const Pipeline *p1 = script.findPipeline("p1");
  const Pipeline *p2 = script.findPipeline("p2");
  ASSERT_TRUE(p1 && p2);
  ASSERT_EQ(p1->kernelArgs.size(), 2u);
  EXPECT_EQ(p1->kernelArgs[0].argName, "in");
  EXPECT_FALSE(p1->kernelArgs[0].kind);
  EXPECT_EQ(p1->kernelArgs[1].argNumber, 1u);
  EXPECT_EQ(p1->kernelArgs[1].kind, DescriptorKind::StorageBuffer);
  ASSERT_EQ(p1->kernelArgValues.size(), 1u);
  EXPECT_EQ(p1->kernelArgValues[0].argName, "slope");
  EXPECT_EQ(p1->kernelArgValues[0].value, Value::fromInt(-3));
  ASSERT_TRUE(p1->shaders[0].subgroup);
  EXPECT_TRUE(p1->shaders[0].subgroup->fullyPopulated);
  EXPECT_FALSE(p1->shaders[0].subgroup->varyingSize);
  EXPECT_EQ(p1->shaders[0].subgroup->requiredSize, 16u);
  EXPECT_TRUE(p1->shaders[0].compileOptions.empty());

  // The derived pipeline is a copy: rebinding replaces what the parent had
  // at the same argument and set/binding.
  EXPECT_EQ(p2->derivedFrom, "p1");
  EXPECT_EQ(p2->shaders[0].entryPoint, "line");
  ASSERT_EQ(p2->kernelArgs.size(), 2u);
  EXPECT_EQ(p2->kernelArgs[1].buffer, "out2");
  ASSERT_EQ(p2->bindings.size(), 1u);
  EXPECT_EQ(p2->bindings[0].buffers, std::vector<std::string>{"s1"});
  EXPECT_EQ(p2->shaders[0].compileOptions,
            (std::vector<std::string>{"-cluster-pod-kernel-args", "-pod-ubo"}));
  EXPECT_EQ(p1->bindings[0].buffers, std::vector<std::string>{"s0"});
}

TEST(AmberParser, Files) {
  TempDir dir;
  dir.write("shaders/copy.comp", "void main() {}\n");
  dir.write("data.txt", "1.0 2.0\n3.0 # comment\n4.0\n");
  dir.write("data.bin", std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  dir.write("image.png", "not really a png");
  std::string script = dir.write("t.amber", R"(#!amber
VIRTUAL_FILE "include/common.h"
#define ONE 1
END
SHADER compute fromFile GLSL FILE shaders/copy.comp
SHADER compute fromVirtual HLSL VIRTUAL_FILE include/common.h
BUFFER text DATA_TYPE vec2<float> SIZE 2 FILE TEXT data.txt
BUFFER binary DATA_TYPE uint32 SIZE 2 FILE BINARY data.bin
BUFFER png FORMAT R8G8B8A8_UNORM FILE PNG image.png
)");
  llvm::Expected<Script> parsed = parseScript(script);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->findVirtualFile("include/common.h")->contents,
            "#define ONE 1\n");
  const Shader *fromFile = parsed->findShader("fromFile");
  EXPECT_EQ(fromFile->source, "void main() {}\n");
  EXPECT_EQ(fromFile->filePath, "shaders/copy.comp");
  EXPECT_EQ(fromFile->resolvedPath, dir.path("shaders/copy.comp"));
  EXPECT_EQ(parsed->findShader("fromVirtual")->source, "#define ONE 1\n");
  EXPECT_EQ(parsed->findShader("fromVirtual")->virtualFile, "include/common.h");
  EXPECT_EQ(doubles(parsed->findBuffer("text")->values),
            (std::vector<double>{1, 2, 3, 4}));
  const Buffer *binary = parsed->findBuffer("binary");
  EXPECT_EQ(binary->init, InitKind::Bytes);
  EXPECT_EQ(binary->initialBytes(),
            (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  const Buffer *png = parsed->findBuffer("png");
  EXPECT_EQ(png->init, InitKind::Png);
  EXPECT_EQ(png->resolvedPath, dir.path("image.png"));
}

TEST(AmberParser, GraphicsIsRecorded) {
  Script script = parseOk(R"(#!amber
SHADER vertex vert PASSTHROUGH
SHADER fragment frag GLSL
void main() {}
END
BUFFER framebuffer FORMAT B8G8R8A8_UNORM
BUFFER position DATA_TYPE vec2<float> DATA -1 -1 1 1 END
PIPELINE graphics g
  ATTACH vert
  ATTACH frag
  FRAMEBUFFER_SIZE 32 16
  BIND BUFFER framebuffer AS color LOCATION 0
  VERTEX_DATA position LOCATION 0 RATE instance
  DEPTH
    TEST on
  END
  VIEWPORT 0 0 SIZE 32 16
END
CLEAR_COLOR g 255 0 51 255
CLEAR g
RUN g DRAW_RECT POS 0 0 SIZE 32 16
RUN g DRAW_ARRAY AS TRIANGLE_LIST START_IDX 0 COUNT 2
EXPECT framebuffer IDX 0 0 SIZE 2 2 EQ_RGBA 255 0 51 255 TOLERANCE 1 1 1 0
DEBUG g 1 1 1
  THREAD GLOBAL_INVOCATION_ID 0 0 0
    STEP_IN
  END
END
)");
  EXPECT_TRUE(script.findShader("vert")->passthrough);
  const Pipeline *g = script.findPipeline("g");
  ASSERT_TRUE(g);
  EXPECT_FALSE(g->isCompute());
  EXPECT_EQ(g->framebufferWidth, 32u);
  EXPECT_EQ(g->framebufferHeight, 16u);
  ASSERT_EQ(g->colorAttachments.size(), 1u);
  EXPECT_EQ(g->colorAttachments[0].buffer, "framebuffer");
  ASSERT_EQ(g->vertexData.size(), 1u);
  EXPECT_TRUE(g->vertexData[0].instanceRate);
  ASSERT_EQ(g->graphicsSettings.size(), 4u);
  EXPECT_EQ(g->graphicsSettings[1].text, "TEST on");
  EXPECT_EQ(g->graphicsSettings[3].text, "VIEWPORT 0 0 SIZE 32 16");

  ASSERT_EQ(script.commands.size(), 6u);
  const ClearCommand *clearColor = commandAt<ClearCommand>(script, 0);
  ASSERT_TRUE(clearColor);
  EXPECT_EQ(clearColor->target, ClearCommand::Target::Color);
  EXPECT_EQ(clearColor->values, (std::array<double, 4>{1, 0, 0.2, 1}));
  const DrawCommand *rect = commandAt<DrawCommand>(script, 2);
  ASSERT_TRUE(rect);
  EXPECT_EQ(rect->drawKind, DrawCommand::DrawKind::Rect);
  EXPECT_EQ(rect->width, 32.0f);
  const DrawCommand *array = commandAt<DrawCommand>(script, 3);
  ASSERT_TRUE(array);
  EXPECT_EQ(array->topology, "TRIANGLE_LIST");
  EXPECT_EQ(array->vertexCount, 2u);
  const ExpectRectCommand *probe = commandAt<ExpectRectCommand>(script, 4);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->line, 23u);
  EXPECT_TRUE(probe->hasAlpha);
  EXPECT_EQ(probe->width, 2.0f);
  EXPECT_EQ(probe->color, (std::array<double, 4>{1, 0, 0.2, 1}));
  EXPECT_EQ(probe->tolerances.size(), 4u);
  const DebugCommand *debug = commandAt<DebugCommand>(script, 5);
  ASSERT_TRUE(debug);
  EXPECT_EQ(debug->pipeline, "g");
}

TEST(AmberParser, FirstLineDecidesTheFormat) {
  EXPECT_EQ(detectScriptFormat("#!amber\n"), ScriptFormat::AmberScript);
  EXPECT_EQ(detectScriptFormat("#!amber"), ScriptFormat::AmberScript);
  EXPECT_EQ(detectScriptFormat("# comment\n#!amber\n"), ScriptFormat::VkScript);
  EXPECT_EQ(detectScriptFormat("[compute shader]\n"), ScriptFormat::VkScript);
  EXPECT_EQ(parseOk("#!amber\n").format, ScriptFormat::AmberScript);
  EXPECT_EQ(parseOk("# only a comment\n").format, ScriptFormat::VkScript);
}

/// A script that uses most commands, for the prefix test.
const char *kPrefixScript = R"(#!amber
STRUCT s
  float a
  int32 b OFFSET 8
END
SHADER compute main GLSL
void main() {}
END
BUFFER buf DATA_TYPE s STD140 DATA 1.5 2 END
BUFFER img FORMAT R8G8B8A8_UNORM
IMAGE im DATA_TYPE float DIM_2D WIDTH 2 HEIGHT 2 DATA 1 2 3 4 END
SAMPLER smp MAG_FILTER linear
PIPELINE compute p
  ATTACH main ENTRY_POINT main SPECIALIZE 0 AS int32 -1
  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER im AS combined_image_sampler SAMPLER smp \
    DESCRIPTOR_SET 0 BINDING 1
END
DERIVE_PIPELINE q FROM p
END
REPEAT 2
  RUN q 1 1 1
END
EXPECT buf IDX 0 TOLERANCE 1% EQ 1.5 2
EXPECT im IDX 0 0 SIZE 1 1 EQ_RGBA 1 2 3 4
EXPECT buf EQ_BUFFER buf
)";

TEST(AmberParser, EveryPrefixParsesOrFailsCleanly) {
  ASSERT_EQ(parseError(kPrefixScript), "<success>");
  llvm::StringRef full(kPrefixScript);
  for (size_t length = 0; length <= full.size(); ++length) {
    llvm::Expected<Script> script =
        parseScriptText(full.take_front(length), "t.amber");
    if (!script) {
      std::string message = llvm::toString(script.takeError());
      EXPECT_TRUE(llvm::StringRef(message).starts_with("error: t.amber:"))
          << message;
    }
  }
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

const char *kShader = "SHADER compute main GLSL\nvoid main() {}\nEND\n";

TEST(AmberParserError, UnknownCommand) {
  EXPECT_EQ(parseError("#!amber\n\nFOO bar\n"),
            "error: t.amber:3: unknown command 'FOO'");
  EXPECT_EQ(parseError(std::string("#!amber\n") + kShader +
                       "PIPELINE compute p\n  ATTACH main\n  BINDING 0\nEND\n"),
            "error: t.amber:7: unknown command 'BINDING' in PIPELINE 'p'");
}

TEST(AmberParserError, MalformedNumber) {
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE int32 DATA\n1 2\n3\n4\n"
                       "5\nx12\nEND\n"),
            "error: t.amber:7: malformed number 'x12' in DATA");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE int32 DATA 1.5 END\n"),
            "error: t.amber:2: '1.5' is not an integer (int32) in DATA");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE float SIZE 2 FILL one\n"),
            "error: t.amber:2: malformed number 'one' in FILL");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE float SIZE 2 FILL\n"),
            "error: t.amber:2: missing value in FILL");
  EXPECT_EQ(
      parseError("#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\n"
                 "PIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS uint32 x\n"
                 "END\n"),
      "error: t.amber:6: malformed number 'x' in SPECIALIZE");
  EXPECT_EQ(parseError("#!amber\nIMAGE img DIM_2D WIDTH 2 HEIGHT 2\n"),
            "error: t.amber:2: missing DATA_TYPE or FORMAT in IMAGE 'img'");
  EXPECT_EQ(parseError("#!amber\nIMAGE img FORMAT R32_SFLOAT WIDTH 2 "
                       "DATA_TYPE float\n"),
            "error: t.amber:2: IMAGE 'img' has two types: FORMAT and "
            "DATA_TYPE");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE float SIZE 2x FILL 1\n"),
            "error: t.amber:2: malformed number '2x' in BUFFER 'b'");
}

TEST(AmberParserError, MissingEnd) {
  EXPECT_EQ(parseError("#!amber\n\nSHADER compute main GLSL\nvoid main() {}\n"),
            "error: t.amber:3: missing END for SHADER 'main' (opened at line "
            "3)");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE int32 DATA\n1 2\n"),
            "error: t.amber:2: missing END for DATA of BUFFER 'b' (opened at "
            "line 2)");
  EXPECT_EQ(parseError(std::string("#!amber\n") + kShader +
                       "PIPELINE compute p\n  ATTACH main\n"),
            "error: t.amber:5: missing END for PIPELINE 'p' (opened at line "
            "5)");
  EXPECT_EQ(parseError(std::string("#!amber\n") + kShader +
                       "PIPELINE compute p\n  ATTACH main\nEND\n"
                       "REPEAT 2\n  RUN p 1 1 1\n"),
            "error: t.amber:8: missing END for REPEAT (opened at line 8)");
  EXPECT_EQ(parseError("#!amber\nSTRUCT s\n  float a\n"),
            "error: t.amber:2: missing END for STRUCT 's' (opened at line 2)");
}

TEST(AmberParserError, UnknownBuffer) {
  std::string prefix = std::string("#!amber\n") + kShader +
                       "BUFFER b DATA_TYPE int32 DATA 1 END\n";
  EXPECT_EQ(parseError(prefix +
                       "PIPELINE compute p\n  ATTACH main\n"
                       "  BIND BUFFER buf9 AS storage DESCRIPTOR_SET 0 "
                       "BINDING 0\nEND\n"),
            "error: t.amber:8: unknown buffer 'buf9' in BIND");
  EXPECT_EQ(parseError(prefix + "EXPECT buf9 IDX 0 EQ 1\n"),
            "error: t.amber:6: unknown buffer 'buf9' in EXPECT");
  EXPECT_EQ(parseError(prefix + "EXPECT b EQ_BUFFER buf9\n"),
            "error: t.amber:6: unknown buffer 'buf9' in EXPECT EQ_BUFFER");
  EXPECT_EQ(parseError(prefix + "COPY b TO buf9\n"),
            "error: t.amber:6: unknown buffer 'buf9' in COPY");
}

TEST(AmberParserError, UnknownPipelineShaderAndSampler) {
  std::string prefix = std::string("#!amber\n") + kShader;
  EXPECT_EQ(parseError(prefix + "RUN nope 1 1 1\n"),
            "error: t.amber:5: unknown pipeline 'nope' in RUN");
  EXPECT_EQ(parseError(prefix + "PIPELINE compute p\n  ATTACH other\nEND\n"),
            "error: t.amber:6: unknown shader 'other' in ATTACH");
  EXPECT_EQ(parseError(prefix +
                       "BUFFER t FORMAT R8G8B8A8_UNORM\n"
                       "PIPELINE compute p\n  ATTACH main\n"
                       "  BIND BUFFER t AS combined_image_sampler "
                       "SAMPLER nos DESCRIPTOR_SET 0 BINDING 0\nEND\n"),
            "error: t.amber:8: unknown sampler 'nos' in BIND BUFFER");
}

TEST(AmberParserError, BadTypes) {
  EXPECT_EQ(
      parseError("#!amber\nBUFFER b DATA_TYPE vec5<float> SIZE 1 FILL 0\n"),
      "error: t.amber:2: unknown type 'vec5<float>' in DATA_TYPE");
  EXPECT_EQ(parseError("#!amber\nBUFFER b FORMAT R8G8B8A8_FOO\n"),
            "error: t.amber:2: unknown format 'R8G8B8A8_FOO' in BUFFER 'b'");
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE vec2<float> SIZE 2 "
                       "SERIES_FROM 1 INC_BY 1\n"),
            "error: t.amber:2: SERIES_FROM needs a scalar type, not "
            "'vec2<float>', in BUFFER 'b'");
  EXPECT_EQ(parseError("#!amber\nSTRUCT s\n  s inner\nEND\n"),
            "error: t.amber:3: STRUCT 's' cannot contain itself");
}

TEST(AmberParserError, Statements) {
  std::string compute = std::string("#!amber\n") + kShader +
                        "PIPELINE compute p\n  ATTACH main\nEND\n";
  EXPECT_EQ(parseError(compute + "RUN p 1 1 1 extra\n"),
            "error: t.amber:8: unexpected 'extra' after RUN");
  EXPECT_EQ(parseError(compute + "RUN p 1 -1 1\n"),
            "error: t.amber:8: '-1' is out of range in RUN");
  EXPECT_EQ(parseError(compute + "RUN p DRAW_RECT POS 0 0 SIZE 1 1\n"),
            "error: t.amber:8: RUN DRAW_RECT needs a graphics pipeline; 'p' is "
            "compute");
  EXPECT_EQ(parseError(compute + "BUFFER p DATA_TYPE int32 DATA 1 END\n"
                                 "BUFFER p DATA_TYPE int32 DATA 1 END\n"),
            "error: t.amber:9: duplicate buffer name 'p'");
  EXPECT_EQ(parseError(compute + "REPEAT 2\n  BUFFER b DATA_TYPE int32 SIZE 1 "
                                 "FILL 0\nEND\n"),
            "error: t.amber:9: 'BUFFER' is not allowed in REPEAT");
  EXPECT_EQ(parseError(compute + "BUFFER b DATA_TYPE int32 DATA 1 END\n"
                                 "EXPECT b IDX 0 TOLERANCE 1 NE 1\n"),
            "error: t.amber:9: TOLERANCE works only with EQ in EXPECT");
  EXPECT_EQ(parseError(compute + "BUFFER b DATA_TYPE int32 DATA 1 END\n"
                                 "EXPECT b IDX 0 EQ\n"),
            "error: t.amber:9: missing values in EXPECT");
}

TEST(AmberParserError, Pipelines) {
  std::string prefix = std::string("#!amber\n") + kShader;
  EXPECT_EQ(parseError(prefix + "PIPELINE compute p\nEND\n"),
            "error: t.amber:5: PIPELINE 'p' is compute and needs one compute "
            "shader, not 0");
  EXPECT_EQ(parseError(prefix + "SHADER vertex v PASSTHROUGH\n"
                                "PIPELINE compute p\n  ATTACH v\nEND\n"),
            "error: t.amber:7: cannot attach vertex shader 'v' to compute "
            "pipeline 'p'");
  EXPECT_EQ(parseError(prefix + "SHADER vertex v PASSTHROUGH\n"
                                "SHADER fragment f GLSL\nvoid main() {}\nEND\n"
                                "PIPELINE graphics g\n  ATTACH v\n  ATTACH f\n"
                                "END\nRUN g 1 1 1\n"),
            "error: t.amber:13: RUN with workgroup counts needs a compute "
            "pipeline; 'g' is graphics");
  EXPECT_EQ(parseError(prefix + "BUFFER b DATA_TYPE int32 DATA 1 END\n"
                                "PIPELINE compute p\n  ATTACH main\n"
                                "  BIND BUFFER b AS storage_dynamic "
                                "DESCRIPTOR_SET 0 BINDING 0\nEND\n"),
            "error: t.amber:8: BIND BUFFER AS storage_dynamic needs OFFSET");
  EXPECT_EQ(parseError(prefix + "BUFFER b DATA_TYPE int32 DATA 1 END\n"
                                "PIPELINE compute p\n  ATTACH main\n"
                                "  BIND BUFFER b DESCRIPTOR_SET 0 BINDING 0\n"
                                "END\n"),
            "error: t.amber:8: expected AS or KERNEL in BIND BUFFER, got "
            "'DESCRIPTOR_SET'");
}

TEST(AmberParserError, Files) {
  EXPECT_EQ(parseError("#!amber\nBUFFER b DATA_TYPE int32 SIZE 1 FILE TEXT "
                       "/nonexistent/data.txt\n"),
            "error: t.amber:2: cannot read '/nonexistent/data.txt' in BUFFER "
            "'b': No such file or directory");
  EXPECT_EQ(errorText(parseScript("/nonexistent/t.amber")),
            "error: /nonexistent/t.amber: cannot read: No such file or "
            "directory");
}

} // namespace

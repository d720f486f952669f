//===- SpecializationTest.cpp - --spec parsing and specialization ---------===//

#include "TestUtil.h"

#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/Specialization.h"
#include "spvbridge/spirv/Validator.h"

using namespace spvb;
using namespace spvb::test;

namespace {

SpecConstantValue parse(llvm::StringRef arg) {
  return unwrap(parseSpecArgument(arg));
}

std::vector<uint32_t> words(llvm::StringRef arg) { return parse(arg).words; }

TEST(SpecArgument, ParsesIntegers) {
  SpecConstantValue v = parse("3:u32:64");
  EXPECT_EQ(v.id, 3u);
  EXPECT_EQ(v.type, "u32");
  EXPECT_EQ(v.words, (std::vector<uint32_t>{64}));
  EXPECT_EQ(parse("0x10:u32:1").id, 16u);
  EXPECT_EQ(words("0:u32:0xffffffff"), (std::vector<uint32_t>{0xffffffff}));
  EXPECT_EQ(words("0:i32:-1"), (std::vector<uint32_t>{0xffffffff}));
  EXPECT_EQ(words("0:i32:-2147483648"), (std::vector<uint32_t>{0x80000000}));
  EXPECT_EQ(words("0:i32:-0x10"), (std::vector<uint32_t>{0xfffffff0}));
  // Decimal with a leading zero stays decimal.
  EXPECT_EQ(words("0:u32:010"), (std::vector<uint32_t>{10}));
  // Narrow types: signed ones sign-extend to the literal word.
  EXPECT_EQ(words("0:u8:255"), (std::vector<uint32_t>{0xff}));
  EXPECT_EQ(words("0:i8:-128"), (std::vector<uint32_t>{0xffffff80}));
  EXPECT_EQ(words("0:u16:0xffff"), (std::vector<uint32_t>{0xffff}));
  EXPECT_EQ(words("0:i16:-2"), (std::vector<uint32_t>{0xfffffffe}));
  // 64-bit values: low word first.
  EXPECT_EQ(words("0:u64:0x123456789abcdef0"),
            (std::vector<uint32_t>{0x9abcdef0, 0x12345678}));
  EXPECT_EQ(words("0:i64:-1"), (std::vector<uint32_t>{0xffffffff, 0xffffffff}));
  EXPECT_EQ(words("0:u64:18446744073709551615"),
            (std::vector<uint32_t>{0xffffffff, 0xffffffff}));
}

TEST(SpecArgument, ParsesFloatsAndBools) {
  // IEEE bit patterns: 1.5f = 0x3fc00000, -2.0f = 0xc0000000,
  // 0.1 (double) = 0x3fb999999999999a, 1.0 (half) = 0x3c00.
  EXPECT_EQ(words("1:f32:1.5"), (std::vector<uint32_t>{0x3fc00000}));
  EXPECT_EQ(words("1:f32:-2"), (std::vector<uint32_t>{0xc0000000}));
  EXPECT_EQ(words("1:f32:1e3"), (std::vector<uint32_t>{0x447a0000}));
  EXPECT_EQ(words("1:f64:0.1"),
            (std::vector<uint32_t>{0x9999999a, 0x3fb99999}));
  EXPECT_EQ(words("1:f16:1.0"), (std::vector<uint32_t>{0x3c00}));
  EXPECT_EQ(words("1:f16:-0.5"), (std::vector<uint32_t>{0xb800}));
  EXPECT_EQ(words("2:bool:true"), (std::vector<uint32_t>{1}));
  EXPECT_EQ(words("2:bool:1"), (std::vector<uint32_t>{1}));
  EXPECT_EQ(words("2:bool:false"), (std::vector<uint32_t>{0}));
  EXPECT_EQ(words("2:bool:0"), (std::vector<uint32_t>{0}));
}

TEST(SpecArgument, Errors) {
  EXPECT_EQ(errorText(parseSpecArgument("1:u32")),
            "error: --spec '1:u32': expected ID:TYPE:VALUE");
  EXPECT_EQ(errorText(parseSpecArgument("1:u32:2:3")),
            "error: --spec '1:u32:2:3': expected ID:TYPE:VALUE");
  EXPECT_EQ(errorText(parseSpecArgument("")),
            "error: --spec '': expected ID:TYPE:VALUE");
  EXPECT_EQ(errorText(parseSpecArgument("x:u32:1")),
            "error: --spec 'x:u32:1': bad id 'x' (expected an unsigned "
            "32-bit integer)");
  EXPECT_EQ(errorText(parseSpecArgument("-1:u32:1")),
            "error: --spec '-1:u32:1': bad id '-1' (expected an unsigned "
            "32-bit integer)");
  EXPECT_EQ(errorText(parseSpecArgument("4294967296:u32:1")),
            "error: --spec '4294967296:u32:1': bad id '4294967296' (expected "
            "an unsigned 32-bit integer)");
  EXPECT_EQ(errorText(parseSpecArgument("1:int:5")),
            "error: --spec '1:int:5': unknown type 'int' (expected bool, u8, "
            "i8, u16, i16, u32, i32, u64, i64, f16, f32 or f64)");
  EXPECT_EQ(errorText(parseSpecArgument("1:f8:5")),
            "error: --spec '1:f8:5': unknown type 'f8' (expected bool, u8, "
            "i8, u16, i16, u32, i32, u64, i64, f16, f32 or f64)");
  EXPECT_EQ(errorText(parseSpecArgument("1:u32:-1")),
            "error: --spec '1:u32:-1': bad value '-1' for type u32");
  EXPECT_EQ(errorText(parseSpecArgument("1:u8:256")),
            "error: --spec '1:u8:256': bad value '256' for type u8");
  EXPECT_EQ(errorText(parseSpecArgument("1:i8:128")),
            "error: --spec '1:i8:128': bad value '128' for type i8");
  EXPECT_EQ(errorText(parseSpecArgument("1:i32:0xffffffff")),
            "error: --spec '1:i32:0xffffffff': bad value '0xffffffff' for "
            "type i32");
  EXPECT_EQ(errorText(parseSpecArgument("1:u32:12abc")),
            "error: --spec '1:u32:12abc': bad value '12abc' for type u32");
  EXPECT_EQ(errorText(parseSpecArgument("1:u32:")),
            "error: --spec '1:u32:': bad value '' for type u32");
  EXPECT_EQ(errorText(parseSpecArgument("1:u32:1.5")),
            "error: --spec '1:u32:1.5': bad value '1.5' for type u32");
  EXPECT_EQ(errorText(parseSpecArgument("1:f32:fast")),
            "error: --spec '1:f32:fast': bad value 'fast' for type f32");
  EXPECT_EQ(errorText(parseSpecArgument("1:f16:70000")),
            "error: --spec '1:f16:70000': bad value '70000' for type f16");
  EXPECT_EQ(errorText(parseSpecArgument("1:bool:yes")),
            "error: --spec '1:bool:yes': bad value 'yes' for type bool");
}

const char *const SpecShader = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint N = 4;
layout(std430, binding = 0) buffer Buf { uint data[]; };
shared uint tile[N];
void main() {
  tile[gl_LocalInvocationIndex % N] = gl_LocalInvocationIndex;
  data[gl_GlobalInvocationID.x] = tile[0] + N;
}
)";

TEST(Specialize, LocalSizeIdAndConstant) {
  SpirvBinary binary = compileCompute(SpecShader);
  ModuleReflection before = unwrap(reflectModule(binary));
  ASSERT_EQ(before.entryPoints.size(), 1u);
  // Unspecialized: the defaults (local_size_x_id defaults to 1).
  EXPECT_EQ(before.entryPoints[0].workgroupSize,
            (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(before.entryPoints[0].workgroupSizeSpecIds[0],
            std::optional<uint32_t>(0));
  EXPECT_EQ(before.workgroupStorage.size, 4u * 4u);

  std::vector<SpecConstantValue> values = {parse("0:u32:64"), parse("1:u32:9")};
  SpirvBinary specialized = unwrap(specialize(binary, values));
  EXPECT_EQ(specialized.name, "test.comp");
  EXPECT_EQ(errorText(validateSpirv(specialized)), "<success>");

  ModuleReflection after = unwrap(reflectModule(specialized));
  ASSERT_EQ(after.entryPoints.size(), 1u);
  EXPECT_EQ(after.entryPoints[0].workgroupSize,
            (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(after.entryPoints[0].workgroupSizeSpecIds[0], std::nullopt);
  EXPECT_TRUE(after.specConstants.empty());
  // shared uint tile[9].
  EXPECT_EQ(after.workgroupStorage.size, 9u * 4u);

  std::string text = disassemble(specialized);
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
  EXPECT_EQ(text.find("SpecId"), std::string::npos) << text;
  EXPECT_NE(text.find("%N = OpConstant %uint 9"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstantComposite %v3uint %uint_64 %uint_1 %uint_1"),
            std::string::npos)
      << text;
  // Debug info survives.
  EXPECT_NE(text.find("OpLine"), std::string::npos);
  EXPECT_NE(text.find("OpName %main \"main\""), std::string::npos);
}

TEST(Specialize, ModuleWithoutSpecConstantsIsUnchanged) {
  SpirvBinary binary = compileCompute(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)");
  SpirvBinary specialized = unwrap(specialize(binary, {}));
  EXPECT_EQ(specialized.words, binary.words);
  EXPECT_EQ(errorText(specialize(binary, {parse("0:u32:1")})),
            "error: test.comp: no specialization constant with SpecId 0");
}

TEST(Specialize, NoValuesFreezesDefaults) {
  SpirvBinary specialized = unwrap(specialize(compileCompute(SpecShader), {}));
  std::string text = disassemble(specialized);
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
  EXPECT_NE(text.find("%N = OpConstant %uint 4"), std::string::npos) << text;
}

TEST(Specialize, LocalSizeIdExecutionMode) {
  // For SPIR-V 1.6 glslang writes OpExecutionModeId LocalSizeId.
  SourceOptions opts;
  opts.targetEnv = "vulkan1.3";
  SpirvBinary binary = compileCompute(SpecShader, opts);
  ASSERT_NE(disassemble(binary).find("LocalSizeId"), std::string::npos);
  ModuleReflection before = unwrap(reflectModule(binary));
  EXPECT_EQ(before.entryPoints[0].workgroupSizeSource,
            WorkgroupSizeSource::LocalSizeId);
  EXPECT_EQ(before.entryPoints[0].workgroupSizeSpecIds[0],
            std::optional<uint32_t>(0));

  SpirvBinary specialized =
      unwrap(specialize(binary, {parse("0:u32:128"), parse("1:u32:2")}));
  EXPECT_EQ(errorText(validateSpirv(specialized, "vulkan1.3")), "<success>");
  ModuleReflection after = unwrap(reflectModule(specialized));
  EXPECT_EQ(after.entryPoints[0].workgroupSize,
            (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(disassemble(specialized).find("OpSpecConstant"), std::string::npos);
}

TEST(Specialize, AllScalarKindsAndFolding) {
  SpirvBinary binary = compileCompute(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 1) const uint N = 4;
layout(constant_id = 2) const int S = -3;
layout(constant_id = 3) const bool FLAG = true;
layout(constant_id = 4) const float F = 1.5;
layout(constant_id = 5) const int16_t H = int16_t(-2);
layout(constant_id = 6) const double D = 2.0;
const uint M = N * 2u + 1u;
const int SI = int(N) + S;
const int HI = int(H) * 3;
layout(std430, binding = 0) buffer Buf { float f; double d; uint data[]; };
void main() {
  data[0] = M;
  data[1] = uint(SI);
  data[2] = FLAG ? 1u : 0u;
  data[3] = uint(HI);
  f = F;
  d = D;
}
)");
  std::vector<SpecConstantValue> values = {
      parse("1:u32:9"),   parse("2:i32:-10"), parse("3:bool:false"),
      parse("4:f32:2.5"), parse("5:i16:-7"),  parse("6:f64:0.25")};
  SpirvBinary specialized = unwrap(specialize(binary, values));
  EXPECT_EQ(errorText(validateSpirv(specialized)), "<success>");
  std::string text = disassemble(specialized);
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
  EXPECT_NE(text.find("%M = OpConstant %uint 19"), std::string::npos) << text;
  EXPECT_NE(text.find("%SI = OpConstant %int -1"), std::string::npos) << text;
  EXPECT_NE(text.find("%FLAG = OpConstantFalse %bool"), std::string::npos);
  EXPECT_NE(text.find("%F = OpConstant %float 2.5"), std::string::npos);
  EXPECT_NE(text.find("%H = OpConstant %short -7"), std::string::npos);
  // int(H) is an SConvert SPIRV-Tools does not fold; we do.
  EXPECT_NE(text.find("%HI = OpConstant %int -21"), std::string::npos) << text;
  EXPECT_NE(text.find("%D = OpConstant %double 0.25"), std::string::npos);
}

TEST(Specialize, SignednessMayDiffer) {
  // u32 value for an int constant: same width, bits reinterpreted.
  SpirvBinary binary = compileCompute(R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 7) const int K = 1;
layout(std430, binding = 0) buffer Buf { int data[]; };
void main() { data[0] = K; }
)");
  SpirvBinary specialized =
      unwrap(specialize(binary, {parse("7:u32:0xfffffffe")}));
  EXPECT_NE(disassemble(specialized).find("%K = OpConstant %int -2"),
            std::string::npos);
}

TEST(Specialize, Errors) {
  SpirvBinary binary = compileCompute(SpecShader);
  EXPECT_EQ(errorText(specialize(binary, {parse("5:u32:1")})),
            "error: test.comp: no specialization constant with SpecId 5");
  EXPECT_EQ(errorText(specialize(binary, {parse("1:f32:1")})),
            "error: test.comp: specialization constant SpecId 1 ('N') has "
            "type u32, but the value given has type f32");
  EXPECT_EQ(errorText(specialize(binary, {parse("1:u64:1")})),
            "error: test.comp: specialization constant SpecId 1 ('N') has "
            "type u32, but the value given has type u64");
  EXPECT_EQ(errorText(specialize(binary, {parse("1:bool:1")})),
            "error: test.comp: specialization constant SpecId 1 ('N') has "
            "type u32, but the value given has type bool");
  EXPECT_EQ(errorText(specialize(binary, {parse("1:u32:1"), parse("1:u32:2")})),
            "error: test.comp: SpecId 1 is given more than once");
}

TEST(Specialize, UnfoldableOperationIsLeftOverFrozenConstants) {
  // SPIRV-Tools folds no float arithmetic in OpSpecConstantOp (only OpenCL
  // kernels may use FAdd there): the operation stays, over the frozen
  // constant, for the deserializer to evaluate.
  SpirvBinary binary = unwrap(assembleSpirv(R"(
               OpCapability Shader
               OpCapability Kernel
               OpCapability Addresses
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
               OpName %b "twice"
               OpDecorate %a SpecId 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
          %a = OpSpecConstant %float 1
          %b = OpSpecConstantOp %float FAdd %a %a
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)",
                                            "k.spvasm", {}));
  SpirvBinary result = unwrap(specialize(binary, {parse("0:f32:2.5")}));
  std::string text = unwrap(disassembleSpirv(result));
  EXPECT_NE(text.find("OpConstant %float 2.5"), std::string::npos) << text;
  EXPECT_NE(text.find("OpSpecConstantOp %float FAdd"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("OpSpecConstant %"), std::string::npos) << text;
  EXPECT_EQ(text.find("SpecId"), std::string::npos) << text;
}

TEST(Specialize, InvalidInputIsReported) {
  SpirvBinary binary = unwrap(assembleSpirv(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main"
               OpExecutionMode %1 LocalSize 1 1 1
               OpDecorate %7 SpecId 0
          %2 = OpTypeVoid
          %3 = OpTypeFunction %4
          %6 = OpTypeInt 32 0
          %7 = OpSpecConstant %6 1
          %1 = OpFunction %2 None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd
)",
                                            "undef.spvasm", {}));
  EXPECT_EQ(errorText(specialize(binary, {})),
            "error: undef.spvasm: cannot specialize: Operand '4[%4]' "
            "requires a previous definition\n"
            "  %3 = OpTypeFunction %4");
}

} // namespace

//===- ValidatorTest.cpp - SPIR-V validation and target environments ------===//

#include "TestUtil.h"

#include "spvbridge/spirv/ShaderSource.h"
#include "spvbridge/spirv/Validator.h"

using namespace spvb;
using namespace spvb::test;

namespace {

TEST(Validator, ParsesTargetEnvs) {
  struct Case {
    const char *name;
    spv_target_env env;
  };
  for (const Case &c : {Case{"vulkan1.0", SPV_ENV_VULKAN_1_0},
                        Case{"vulkan1.1", SPV_ENV_VULKAN_1_1},
                        Case{"vulkan1.1spv1.4", SPV_ENV_VULKAN_1_1_SPIRV_1_4},
                        Case{"vulkan1.2", SPV_ENV_VULKAN_1_2},
                        Case{"vulkan1.3", SPV_ENV_VULKAN_1_3},
                        Case{"spv1.0", SPV_ENV_UNIVERSAL_1_0},
                        Case{"spv1.3", SPV_ENV_UNIVERSAL_1_3},
                        Case{"spv1.6", SPV_ENV_UNIVERSAL_1_6}}) {
    llvm::Expected<spv_target_env> env = parseTargetEnv(c.name);
    ASSERT_TRUE(static_cast<bool>(env)) << llvm::toString(env.takeError());
    EXPECT_EQ(*env, c.env) << c.name;
  }
}

TEST(Validator, RejectsUnknownTargetEnv) {
  EXPECT_EQ(errorText(parseTargetEnv("opencl2.0")),
            "error: unknown target environment 'opencl2.0' (expected "
            "vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, vulkan1.3, "
            "spv1.0, spv1.1, spv1.2, spv1.3, spv1.4, spv1.5 or spv1.6)");
  EXPECT_EQ(errorText(validateSpirv(SpirvBinary(), "vulkan")),
            "error: unknown target environment 'vulkan' (expected "
            "vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, vulkan1.3, "
            "spv1.0, spv1.1, spv1.2, spv1.3, spv1.4, spv1.5 or spv1.6)");
}

TEST(Validator, AcceptsGlslangOutput) {
  SpirvBinary binary = compileCompute(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { vec4 data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
)");
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
  EXPECT_EQ(errorText(validateSpirv(binary, "vulkan1.3")), "<success>");
}

TEST(Validator, ReportsUndefinedIdWithInstruction) {
  SpirvBinary binary = unwrap(assembleSpirv(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main"
               OpExecutionMode %1 LocalSize 1 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %4
          %1 = OpFunction %2 None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd
)",
                                            "undef.spvasm", {}));
  EXPECT_EQ(errorText(validateSpirv(binary)),
            "error: undef.spvasm: invalid SPIR-V: Operand '4[%4]' requires "
            "a previous definition\n"
            "  %3 = OpTypeFunction %4");
}

TEST(Validator, ReportsBadStore) {
  // Storing a float through a pointer to uint.
  SpirvBinary binary = unwrap(assembleSpirv(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %float_1 = OpConstant %float 1
        %ptr = OpTypePointer Function %uint
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpVariable %ptr Function
               OpStore %v %float_1
               OpReturn
               OpFunctionEnd
)",
                                            "store.spvasm", {}));
  std::string message = errorText(validateSpirv(binary));
  EXPECT_EQ(message.rfind("error: store.spvasm: invalid SPIR-V: ", 0), 0u)
      << message;
  // The validator names the offending instruction, disassembled.
  EXPECT_NE(message.find("\n  OpStore %"), std::string::npos) << message;
}

TEST(Validator, VulkanRulesDependOnTargetEnv) {
  // SPIR-V 1.5 is not allowed by Vulkan 1.0.
  SpirvBinary binary = compileCompute(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)");
  std::string message = errorText(validateSpirv(binary, "vulkan1.0"));
  EXPECT_EQ(message.rfind("error: test.comp: invalid SPIR-V: ", 0), 0u)
      << message;
  EXPECT_EQ(errorText(validateSpirv(binary, "vulkan1.2")), "<success>");
}

TEST(Validator, AcceptsScalarBlockLayout) {
  SpirvBinary binary = compileCompute(R"(#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
layout(scalar, binding = 0) buffer Buf { float a; vec3 b; float c; } buf;
void main() { buf.c = buf.b.x + buf.a; }
)");
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
}

} // namespace

//===- DeviceAddressesTest.cpp - spv-run's --device-buffer and --address -===//
//
// Offsets are derived by hand from the std430 rules (GLSL 4.60 section
// 7.6.2.2); a buffer reference is 8 bytes aligned to 8.
//
//===----------------------------------------------------------------------===//

#include "DeviceAddresses.h"

#include "TestUtil.h"

#include "spvbridge/spirv/Reflection.h"

using namespace spvb;
using namespace spvb::run;
using spvb::test::compileCompute;
using spvb::test::errorText;
using spvb::test::unwrap;

namespace {

BufferName device(const char *name) {
  BufferName result;
  result.device = name;
  return result;
}

BufferName descriptor(uint32_t set, uint32_t binding,
                      std::optional<uint32_t> element = std::nullopt) {
  BufferName result;
  result.set = set;
  result.binding = binding;
  result.element = element;
  return result;
}

AddressArgument parse(const char *text) {
  return unwrap(parseAddressArgument(text));
}

/// A 64-byte device buffer "nodes", a 16-byte descriptor buffer 0:0, an
/// image 0:1 and 8 bytes of push constants.
std::vector<AddressableBuffer> getBuffers() {
  return {{device("nodes"), 64, false},
          {descriptor(0, 0), 16, false},
          {descriptor(0, 1), 16, true}};
}

std::string resolveError(std::vector<const char *> texts,
                         std::optional<uint64_t> pushSize = 8) {
  std::vector<AddressArgument> addresses;
  for (const char *text : texts)
    addresses.push_back(parse(text));
  return errorText(resolveAddresses(addresses, getBuffers(), pushSize));
}

TEST(ResolveAddresses, FindsBuffers) {
  std::vector<AddressArgument> addresses = {
      parse("push:0:nodes"), parse("nodes:8:nodes+16"),
      parse("0:0[0]:8:0:0+16"), parse("nodes:56:0:0")};
  std::vector<ResolvedAddress> resolved =
      unwrap(resolveAddresses(addresses, getBuffers(), 8));
  ASSERT_EQ(resolved.size(), 4u);
  EXPECT_FALSE(resolved[0].where);
  EXPECT_EQ(resolved[0].target, 0u);
  EXPECT_EQ(resolved[1].where, 0u);
  EXPECT_EQ(resolved[1].offset, 8u);
  EXPECT_EQ(resolved[1].addend, 16u);
  // 0:0[0] is 0:0; an address may point to its own buffer's end.
  EXPECT_EQ(resolved[2].where, 1u);
  EXPECT_EQ(resolved[2].target, 1u);
  EXPECT_EQ(resolved[2].addend, 16u);
  // The last 8 bytes of nodes.
  EXPECT_EQ(resolved[3].offset, 56u);
}

TEST(ResolveAddresses, Errors) {
  EXPECT_EQ(resolveError({"push:0:nodes"}, std::nullopt),
            "error: --address 'push:0:nodes': no --push to write the address "
            "into");
  EXPECT_EQ(resolveError({"push:0:other"}),
            "error: --address 'push:0:other': no --device-buffer named "
            "'other'");
  EXPECT_EQ(resolveError({"0:2:0:nodes"}),
            "error: --address '0:2:0:nodes': no --buffer 0:2");
  EXPECT_EQ(resolveError({"0:0[1]:0:nodes"}),
            "error: --address '0:0[1]:0:nodes': no --buffer 0:0[1]");
  EXPECT_EQ(resolveError({"push:0:0:1"}),
            "error: --address 'push:0:0:1': 0:1 is an image; addresses are of "
            "buffers");
  EXPECT_EQ(resolveError({"push:1:nodes"}),
            "error: --address 'push:1:nodes': the 8-byte address at offset 1 "
            "runs past the end of the push constants (8 bytes)");
  EXPECT_EQ(resolveError({"nodes:57:nodes"}),
            "error: --address 'nodes:57:nodes': the 8-byte address at offset "
            "57 runs past the end of device buffer 'nodes' (64 bytes)");
  EXPECT_EQ(resolveError({"0:0:0xffffffffffffffff:nodes"}),
            "error: --address '0:0:0xffffffffffffffff:nodes': the 8-byte "
            "address at offset 18446744073709551615 runs past the end of "
            "buffer 0:0 (16 bytes)");
  EXPECT_EQ(resolveError({"push:0:0:0+17"}),
            "error: --address 'push:0:0:0+17': +17 is past the end of buffer "
            "0:0 (16 bytes)");
  EXPECT_EQ(resolveError({"nodes:8:nodes", "nodes:12:0:0"}),
            "error: --address 'nodes:12:0:0': bytes 12..19 of device buffer "
            "'nodes' are written by --address 'nodes:8:nodes' too");
}

TEST(WriteAddress, LittleEndian) {
  std::vector<uint8_t> bytes(10, 0xee);
  writeAddress(bytes, 1, 0x0807060504030201);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xee, 1, 2, 3, 4, 5, 6, 7, 8, 0xee}));
}

TEST(MaskSameAddresses, SamePlaceOnBothSides) {
  // Buffer 0 at 0x1000 (CPU) and 0x9000 (Vulkan), 64 bytes; buffer 1 at
  // 0x2000 and 0xa000, 16 bytes.
  std::vector<AddressRange> cpuRanges = {{0x1000, 64}, {0x2000, 16}};
  std::vector<AddressRange> vulkanRanges = {{0x9000, 64}, {0xa000, 16}};
  std::vector<uint8_t> cpu(40, 0), vulkan(40, 0);
  writeAddress(cpu, 0, 0x1010); // buffer 0 + 16 on both: masked
  writeAddress(vulkan, 0, 0x9010);
  writeAddress(cpu, 8, 0x2010); // buffer 1's end on both: masked
  writeAddress(vulkan, 8, 0xa010);
  writeAddress(cpu, 16, 0x1010); // + 16 vs + 20: compared
  writeAddress(vulkan, 16, 0x9014);
  writeAddress(cpu, 24, 0x1010); // buffer 0 vs buffer 1: compared
  writeAddress(vulkan, 24, 0xa000);
  writeAddress(cpu, 32, 0x2011); // past buffer 1's end: compared
  writeAddress(vulkan, 32, 0xa011);
  std::vector<uint8_t> cpuBefore = cpu, vulkanBefore = vulkan;
  maskSameAddresses(cpu, vulkan, cpuRanges, vulkanRanges);
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(cpu[i], 0) << i;
    EXPECT_EQ(vulkan[i], 0) << i;
  }
  for (size_t i = 16; i < 40; ++i) {
    EXPECT_EQ(cpu[i], cpuBefore[i]) << i;
    EXPECT_EQ(vulkan[i], vulkanBefore[i]) << i;
  }
}

const char *const ListShader = R"(#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node {
  vec2 v;
  Node next;
  uint data[];
};
layout(push_constant) uniform P { uint n; Node head; uvec2 raw; } p;
void main() { p.head.next.data[1] = p.n + p.raw.x; }
)";

TEST(AddressedLayout, PointeeAtTheAddress) {
  SpirvBinary binary = compileCompute(ListShader);
  ModuleReflection reflection = unwrap(reflectModule(binary));
  BlockScalarLayout push = unwrap(
      getBlockScalarLayout(binary, reflection.pushConstants->variableId));
  // head (offset 8) points to a Node: v at 0, next at 8, data[] from 16.
  std::optional<BlockScalarLayout> node =
      unwrap(getAddressedLayout(binary, push, 8, 0));
  ASSERT_TRUE(node);
  ASSERT_EQ(node->fields.size(), 2u);
  EXPECT_EQ(node->fields[0].offset, 0u);
  EXPECT_EQ(node->fields[1].offset, 4u);
  EXPECT_EQ(node->runtimeArrayOffset, 16u);
  EXPECT_EQ(node->runtimeArrayStride, 4u);
  // 32 bytes into the buffer: everything 32 further.
  std::optional<BlockScalarLayout> moved =
      unwrap(getAddressedLayout(binary, push, 8, 32));
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->fields[0].offset, 32u);
  EXPECT_EQ(moved->fields[1].offset, 36u);
  ASSERT_EQ(moved->pointers.size(), 1u);
  EXPECT_EQ(moved->pointers[0].offset, 40u);
  EXPECT_EQ(moved->runtimeArrayOffset, 48u);
  // The node's next (offset 8) points to a Node too.
  EXPECT_TRUE(unwrap(getAddressedLayout(binary, *node, 8, 0)));
  // raw (uvec2 at 16) is no pointer, nor is n (at 0).
  EXPECT_FALSE(unwrap(getAddressedLayout(binary, push, 16, 0)));
  EXPECT_FALSE(unwrap(getAddressedLayout(binary, push, 0, 0)));

  // A pointer type with ArrayStride 24: Node has a runtime array of its
  // own, which stays.
  BlockScalarLayout where;
  where.pointers.push_back({0, "p", push.pointers[0].pointeeTypeId, 24});
  std::optional<BlockScalarLayout> stepped =
      unwrap(getAddressedLayout(binary, where, 0, 8));
  ASSERT_TRUE(stepped);
  EXPECT_EQ(stepped->runtimeArrayStride, 4u);
  EXPECT_EQ(stepped->runtimeArrayOffset, 24u);

  // A pointer to a uint (glslang declares one for data[1]) with ArrayStride
  // 8, 4 bytes into the buffer: uints at 4, 12, 20, ... (OpPtrAccessChain
  // steps over whole pointees).
  uint32_t uintType = 0;
  for (uint32_t pointee : unwrap(getPhysicalPointeeTypes(binary))) {
    BlockScalarLayout layout = unwrap(getPointeeScalarLayout(binary, pointee));
    if (layout.fields.size() == 1 && layout.fields[0].getTypeName() == "u32")
      uintType = pointee;
  }
  ASSERT_NE(uintType, 0u);
  where.pointers[0] = {0, "p", uintType, 8};
  std::optional<BlockScalarLayout> uints =
      unwrap(getAddressedLayout(binary, where, 0, 4));
  ASSERT_TRUE(uints);
  EXPECT_TRUE(uints->fields.empty());
  std::vector<uint64_t> offsets;
  uints->forEachScalar(28, [&](const BufferScalar &scalar) {
    offsets.push_back(scalar.offset);
  });
  EXPECT_EQ(offsets, (std::vector<uint64_t>{4, 12, 20}));
}

TEST(AddressedLayout, Words) {
  BlockScalarLayout words = getWordLayout();
  std::vector<std::string> paths;
  words.forEachScalar(
      10, [&](const BufferScalar &scalar) { paths.push_back(scalar.path); });
  // 10 bytes: two whole words.
  EXPECT_EQ(paths, (std::vector<std::string>{"word[0]", "word[1]"}));
}

} // namespace

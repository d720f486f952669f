//===- RunArgumentsTest.cpp - spv-run's argument and data handling --------===//
//
// Expected bytes are derived by hand from IEEE 754 encodings and two's
// complement, little-endian (e.g. 1.0f = 0x3f800000 -> 00 00 80 3f, 2.5f =
// 0x40200000, 1.0 = 0x3ff0000000000000, half 1.0 = 0x3c00, half 0.1 =
// 0x2e66). Error texts are checked whole.
//
//===----------------------------------------------------------------------===//

#include "RunArguments.h"
#include "TestUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace spvb::run;
using spvb::test::errorText;
using spvb::test::TempDir;
using spvb::test::unwrap;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes loadBytes(llvm::StringRef text) {
  return unwrap(loadData(text, "--push"));
}

std::string dataError(llvm::StringRef text) {
  return errorText(loadData(text, "--push"));
}

const char *const Types =
    "(expected u8, i8, u16, i16, u32, i32, u64, i64, f16, f32 or f64)";

//===----------------------------------------------------------------------===//
// DATA
//===----------------------------------------------------------------------===//

TEST(LoadData, InlineLists) {
  EXPECT_EQ(loadBytes("f32:1,2.5"), (Bytes{0x00, 0x00, 0x80, 0x3f, //
                                           0x00, 0x00, 0x20, 0x40}));
  EXPECT_EQ(loadBytes("u16:0xffff,i8:-1"), (Bytes{0xff, 0xff, 0xff}));
  EXPECT_EQ(loadBytes("u8:7"), (Bytes{0x07}));
}

TEST(LoadData, EveryType) {
  EXPECT_EQ(loadBytes("u8:255"), (Bytes{0xff}));
  EXPECT_EQ(loadBytes("i8:-128"), (Bytes{0x80}));
  EXPECT_EQ(loadBytes("i8:127"), (Bytes{0x7f}));
  EXPECT_EQ(loadBytes("u16:0x1234"), (Bytes{0x34, 0x12}));
  EXPECT_EQ(loadBytes("i16:-2"), (Bytes{0xfe, 0xff}));
  EXPECT_EQ(loadBytes("u32:4294967295"), (Bytes{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(loadBytes("i32:-2147483648"), (Bytes{0x00, 0x00, 0x00, 0x80}));
  EXPECT_EQ(loadBytes("u64:0x0102030405060708"),
            (Bytes{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(loadBytes("u64:18446744073709551615"), Bytes(8, 0xff));
  EXPECT_EQ(loadBytes("i64:-1"), Bytes(8, 0xff));
  EXPECT_EQ(loadBytes("i64:-9223372036854775808"),
            (Bytes{0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(loadBytes("f16:1"), (Bytes{0x00, 0x3c}));
  EXPECT_EQ(loadBytes("f16:-2"), (Bytes{0x00, 0xc0}));
  EXPECT_EQ(loadBytes("f16:0.1"), (Bytes{0x66, 0x2e}));
  EXPECT_EQ(loadBytes("f16:65504"), (Bytes{0xff, 0x7b}));
  EXPECT_EQ(loadBytes("f32:-0"), (Bytes{0x00, 0x00, 0x00, 0x80}));
  EXPECT_EQ(loadBytes("f32:0.1"), (Bytes{0xcd, 0xcc, 0xcc, 0x3d}));
  EXPECT_EQ(loadBytes("f64:1"), (Bytes{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  EXPECT_EQ(loadBytes("f64:-2.5"), (Bytes{0, 0, 0, 0, 0, 0, 0x04, 0xc0}));
}

TEST(LoadData, NumberSyntaxAsVkref) {
  // Decimal unless 0x/0X: "010" is ten, not octal eight.
  EXPECT_EQ(loadBytes("u8:010"), (Bytes{0x0a}));
  EXPECT_EQ(loadBytes("u8:0X1f"), (Bytes{0x1f}));
  EXPECT_EQ(loadBytes("u8:+5"), (Bytes{0x05}));
  EXPECT_EQ(loadBytes("i8:-0x80"), (Bytes{0x80}));
  // strtoull/strtof skip leading blanks, so "f32:1, 2" works in both tools.
  EXPECT_EQ(loadBytes("u8:1, 2"), (Bytes{0x01, 0x02}));
  EXPECT_EQ(loadBytes("f32: 1"), (Bytes{0x00, 0x00, 0x80, 0x3f}));
  // Floats: hex floats, inf, nan; too large becomes inf (vkref accepts it).
  EXPECT_EQ(loadBytes("f32:0x1p-2"), (Bytes{0x00, 0x00, 0x80, 0x3e}));
  EXPECT_EQ(loadBytes("f32:inf,-inf"),
            (Bytes{0x00, 0x00, 0x80, 0x7f, 0x00, 0x00, 0x80, 0xff}));
  EXPECT_EQ(loadBytes("f32:nan"), (Bytes{0x00, 0x00, 0xc0, 0x7f}));
  EXPECT_EQ(loadBytes("f32:1e39"), (Bytes{0x00, 0x00, 0x80, 0x7f}));
  EXPECT_EQ(loadBytes("f16:1e6"), (Bytes{0x00, 0x7c}));
  EXPECT_EQ(loadBytes("f16:inf"), (Bytes{0x00, 0x7c}));
  EXPECT_EQ(loadBytes("f16:0x1p-2"), (Bytes{0x00, 0x34}));
  // Just above the tie between half 1.0 (0x3c00) and 1+2^-10 (0x3c01):
  // rounds up. Through a double it would be an exact tie and round to even.
  EXPECT_EQ(loadBytes("f16:1.000488281250000000001"), (Bytes{0x01, 0x3c}));
  EXPECT_EQ(loadBytes("f16:1.00048828125"), (Bytes{0x00, 0x3c}));
}

TEST(LoadData, TypeSwitchesInsideAList) {
  EXPECT_EQ(loadBytes("f32:2.5,u32:1048576"),
            (Bytes{0x00, 0x00, 0x20, 0x40, 0x00, 0x00, 0x10, 0x00}));
  // A switch holds for the items after it.
  EXPECT_EQ(loadBytes("u8:1,u16:2,3"), (Bytes{0x01, 0x02, 0x00, 0x03, 0x00}));
  EXPECT_EQ(loadBytes("u8:1,f32:1,u8:2"),
            (Bytes{0x01, 0x00, 0x00, 0x80, 0x3f, 0x02}));
  EXPECT_EQ(loadBytes("i16:-1,f16:1,i64:2"),
            (Bytes{0xff, 0xff, 0x00, 0x3c, 2, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(LoadData, Zero) {
  EXPECT_EQ(loadBytes("zero:5"), Bytes(5, 0));
  EXPECT_EQ(loadBytes("zero:0x10"), Bytes(16, 0));
  EXPECT_EQ(loadBytes("zero:0"), Bytes());
}

TEST(LoadData, Files) {
  TempDir dir;
  std::string raw = dir.write("raw.bin", llvm::StringRef("\x00\xff\x01:", 4));
  EXPECT_EQ(loadBytes(raw), (Bytes{0x00, 0xff, 0x01, ':'}));
  // The text before the first colon is no type: a path with a colon.
  std::string colon = dir.write("a:b.bin", "xy");
  EXPECT_EQ(loadBytes(colon), (Bytes{'x', 'y'}));
  // "zero" and "f32" without a colon are file names.
  std::string zero = dir.write("zero", "z");
  EXPECT_EQ(loadBytes(zero), (Bytes{'z'}));
  std::string empty = dir.write("empty.bin", "");
  EXPECT_EQ(loadBytes(empty), Bytes());
}

TEST(LoadData, Errors) {
  EXPECT_EQ(dataError(""), "error: --push '': empty DATA (expected FILE, "
                           "zero:NBYTES or TYPE:v1,v2,...)");
  EXPECT_EQ(dataError("zero:"), "error: --push 'zero:': bad zero:NBYTES size "
                                "'' (expected an unsigned integer)");
  EXPECT_EQ(dataError("zero:abc"), "error: --push 'zero:abc': bad zero:NBYTES "
                                   "size 'abc' (expected an unsigned integer)");
  EXPECT_EQ(dataError("zero:-1"), "error: --push 'zero:-1': bad zero:NBYTES "
                                  "size '-1' (expected an unsigned integer)");
  EXPECT_EQ(dataError("zero:4294967296"),
            "error: --push 'zero:4294967296': zero:NBYTES size '4294967296' "
            "is too large (at most 4294967295 bytes)");
  EXPECT_EQ(dataError("f32:"), "error: --push 'f32:': empty f32 value");
  EXPECT_EQ(dataError("f32:1,,2"), "error: --push 'f32:1,,2': empty f32 value");
  EXPECT_EQ(dataError("f32:1,"), "error: --push 'f32:1,': empty f32 value");
  EXPECT_EQ(dataError("f32:1,u32:"),
            "error: --push 'f32:1,u32:': empty u32 value");
  EXPECT_EQ(dataError("f32:1,x:2"),
            std::string("error: --push 'f32:1,x:2': unknown type 'x' ") +
                Types);
  EXPECT_EQ(dataError("f32:1,:2"),
            std::string("error: --push 'f32:1,:2': unknown type '' ") + Types);
  // The second colon starts a type switch to "1".
  EXPECT_EQ(dataError("u32:1:2"),
            std::string("error: --push 'u32:1:2': unknown type '1' ") + Types);
  EXPECT_EQ(dataError("f32:abc"),
            "error: --push 'f32:abc': bad f32 value 'abc' (not a number)");
  EXPECT_EQ(dataError("f32:1.5e"),
            "error: --push 'f32:1.5e': bad f32 value '1.5e' (not a number)");
  EXPECT_EQ(dataError("f16:x"),
            "error: --push 'f16:x': bad f16 value 'x' (not a number)");
  EXPECT_EQ(dataError("f64:1 "),
            "error: --push 'f64:1 ': bad f64 value '1 ' (not a number)");
  EXPECT_EQ(dataError("u32:1.5"),
            "error: --push 'u32:1.5': bad u32 value '1.5' (not an integer)");
  EXPECT_EQ(dataError("u8:0x"),
            "error: --push 'u8:0x': bad u8 value '0x' (not an integer)");
  EXPECT_EQ(dataError("i32:-"),
            "error: --push 'i32:-': bad i32 value '-' (not an integer)");
  EXPECT_EQ(dataError("u32:1 "),
            "error: --push 'u32:1 ': bad u32 value '1 ' (not an integer)");
}

TEST(LoadData, OutOfRangeErrors) {
  EXPECT_EQ(dataError("u8:256"),
            "error: --push 'u8:256': bad u8 value '256' (out of range 0..255)");
  EXPECT_EQ(dataError("u8:-1"),
            "error: --push 'u8:-1': bad u8 value '-1' (out of range 0..255)");
  EXPECT_EQ(dataError("u8:1, -1"), "error: --push 'u8:1, -1': bad u8 value "
                                   "' -1' (out of range 0..255)");
  EXPECT_EQ(dataError("i8:128"),
            "error: --push 'i8:128': bad i8 value '128' (out of range "
            "-128..127)");
  EXPECT_EQ(dataError("i8:0xff"),
            "error: --push 'i8:0xff': bad i8 value '0xff' (out of range "
            "-128..127)");
  EXPECT_EQ(dataError("u16:0x10000"),
            "error: --push 'u16:0x10000': bad u16 value '0x10000' (out of "
            "range 0..65535)");
  EXPECT_EQ(dataError("i16:-32769"),
            "error: --push 'i16:-32769': bad i16 value '-32769' (out of range "
            "-32768..32767)");
  EXPECT_EQ(dataError("u32:4294967296"),
            "error: --push 'u32:4294967296': bad u32 value '4294967296' (out "
            "of range 0..4294967295)");
  EXPECT_EQ(dataError("i32:2147483648"),
            "error: --push 'i32:2147483648': bad i32 value '2147483648' (out "
            "of range -2147483648..2147483647)");
  EXPECT_EQ(dataError("u64:18446744073709551616"),
            "error: --push 'u64:18446744073709551616': bad u64 value "
            "'18446744073709551616' (out of range 0..18446744073709551615)");
  EXPECT_EQ(dataError("u64:-1"), "error: --push 'u64:-1': bad u64 value '-1' "
                                 "(out of range 0..18446744073709551615)");
  EXPECT_EQ(dataError("i64:9223372036854775808"),
            "error: --push 'i64:9223372036854775808': bad i64 value "
            "'9223372036854775808' (out of range "
            "-9223372036854775808..9223372036854775807)");
}

TEST(LoadData, FileErrors) {
  TempDir dir;
  std::string missing = dir.path("missing.bin");
  EXPECT_EQ(errorText(loadData(missing, "--buffer")),
            "error: --buffer '" + missing + "': cannot open data file '" +
                missing + "': No such file or directory");
  std::string directory = dir.path("");
  EXPECT_EQ(errorText(loadData(directory, "--push")),
            "error: --push '" + directory + "': cannot open data file '" +
                directory + "': Is a directory");
}

//===----------------------------------------------------------------------===//
// --push
//===----------------------------------------------------------------------===//

TEST(PushArgument, PadsToFourBytes) {
  EXPECT_EQ(unwrap(parsePushArgument("u8:1")), (Bytes{0x01, 0, 0, 0}));
  EXPECT_EQ(unwrap(parsePushArgument("u16:1,u8:2")), (Bytes{1, 0, 2, 0}));
  EXPECT_EQ(unwrap(parsePushArgument("f32:2.5,u32:7")),
            (Bytes{0x00, 0x00, 0x20, 0x40, 0x07, 0x00, 0x00, 0x00}));
  EXPECT_EQ(unwrap(parsePushArgument("zero:5")), Bytes(8, 0));
}

TEST(PushArgument, Errors) {
  EXPECT_EQ(errorText(parsePushArgument("zero:0")),
            "error: --push 'zero:0': the push constant data is empty");
  EXPECT_EQ(errorText(parsePushArgument("i8:200")),
            "error: --push 'i8:200': bad i8 value '200' (out of range "
            "-128..127)");
  TempDir dir;
  std::string empty = dir.write("empty.bin", "");
  EXPECT_EQ(errorText(parsePushArgument(empty)),
            "error: --push '" + empty + "': the push constant data is empty");
}

//===----------------------------------------------------------------------===//
// --buffer, --out, --print
//===----------------------------------------------------------------------===//

TEST(BufferArgument, Parses) {
  BufferArgument b = unwrap(parseBufferArgument("0:1:storage:f32:1,2.5"));
  EXPECT_EQ(b.set, 0u);
  EXPECT_EQ(b.binding, 1u);
  EXPECT_EQ(b.kind, DescriptorKind::Storage);
  EXPECT_EQ(b.bytes, (Bytes{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0x40}));

  b = unwrap(parseBufferArgument("2:3:uniform:zero:16"));
  EXPECT_EQ(b.set, 2u);
  EXPECT_EQ(b.binding, 3u);
  EXPECT_EQ(b.kind, DescriptorKind::Uniform);
  EXPECT_EQ(b.bytes, Bytes(16, 0));

  // SET and BINDING as vkref's parse_uint reads them: 0x hex, decimal "010".
  b = unwrap(parseBufferArgument("0x1:010:storage:u8:1"));
  EXPECT_EQ(b.set, 1u);
  EXPECT_EQ(b.binding, 10u);
  b = unwrap(parseBufferArgument("4294967295:0:storage:u8:1"));
  EXPECT_EQ(b.set, 4294967295u);

  TempDir dir;
  std::string file = dir.write("in:put.bin", "abc");
  b = unwrap(parseBufferArgument("0:0:storage:" + file));
  EXPECT_EQ(b.bytes, (Bytes{'a', 'b', 'c'}));

  EXPECT_EQ(kindName(DescriptorKind::Storage), "storage");
  EXPECT_EQ(kindName(DescriptorKind::Uniform), "uniform");
}

TEST(BufferArgument, Errors) {
  auto error = [](llvm::StringRef arg) {
    return errorText(parseBufferArgument(arg));
  };
  EXPECT_EQ(error("0:1:storage"), "error: --buffer '0:1:storage': expected "
                                  "SET:BINDING:storage|uniform:DATA");
  EXPECT_EQ(error(""),
            "error: --buffer '': expected SET:BINDING:storage|uniform:DATA");
  EXPECT_EQ(error("x:1:storage:u8:1"),
            "error: --buffer 'x:1:storage:u8:1': bad set 'x' (expected an "
            "unsigned 32-bit integer)");
  EXPECT_EQ(error("-1:1:storage:u8:1"),
            "error: --buffer '-1:1:storage:u8:1': bad set '-1' (expected an "
            "unsigned 32-bit integer)");
  EXPECT_EQ(error("4294967296:0:storage:u8:1"),
            "error: --buffer '4294967296:0:storage:u8:1': bad set "
            "'4294967296' (expected an unsigned 32-bit integer)");
  EXPECT_EQ(error("0::storage:u8:1"),
            "error: --buffer '0::storage:u8:1': bad binding '' (expected an "
            "unsigned 32-bit integer)");
  EXPECT_EQ(error("0:1.5:storage:u8:1"),
            "error: --buffer '0:1.5:storage:u8:1': bad binding '1.5' "
            "(expected an unsigned 32-bit integer)");
  EXPECT_EQ(error("0:1:storag:f32:1"),
            "error: --buffer '0:1:storag:f32:1': unknown descriptor kind "
            "'storag' (expected storage or uniform)");
  EXPECT_EQ(error("0:1:Uniform:f32:1"),
            "error: --buffer '0:1:Uniform:f32:1': unknown descriptor kind "
            "'Uniform' (expected storage or uniform)");
  EXPECT_EQ(error("0:0:storage:"),
            "error: --buffer '0:0:storage:': empty DATA (expected FILE, "
            "zero:NBYTES or TYPE:v1,v2,...)");
  EXPECT_EQ(error("0:0:storage:zero:0"),
            "error: --buffer '0:0:storage:zero:0': the buffer is empty");
  EXPECT_EQ(error("0:0:storage:f32:x"),
            "error: --buffer '0:0:storage:f32:x': bad f32 value 'x' (not a "
            "number)");
  EXPECT_EQ(error("0:0:uniform:f32:1,q:2"),
            std::string("error: --buffer '0:0:uniform:f32:1,q:2': unknown "
                        "type 'q' ") +
                Types);
  TempDir dir;
  std::string missing = dir.path("nope.bin");
  EXPECT_EQ(error("0:0:storage:" + missing),
            "error: --buffer '0:0:storage:" + missing +
                "': cannot open data file '" + missing +
                "': No such file or directory");
  std::string empty = dir.write("empty.bin", "");
  EXPECT_EQ(error("0:0:storage:" + empty),
            "error: --buffer '0:0:storage:" + empty + "': the buffer is empty");
}

TEST(OutputArgument, Parses) {
  OutputArgument o = unwrap(parseOutputArgument("0:1:y.bin"));
  EXPECT_EQ(o.buffer.set, 0u);
  EXPECT_EQ(o.buffer.binding, 1u);
  EXPECT_FALSE(o.buffer.element);
  EXPECT_FALSE(o.buffer.isDevice());
  EXPECT_EQ(o.path, "y.bin");
  o = unwrap(parseOutputArgument("3:0x2:/tmp/a:b.bin"));
  EXPECT_EQ(o.buffer.set, 3u);
  EXPECT_EQ(o.buffer.binding, 2u);
  EXPECT_EQ(o.path, "/tmp/a:b.bin");
  // An element of a descriptor array; a device buffer by its name.
  o = unwrap(parseOutputArgument("1:2[3]:e.bin"));
  EXPECT_EQ(o.buffer.set, 1u);
  EXPECT_EQ(o.buffer.binding, 2u);
  EXPECT_EQ(o.buffer.element, 3u);
  EXPECT_EQ(o.buffer.str(), "1:2[3]");
  EXPECT_EQ(o.path, "e.bin");
  o = unwrap(parseOutputArgument("nodes:/tmp/n:1.bin"));
  EXPECT_EQ(o.buffer.device, "nodes");
  EXPECT_EQ(o.buffer.str(), "nodes");
  EXPECT_EQ(o.path, "/tmp/n:1.bin");
}

TEST(OutputArgument, Errors) {
  auto error = [](llvm::StringRef arg) {
    return errorText(parseOutputArgument(arg));
  };
  EXPECT_EQ(error("0:1"), "error: --out '0:1': expected "
                          "SET:BINDING[ELEMENT]:FILE or NAME:FILE");
  EXPECT_EQ(error("y.bin"), "error: --out 'y.bin': expected "
                            "SET:BINDING[ELEMENT]:FILE or NAME:FILE");
  EXPECT_EQ(error("a:"), "error: --out 'a:': empty FILE");
  EXPECT_EQ(error("push:y.bin"),
            "error: --out 'push:y.bin': bad name 'push' (expected a letter or "
            "'_' followed by letters, digits, '_', '-' or '.', and not "
            "'push')");
  EXPECT_EQ(error("a+b:y.bin"),
            "error: --out 'a+b:y.bin': bad name 'a+b' (expected a letter or "
            "'_' followed by letters, digits, '_', '-' or '.', and not "
            "'push')");
  EXPECT_EQ(error("1a:1:y.bin"), "error: --out '1a:1:y.bin': bad set '1a' "
                                 "(expected an unsigned 32-bit integer)");
  EXPECT_EQ(error("0:1[x]:y.bin"),
            "error: --out '0:1[x]:y.bin': bad element 'x' (expected an "
            "unsigned 32-bit integer in BINDING[ELEMENT])");
  EXPECT_EQ(error("0:1[2:y.bin"),
            "error: --out '0:1[2:y.bin': bad binding '1[2' (expected an "
            "unsigned 32-bit integer)");
  EXPECT_EQ(error("0:-1:y.bin"), "error: --out '0:-1:y.bin': bad binding "
                                 "'-1' (expected an unsigned 32-bit integer)");
  EXPECT_EQ(error("0:1:"), "error: --out '0:1:': empty FILE");
}

TEST(PrintArgument, Parses) {
  PrintArgument p = unwrap(parsePrintArgument("0:1:f32"));
  EXPECT_EQ(p.buffer.set, 0u);
  EXPECT_EQ(p.buffer.binding, 1u);
  EXPECT_EQ(p.type, "f32");
  p = unwrap(parsePrintArgument("1:2:f16"));
  EXPECT_EQ(p.type, "f16");
  p = unwrap(parsePrintArgument("0:0x1[0x2]:u8"));
  EXPECT_EQ(p.buffer.binding, 1u);
  EXPECT_EQ(p.buffer.element, 2u);
  p = unwrap(parsePrintArgument("_x.y-z:i64"));
  EXPECT_EQ(p.buffer.device, "_x.y-z");
  EXPECT_EQ(p.type, "i64");
}

TEST(PrintArgument, Errors) {
  auto error = [](llvm::StringRef arg) {
    return errorText(parsePrintArgument(arg));
  };
  EXPECT_EQ(error("0:1"), "error: --print '0:1': expected "
                          "SET:BINDING[ELEMENT]:TYPE or NAME:TYPE");
  EXPECT_EQ(error("0:1:f32:x"), "error: --print '0:1:f32:x': expected "
                                "SET:BINDING[ELEMENT]:TYPE or NAME:TYPE");
  EXPECT_EQ(error("n:f32:x"), "error: --print 'n:f32:x': expected "
                              "SET:BINDING[ELEMENT]:TYPE or NAME:TYPE");
  EXPECT_EQ(error("s:1:f32"), "error: --print 's:1:f32': expected "
                              "SET:BINDING[ELEMENT]:TYPE or NAME:TYPE");
  EXPECT_EQ(error("0:b:f32"), "error: --print '0:b:f32': bad binding 'b' "
                              "(expected an unsigned 32-bit integer)");
  EXPECT_EQ(error("0:1:float"),
            std::string("error: --print '0:1:float': unknown type 'float' ") +
                Types);
  EXPECT_EQ(error("0:1:"),
            std::string("error: --print '0:1:': unknown type '' ") + Types);
}

TEST(BufferArgument, Elements) {
  BufferArgument b = unwrap(parseBufferArgument("0:1[2]:storage:u8:7"));
  EXPECT_EQ(b.set, 0u);
  EXPECT_EQ(b.binding, 1u);
  EXPECT_EQ(b.element, 2u);
  b = unwrap(parseBufferArgument("0:1:storage:u8:7"));
  EXPECT_FALSE(b.element);
  EXPECT_EQ(errorText(parseBufferArgument("0:1[]:storage:u8:7")),
            "error: --buffer '0:1[]:storage:u8:7': bad element '' (expected "
            "an unsigned 32-bit integer in BINDING[ELEMENT])");
  EXPECT_EQ(errorText(parseBufferArgument("0:[1]:storage:u8:7")),
            "error: --buffer '0:[1]:storage:u8:7': bad binding '' (expected "
            "an unsigned 32-bit integer)");
  EXPECT_EQ(formatDescriptor(3, 4, std::nullopt), "3:4");
  EXPECT_EQ(formatDescriptor(3, 4, 0), "3:4[0]");
}

TEST(BufferName, RefersTo) {
  BufferName plain, zero, one, device;
  plain.binding = zero.binding = one.binding = 1;
  zero.element = 0;
  one.element = 1;
  device.device = "d";
  // No [ELEMENT] is element 0.
  EXPECT_TRUE(plain.refersTo(zero));
  EXPECT_FALSE(plain.refersTo(one));
  EXPECT_FALSE(plain.refersTo(device));
  EXPECT_TRUE(device.refersTo(device));
  EXPECT_TRUE(isDeviceBufferName("a"));
  EXPECT_TRUE(isDeviceBufferName("_a1.b-c"));
  EXPECT_FALSE(isDeviceBufferName("push"));
  EXPECT_FALSE(isDeviceBufferName("1a"));
  EXPECT_FALSE(isDeviceBufferName(""));
  EXPECT_FALSE(isDeviceBufferName("a:b"));
}

TEST(DeviceBufferArgument, Parses) {
  DeviceBufferArgument d = unwrap(parseDeviceBufferArgument("nodes:u32:1,2"));
  EXPECT_EQ(d.name, "nodes");
  EXPECT_EQ(d.bytes, (Bytes{1, 0, 0, 0, 2, 0, 0, 0}));
  d = unwrap(parseDeviceBufferArgument("z:zero:3"));
  EXPECT_EQ(d.bytes, Bytes(3, 0));
}

TEST(DeviceBufferArgument, Errors) {
  auto error = [](llvm::StringRef arg) {
    return errorText(parseDeviceBufferArgument(arg));
  };
  EXPECT_EQ(error("nodes"),
            "error: --device-buffer 'nodes': expected NAME:DATA");
  EXPECT_EQ(error("0:u8:1"),
            "error: --device-buffer '0:u8:1': bad name '0' (expected a "
            "letter or '_' followed by letters, digits, '_', '-' or '.', and "
            "not 'push')");
  EXPECT_EQ(error("push:u8:1"),
            "error: --device-buffer 'push:u8:1': bad name 'push' (expected a "
            "letter or '_' followed by letters, digits, '_', '-' or '.', and "
            "not 'push')");
  EXPECT_EQ(error("a:zero:0"),
            "error: --device-buffer 'a:zero:0': the buffer is empty");
  EXPECT_EQ(error("a:"), "error: --device-buffer 'a:': empty DATA (expected "
                         "FILE, zero:NBYTES or TYPE:v1,v2,...)");
}

TEST(AddressArgument, Parses) {
  AddressArgument a = unwrap(parseAddressArgument("push:8:nodes"));
  EXPECT_TRUE(a.push);
  EXPECT_EQ(a.offset, 8u);
  EXPECT_EQ(a.target.device, "nodes");
  EXPECT_EQ(a.addend, 0u);
  EXPECT_EQ(a.text, "push:8:nodes");

  a = unwrap(parseAddressArgument("0:1[2]:0x10:n+24"));
  EXPECT_FALSE(a.push);
  EXPECT_EQ(a.where.set, 0u);
  EXPECT_EQ(a.where.binding, 1u);
  EXPECT_EQ(a.where.element, 2u);
  EXPECT_EQ(a.offset, 16u);
  EXPECT_EQ(a.target.device, "n");
  EXPECT_EQ(a.addend, 24u);

  a = unwrap(parseAddressArgument("list:0:2:3+0x8"));
  EXPECT_EQ(a.where.device, "list");
  EXPECT_EQ(a.offset, 0u);
  EXPECT_FALSE(a.target.isDevice());
  EXPECT_EQ(a.target.set, 2u);
  EXPECT_EQ(a.target.binding, 3u);
  EXPECT_EQ(a.addend, 8u);

  a = unwrap(parseAddressArgument("1:0:4:0:0[1]"));
  EXPECT_EQ(a.where.set, 1u);
  EXPECT_EQ(a.offset, 4u);
  EXPECT_EQ(a.target.binding, 0u);
  EXPECT_EQ(a.target.element, 1u);
}

TEST(AddressArgument, Errors) {
  auto error = [](llvm::StringRef arg) {
    return errorText(parseAddressArgument(arg));
  };
  std::string usage = "expected WHERE:OFFSET:BUFFER[+BYTES] (WHERE: push, "
                      "SET:BINDING[ELEMENT] or NAME; BUFFER: NAME or "
                      "SET:BINDING[ELEMENT])";
  EXPECT_EQ(error("push:8"), "error: --address 'push:8': " + usage);
  EXPECT_EQ(error("push"), "error: --address 'push': " + usage);
  EXPECT_EQ(error("0:1:8"), "error: --address '0:1:8': " + usage);
  EXPECT_EQ(error("push:8:push"), "error: --address 'push:8:push': " + usage);
  EXPECT_EQ(error("push:8:a:b:c"), "error: --address 'push:8:a:b:c': " + usage);
  EXPECT_EQ(error("push:8:a:b"), "error: --address 'push:8:a:b': " + usage);
  EXPECT_EQ(error("push:x:a"), "error: --address 'push:x:a': bad offset 'x' "
                               "(expected an unsigned integer)");
  EXPECT_EQ(error("push:-8:a"), "error: --address 'push:-8:a': bad offset "
                                "'-8' (expected an unsigned integer)");
  EXPECT_EQ(error("push:8:a+"), "error: --address 'push:8:a+': bad +BYTES "
                                "'' (expected an unsigned integer)");
  EXPECT_EQ(error("0:1[q]:8:a"),
            "error: --address '0:1[q]:8:a': bad element 'q' (expected an "
            "unsigned 32-bit integer in BINDING[ELEMENT])");
  EXPECT_EQ(error("push:8:a!"),
            "error: --address 'push:8:a!': bad name 'a!' (expected a letter "
            "or '_' followed by letters, digits, '_', '-' or '.', and not "
            "'push')");
}

TEST(ScalarTypes, Sizes) {
  EXPECT_EQ(scalarTypeSize("u8"), 1u);
  EXPECT_EQ(scalarTypeSize("i8"), 1u);
  EXPECT_EQ(scalarTypeSize("u16"), 2u);
  EXPECT_EQ(scalarTypeSize("i16"), 2u);
  EXPECT_EQ(scalarTypeSize("f16"), 2u);
  EXPECT_EQ(scalarTypeSize("u32"), 4u);
  EXPECT_EQ(scalarTypeSize("i32"), 4u);
  EXPECT_EQ(scalarTypeSize("f32"), 4u);
  EXPECT_EQ(scalarTypeSize("u64"), 8u);
  EXPECT_EQ(scalarTypeSize("i64"), 8u);
  EXPECT_EQ(scalarTypeSize("f64"), 8u);
  EXPECT_EQ(scalarTypeSize("bool"), 0u);
  EXPECT_EQ(scalarTypeSize(""), 0u);
}

//===----------------------------------------------------------------------===//
// formatBuffer
//===----------------------------------------------------------------------===//

TEST(FormatBuffer, Integers) {
  EXPECT_EQ(formatBuffer(Bytes{1, 255}, "u8"), "1, 255");
  EXPECT_EQ(formatBuffer(Bytes{0xff, 0x80, 0x7f, 0}, "i8"), "-1, -128, 127, 0");
  EXPECT_EQ(formatBuffer(Bytes{0xff, 0xff, 0x34, 0x12}, "u16"), "65535, 4660");
  EXPECT_EQ(formatBuffer(Bytes{0x00, 0x80, 0xfe, 0xff}, "i16"), "-32768, -2");
  EXPECT_EQ(formatBuffer(Bytes{0xff, 0xff, 0xff, 0xff}, "u32"), "4294967295");
  EXPECT_EQ(formatBuffer(Bytes{0x00, 0x00, 0x00, 0x80, 7, 0, 0, 0}, "i32"),
            "-2147483648, 7");
  EXPECT_EQ(formatBuffer(Bytes(8, 0xff), "u64"), "18446744073709551615");
  EXPECT_EQ(formatBuffer(Bytes{0, 0, 0, 0, 0, 0, 0, 0x80}, "i64"),
            "-9223372036854775808");
  EXPECT_EQ(formatBuffer(Bytes(8, 0xff), "i64"), "-1");
}

TEST(FormatBuffer, Floats) {
  EXPECT_EQ(formatBuffer(Bytes{0x00, 0x3c, 0x66, 0x2e, 0x00, 0x7c, 0x00, 0xfc,
                               0x00, 0x7e, 0x00, 0x80},
                         "f16"),
            "1, 0.099976, inf, -inf, nan, -0");
  // 0.1f is 0x3dcccccd = 0.100000001490116...; FLT_MAX; the least denormal.
  EXPECT_EQ(formatBuffer(Bytes{0x00, 0x00, 0x20, 0x40, 0xcd, 0xcc, 0xcc, 0x3d,
                               0xff, 0xff, 0x7f, 0x7f, 0x01, 0x00, 0x00, 0x00},
                         "f32"),
            "2.5, 0.100000001, 3.40282347e+38, 1.40129846e-45");
  // 0.1 = 0x3fb999999999999a; 1/3 = 0x3fd5555555555555.
  EXPECT_EQ(formatBuffer(Bytes{0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f,
                               0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0xd5, 0x3f},
                         "f64"),
            "0.10000000000000001, 0.33333333333333331");
}

TEST(FormatBuffer, FloatsReadBackExactly) {
  for (llvm::StringRef type : {"f16", "f32", "f64"}) {
    Bytes bytes = loadBytes((type + ":0.1,3.14159265358979,1e-7,-65504,0x1p-24,"
                                    "1e-300,2.5,inf,-0")
                                .str());
    std::string text = formatBuffer(bytes, type, 0);
    EXPECT_EQ(loadBytes((type + ":" + text).str()), bytes)
        << type.str() << ": " << text;
  }
}

TEST(FormatBuffer, PartialTrailingElement) {
  EXPECT_EQ(formatBuffer(Bytes{1, 0, 0, 0, 0xab, 0xcd}, "u32"),
            "1 (+2 trailing bytes: ab cd)");
  EXPECT_EQ(formatBuffer(Bytes{0xff}, "u16"), "(+1 trailing byte: ff)");
  EXPECT_EQ(formatBuffer(Bytes{0, 0, 0x80, 0x3f, 1, 2, 3}, "f32"),
            "1 (+3 trailing bytes: 01 02 03)");
  EXPECT_EQ(formatBuffer(Bytes{1, 2, 3, 4, 5, 6, 7}, "f64"),
            "(+7 trailing bytes: 01 02 03 04 05 06 07)");
  EXPECT_EQ(formatBuffer(Bytes(), "f32"), "(empty)");
}

TEST(FormatBuffer, Limit) {
  Bytes ten{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(formatBuffer(ten, "u8", 3), "0, 1, 2 ... (7 more)");
  EXPECT_EQ(formatBuffer(ten, "u8", 9),
            "0, 1, 2, 3, 4, 5, 6, 7, 8 ... (1 more)");
  EXPECT_EQ(formatBuffer(ten, "u8", 10), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9");
  EXPECT_EQ(formatBuffer(ten, "u8", 0), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9");
  EXPECT_EQ(formatBuffer(Bytes{1, 0, 2, 0, 5}, "u16", 1),
            "1 ... (1 more) (+1 trailing byte: 05)");

  // The default shows 64 values.
  std::string expected;
  for (int i = 0; i < 64; ++i)
    expected += i ? ", 0" : "0";
  EXPECT_EQ(formatBuffer(Bytes(100, 0), "u8"), expected + " ... (36 more)");
  EXPECT_EQ(formatBuffer(Bytes(64, 0), "u8"), expected);
}

TEST(FormatBuffer, UnknownType) {
  EXPECT_EQ(formatBuffer(Bytes{1}, "float"), "(unknown type 'float')");
}

//===----------------------------------------------------------------------===//
// writeFile, summarize, counts
//===----------------------------------------------------------------------===//

TEST(WriteFile, WritesBytes) {
  TempDir dir;
  std::string path = dir.path("out.bin");
  Bytes bytes{0x00, 0xff, 0x0a, 0x0d, 0x1a};
  EXPECT_EQ(errorText(writeFile(path, bytes)), "<success>");
  EXPECT_EQ(loadBytes(path), bytes);
  // An existing file is truncated.
  EXPECT_EQ(errorText(writeFile(path, Bytes{7})), "<success>");
  EXPECT_EQ(loadBytes(path), Bytes{7});
  std::string empty = dir.path("empty.bin");
  EXPECT_EQ(errorText(writeFile(empty, Bytes())), "<success>");
  EXPECT_TRUE(llvm::sys::fs::exists(empty));
}

TEST(WriteFile, Errors) {
  TempDir dir;
  std::string noDir = dir.path("no-such-dir/out.bin");
  EXPECT_EQ(errorText(writeFile(noDir, Bytes{1})),
            "error: cannot write file '" + noDir +
                "': No such file or directory");
  std::string directory = dir.path("");
  EXPECT_EQ(errorText(writeFile(directory, Bytes{1})),
            "error: cannot write file '" + directory + "': Is a directory");
  if (llvm::sys::fs::exists("/dev/full")) {
    EXPECT_EQ(errorText(writeFile("/dev/full", Bytes{1})),
              "error: cannot write file '/dev/full': No space left on device");
  }
}

TEST(Summarize, OddAndEvenCounts) {
  TimingSummary s = summarize({3.0, 1.0, 2.0});
  EXPECT_EQ(s.median, 2.0);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 3.0);

  s = summarize({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(s.median, 2.5);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 4.0);

  s = summarize({5.0});
  EXPECT_EQ(s.median, 5.0);
  EXPECT_EQ(s.min, 5.0);
  EXPECT_EQ(s.max, 5.0);

  s = summarize({0.5, 0.25});
  EXPECT_EQ(s.median, 0.375);
  EXPECT_EQ(s.min, 0.25);
  EXPECT_EQ(s.max, 0.5);

  s = summarize({});
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.min, 0.0);
  EXPECT_EQ(s.max, 0.0);
}

TEST(Counts, Positive) {
  EXPECT_EQ(unwrap(parsePositive("1", "--repeat")), 1u);
  EXPECT_EQ(unwrap(parsePositive("16384", "--groups")), 16384u);
  EXPECT_EQ(unwrap(parsePositive("0x10", "--threads")), 16u);
  EXPECT_EQ(unwrap(parsePositive("010", "--threads")), 10u);
  EXPECT_EQ(unwrap(parsePositive("4294967295", "--groups")), 4294967295u);

  auto error = [](llvm::StringRef value, llvm::StringRef flag) {
    return errorText(parsePositive(value, flag));
  };
  EXPECT_EQ(error("0", "--groups"),
            "error: --groups '0': expected a positive integer");
  EXPECT_EQ(error("", "--repeat"),
            "error: --repeat '': expected a positive integer");
  EXPECT_EQ(error("-1", "--repeat"),
            "error: --repeat '-1': expected a positive integer");
  EXPECT_EQ(error("ten", "--threads"),
            "error: --threads 'ten': expected a positive integer");
  EXPECT_EQ(error("1.5", "--groups"),
            "error: --groups '1.5': expected a positive integer");
  EXPECT_EQ(error("4294967296", "--groups"),
            "error: --groups '4294967296': too large (at most 4294967295)");
  EXPECT_EQ(error("99999999999999999999", "--repeat"),
            "error: --repeat '99999999999999999999': too large (at most "
            "4294967295)");
}

TEST(Counts, Unsigned) {
  EXPECT_EQ(unwrap(parseUnsigned("0", "--device")), 0u);
  EXPECT_EQ(unwrap(parseUnsigned("3", "--device")), 3u);
  EXPECT_EQ(errorText(parseUnsigned("x", "--device")),
            "error: --device 'x': expected an unsigned integer");
  EXPECT_EQ(errorText(parseUnsigned("-1", "--device")),
            "error: --device '-1': expected an unsigned integer");
  EXPECT_EQ(errorText(parseUnsigned("4294967296", "--device")),
            "error: --device '4294967296': too large (at most 4294967295)");
}

} // namespace

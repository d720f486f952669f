//===- ReflectionJson.h - spv-run --reflect ---------------------*- C++ -*-===//
//
// spv-run SHADER --reflect prints the interface of the entry point a run
// would use, as one JSON object, so that tools (the differential corpus
// runner) can make up buffers, push constants and spec constants for a
// module they know nothing else about:
//
//   {"file", "entry", "local_size": [x, y, z] (after --spec, else the
//    defaults), "local_size_spec_ids": [id or null, ...],
//    "resources": [{"set", "binding", "kind" (getResourceKindName), "name",
//      "block", "type", "array_size", "static_size", "runtime_array_stride",
//      "runtime_array_offset", "non_writable", "non_readable",
//      "members": [{"name", "offset", "size", "type"}],
//      "layout": LAYOUT (buffers only), "image": IMAGE (images, texel
//      buffers and combined image samplers only)}],
//    "push_constants": null or {"size", "members", "layout": LAYOUT},
//    "pointee_types": [{"id", "name", "size", "layout": LAYOUT}],
//    "spec_constants": [{"id", "name", "type", "default"}],
//    "uses_barriers", "uses_atomics", "uses_subgroups",
//    "workgroup_storage_size", "capabilities", "extensions"}
//
// LAYOUT is the block's scalar layout (ScalarLayout.h) with runs of equal
// scalars folded, so that a 4096-float array is one entry:
//   {"fields": [RUN...], "pointers": [POINTER...], "runtime_array": null or
//    {"path", "offset", "stride", "fields": [RUN...],
//     "pointers": [POINTER...]}}
//   RUN = {"offset", "type", "count", "stride", "path"}: count scalars of
//   type at offset, offset + stride, ... of one array, vector or matrix
//   (their paths differ only in indices); path names the first.
//   POINTER = {"offset", "path", "pointee", "array_stride"}: an 8-byte
//   PhysicalStorageBuffer address; pointee is the id of its pointee type in
//   "pointee_types", array_stride the pointer type's ArrayStride (the step
//   of OpPtrAccessChain; 0 if none).
// "pointee_types" lists every type such a pointer points to (transitively:
// a pointee's own pointers too; a type may point to itself), and those of
// every other PhysicalStorageBuffer pointer type of the module (what the
// shader may convert an integer to): its "size" is
// the bytes up to its runtime array (a struct's static size), its "layout"
// the scalars from the start of the pointee.
// IMAGE is the resource's OpTypeImage:
//   {"dim" ("1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"),
//    "arrayed", "multisampled", "depth" (Depth operand 1), "sampled" (1
//    sampled, 2 storage), "component" ("float", "int" or "uint": the
//    Sampled Type) and "component_bits", "format" (the GLSL name --image
//    takes, or "unknown"), and for a known format "format_kind" ("float",
//    "unorm", "snorm", "sint", "uint"), "format_components" and
//    "texel_bytes" (null for "unknown")}.
// A spec constant's default is a JSON bool or number; a non-finite float is
// the string "inf", "-inf" or "nan".
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_SPV_RUN_REFLECTIONJSON_H
#define SPVBRIDGE_TOOLS_SPV_RUN_REFLECTIONJSON_H

#include "spvbridge/bridge/Compiler.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace spvb::run {

/// Loads, validates and specializes \p path as a run would (errors are the
/// front end's) and prints its interface to \p os (see the file comment).
llvm::Error printReflection(llvm::raw_ostream &os, llvm::StringRef path,
                            const CompileOptions &options);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_REFLECTIONJSON_H

//===- VkScriptParser.h - Parse VkScript ------------------------*- C++ -*-===//
//
// VkScript (VkRunner's format, Amber's docs/vk_script.md) into the same
// model as AmberScript, the way Amber converts it:
//   - one pipeline, "vk_pipeline": graphics if any shader section is not a
//     compute shader, else compute;
//   - shader sections become shaders "vk_shader_0", "vk_shader_1", ... in
//     file order, attached to it (entry point "main");
//   - each set:binding the [test] section names gets one buffer, bound
//     there: "vk_ssbo_S_B" (storage, std430) for `ssbo`, "vk_ubo_S_B"
//     (uniform, std140) for `uniform ubo`; `uniform TYPE ...` writes the
//     push constants, buffer "vk_push_constants" (std430). Their contents
//     start as zeros: `ssbo ... subdata` and `uniform` are BufferWrite
//     commands run in order, and Buffer::minSizeInBytes covers the largest
//     write and `ssbo B SIZE` (a size in bytes). A buffer's type is the
//     first type written to it (int8 when only sized);
//   - `probe ssbo TYPE B OFFSET CMP values` is an Expect command with the
//     probe's own type, in the binding's layout; `~=` uses the tolerances
//     of the last `tolerance` line;
//   - graphics pipelines get a colour attachment "framebuffer" (format
//     B8G8R8A8_UNORM or [require]'s `framebuffer`, size `fbsize` or
//     250x250), "depthstencil" if [require] asks, "vk_vertices_L" per
//     [vertex data] location L and "vk_indices" (uint32) for [indices].
// A binding is written `B` (set 0) or `S:B`.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_VKSCRIPTPARSER_H
#define SPVBRIDGE_TOOLS_AMBER_VKSCRIPTPARSER_H

#include "spvbridge/amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spvb::amber {

/// Parses \p text, a VkScript file named \p fileName (for messages).
llvm::Expected<Script> parseVkScript(llvm::StringRef text,
                                     llvm::StringRef fileName);

/// A VkScript data type (int, uint, int8_t ... uint64_t, float, double,
/// vec[234], ivec, uvec, dvec, i8vec ... u64vec, mat[234], mat[234]x[234],
/// dmat...; bare `vec` and `mat` are the 4-wide ones).
std::optional<Type> parseVkScriptTypeName(llvm::StringRef name);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_VKSCRIPTPARSER_H

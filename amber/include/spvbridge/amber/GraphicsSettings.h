//===- GraphicsSettings.h - Amber pipeline state as runtime state -*- C++
//-*-===//
//
// The parsers record graphics pipeline settings as text (AmberScript.h):
// AmberScript's DEPTH, STENCIL and BLEND blocks, VIEWPORT, POLYGON_MODE,
// LINE_WIDTH and PATCH_CONTROL_POINTS as Pipeline::graphicsSettings, and
// VkScript's pipeline-state lines (`depthTestEnable true`, ...) as
// GraphicsStateCommands. This turns them into runtime::GraphicsState, with
// the names and numbers Amber accepts, and errors in the parsers' form:
//   error: t.amber:12: unknown compare op 'lesser' in DEPTH COMPARE_OP
//   error: t.amber:13: unexpected 'FOO' in DEPTH
//   error: t.vkscript:9: malformed number 'x' in lineWidth
//
// Amber has one blend state (and colour write mask) for all colour
// attachments; it is written to every entry of GraphicsState::blend, which
// is first made long enough for each Location the pipeline draws to (at
// least one entry), so the executor needs no copying.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_GRAPHICSSETTINGS_H
#define SPVBRIDGE_TOOLS_AMBER_GRAPHICSSETTINGS_H

#include "spvbridge/amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vulkan/vulkan_core.h>

#include <optional>

namespace spvb::runtime {
struct GraphicsState;
} // namespace spvb::runtime

namespace spvb::amber {

/// The state an Amber pipeline starts from (Amber's PipelineData). It
/// differs from a default GraphicsState: the depth compare op is ALWAYS,
/// maxDepthBounds 0 and the stencil masks all ones, which changes what a
/// script enabling the depth test without a COMPARE_OP draws.
runtime::GraphicsState defaultGraphicsState();

/// Applies a pipeline's recorded AmberScript settings, in order, to
/// \p state. A DERIVE_PIPELINE's list starts with its parent's, so this
/// gives the derived state too.
///
/// As in Amber: BLEND turns blending on; BIAS turns the depth bias on;
/// BOUNDS sets the bounds but not the depth bounds test (AmberScript has no
/// way to enable it); PATCH_CONTROL_POINTS is checked and ignored.
llvm::Error applyGraphicsSettings(const Script &script,
                                  const Pipeline &pipeline,
                                  runtime::GraphicsState &state);

/// Applies one VkScript pipeline-state line (GraphicsStateCommand::text).
/// Values are Vulkan enumerant names (VK_COMPARE_OP_LESS) or their numbers;
/// booleans true or false; cullMode and colorWriteMask ORs of bit names and
/// numbers, joined by `|`. `patch parameter vertices N` is ignored
/// (tessellation), as is `logicOp`; `logicOpEnable true` is an error, as
/// GraphicsState has no logic op. `topology` sets GraphicsState::topology,
/// although Amber draws with the draw command's.
llvm::Error applyVkScriptState(const Script &script,
                               const GraphicsStateCommand &command,
                               runtime::GraphicsState &state);

/// A topology of DRAW_ARRAY or VkScript (`draw arrays`, `topology`), in any
/// case: TRIANGLE_LIST, triangle_list, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
/// GL_TRIANGLES, point_list, line_strip_with_adjacency, patch_list, ...
std::optional<VkPrimitiveTopology> parseTopology(llvm::StringRef name);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_GRAPHICSSETTINGS_H

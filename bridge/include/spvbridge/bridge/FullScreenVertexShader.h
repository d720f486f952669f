//===- FullScreenVertexShader.h - A vertex shader for a fragment *- C++ -*-===//
//
// `spv-run shader.frag --framebuffer WxH` draws the fragment shader over the
// whole framebuffer: a triangle strip of 4 vertices at the corners of the
// view volume (from gl_VertexIndex, no vertex data), drawn by a vertex
// shader made for the fragment shader's inputs. Each input Location gets
// values that vary over the screen, so a shader that reads them computes
// something different at each pixel, and both backends see the same ones:
//
//   float component k (counting from Component) of Location L:
//     (u, v, 1 - u, 1 - v)[k] + L / 4, with (u, v) = (0, 0) at the top-left
//     corner and (1, 1) at the bottom-right one
//   integer component k of Location L: 4 L + k + 1 (flat)
//
// with the fragment input's own interpolation qualifiers.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_FULLSCREENVERTEXSHADER_H
#define SPVBRIDGE_BRIDGE_FULLSCREENVERTEXSHADER_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace spvb {

/// The vertices of the full-screen triangle strip.
constexpr uint32_t FullScreenVertexCount = 4;

/// GLSL for the fragment shader \p fragmentName whose stage variables are
/// \p variables. Error, for inputs GLSL cannot feed without extensions:
///   error: NAME: the fragment input at Location L is a B-bit TYPE; spv-run
///          makes inputs of 32-bit types only (give a vertex shader too)
llvm::Expected<std::string>
makeFullScreenVertexShader(llvm::ArrayRef<spvb_stage_variable> variables,
                           llvm::StringRef fragmentName);

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_FULLSCREENVERTEXSHADER_H

//===- ImageBlits.h - Copies with scaling and conversion --------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_IMAGEBLITS_H
#define SPVBRIDGE_ICD_LIB_IMAGEBLITS_H

#include "Objects.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// Both versions of vkCmdBlitImage: each destination texel's centre maps
/// into the source region (mirrored where the offsets are reversed),
/// which is filtered (nearest or linear, clamped to its edge) and
/// converted to the destination's format (through linear values for
/// sRGB), as Vulkan's "Image Copies With Scaling" says.
llvm::Error blitImage(const command::BlitImage &command);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_IMAGEBLITS_H

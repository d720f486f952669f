//===- ImageResolves.h - Multisampled images made single-sampled -*- C++
//-*-===//
#ifndef SPVBRIDGE_ICD_LIB_IMAGERESOLVES_H
#define SPVBRIDGE_ICD_LIB_IMAGERESOLVES_H

#include "Objects.h"

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// Resolves \p area of multisampled \p from into single-sample \p to (both
/// with the framebuffer's row length), as a subpass's resolve attachments
/// are at its end: the samples averaged, sample 0 of integer formats.
void resolveArea(const runtime::Attachment &from, const runtime::Attachment &to,
                 VkRect2D area);

/// Both versions of vkCmdResolveImage, region by region.
llvm::Error resolveImage(const command::ResolveImage &command);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_IMAGERESOLVES_H

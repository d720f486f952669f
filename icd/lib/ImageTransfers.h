//===- ImageTransfers.h - Copies and clears of images -----------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H
#define SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H

#include "Objects.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// vkCmdCopyBufferToImage and vkCmdCopyImageToBuffer, region by region;
/// one aspect of a combined depth/stencil format in the buffer's own
/// format (depth as D16, X8_D24 or D32, stencil as S8).
llvm::Error copyBufferImage(const command::CopyBufferImage &command);
llvm::Error copyImage(const command::CopyImage &command);
llvm::Error clearImage(const command::ClearImage &command);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H

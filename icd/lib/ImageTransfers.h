//===- ImageTransfers.h - Copies and clears of images -----------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H
#define SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H

#include "Objects.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// vkCmdCopyBufferToImage and vkCmdCopyImageToBuffer, region by region.
llvm::Error copyBufferImage(const command::CopyBufferImage &command);
llvm::Error copyImage(const command::CopyImage &command);
llvm::Error clearColorImage(const command::ClearColorImage &command);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_IMAGETRANSFERS_H

//===- FragmentPixel.h - Where a fragment invocation is ---------*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTPIXEL_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTPIXEL_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <cstdint>

namespace spvb::runtime {

/// The framebuffer pixel of the fragment (or helper) invocation
/// `invocation` of the batch this thread is shading, for subpass inputs
/// (Images.cpp); false outside fragment shading and for padding helpers.
bool getFragmentPixel(const spvb_invocation &invocation, int32_t &x,
                      int32_t &y);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTPIXEL_H

//===- HugePageHeap.h - The tools' heap on huge pages -----------*- C++ -*-===//
//
// A compile touches a few megabytes of fresh heap; on 4 KB pages that is a
// page fault every 4 KB, a fifth of a small kernel's compile. The tools
// (not the libraries, whose host process owns its allocator) ask for the
// heap in large steps backed by transparent huge pages.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_COMMON_HUGEPAGEHEAP_H
#define SPVBRIDGE_TOOLS_COMMON_HUGEPAGEHEAP_H

namespace spvb::tools {

/// Grows glibc's heap by 64 MB at a time, keeps what it grew, serves
/// allocations below 32 MB from it, and advises huge pages over it. Does
/// nothing where glibc or the kernel offers none of this.
void backHeapWithHugePages();

} // namespace spvb::tools

#endif // SPVBRIDGE_TOOLS_COMMON_HUGEPAGEHEAP_H

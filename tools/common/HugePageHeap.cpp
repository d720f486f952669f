//===- HugePageHeap.cpp - The tools' heap on huge pages -------------------===//
#include "HugePageHeap.h"

#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

void spvb::tools::backHeapWithHugePages() {
#if defined(__linux__) && defined(__GLIBC__)
  constexpr uintptr_t kHugePage = 2 << 20;
  constexpr int kStep = 64 << 20;
  mallopt(M_TOP_PAD, kStep);
  mallopt(M_TRIM_THRESHOLD, 2 * kStep);
  // LLVM's slabs and tables would otherwise each be a fresh mapping.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  // An allocation past the heap's top grows it by a step now; what it grew
  // to gets huge pages as it is first touched.
  void *grown = std::malloc(kHugePage);
  if (!grown)
    return;
  uintptr_t begin =
      llvm::alignTo(reinterpret_cast<uintptr_t>(grown), kHugePage);
  uintptr_t end =
      llvm::alignDown(reinterpret_cast<uintptr_t>(sbrk(0)), kHugePage);
  if (begin < end)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
  std::free(grown);
#endif
}

//===- FiberStacks.cpp - Guarded, reused stacks for invocation fibers -----===//
#include "FiberStacks.h"

#include "llvm/Support/ErrorHandling.h"

#include <sys/mman.h>
#include <unistd.h>

using namespace spvb::runtime;

static size_t getPageSize() { return sysconf(_SC_PAGESIZE); }

FiberStacks::FiberStacks(size_t size) : size(size) {}

FiberStacks::~FiberStacks() {
  for (void *mapping : all)
    munmap(mapping, size + getPageSize());
}

boost::context::stack_context FiberStacks::allocate() {
  void *mapping;
  if (!available.empty()) {
    mapping = available.back();
    available.pop_back();
  } else {
    size_t guard = getPageSize();
    mapping = mmap(nullptr, size + guard, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED)
      llvm::report_bad_alloc_error("spvbridge: cannot map a fiber stack");
    mprotect(mapping, guard, PROT_NONE);
    all.push_back(mapping);
  }
  boost::context::stack_context stack;
  stack.size = size;
  // Stacks grow down from the end of the mapping.
  stack.sp = static_cast<char *>(mapping) + getPageSize() + size;
  return stack;
}

void FiberStacks::deallocate(boost::context::stack_context &stack) {
  available.push_back(static_cast<char *>(stack.sp) - size - getPageSize());
}

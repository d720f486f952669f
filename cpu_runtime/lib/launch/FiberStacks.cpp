//===- FiberStacks.cpp - Guarded, reused stacks for invocation fibers -----===//
#include "FiberStacks.h"

#include "llvm/Support/ErrorHandling.h"

#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

using namespace spvb::runtime;

static size_t getPageSize() {
  static const size_t page = sysconf(_SC_PAGESIZE);
  return page;
}

namespace {
/// Stacks of runners that are gone, for the next runner's fibers: a draw's
/// vertex stage runs its last partial workgroup on fibers, and mapping a
/// stack for it took longer than the workgroup. Never destroyed: runners
/// may end while statics are destroyed.
struct StackCache {
  static constexpr size_t kMaxStacks = 64;
  std::mutex mutex;
  /// Each mapping with its stack size.
  std::vector<std::pair<void *, size_t>> kept;

  static StackCache &get() {
    static StackCache *cache = new StackCache;
    return *cache;
  }
};
} // namespace

FiberStacks::FiberStacks(size_t size) : size(size) {}

FiberStacks::~FiberStacks() {
  StackCache &cache = StackCache::get();
  std::lock_guard<std::mutex> lock(cache.mutex);
  for (void *mapping : all) {
    if (cache.kept.size() < StackCache::kMaxStacks)
      cache.kept.push_back({mapping, size});
    else
      munmap(mapping, size + getPageSize());
  }
}

void *FiberStacks::takeKept() {
  StackCache &cache = StackCache::get();
  std::lock_guard<std::mutex> lock(cache.mutex);
  for (size_t i = cache.kept.size(); i-- > 0;) {
    if (cache.kept[i].second != size)
      continue;
    void *mapping = cache.kept[i].first;
    cache.kept.erase(cache.kept.begin() + i);
    return mapping;
  }
  return nullptr;
}

boost::context::stack_context FiberStacks::allocate() {
  void *mapping;
  if (!available.empty()) {
    mapping = available.back();
    available.pop_back();
  } else if (void *kept = takeKept()) {
    mapping = kept;
    all.push_back(mapping);
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

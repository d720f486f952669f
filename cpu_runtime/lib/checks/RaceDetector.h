//===- RaceDetector.h - Data races between invocations ----------*- C++ -*-===//
//
// Kernels compiled with race checks call spvb_rt_record_access before each
// access to memory invocations share. The detector keeps, per byte, the
// last write and up to two reads, and reports two accesses as a race when
// they come from different invocations, at least one writes, they are not
// both atomic, and no barrier orders them: invocations of one workgroup are
// ordered only across a barrier (their barrier counts differ), those of
// different workgroups never within a dispatch. It is a debugging aid, not a
// proof: with more than two concurrent readers of a byte some write-after-
// read races go unseen, and synchronization between workgroups through
// atomics and memory barriers is not modelled (such kernels are reported).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_RACEDETECTOR_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_RACEDETECTOR_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spvb::runtime {

class RaceDetector {
public:
  /// Records an access of `invocation` after `barriers` barriers of its
  /// workgroup (the arguments of spvb_rt_record_access). Returns the
  /// message of the dispatch's first race.
  std::optional<std::string>
  record(const spvb_dispatch &dispatch, const spvb_invocation &invocation,
         uint32_t barriers, const void *address, uint64_t size, uint32_t flags,
         const void *base, const char *site, const char *object);
  /// Forgets the Workgroup memory of a finished workgroup (its storage is
  /// reused by the next one).
  void finishWorkgroup(uint64_t group);

private:
  struct Access {
    /// Invocation: workgroup * invocations per workgroup + local index.
    uint64_t invocation = ~uint64_t(0);
    uint32_t barriers = 0;
    /// SPVB_ACCESS_* in the low bits, the site's index above them.
    uint32_t siteAndFlags = 0;
    bool valid() const { return invocation != ~uint64_t(0); }
  };
  struct Cell {
    Access write, read, otherRead;
  };
  struct Site {
    const char *where;
    const char *object;
  };

  Access makeAccess(const spvb_dispatch &dispatch,
                    const spvb_invocation &invocation, uint32_t barriers,
                    uint32_t flags, const char *site, const char *object);
  /// Whether no barrier or program order orders `a` and `b`.
  static bool concurrent(const Access &a, const Access &b,
                         uint64_t invocationsPerGroup);
  /// Whether `earlier` and `later` race: concurrent, one a write, not both
  /// atomic.
  static bool conflict(const Access &earlier, const Access &later,
                       uint64_t invocationsPerGroup);
  std::string describe(const spvb_dispatch &dispatch, const Access &access,
                       uint64_t invocationsPerGroup) const;

  std::mutex mutex;
  std::atomic<bool> active{false};
  bool reported = false;
  llvm::DenseMap<const char *, uint32_t> siteIndices;
  std::vector<Site> sites;
  /// Buffer bytes by address.
  llvm::DenseMap<uintptr_t, Cell> buffers;
  /// Workgroup memory bytes by offset, per workgroup.
  llvm::DenseMap<uint64_t, llvm::DenseMap<uint64_t, Cell>> workgroups;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_RACEDETECTOR_H

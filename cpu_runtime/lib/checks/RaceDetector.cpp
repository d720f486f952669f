//===- RaceDetector.cpp - Data races between invocations ------------------===//
#include "RaceDetector.h"

#include "launch/DispatchState.h"
#include "launch/WorkgroupFibers.h"

#include "llvm/Support/FormatVariadic.h"

using namespace spvb::runtime;

static constexpr uint32_t kFlagBits = 3;
static constexpr uint32_t kFlagMask = (1u << kFlagBits) - 1;

static uint64_t getInvocationsPerGroup(const spvb_dispatch &dispatch) {
  return uint64_t(dispatch.workgroup_size[0]) * dispatch.workgroup_size[1] *
         dispatch.workgroup_size[2];
}

static uint64_t getGroupIndex(const spvb_dispatch &dispatch,
                              const spvb_invocation &invocation) {
  return FaultLog::getOrder(dispatch, invocation.workgroup_id);
}

RaceDetector::Access RaceDetector::makeAccess(const spvb_dispatch &dispatch,
                                              const spvb_invocation &invocation,
                                              uint32_t barriers, uint32_t flags,
                                              const char *site,
                                              const char *object) {
  auto [it, inserted] = siteIndices.try_emplace(site, sites.size());
  if (inserted)
    sites.push_back({site, object});
  Access access;
  access.invocation =
      getGroupIndex(dispatch, invocation) * getInvocationsPerGroup(dispatch) +
      invocation.local_index;
  access.barriers = barriers;
  access.siteAndFlags = (it->second << kFlagBits) | (flags & kFlagMask);
  return access;
}

bool RaceDetector::concurrent(const Access &a, const Access &b,
                              uint64_t invocationsPerGroup) {
  if (a.invocation == b.invocation)
    return false;
  return a.invocation / invocationsPerGroup !=
             b.invocation / invocationsPerGroup ||
         a.barriers == b.barriers;
}

bool RaceDetector::conflict(const Access &earlier, const Access &later,
                            uint64_t invocationsPerGroup) {
  uint32_t a = earlier.siteAndFlags, b = later.siteAndFlags;
  return earlier.valid() && ((a | b) & SPVB_ACCESS_WRITE) &&
         !(a & b & SPVB_ACCESS_ATOMIC) &&
         concurrent(earlier, later, invocationsPerGroup);
}

/// "a write at race.comp:7:5 by local invocation (1, 0, 0) of workgroup (0,
/// 0, 0)".
std::string RaceDetector::describe(const spvb_dispatch &dispatch,
                                   const Access &access,
                                   uint64_t invocationsPerGroup) const {
  uint32_t flags = access.siteAndFlags & kFlagMask;
  const Site &site = sites[access.siteAndFlags >> kFlagBits];
  std::string kind = (flags & SPVB_ACCESS_ATOMIC) ? "an atomic " : "a ";
  kind += (flags & SPVB_ACCESS_WRITE) ? "write" : "read";
  const auto &state = *static_cast<const DispatchState *>(dispatch.runtime);
  if (state.nameInvocation)
    return llvm::formatv("{0} at {1} by {2}", kind,
                         *site.where ? site.where : "an unknown location",
                         state.nameInvocation(access.invocation));
  uint64_t group = access.invocation / invocationsPerGroup;
  uint64_t local = access.invocation % invocationsPerGroup;
  const uint32_t *size = dispatch.workgroup_size;
  const uint32_t *count = dispatch.workgroup_count;
  const std::array<uint32_t, 3> &base = state.baseWorkgroup;
  return llvm::formatv(
      "{0} at {1} by local invocation ({2}, {3}, {4}) of workgroup ({5}, {6}, "
      "{7})",
      kind, *site.where ? site.where : "an unknown location", local % size[0],
      local / size[0] % size[1], local / (uint64_t(size[0]) * size[1]),
      base[0] + group % count[0], base[1] + group / count[0] % count[1],
      base[2] + group / (uint64_t(count[0]) * count[1]));
}

std::optional<std::string>
RaceDetector::record(const spvb_dispatch &dispatch,
                     const spvb_invocation &invocation, uint32_t barriers,
                     const void *address, uint64_t size, uint32_t flags,
                     const void *base, const char *site, const char *object) {
  std::lock_guard<std::mutex> lock(mutex);
  active = true;
  if (reported)
    return std::nullopt;
  Access access =
      makeAccess(dispatch, invocation, barriers, flags, site, object);
  uint64_t perGroup = getInvocationsPerGroup(dispatch);
  bool workgroup = flags & SPVB_ACCESS_WORKGROUP;
  auto start = reinterpret_cast<uintptr_t>(address);
  uintptr_t key =
      workgroup ? start - reinterpret_cast<uintptr_t>(invocation.shared_memory)
                : start;
  auto &cells =
      workgroup ? workgroups[getGroupIndex(dispatch, invocation)] : buffers;
  for (uint64_t byte = 0; byte < size; ++byte) {
    Cell &cell = cells[key + byte];
    const Access *other = nullptr;
    if (conflict(cell.write, access, perGroup))
      other = &cell.write;
    else if (flags & SPVB_ACCESS_WRITE) {
      if (conflict(cell.read, access, perGroup))
        other = &cell.read;
      else if (conflict(cell.otherRead, access, perGroup))
        other = &cell.otherRead;
    }
    if (other) {
      reported = true;
      std::string where =
          base ? llvm::formatv("at byte {0}",
                               start + byte - reinterpret_cast<uintptr_t>(base))
                     .str()
               : llvm::formatv("at address {0:x}", start + byte).str();
      bool sameGroup =
          other->invocation / perGroup == access.invocation / perGroup;
      bool graphics = bool(
          static_cast<const DispatchState *>(dispatch.runtime)->nameInvocation);
      return llvm::formatv("error: data race on {0} {1}: {2} and {3}, {4}",
                           object, where, describe(dispatch, *other, perGroup),
                           describe(dispatch, access, perGroup),
                           graphics ? "and nothing orders them"
                           : sameGroup
                               ? "with no barrier between them"
                               : "and invocations of different workgroups are "
                                 "never ordered within a dispatch")
          .str();
    }
    if (flags & SPVB_ACCESS_WRITE) {
      cell.write = access;
      cell.read = cell.otherRead = Access();
    } else if (!cell.read.valid() || !concurrent(cell.read, access, perGroup)) {
      // The new read is ordered after the old one, so a later write that
      // races with the old one races with it too: keep one.
      cell.read = access;
    } else {
      cell.otherRead = access;
    }
  }
  return std::nullopt;
}

void RaceDetector::finishWorkgroup(uint64_t group) {
  if (!active)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  workgroups.erase(group);
}

extern "C" void spvb_rt_record_access(const spvb_dispatch *dispatch,
                                      const spvb_invocation *invocation,
                                      const void *address, uint64_t size,
                                      uint32_t flags, const void *base,
                                      const char *site, const char *object) {
  auto *state = static_cast<DispatchState *>(dispatch->runtime);
  std::optional<std::string> race = state->races.record(
      *dispatch, *invocation, WorkgroupFibers::getBarrierCount(invocation),
      address, size, flags, base, site, object);
  if (race)
    state->faults.report(
        FaultLog::getOrder(*dispatch, invocation->workgroup_id),
        std::move(*race), ShaderFault::Kind::DataRace);
}

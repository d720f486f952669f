//===- Queries.cpp - Query pools ------------------------------------------===//
//
// Timestamps count nanoseconds of the steady clock (timestampPeriod 1);
// occlusion queries count the samples that pass the fragment tests (so
// they are precise); pipeline-statistics queries count what dispatches and
// draws run (CommandExecution.cpp): invocations as the runtime shaded
// them, clipping primitives as those that reached rasterization.
//
//===----------------------------------------------------------------------===//
#include "Queries.h"

#include "EntryPoints.h"
#include "Queue.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <cstdio>
#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

unsigned
spvb::icd::getStatisticCount(VkQueryPipelineStatisticFlags statistics) {
  return llvm::popcount(statistics);
}

bool spvb::icd::writeQueryResults(const QueryPool &pool, uint32_t first,
                                  uint32_t count, uint8_t *data,
                                  VkDeviceSize stride,
                                  VkQueryResultFlags flags) {
  bool wide = flags & VK_QUERY_RESULT_64_BIT;
  auto write = [&](uint8_t *at, uint64_t value) {
    if (wide) {
      std::memcpy(at, &value, 8);
    } else {
      auto narrow = static_cast<uint32_t>(value);
      std::memcpy(at, &narrow, 4);
    }
    return at + (wide ? 8 : 4);
  };
  bool allAvailable = true;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t query = first + i;
    bool available = pool.available[query];
    allAvailable &= available;
    uint8_t *at = data + i * stride;
    // Without PARTIAL an unavailable query's values are left as they are.
    for (uint64_t value : pool.values[query]) {
      if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
        write(at, value);
      at += wide ? 8 : 4;
    }
    if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
      write(at, available);
  }
  return allAvailable;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateQueryPool(VkDevice, const VkQueryPoolCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *, VkQueryPool *pQueryPool) {
  if (pCreateInfo->queryType != VK_QUERY_TYPE_TIMESTAMP &&
      pCreateInfo->queryType != VK_QUERY_TYPE_OCCLUSION &&
      pCreateInfo->queryType != VK_QUERY_TYPE_PIPELINE_STATISTICS) {
    std::fprintf(stderr,
                 "error: vkCreateQueryPool: query type %d is not supported; "
                 "the device has timestamp, occlusion and "
                 "pipeline-statistics queries\n",
                 pCreateInfo->queryType);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  auto *pool = new (std::nothrow) QueryPool();
  if (!pool)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->type = pCreateInfo->queryType;
  unsigned values = 1;
  if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
    pool->statistics = pCreateInfo->pipelineStatistics;
    values = getStatisticCount(pool->statistics);
  }
  pool->values.assign(pCreateInfo->queryCount, std::vector<uint64_t>(values));
  pool->available.assign(pCreateInfo->queryCount, false);
  *pQueryPool = toHandle<VkQueryPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyQueryPool(
    VkDevice device, VkQueryPool queryPool, const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(
      fromHandle<QueryPool>(queryPool));
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetQueryPoolResults(
    VkDevice device, VkQueryPool queryPool, uint32_t firstQuery,
    uint32_t queryCount, size_t, void *pData, VkDeviceSize stride,
    VkQueryResultFlags flags) {
  Device &owner = *fromHandle<Device>(device);
  QueryPool &pool = *fromHandle<QueryPool>(queryPool);
  if (flags & VK_QUERY_RESULT_WAIT_BIT) {
    VkResult waited = waitFor(owner, UINT64_MAX, [&] {
      for (uint32_t i = 0; i < queryCount; ++i)
        if (!pool.available[firstQuery + i])
          return false;
      return true;
    });
    if (waited != VK_SUCCESS)
      return waited;
  }
  std::lock_guard<std::mutex> lock(owner.mutex);
  if (owner.lost)
    return VK_ERROR_DEVICE_LOST;
  return writeQueryResults(pool, firstQuery, queryCount,
                           static_cast<uint8_t *>(pData), stride, flags)
             ? VK_SUCCESS
             : VK_NOT_READY;
}

VKAPI_ATTR void VKAPI_CALL spvb_ResetQueryPool(VkDevice device,
                                               VkQueryPool queryPool,
                                               uint32_t firstQuery,
                                               uint32_t queryCount) {
  std::lock_guard<std::mutex> lock(fromHandle<Device>(device)->mutex);
  QueryPool &pool = *fromHandle<QueryPool>(queryPool);
  for (uint32_t i = 0; i < queryCount; ++i) {
    pool.available[firstQuery + i] = false;
    llvm::fill(pool.values[firstQuery + i], 0);
  }
}

} // extern "C"

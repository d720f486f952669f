//===- Queries.h - Writing query results ------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_QUERIES_H
#define SPVBRIDGE_ICD_LIB_QUERIES_H

#include "Objects.h"

namespace spvb::icd {

/// Writes queries [first, first + count) of \p pool to \p data, \p stride
/// bytes apart, as vkGetQueryPoolResults and vkCmdCopyQueryPoolResults
/// define it for \p flags (64-bit, availability, partial); the caller holds
/// the device's mutex. Returns whether every query was available.
bool writeQueryResults(const QueryPool &pool, uint32_t first, uint32_t count,
                       uint8_t *data, VkDeviceSize stride,
                       VkQueryResultFlags flags);

/// The statistics a pipeline-statistics query counts, one per set bit.
unsigned getStatisticCount(VkQueryPipelineStatisticFlags statistics);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_QUERIES_H

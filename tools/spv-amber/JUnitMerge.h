//===- JUnitMerge.h - Join the JUnit reports of shards ----------*- C++ -*-===//
//
// Each shard of a suite writes its own report (JUnitReport.h); the merge is
// one <testsuite name="spv-amber"> holding every <testcase> of every report,
// in the order of the reports, with the counts and the times summed.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_JUNITMERGE_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_JUNITMERGE_H

#include "JUnitReport.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace spvb::driver {

/// Writes the merge of the reports \p inputs (written by spv-amber --junit)
/// to \p output, and returns its counts. An error (an input that cannot be
/// read or is not in spv-amber's format, an output that cannot be written)
/// starts with "error: " and names the file (and the line).
llvm::Expected<JUnitSuiteCounts>
mergeJUnitReports(llvm::StringRef output, llvm::ArrayRef<std::string> inputs);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_JUNITMERGE_H

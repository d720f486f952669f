//===- JUnitReport.h - The run as JUnit XML for CI systems ------*- C++ -*-===//
//
// One <testsuite name="spv-amber"> with a <testcase> per script: classname
// is the common directory's name and the script's directories, dotted
// ("amber.compute.sub"), name the script's file name; a failure carries the
// reason and the failed EXPECTs, a skip the reason.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_JUNITREPORT_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_JUNITREPORT_H

#include "Scripts.h"
#include "TestResult.h"

#include "llvm/Support/raw_ostream.h"

namespace spvb::driver {

/// The attributes of the <testsuite>.
struct JUnitSuiteCounts {
  size_t tests = 0;
  size_t failures = 0;
  size_t skipped = 0;
  size_t errors = 0;
  double seconds = 0;
};

/// Prints the report's start, up to and with the <testsuite> line, and its
/// end: the report of a run and a merge of reports (JUnitMerge.h) share
/// them.
void printJUnitStart(llvm::raw_ostream &os, const JUnitSuiteCounts &counts);
void printJUnitEnd(llvm::raw_ostream &os);

/// Prints the report of \p results (those of \p set's scripts, in its order)
/// of a run that took \p seconds.
void printJUnitReport(llvm::raw_ostream &os, const ScriptSet &set,
                      llvm::ArrayRef<TestResult> results, double seconds);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_JUNITREPORT_H

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

/// Prints the report of \p results (those of \p set's scripts, in its order)
/// of a run that took \p seconds.
void printJUnitReport(llvm::raw_ostream &os, const ScriptSet &set,
                      llvm::ArrayRef<TestResult> results, double seconds);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_JUNITREPORT_H

//===- Expectations.h - Pinned outcomes of a corpus -------------*- C++ -*-===//
//
// An expectations file pins each script's outcome, so that CI notices when a
// script that passed fails (or starts passing), or is skipped for another
// reason. One line per script:
//   SCRIPT<TAB>pass
//   SCRIPT<TAB>fail|skip[<TAB>REASON]
// With a REASON, the result's reason must be that text too.
// SCRIPT is the script's key: its path relative to the deepest directory
// that holds every PATH spv-amber is given (for one directory argument, the
// path below it). '#' starts a comment line; blank lines are ignored.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_EXPECTATIONS_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_EXPECTATIONS_H

#include "Scripts.h"
#include "TestResult.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace spvb::driver {

struct ExpectedOutcome {
  Outcome outcome = Outcome::Pass;
  /// Empty: any reason.
  std::string reason;
};

struct Expectations {
  /// The comment lines before the first entry, which an update keeps.
  std::string header;
  std::map<std::string, ExpectedOutcome> outcomes;
};

/// Reads the expectations file \p path; an error starts with "error: " and
/// names the file (and the line).
llvm::Expected<Expectations> readExpectations(llvm::StringRef path);

/// Prints a "changed: " line for each script of \p scripts whose result
/// differs from \p expected, and for each expected script that did not run;
/// returns how many there are.
size_t printChanges(llvm::raw_ostream &os, const Expectations &expected,
                    llvm::ArrayRef<Script> scripts,
                    llvm::ArrayRef<TestResult> results);

/// Writes the outcomes of \p results as the expectations file \p path, under
/// \p header (the default one if empty).
llvm::Error writeExpectations(llvm::StringRef path, llvm::StringRef header,
                              llvm::ArrayRef<Script> scripts,
                              llvm::ArrayRef<TestResult> results);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_EXPECTATIONS_H

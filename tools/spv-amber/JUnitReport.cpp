//===- JUnitReport.cpp - The run as JUnit XML for CI systems --------------===//
#include "JUnitReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace spvb::driver;

namespace {

/// Prints \p text as XML character data, or as an attribute value if
/// \p inAttribute.
void printXMLEscaped(raw_ostream &os, StringRef text, bool inAttribute) {
  // The runner's stderr may hold any bytes (shader printf), and the report
  // is UTF-8.
  std::string repaired;
  if (!json::isUTF8(text)) {
    repaired = json::fixUTF8(text);
    text = repaired;
  }
  for (char c : text) {
    switch (c) {
    case '&':
      os << "&amp;";
      break;
    case '<':
      os << "&lt;";
      break;
    case '>':
      os << "&gt;";
      break;
    case '"':
      os << "&quot;";
      break;
    case '\'':
      os << "&apos;";
      break;
    case '\t':
    case '\n':
    case '\r':
      // A parser turns a literal line break or tab in an attribute into a
      // space; a character reference keeps it.
      if (inAttribute)
        os << "&#" << static_cast<int>(c) << ";";
      else
        os << c;
      break;
    default:
      // XML 1.0 cannot hold other control characters, not even as
      // character references: show their code instead.
      if (static_cast<unsigned char>(c) < 0x20)
        os << format("\\x%02x", static_cast<unsigned char>(c));
      else
        os << c;
    }
  }
}

void printAttribute(raw_ostream &os, StringRef name, StringRef value) {
  os << " " << name << "=\"";
  printXMLEscaped(os, value, /*inAttribute=*/true);
  os << "\"";
}

/// "DIR.sub.dirs" for the script \p key below the directory named \p root
/// ("spv-amber" for the file system's root).
std::string getClassName(StringRef root, StringRef key) {
  std::string name =
      root == sys::path::get_separator() ? "spv-amber" : root.str();
  StringRef directories = sys::path::parent_path(key);
  for (auto it = sys::path::begin(directories),
            end = sys::path::end(directories);
       it != end; ++it)
    name += "." + it->str();
  return name;
}

void printTestCase(raw_ostream &os, StringRef root, const Script &script,
                   const TestResult &result) {
  os << "<testcase";
  printAttribute(os, "classname", getClassName(root, script.key));
  printAttribute(os, "name", sys::path::filename(script.key));
  os << format(" time=\"%.3f\"", result.seconds);
  switch (result.outcome) {
  case Outcome::Pass:
    os << "/>\n";
    return;
  case Outcome::Skip:
    os << ">\n  <skipped";
    printAttribute(os, "message", result.reason);
    os << "/>\n</testcase>\n";
    return;
  case Outcome::Fail:
    os << ">\n  <failure";
    printAttribute(os, "message", result.reason);
    os << ">";
    for (const FailureEntry &failure : result.failures) {
      std::string line = script.key;
      if (failure.line > 0)
        line += ":" + std::to_string(failure.line);
      printXMLEscaped(os, line + ": " + failure.message + "\n",
                      /*inAttribute=*/false);
    }
    os << "</failure>\n";
    if (!result.errorOutput.empty()) {
      os << "  <system-err>";
      printXMLEscaped(os, result.errorOutput, /*inAttribute=*/false);
      os << "</system-err>\n";
    }
    os << "</testcase>\n";
    return;
  }
}

} // namespace

void spvb::driver::printJUnitStart(raw_ostream &os,
                                   const JUnitSuiteCounts &counts) {
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  os << "<testsuite name=\"spv-amber\" tests=\"" << counts.tests
     << "\" failures=\"" << counts.failures << "\" skipped=\"" << counts.skipped
     << "\" errors=\"" << counts.errors << "\""
     << format(" time=\"%.3f\"", counts.seconds) << ">\n";
}

void spvb::driver::printJUnitEnd(raw_ostream &os) {
  os << "</testsuite>\n</testsuites>\n";
}

void spvb::driver::printJUnitReport(raw_ostream &os, const ScriptSet &set,
                                    ArrayRef<TestResult> results,
                                    double seconds) {
  Tally tally = countOutcomes(results);
  printJUnitStart(os, {tally.getTotal(), tally.failed, tally.skipped,
                       /*errors=*/0, seconds});
  StringRef root = sys::path::filename(set.commonDirectory);
  for (size_t i = 0; i < results.size(); ++i)
    printTestCase(os, root, set.scripts[i], results[i]);
  printJUnitEnd(os);
}

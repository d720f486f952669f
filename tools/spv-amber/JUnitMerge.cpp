//===- JUnitMerge.cpp - Join the JUnit reports of shards ------------------===//
//
// This is no XML parser: it reads the exact shape printJUnitReport writes,
// line by line, and rejects anything else. That shape is simple to read
// because the writer escapes '<' in every attribute value and text, so a
// line that starts with a tag is markup, never a reason or stderr:
//   <?xml version="1.0" encoding="UTF-8"?>
//   <testsuites>
//   <testsuite name="spv-amber" tests="N" failures="N" skipped="N"
//              errors="N" time="S.SSS">                 (one line)
//   <testcase classname="..." name="..." time="S.SSS"/>            (pass)
//   <testcase classname="..." name="..." time="S.SSS">             (skip)
//     <skipped message="..."/>
//   </testcase>
//   <testcase classname="..." name="..." time="S.SSS">             (fail)
//     <failure message="...">TEXT</failure>       (TEXT may span lines)
//     <system-err>TEXT</system-err>                (optional; likewise)
//   </testcase>
//   </testsuite>
//   </testsuites>
// Each <testcase> is copied as it is, so nothing is unescaped or escaped
// again.
//
//===----------------------------------------------------------------------===//
#include "JUnitMerge.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <optional>

using namespace llvm;
using namespace spvb::driver;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

/// The <testsuite>'s attributes that count, as they are written.
std::string formatCounts(const JUnitSuiteCounts &counts) {
  return formatv(R"(tests="{0}" failures="{1}" skipped="{2}" errors="{3}")",
                 counts.tests, counts.failures, counts.skipped, counts.errors)
      .str();
}

/// What one report holds.
struct Report {
  JUnitSuiteCounts counts;
  /// Its <testcase> elements, as written.
  std::string testCases;
};

class ReportReader {
public:
  ReportReader(StringRef path, StringRef text) : path(path) {
    text.split(lines, '\n');
    // The line break that ends the last line starts no line.
    if (!lines.empty() && lines.back().empty())
      lines.pop_back();
  }

  Expected<Report> read();

private:
  /// The next line, if any, which then is the current line.
  std::optional<StringRef> next();
  /// An error at the current line: the file is not what spv-amber writes.
  Error makeFormatError(const Twine &expected);
  Error expectLine(StringRef expected);
  /// Reads the <testcase> whose first line \p first is, counting it in
  /// \p counts and copying it to \p report.
  Error readTestCase(StringRef first, Report &report, JUnitSuiteCounts &counts);
  /// Reads character data up to and with \p endTag, from the rest \p text of
  /// the current line on.
  Error readText(StringRef text, StringRef endTag, Report &report);

  StringRef path;
  SmallVector<StringRef> lines;
  /// The lines read; the current line's number.
  size_t lineNumber = 0;
};

std::optional<StringRef> ReportReader::next() {
  if (lineNumber == lines.size()) {
    // Errors then name the line after the last.
    lineNumber = lines.size() + 1;
    return std::nullopt;
  }
  if (lineNumber > lines.size())
    return std::nullopt;
  return lines[lineNumber++];
}

Error ReportReader::makeFormatError(const Twine &expected) {
  std::string got = "the end of the file";
  if (lineNumber <= lines.size()) {
    StringRef line = lines[lineNumber - 1];
    // A line of some other file may be long; its start tells what it is.
    constexpr size_t shown = 60;
    got = ("'" + (line.size() > shown ? line.take_front(shown) + "..." : line) +
           "'")
              .str();
  }
  return makeError(path + ":" + Twine(lineNumber) +
                   ": not spv-amber's JUnit format: expected " + expected +
                   ", got " + got);
}

Error ReportReader::expectLine(StringRef expected) {
  std::optional<StringRef> line = next();
  if (!line || *line != expected)
    return makeFormatError("'" + expected + "'");
  return Error::success();
}

Error ReportReader::readText(StringRef text, StringRef endTag, Report &report) {
  while (true) {
    bool ends = text.consume_back(endTag);
    // The writer escapes '<' in text: one here is markup that does not
    // belong, or another writer's.
    if (text.contains('<'))
      return makeFormatError("text up to '" + endTag + "'");
    if (ends)
      return Error::success();
    std::optional<StringRef> line = next();
    if (!line)
      return makeFormatError("'" + endTag + "'");
    report.testCases += *line;
    report.testCases += '\n';
    text = *line;
  }
}

Error ReportReader::readTestCase(StringRef first, Report &report,
                                 JUnitSuiteCounts &counts) {
  static const Regex testCase(
      R"re(^<testcase classname="[^"<]*" name="[^"<]*" time="[0-9]+\.[0-9]+"(/?)>$)re");
  static const Regex skipped(R"(^  <skipped message="[^"<]*"/>$)");
  static const Regex failure(R"(^  <failure message="[^"<]*">)");
  constexpr StringLiteral systemErr = "  <system-err>";
  auto copy = [&](StringRef line) {
    report.testCases += line;
    report.testCases += '\n';
  };
  SmallVector<StringRef> groups;
  if (!testCase.match(first, &groups))
    return makeFormatError("a <testcase> line or '</testsuite>'");
  ++counts.tests;
  copy(first);
  if (groups[1] == "/")
    return Error::success();

  std::optional<StringRef> line = next();
  if (line && skipped.match(*line)) {
    ++counts.skipped;
    copy(*line);
    line = next();
  } else if (line && failure.match(*line, &groups)) {
    ++counts.failures;
    copy(*line);
    if (Error error =
            readText(line->drop_front(groups[0].size()), "</failure>", report))
      return error;
    line = next();
    if (line && line->starts_with(systemErr)) {
      copy(*line);
      if (Error error = readText(line->drop_front(systemErr.size()),
                                 "</system-err>", report))
        return error;
      line = next();
    }
  } else {
    return makeFormatError("'  <skipped .../>' or '  <failure ...>'");
  }
  if (!line || *line != "</testcase>")
    return makeFormatError("'</testcase>'");
  copy(*line);
  return Error::success();
}

Expected<Report> ReportReader::read() {
  static const Regex testSuite(
      R"re(^<testsuite name="spv-amber" tests="([0-9]+)" failures="([0-9]+)" )re"
      R"re(skipped="([0-9]+)" errors="([0-9]+)" time="([0-9]+\.[0-9]+)">$)re");
  if (Error error = expectLine(R"(<?xml version="1.0" encoding="UTF-8"?>)"))
    return error;
  if (Error error = expectLine("<testsuites>"))
    return error;
  std::optional<StringRef> line = next();
  SmallVector<StringRef> groups;
  if (!line || !testSuite.match(*line, &groups))
    return makeFormatError(
        R"('<testsuite name="spv-amber" tests="N" failures="N" skipped="N" )"
        R"(errors="N" time="S">')");
  size_t suiteLine = lineNumber;
  Report report;
  StringRef tests = groups[1], failures = groups[2], skipped = groups[3],
            errors = groups[4];
  if (tests.getAsInteger(10, report.counts.tests) ||
      failures.getAsInteger(10, report.counts.failures) ||
      skipped.getAsInteger(10, report.counts.skipped) ||
      errors.getAsInteger(10, report.counts.errors) ||
      groups[5].getAsDouble(report.counts.seconds))
    return makeFormatError("counts that fit in a number");

  // The counts of the <testcase> elements must be the <testsuite>'s: a
  // truncated or edited report would otherwise merge to wrong totals.
  JUnitSuiteCounts found;
  while ((line = next()) && *line != "</testsuite>")
    if (Error error = readTestCase(*line, report, found))
      return error;
  if (!line)
    return makeFormatError("a <testcase> line or '</testsuite>'");
  if (found.tests != report.counts.tests ||
      found.failures != report.counts.failures ||
      found.skipped != report.counts.skipped || report.counts.errors != 0)
    return makeError(path + ":" + Twine(suiteLine) + ": the <testsuite> has " +
                     formatCounts(report.counts) +
                     ", but its <testcase> elements make " +
                     formatCounts(found));
  if (Error error = expectLine("</testsuites>"))
    return error;
  if (next())
    return makeFormatError("the end of the file");
  return report;
}

} // namespace

Expected<JUnitSuiteCounts>
spvb::driver::mergeJUnitReports(StringRef output,
                                ArrayRef<std::string> inputs) {
  // Every input is read before the output is written, so that a bad input
  // leaves no partial merge (the output may also be an input).
  std::vector<Report> reports;
  JUnitSuiteCounts merged;
  for (const std::string &input : inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(
        input, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer)
      return makeError("--merge-junit input '" + input +
                       "': " + buffer.getError().message());
    Expected<Report> report =
        ReportReader(input, (*buffer)->getBuffer()).read();
    if (!report)
      return report.takeError();
    merged.tests += report->counts.tests;
    merged.failures += report->counts.failures;
    merged.skipped += report->counts.skipped;
    merged.errors += report->counts.errors;
    merged.seconds += report->counts.seconds;
    reports.push_back(std::move(*report));
  }

  Error error = writeToOutput(output, [&](raw_ostream &os) {
    printJUnitStart(os, merged);
    for (const Report &report : reports)
      os << report.testCases;
    printJUnitEnd(os);
    return Error::success();
  });
  if (error)
    return makeError("--merge-junit '" + output +
                     "': " + toString(std::move(error)));
  return merged;
}

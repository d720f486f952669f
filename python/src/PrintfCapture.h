//===- PrintfCapture.h - One run's debugPrintfEXT output in memory -*- C++ -*-//
//
// The Python module returns what a shader printed as a string. A shader
// that prints in an endless loop writes hundreds of megabytes a second
// until its timeout stops it, so the output is kept up to a limit and the
// rest is counted, not stored; the string then ends with a line saying how
// much was dropped.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_PRINTFCAPTURE_H
#define SPVBRIDGE_PYTHON_PRINTFCAPTURE_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace spvb::python {

class PrintfCapture {
public:
  /// How much output a run keeps: 64 MiB.
  static constexpr size_t kDefaultLimit = size_t(64) << 20;

  explicit PrintfCapture(size_t limit = kDefaultLimit);
  ~PrintfCapture();
  PrintfCapture(const PrintfCapture &) = delete;
  PrintfCapture &operator=(const PrintfCapture &) = delete;

  /// The stream to give runtime::setPrintfSink; unbuffered, so that each
  /// write is one whole line (or several) of the runtime's.
  FILE *getSink() const { return sink; }
  /// The output kept, then a line counting what was dropped, if any; once,
  /// when the run is over.
  std::string take();

private:
  static ssize_t write(void *cookie, const char *data, size_t size);

  FILE *sink = nullptr;
  size_t limit;
  std::string text;
  /// Once one write did not fit, every later one is dropped too, so the
  /// kept output is a prefix of what was printed.
  bool full = false;
  uint64_t droppedLines = 0;
};

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_PRINTFCAPTURE_H

//===- PrintfCapture.cpp - One run's debugPrintfEXT output in memory ------===//
#include "PrintfCapture.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace spvb::python;

PrintfCapture::PrintfCapture(size_t limit) : limit(limit) {
  cookie_io_functions_t functions{};
  functions.write = &PrintfCapture::write;
  sink = fopencookie(this, "w", functions);
  if (sink)
    std::setvbuf(sink, nullptr, _IONBF, 0);
}

PrintfCapture::~PrintfCapture() {
  if (sink)
    std::fclose(sink);
}

ssize_t PrintfCapture::write(void *cookie, const char *data, size_t size) {
  auto *self = static_cast<PrintfCapture *>(cookie);
  if (!self->full && self->text.size() + size <= self->limit) {
    self->text.append(data, size);
    return size;
  }
  self->full = true;
  self->droppedLines += std::count(data, data + size, '\n');
  return size;
}

std::string PrintfCapture::take() {
  std::string output = std::move(text);
  if (droppedLines)
    output += llvm::formatv("spvbridge: {0} more lines of printf output were "
                            "dropped past {1} bytes (set_printf_limit)\n",
                            droppedLines, limit)
                  .str();
  return output;
}

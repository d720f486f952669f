//===- AmberScripts.h - spvbridge.run_amber ---------------------*- C++ -*-===//
#ifndef SPVBRIDGE_PYTHON_AMBERSCRIPTS_H
#define SPVBRIDGE_PYTHON_AMBERSCRIPTS_H

#include <pybind11/pybind11.h>

#include <string>

namespace spvb::python {

struct AmberRequest {
  /// A script file, or (isText) the script itself.
  std::string script;
  bool isText = false;
  unsigned threads = 0;
  uint32_t subgroupSize = 32;
  bool checkBounds = false;
  bool checkRaces = false;
  bool checkUndefined = false;
  double timeoutSeconds = 60;
  /// Where images are written (ExecutorOptions::imageDirectory).
  std::string imageDirectory;
};

/// Runs an AmberScript or VkScript as `spv-run SCRIPT` does; returns
/// {status, reason, failures: [(line, message, note)], time_ms, printf}.
pybind11::dict runAmber(const AmberRequest &request);

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_AMBERSCRIPTS_H

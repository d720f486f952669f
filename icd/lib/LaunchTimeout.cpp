//===- LaunchTimeout.cpp - SPVB_TIMEOUT around a launch -------------------===//
#include "LaunchTimeout.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace spvb;
using namespace spvb::icd;

llvm::Error
spvb::icd::runWithTimeout(Device &device, llvm::StringRef who,
                          llvm::StringRef what, llvm::StringRef blame,
                          llvm::function_ref<llvm::Error()> launch) {
  double seconds = device.physicalDevice->environment.timeoutSeconds;
  device.watchdog->arm(
      std::chrono::duration<double>(seconds),
      [&] {
        return llvm::formatv("error: {0}: the {1} did not finish in {2} s "
                             "(SPVB_TIMEOUT; 0 waits forever); {3}",
                             who, what, llvm::format("%g", seconds), blame)
            .str();
      },
      [&](const std::string &message) { device.launcher->cancel(message); });
  llvm::Error error = launch();
  device.watchdog->disarm();
  return error;
}

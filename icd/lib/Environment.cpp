//===- Environment.cpp - The ICD's options from environment variables ----===//
#include "Environment.h"

#include "spvbridge/cpu_runtime/DebugTarget.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace spvb;
using namespace spvb::icd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The variable's value, or nullopt when it is unset or empty.
static std::optional<llvm::StringRef> get(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return llvm::StringRef(value);
}

static llvm::Error readChecks(llvm::StringRef list, CompileOptions &options) {
  llvm::SmallVector<llvm::StringRef, 4> names;
  list.split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names) {
    name = name.trim();
    bool all = name == "all";
    if (all || name == "bounds")
      options.checkBounds = true;
    if (all || name == "races")
      options.checkRaces = true;
    if (all || name == "undefined")
      options.undefinedChecks = UndefinedChecks::Report;
    if (all || name == "nan")
      options.checkNan = true;
    if (!all && name != "bounds" && name != "races" && name != "undefined" &&
        name != "nan")
      return makeError("error: SPVB_CHECKS: unknown check '" + name +
                       "' (expected bounds, races, undefined, nan or all)");
  }
  return llvm::Error::success();
}

llvm::Expected<Environment> spvb::icd::readEnvironment() {
  Environment environment;
  if (std::optional<llvm::StringRef> profile = get("SPVB_LIMITS")) {
    // A device reports its limits: `none` (spv-run's "check nothing") has
    // none to report.
    std::optional<DeviceLimits> limits = DeviceLimits::find(*profile);
    if (!limits || !limits->enforced)
      return makeError("error: SPVB_LIMITS: unknown limit profile '" +
                       *profile + "' (expected lavapipe or min)");
    environment.limits = std::move(*limits);
  }
  if (std::optional<llvm::StringRef> text = get("SPVB_SUBGROUP_SIZE")) {
    uint32_t size = 0;
    if (text->getAsInteger(10, size) || !runtime::isSubgroupSize(size))
      return makeError("error: SPVB_SUBGROUP_SIZE: '" + *text +
                       "' is not a power of two from 1 to " +
                       std::to_string(runtime::kMaxSubgroupSize));
    environment.subgroupSize = size;
  }
  if (std::optional<llvm::StringRef> text = get("SPVB_THREADS"))
    if (text->getAsInteger(10, environment.threads) ||
        environment.threads > 1024)
      return makeError("error: SPVB_THREADS: '" + *text +
                       "' is not a thread count from 0 (all) to 1024");
  if (std::optional<llvm::StringRef> text = get("SPVB_TIMEOUT")) {
    double seconds = 0;
    if (text->getAsDouble(seconds) || !(seconds >= 0))
      return makeError("error: SPVB_TIMEOUT: '" + *text +
                       "' is not a number of seconds (0 waits forever)");
    environment.timeoutSeconds = seconds;
  }
  if (std::optional<llvm::StringRef> list = get("SPVB_CHECKS"))
    if (llvm::Error error = readChecks(*list, environment.compileOptions))
      return error;
  if (std::optional<llvm::StringRef> debug = get("SPVB_DEBUG")) {
    if (*debug != "0" && *debug != "1")
      return makeError("error: SPVB_DEBUG: '" + *debug +
                       "' is neither 0 nor 1");
    environment.compileOptions.debug = *debug == "1";
  }
  if (std::optional<llvm::StringRef> text = get("SPVB_DEBUG_INVOCATION")) {
    if (llvm::Error error =
            runtime::parseInvocationName(*text, "SPVB_DEBUG_INVOCATION")
                .takeError())
      return error;
    environment.debugInvocation = text->str();
  }
  if (std::optional<llvm::StringRef> text = get("SPVB_DEBUG_PIXEL")) {
    auto [x, y] = text->split(',');
    std::array<uint32_t, 2> pixel;
    if (x.getAsInteger(10, pixel[0]) || y.getAsInteger(10, pixel[1]))
      return makeError("error: SPVB_DEBUG_PIXEL: '" + *text +
                       "' is not a pixel X,Y (e.g. 10,20)");
    environment.debugPixel = pixel;
  }
  return environment;
}

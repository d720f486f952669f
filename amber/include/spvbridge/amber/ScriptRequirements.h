//===- ScriptRequirements.h - What a script needs that we lack --*- C++ -*-===//
//
// A script is skipped, never passed, when it asks for something spvbridge
// does not provide: a device feature, device or instance extension or
// property it does not support, a graphics or ray-tracing pipeline, an
// OpenCL C shader, shader debugging, a PNG file.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_SCRIPTREQUIREMENTS_H
#define SPVBRIDGE_TOOLS_AMBER_SCRIPTREQUIREMENTS_H

#include "spvbridge/amber/AmberScript.h"

#include <optional>
#include <string>

namespace spvb::amber {

/// Why the script cannot run here (the first unmet requirement), or none.
std::optional<std::string> findUnmetRequirement(const Script &script);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SCRIPTREQUIREMENTS_H

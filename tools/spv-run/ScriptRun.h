//===- ScriptRun.h - spv-run SCRIPT: one Amber script -----------*- C++ -*-===//
//
// `spv-run SCRIPT` parses an AmberScript or VkScript file (the first line
// decides which) and runs it on the CPU, printing PASS, FAIL with each
// failure's script line, or SKIP with the reason; `--json` prints one JSON
// object instead (what spv-amber reads). Exit status: 0 passed, 1 failed
// (a failed check, or an error in the script), 77 skipped.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_SCRIPTRUN_H
#define SPVBRIDGE_TOOLS_SPV_RUN_SCRIPTRUN_H

#include "spvbridge/amber/ScriptExecutor.h"

#include "llvm/ADT/StringRef.h"

namespace spvb {

/// Exit status for a skipped script (as automake and ctest use it).
constexpr int kSkippedExitStatus = 77;

/// Whether spv-run takes \p path for a script rather than a shader: any
/// file whose extension is not a shader's (.spv, .spvasm, .comp, .vert,
/// .frag, .glsl, .hlsl).
bool isScriptPath(llvm::StringRef path);

/// Runs the script at \p path; returns the exit status.
int runScriptFile(llvm::StringRef path, const amber::ExecutorOptions &options,
                  bool json);

} // namespace spvb

#endif // SPVBRIDGE_TOOLS_SPV_RUN_SCRIPTRUN_H

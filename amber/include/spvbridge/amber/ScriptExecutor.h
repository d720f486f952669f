//===- ScriptExecutor.h - Run an Amber script on the CPU --------*- C++ -*-===//
//
// Runs a parsed script's compute pipelines with spvbridge's JIT and launch
// runtime, command by command as Amber does: buffers start from their
// initial contents, RUN dispatches a pipeline with its bindings, COPY and
// VkScript's buffer writes change buffers between runs, EXPECT checks them.
// A script that needs what spvbridge lacks is skipped
// (ScriptRequirements.h); a compile or dispatch error, or an unmet EXPECT,
// fails it with the script line.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_SCRIPTEXECUTOR_H
#define SPVBRIDGE_TOOLS_AMBER_SCRIPTEXECUTOR_H

#include "spvbridge/amber/AmberScript.h"
#include "spvbridge/amber/ScriptResult.h"

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include <array>
#include <functional>

namespace spvb::amber {

struct ExecutorOptions {
  /// Worker threads per dispatch (0: all hardware threads).
  unsigned threads = 0;
  /// For pipelines without a SUBGROUP REQUIRED_SIZE.
  uint32_t subgroupSize = 32;
  /// What every kernel is compiled with (optimization level, --robust,
  /// --check-bounds, ...); the script decides entry point, specialization
  /// and target environment.
  CompileOptions compile;
  /// --target-env: the environment of shaders without TARGET_ENV; empty:
  /// chosen per shader (ShaderEnvironment.h).
  std::string targetEnv;
  /// What every dispatch must meet (--limits).
  DeviceLimits limits = DeviceLimits::lavapipe();
  /// --dump-images: after the script, every attachment and image is written
  /// here as NAME.png, and its texels as they are in memory as
  /// NAME.texels; empty: none are.
  ///
  /// A colour probe (EQ_RGB, EQ_RGBA, VkScript's probes) whose texels differ
  /// also writes, at once, STEM.BUFFER.actual.png (the whole image, as
  /// --dump-images writes it) and STEM.BUFFER.diff.png (failing texels red,
  /// see makeProbeDifferenceImage) with STEM the script's file name without
  /// its extension, and the failure's note (ScriptFailure::note) says
  /// "actual image: PATH, difference: PATH". They go here, or without
  /// --dump-images to spvb-probe-failures/ in the system temp directory
  /// (the note says so). The Nth failed probe of a buffer (N > 1) writes
  /// STEM.BUFFER.N.actual.png and STEM.BUFFER.N.diff.png; a file that
  /// cannot be written makes the note "could not write PNG: REASON".
  std::string imageDirectory;
  /// The launcher RUN and draws use for a subgroup size; unset, the
  /// executor makes its own of `threads` threads. The Python module passes
  /// its session's, which its watchdog cancels at the timeout or a Ctrl-C.
  std::function<runtime::Launcher &(uint32_t subgroupSize)> getLauncher;
  /// --debug-pixel: in every draw, the fragment invocations that cover
  /// this pixel run through a debug build of the fragment shader (the JIT
  /// must register its code with debuggers).
  std::optional<std::array<uint32_t, 2>> debugPixel;
  /// spv-run SCRIPT --backend=vulkan: every draw runs on the system's
  /// Vulkan driver instead of the runtime (executor/VulkanDraws.h), from
  /// the current bytes of its attachments, buffers and images; dispatches
  /// stay on the CPU.
  bool vulkanDraws = false;
};

ScriptResult executeScript(const Script &script, JitCompiler &jit,
                           const ExecutorOptions &options);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SCRIPTEXECUTOR_H

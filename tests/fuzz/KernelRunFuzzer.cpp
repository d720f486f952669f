//===- KernelRunFuzzer.cpp - libFuzzer: compile and run a module ----------===//
//
// A module that compiles (with --robust) runs one workgroup with buffers
// sized from reflection: each buffer its fixed part and 64 elements of its
// runtime array, filled with a pattern; push constants zero. Modules with
// images or samplers are only compiled.
//
// The dispatch runs in a child process, because a mutated loop may never
// end and generated code cannot be interrupted: the child is killed after
// two seconds, which is no finding. A child that dies of a signal is one.
// The child's coverage is lost to the fuzzer; the compile's is kept.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/GuardedBuffer.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace spvb;

static JitCompiler &getJit() {
  static std::unique_ptr<JitCompiler> jit =
      llvm::cantFail(JitCompiler::create());
  return *jit;
}

/// What the child exits with when the dispatch returned an error; any
/// status but this and 0 (a sanitizer's report exits 1) is a finding.
static constexpr int kDispatchError = 3;

/// Runs `body` in a child; returns false if it was killed for running too
/// long.
static bool runInChild(const std::function<int()> &body) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    return true;
  if (pid == 0)
    _exit(body());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "fuzz-kernel-run: the dispatch died of signal %d\n",
                 WTERMSIG(status));
    std::abort();
  }
  if (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != kDispatchError) {
    std::fprintf(stderr, "fuzz-kernel-run: the dispatch exited with %d\n",
                 WEXITSTATUS(status));
    std::abort();
  }
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<SpirvBinary> binary = parseSpirvBinary(
      llvm::ArrayRef<char>(reinterpret_cast<const char *>(data), size),
      "fuzz.spv");
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return 0;
  }
  CompileOptions options;
  options.robust = true;
  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      getJit().compile(*binary, options);
  if (!kernel) {
    llvm::consumeError(kernel.takeError());
    return 0;
  }
  const ModuleReflection &reflection = (*kernel)->reflection;
  std::vector<runtime::GuardedBuffer> buffers;
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.kind != ResourceKind::StorageBuffer &&
        resource.kind != ResourceKind::UniformBuffer)
      return 0;
    if (resource.arraySize == 0 || resource.arraySize > 8)
      return 0;
    uint64_t bytes =
        resource.staticSize + resource.runtimeArrayStride * uint64_t(64);
    if (bytes > (1u << 20))
      return 0;
    for (uint32_t e = 0; e < resource.arraySize; ++e) {
      buffers.emplace_back(bytes);
      for (uint64_t i = 0; i < bytes; ++i)
        buffers.back()[i] = uint8_t(i * 7 + e);
    }
  }
  runInChild([&] {
    Dispatch dispatch(*kernel);
    size_t next = 0;
    for (const ResourceInfo &resource : reflection.resources)
      for (uint32_t e = 0; e < resource.arraySize; ++e, ++next)
        dispatch.bindBuffer(resource.set, resource.binding,
                            buffers[next].data(), buffers[next].size(), e);
    if (reflection.pushConstants)
      dispatch.setPushConstants(
          std::vector<uint8_t>(reflection.pushConstantSize, 0));
    runtime::Launcher launcher(1);
    llvm::Error error = dispatch.run(launcher, {1, 1, 1});
    if (error) {
      llvm::consumeError(std::move(error));
      return kDispatchError;
    }
    return 0;
  });
  return 0;
}

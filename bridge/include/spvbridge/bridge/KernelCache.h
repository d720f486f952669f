//===- KernelCache.h - Compiled kernels kept on disk ------------*- C++ -*-===//
//
// A second process that compiles the same kernel loads its object file
// instead (and the SPIR-V its GLSL or HLSL compiled to): entries live in a
// directory (llvm::localCache: written to a temporary file and renamed, so
// processes may share it), keyed by the in-memory cache's key, the LLVM
// version, the host CPU and its features, and the build of spvbridge itself,
// and pruned by age and size.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_KERNELCACHE_H
#define SPVBRIDGE_BRIDGE_KERNELCACHE_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spvb {

class KernelDiskCache {
public:
  /// What a compiled kernel needs besides its reflection, which is cheap
  /// to recompute.
  struct Entry {
    /// The lowered entry point's name, which the ABI symbols derive from.
    std::string entryName;
    std::vector<std::pair<uint32_t, uint32_t>> usedBindings;
    uint8_t workgroupFill = 0;
    std::unique_ptr<llvm::MemoryBuffer> object;
    /// The invocation entry's module, as bitcode, when it is compiled on
    /// its first call (DeferredEntries); null otherwise.
    std::unique_ptr<llvm::MemoryBuffer> deferredBitcode;
  };

  /// Opens `directory`, creating it; errors name `origin` (what chose the
  /// directory, such as a flag) or the directory.
  static llvm::Expected<std::unique_ptr<KernelDiskCache>>
  open(llvm::StringRef directory, llvm::StringRef origin = "");
  /// $SPVBRIDGE_KERNEL_CACHE if set, else spvbridge/ in the user's cache
  /// directory ($XDG_CACHE_HOME or ~/.cache); empty if there is none.
  static std::string getDefaultDirectory();

  /// The entry stored for `key`, if there is a well-formed one; a
  /// malformed one is removed.
  std::optional<Entry> load(llvm::StringRef key);
  /// Removes the entry for `key` (one whose object does not link).
  void remove(llvm::StringRef key);

  /// The SPIR-V a front end compiled for `key` (the source, its path and
  /// the source options), named `name`, if the files it included are
  /// unchanged.
  std::optional<SpirvBinary> loadSpirv(llvm::StringRef key,
                                       llvm::StringRef name);
  void storeSpirv(llvm::StringRef key, const SpirvBinary &binary);
  /// Stores `entry` for `key` and prunes old entries. Failures are
  /// ignored: the next process compiles again.
  void store(llvm::StringRef key, const Entry &entry);
  const std::string &getDirectory() const { return directory; }

private:
  KernelDiskCache(std::string directory, std::string identity,
                  llvm::FileCache files);
  std::string getFileKey(llvm::StringRef key) const;
  std::unique_ptr<llvm::MemoryBuffer> readFile(const std::string &fileKey);
  /// Writes the file for `fileKey` with `write`, unless it exists.
  void writeFile(const std::string &fileKey,
                 llvm::function_ref<void(llvm::raw_pwrite_stream &)> write);
  void removeFile(const std::string &fileKey);

  std::string directory;
  /// What else changes the generated code: LLVM, the host, this build.
  std::string identity;
  llvm::FileCache files;
  /// Set by `files` on a hit.
  std::unique_ptr<llvm::MemoryBuffer> found;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_KERNELCACHE_H

//===- KernelCache.cpp - Compiled kernels kept on disk --------------------===//
#include "spvbridge/bridge/KernelCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>

using namespace spvb;

static constexpr llvm::StringLiteral kMagic = "spvbridge-kernel 2\n";
static constexpr llvm::StringLiteral kSpirvMagic = "spvbridge-spirv 1\n";

/// "path size mtime" of a file, or empty.
static std::string describeFile(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (path.empty() || llvm::sys::fs::status(path, status))
    return "";
  return llvm::formatv(
      "{0} {1} {2}", path, status.getSize(),
      status.getLastModificationTime().time_since_epoch().count());
}

/// The build of the code that generates kernels: the executable, and the
/// shared object this file is linked into when it is not the executable
/// (the Python module).
static std::string getBuildIdentity() {
  std::string identity =
      describeFile(llvm::sys::fs::getMainExecutable(nullptr, nullptr));
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&getBuildIdentity), &info) &&
      info.dli_fname)
    identity += "|" + describeFile(info.dli_fname);
  return identity;
}

static std::string getHostIdentity() {
  std::string identity = std::string(LLVM_VERSION_STRING) + "|" +
                         llvm::sys::getProcessTriple() + "|" +
                         llvm::sys::getHostCPUName().str();
  std::vector<std::string> features;
  for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
    if (enabled)
      features.push_back(feature.str());
  llvm::sort(features);
  identity += "|" + llvm::join(features, "+");
  return identity;
}

KernelDiskCache::KernelDiskCache(std::string directory, std::string identity,
                                 llvm::FileCache files)
    : directory(std::move(directory)), identity(std::move(identity)),
      files(std::move(files)) {}

llvm::Expected<std::unique_ptr<KernelDiskCache>>
KernelDiskCache::open(llvm::StringRef directory, llvm::StringRef origin) {
  auto fail = [&](const llvm::Twine &why) {
    std::string what = origin.empty()
                           ? ("kernel cache '" + directory + "'").str()
                           : origin.str();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: " + what + ": " + why);
  };
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return fail("cannot create the directory: " + error.message());
  if (!llvm::sys::fs::can_write(directory))
    return fail("the directory is not writable");
  std::string build = getBuildIdentity();
  if (build.empty())
    return fail("cannot identify this build of spvbridge");
  auto cache = std::unique_ptr<KernelDiskCache>(new KernelDiskCache(
      directory.str(), getHostIdentity() + "|" + build, llvm::FileCache()));
  KernelDiskCache *self = cache.get();
  llvm::Expected<llvm::FileCache> files =
      llvm::localCache("spvbridge kernel cache", "spvb-kernel", directory,
                       [self](unsigned, const llvm::Twine &,
                              std::unique_ptr<llvm::MemoryBuffer> buffer) {
                         self->found = std::move(buffer);
                       });
  if (!files)
    return fail(llvm::toString(files.takeError()));
  cache->files = std::move(*files);
  return cache;
}

std::string KernelDiskCache::getDefaultDirectory() {
  if (std::optional<std::string> path =
          llvm::sys::Process::GetEnv("SPVBRIDGE_KERNEL_CACHE"))
    return *path;
  llvm::SmallString<256> path;
  if (!llvm::sys::path::cache_directory(path))
    return "";
  llvm::sys::path::append(path, "spvbridge");
  return std::string(path);
}

std::string KernelDiskCache::getFileKey(llvm::StringRef key) const {
  llvm::SHA256 hash;
  hash.update(key);
  hash.update("|");
  hash.update(identity);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

/// Reads "NAME VALUE\n" from the front of `text`.
static std::optional<llvm::StringRef> readField(llvm::StringRef &text,
                                                llvm::StringRef name) {
  auto [line, rest] = text.split('\n');
  if (!line.consume_front(name) || !line.consume_front(" ") ||
      rest.data() == nullptr)
    return std::nullopt;
  text = rest;
  return line;
}

std::unique_ptr<llvm::MemoryBuffer>
KernelDiskCache::readFile(const std::string &fileKey) {
  found.reset();
  llvm::Expected<llvm::AddStreamFn> stream = files(0, fileKey, "");
  if (!stream)
    llvm::consumeError(stream.takeError());
  return std::move(found);
}

void KernelDiskCache::writeFile(
    const std::string &fileKey,
    llvm::function_ref<void(llvm::raw_pwrite_stream &)> write) {
  llvm::Expected<llvm::AddStreamFn> addStream = files(0, fileKey, "");
  found.reset();
  if (!addStream) {
    llvm::consumeError(addStream.takeError());
    return;
  }
  if (!*addStream)
    return; // Another process stored it meanwhile.
  llvm::Expected<std::unique_ptr<llvm::CachedFileStream>> stream =
      (*addStream)(0, "");
  if (!stream) {
    llvm::consumeError(stream.takeError());
    return;
  }
  write(*(*stream)->OS);
  if (llvm::Error error = (*stream)->commit())
    llvm::consumeError(std::move(error));
  found.reset();
  llvm::CachePruningPolicy policy;
  policy.MaxSizeBytes = 512 << 20;
  policy.MaxSizePercentageOfAvailableSpace = 10;
  llvm::pruneCache(directory, policy);
}

void KernelDiskCache::removeFile(const std::string &fileKey) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "llvmcache-" + fileKey);
  (void)llvm::sys::fs::remove(path);
}

static std::string hashFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "";
  return llvm::toHex(
      llvm::SHA256::hash(llvm::arrayRefFromStringRef((*buffer)->getBuffer())),
      /*LowerCase=*/true);
}

std::optional<SpirvBinary> KernelDiskCache::loadSpirv(llvm::StringRef key,
                                                      llvm::StringRef name) {
  std::string fileKey = getFileKey("spirv|" + key.str());
  std::unique_ptr<llvm::MemoryBuffer> file = readFile(fileKey);
  if (!file)
    return std::nullopt;
  llvm::StringRef text = file->getBuffer();
  SpirvBinary binary;
  binary.name = name.str();
  uint64_t count = 0;
  bool wellFormed = text.consume_front(kSpirvMagic);
  while (wellFormed && text.starts_with("include ")) {
    std::optional<llvm::StringRef> include = readField(text, "include");
    auto [hash, path] = include ? include->split(' ')
                                : std::pair<llvm::StringRef, llvm::StringRef>();
    wellFormed = include && !path.empty();
    // An included file that changed makes the entry stale.
    if (wellFormed && hashFile(path) != hash) {
      removeFile(fileKey);
      return std::nullopt;
    }
    binary.includedFiles.push_back(path.str());
  }
  std::optional<llvm::StringRef> words;
  wellFormed = wellFormed && (words = readField(text, "words")) &&
               !words->getAsInteger(10, count) && count > 0 &&
               text.size() == count * 4;
  if (!wellFormed) {
    removeFile(fileKey);
    return std::nullopt;
  }
  binary.words.resize(count);
  memcpy(binary.words.data(), text.data(), count * 4);
  return binary;
}

void KernelDiskCache::storeSpirv(llvm::StringRef key,
                                 const SpirvBinary &binary) {
  writeFile(getFileKey("spirv|" + key.str()), [&](llvm::raw_pwrite_stream &os) {
    os << kSpirvMagic;
    for (const std::string &path : binary.includedFiles)
      os << "include " << hashFile(path) << " " << path << "\n";
    os << "words " << binary.words.size() << "\n";
    os.write(reinterpret_cast<const char *>(binary.words.data()),
             binary.words.size() * 4);
  });
}

std::optional<KernelDiskCache::Entry>
KernelDiskCache::load(llvm::StringRef key) {
  std::unique_ptr<llvm::MemoryBuffer> file = readFile(getFileKey(key));
  if (!file)
    return std::nullopt;
  llvm::StringRef text = file->getBuffer();
  Entry entry;
  std::optional<llvm::StringRef> name, fill, bindings, deferred, size;
  unsigned fillValue = 0;
  uint64_t deferredSize = 0, objectSize = 0;
  bool wellFormed =
      text.consume_front(kMagic) && (name = readField(text, "entry")) &&
      (fill = readField(text, "fill")) &&
      (bindings = readField(text, "bindings")) &&
      (deferred = readField(text, "deferred")) && !name->empty() &&
      !fill->getAsInteger(10, fillValue) && fillValue <= 0xff &&
      !deferred->getAsInteger(10, deferredSize) && deferredSize <= text.size();
  llvm::StringRef deferredBitcode;
  if (wellFormed) {
    deferredBitcode = text.take_front(deferredSize);
    text = text.drop_front(deferredSize);
    wellFormed = (size = readField(text, "object")) &&
                 !size->getAsInteger(10, objectSize) &&
                 objectSize == text.size();
  }
  if (!wellFormed) {
    remove(key);
    return std::nullopt;
  }
  llvm::SmallVector<llvm::StringRef> pairs;
  bindings->split(pairs, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef pair : pairs) {
    auto [set, binding] = pair.split(':');
    uint32_t setValue = 0, bindingValue = 0;
    if (set.getAsInteger(10, setValue) ||
        binding.getAsInteger(10, bindingValue)) {
      remove(key);
      return std::nullopt;
    }
    entry.usedBindings.push_back({setValue, bindingValue});
  }
  entry.entryName = name->str();
  entry.workgroupFill = static_cast<uint8_t>(fillValue);
  entry.object = llvm::MemoryBuffer::getMemBufferCopy(text, "kernel cache");
  if (!deferredBitcode.empty())
    entry.deferredBitcode =
        llvm::MemoryBuffer::getMemBufferCopy(deferredBitcode, "kernel cache");
  return entry;
}

void KernelDiskCache::remove(llvm::StringRef key) {
  removeFile(getFileKey(key));
}

void KernelDiskCache::store(llvm::StringRef key, const Entry &entry) {
  writeFile(getFileKey(key), [&](llvm::raw_pwrite_stream &os) {
    os << kMagic << "entry " << entry.entryName << "\nfill "
       << unsigned(entry.workgroupFill) << "\nbindings";
    for (const auto &[set, binding] : entry.usedBindings)
      os << " " << set << ":" << binding;
    llvm::StringRef deferred =
        entry.deferredBitcode ? entry.deferredBitcode->getBuffer() : "";
    os << "\ndeferred " << deferred.size() << "\n"
       << deferred << "object " << entry.object->getBufferSize() << "\n"
       << entry.object->getBuffer();
  });
}

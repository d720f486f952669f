//===- Scripts.cpp - The scripts the PATH arguments name ------------------===//
#include "Scripts.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace spvb::driver;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

bool isScriptName(StringRef name) {
  return name.ends_with(".amber") || name.ends_with(".vkscript");
}

std::string getAbsolutePath(StringRef path) {
  SmallString<256> absolute(path);
  sys::fs::make_absolute(absolute);
  sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

/// The deepest directory that holds every one of \p directories (absolute).
std::string getCommonDirectory(ArrayRef<std::string> directories) {
  SmallVector<StringRef> common(sys::path::begin(directories.front()),
                                sys::path::end(directories.front()));
  for (StringRef directory : directories.drop_front()) {
    size_t shared = 0;
    for (auto it = sys::path::begin(directory), end = sys::path::end(directory);
         it != end && shared < common.size() && *it == common[shared]; ++it)
      ++shared;
    common.resize(shared);
  }
  SmallString<256> result;
  for (StringRef component : common)
    sys::path::append(result, component);
  return std::string(result);
}

/// The scripts below \p directory, sorted so that runs and reports list them
/// in the same order every time.
Expected<std::vector<std::string>> findScriptsIn(StringRef directory) {
  std::vector<std::string> found;
  std::error_code error;
  for (sys::fs::recursive_directory_iterator it(directory, error), end;
       it != end && !error; it.increment(error))
    if (isScriptName(sys::path::filename(it->path())) &&
        sys::fs::is_regular_file(it->path()))
      found.push_back(it->path());
  if (error)
    return makeError("'" + directory + "': " + error.message());
  if (found.empty())
    return makeError("no *.amber or *.vkscript scripts under '" + directory +
                     "'");
  std::sort(found.begin(), found.end());
  return found;
}

} // namespace

Expected<ScriptSet> spvb::driver::findScripts(ArrayRef<std::string> paths) {
  std::vector<std::string> found;
  std::vector<std::string> directories;
  for (const std::string &path : paths) {
    sys::fs::file_status status;
    if (std::error_code error = sys::fs::status(path, status))
      return makeError("'" + path + "': " + error.message());
    if (sys::fs::is_directory(status)) {
      Expected<std::vector<std::string>> inDirectory = findScriptsIn(path);
      if (!inDirectory)
        return inDirectory.takeError();
      found.insert(found.end(), inDirectory->begin(), inDirectory->end());
      directories.push_back(getAbsolutePath(path));
    } else {
      found.push_back(path);
      directories.push_back(
          std::string(sys::path::parent_path(getAbsolutePath(path))));
    }
  }

  ScriptSet set;
  set.commonDirectory = getCommonDirectory(directories);
  StringSet<> seen;
  for (std::string &path : found) {
    std::string absolute = getAbsolutePath(path);
    if (!seen.insert(absolute).second)
      continue;
    StringRef key = StringRef(absolute)
                        .drop_front(set.commonDirectory.size())
                        .ltrim(sys::path::get_separator());
    set.scripts.push_back({std::move(path), key.str()});
  }
  return set;
}

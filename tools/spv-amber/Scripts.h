//===- Scripts.h - The scripts the PATH arguments name ----------*- C++ -*-===//
//
// A PATH argument is a script file, or a directory searched recursively for
// *.amber and *.vkscript files. Each script has a key: its path relative to
// the deepest directory that holds every PATH, which names it in the
// expectations file and the JUnit report whatever the working directory.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_SCRIPTS_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_SCRIPTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace spvb::driver {

struct Script {
  /// The PATH argument, joined with the file's place below it for a
  /// directory: the runner gets it, and messages name the script by it so
  /// that `path:LINE` opens from the working directory.
  std::string path;
  /// The path relative to the common directory, '/'-separated.
  std::string key;
};

struct ScriptSet {
  /// In the order of the PATH arguments, each directory's scripts sorted; a
  /// script that two PATHs name is there once.
  std::vector<Script> scripts;
  /// The absolute directory the keys are relative to.
  std::string commonDirectory;
};

/// The scripts \p paths name. An error (a path that does not exist, a
/// directory that holds no script or cannot be read) starts with "error: "
/// and names the path.
llvm::Expected<ScriptSet> findScripts(llvm::ArrayRef<std::string> paths);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_SCRIPTS_H

//===- AmberTestUtil.h - Helpers shared by the Amber parser tests -*- C++
//-*-===//

#ifndef SPVBRIDGE_TESTS_UNIT_AMBERTESTUTIL_H
#define SPVBRIDGE_TESTS_UNIT_AMBERTESTUTIL_H

#include "TestUtil.h"
#include "spvbridge/amber/AmberScript.h"
#include "spvbridge/amber/ScriptParser.h"

#include "llvm/Support/Casting.h"

#include "gtest/gtest.h"

#include <vector>

namespace spvb::test {

/// \p text parsed as the script \p name (its extension says nothing: the
/// first line decides the format), failing the test on an error.
inline amber::Script parseScriptOk(llvm::StringRef text, llvm::StringRef name) {
  return unwrap(amber::parseScriptText(text, name));
}

/// The \p index-th top-level command as a \p T, failing the test if there
/// is none or it has another kind.
template <typename T>
const T *commandAt(const amber::Script &script, size_t index) {
  if (index >= script.commands.size()) {
    ADD_FAILURE() << "no command " << index;
    return nullptr;
  }
  const T *command = llvm::dyn_cast<T>(script.commands[index].get());
  EXPECT_TRUE(command) << "command " << index << " has another kind";
  return command;
}

inline std::vector<double> doubles(const std::vector<amber::Value> &values) {
  std::vector<double> result;
  for (const amber::Value &value : values)
    result.push_back(value.asDouble());
  return result;
}

} // namespace spvb::test

#endif // SPVBRIDGE_TESTS_UNIT_AMBERTESTUTIL_H

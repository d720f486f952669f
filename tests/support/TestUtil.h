//===- TestUtil.h - Helpers shared by the unit and e2e tests ---*- C++ -*-===//

#ifndef SPVBRIDGE_TESTS_SUPPORT_TESTUTIL_H
#define SPVBRIDGE_TESTS_SUPPORT_TESTUTIL_H

#include "spvbridge/spirv/ShaderSource.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace spvb::test {

/// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code ec = llvm::sys::fs::createUniqueDirectory("spvb-unit", dir);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(dir); }

  std::string path(llvm::StringRef relative) const {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, relative);
    return std::string(p);
  }

  /// Writes \p contents to \p relative (creating directories) and returns the
  /// full path.
  std::string write(llvm::StringRef relative, llvm::StringRef contents) const {
    std::string p = path(relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(p));
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    EXPECT_FALSE(ec) << ec.message();
    os << contents;
    return p;
  }

private:
  llvm::SmallString<256> dir;
};

/// The message of a failed result, or "<success>".
template <typename T> std::string errorText(llvm::Expected<T> result) {
  if (result)
    return "<success>";
  return llvm::toString(result.takeError());
}

inline std::string errorText(llvm::Error error) {
  if (!error)
    return "<success>";
  return llvm::toString(std::move(error));
}

/// Unwraps an Expected, failing the test (with the error text) if it failed.
template <typename T> T unwrap(llvm::Expected<T> result) {
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return T();
  }
  return std::move(*result);
}

/// Compiles GLSL compute source, failing the test on errors.
inline SpirvBinary compileCompute(llvm::StringRef source,
                                  const SourceOptions &opts = {}) {
  return unwrap(compileGlsl(source, "test.comp", ShaderStage::Compute, opts));
}

inline std::string disassemble(const SpirvBinary &binary) {
  return unwrap(disassembleSpirv(binary));
}

} // namespace spvb::test

#endif // SPVBRIDGE_TESTS_SUPPORT_TESTUTIL_H

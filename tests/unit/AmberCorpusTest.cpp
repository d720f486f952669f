//===- AmberCorpusTest.cpp - The Amber corpus parses ----------------------===//
//
// Every script of ../shared/corpus/amber whose MANIFEST.tsv class is
// compute-only must parse; the others must parse or fail with a message
// naming the script (graphics scripts are recorded, not all of them need
// to be understood). Skipped when the corpus is absent.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/ScriptParser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <iostream>
#include <string>
#include <vector>

using namespace spvb::amber;

namespace {

struct ManifestRow {
  std::string path;
  std::string kind;
};

/// The rows of MANIFEST.tsv (path and class columns), paths made absolute.
std::vector<ManifestRow> readManifest(llvm::StringRef corpus) {
  llvm::SmallString<256> manifestPath(corpus);
  llvm::sys::path::append(manifestPath, "MANIFEST.tsv");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> manifest =
      llvm::MemoryBuffer::getFile(manifestPath);
  EXPECT_TRUE(bool(manifest)) << manifestPath.str().str();
  std::vector<ManifestRow> rows;
  if (!manifest)
    return rows;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  (*manifest)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    llvm::SmallVector<llvm::StringRef, 12> columns;
    line.split(columns, '\t');
    if (columns.size() < 2)
      continue;
    llvm::SmallString<256> path(corpus);
    llvm::sys::path::append(path, columns[0]);
    rows.push_back({std::string(path), columns[1].str()});
  }
  return rows;
}

TEST(AmberCorpus, ComputeOnlyScriptsParse) {
  if (!llvm::sys::fs::is_directory(SPVB_AMBER_CORPUS_DIR))
    GTEST_SKIP() << "no corpus at " << SPVB_AMBER_CORPUS_DIR;
  unsigned total = 0, parsed = 0;
  for (const ManifestRow &row : readManifest(SPVB_AMBER_CORPUS_DIR)) {
    if (row.kind != "compute-only")
      continue;
    ++total;
    llvm::Expected<Script> script = parseScript(row.path);
    if (script)
      ++parsed;
    else
      ADD_FAILURE() << llvm::toString(script.takeError());
  }
  EXPECT_GT(total, 0u);
  std::cout << "[   INFO   ] " << parsed << " of " << total
            << " compute-only corpus scripts parse\n";
  RecordProperty("parsed", parsed);
  RecordProperty("total", total);
}

TEST(AmberCorpus, EveryScriptParsesOrFailsCleanly) {
  if (!llvm::sys::fs::is_directory(SPVB_AMBER_CORPUS_DIR))
    GTEST_SKIP() << "no corpus at " << SPVB_AMBER_CORPUS_DIR;
  unsigned total = 0, parsed = 0;
  for (const ManifestRow &row : readManifest(SPVB_AMBER_CORPUS_DIR)) {
    ++total;
    llvm::Expected<Script> script = parseScript(row.path);
    if (script) {
      ++parsed;
      continue;
    }
    std::string message = llvm::toString(script.takeError());
    EXPECT_TRUE(
        llvm::StringRef(message).starts_with("error: " + row.path + ":"))
        << message;
  }
  std::cout << "[   INFO   ] " << parsed << " of " << total
            << " corpus scripts parse\n";
  RecordProperty("parsed", parsed);
  RecordProperty("total", total);
}

} // namespace

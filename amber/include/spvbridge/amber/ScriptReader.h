//===- ScriptReader.h - Statements of an Amber script -----------*- C++ -*-===//
//
// What both parsers do with a statement's words: take the next name,
// keyword or number, or the end of the statement, with the error naming
// what was missing or wrong:
//   missing buffer name in BIND
//   expected TO in COPY, got 'INTO'
//   malformed number 'x' in RUN / '1.5' is not an integer in RUN /
//   '-1' is out of range in RUN
//   unexpected 'x' after RUN
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_SCRIPTREADER_H
#define SPVBRIDGE_TOOLS_AMBER_SCRIPTREADER_H

#include "spvbridge/amber/AmberTokenizer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <string>

namespace spvb::amber {

/// \p token for messages: 'word', or "end of line" / "end of file".
std::string quote(const Token &token);

class ScriptReader {
public:
  /// Reads \p text, whose first line is line \p firstLine of \p fileName.
  ScriptReader(llvm::StringRef text, llvm::StringRef fileName,
               unsigned firstLine = 1)
      : tokens(text, firstLine), fileName(fileName) {}

protected:
  llvm::Error error(unsigned line, const llvm::Twine &message) const {
    return scriptError(fileName, line, message);
  }

  /// The next token, which must be a word: "missing WHAT in CONTEXT".
  llvm::Expected<Token> word(const llvm::Twine &what,
                             const llvm::Twine &context);
  /// The next token, which must be \p expected.
  llvm::Error keyword(llvm::StringRef expected, const llvm::Twine &context);
  /// The end of the line (or file) must come next.
  llvm::Error endOfStatement(const llvm::Twine &context);
  /// An integer from 0 to \p max.
  llvm::Expected<uint64_t>
  integer(const llvm::Twine &what, const llvm::Twine &context,
          uint64_t max = std::numeric_limits<uint32_t>::max());
  llvm::Expected<uint32_t> uint32(const llvm::Twine &what,
                                  const llvm::Twine &context);
  /// Any number, as a double.
  llvm::Expected<double> number(const llvm::Twine &what,
                                const llvm::Twine &context);
  /// Any number, as written (an integer or a float).
  llvm::Expected<Value> literal(const llvm::Twine &what,
                                const llvm::Twine &context);

  Tokenizer tokens;
  std::string fileName;
};

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SCRIPTREADER_H

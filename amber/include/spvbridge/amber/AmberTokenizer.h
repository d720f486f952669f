//===- AmberTokenizer.h - Words and numbers of Amber scripts ---*- C++ -*-===//
//
// Both script formats are lines of whitespace-separated words:
//   - `#` at the start of a word comments out the rest of the line;
//   - `\` at the end of a line joins the next line to it;
//   - `(`, `)`, `,` and `%` are words of their own (VkScript's
//     `probe rect rgba (0, 0, 1, 1) (...)`, tolerances `5%`);
//   - `"..."` is one word without the quotes (VIRTUAL_FILE names).
// Inline shader source and VIRTUAL_FILE text are taken raw, line by line,
// up to a line whose first word is END.
//
// The numbers scripts write: decimal integers, 0x hexadecimal integers
// (either with a sign) and decimal floats (`1`, `-2.5`, `.5`, `12.`,
// `1e-6`).
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_AMBERTOKENIZER_H
#define SPVBRIDGE_TOOLS_AMBER_AMBERTOKENIZER_H

#include "spvbridge/amber/AmberType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace spvb::amber {

struct Token {
  enum class Kind : uint8_t { Word, String, EndOfLine, EndOfFile };

  Kind kind = Kind::EndOfFile;
  llvm::StringRef text;
  unsigned line = 0;

  bool isWord() const { return kind == Kind::Word || kind == Kind::String; }
  bool is(llvm::StringRef word) const { return isWord() && text == word; }
  /// The end of a statement: end of line or of file.
  bool isEnd() const {
    return kind == Kind::EndOfLine || kind == Kind::EndOfFile;
  }
  /// The token for messages: the word, or "end of line" / "end of file".
  std::string describe() const;
};

/// Raw text taken by Tokenizer::takeBlock.
struct RawBlock {
  /// The lines, each with its newline; without the END line.
  llvm::StringRef text;
  /// The END line's number, or 0 if the text ran out first.
  unsigned endLine = 0;
  /// What follows END on its line.
  llvm::StringRef endLineRest;
};

class Tokenizer {
public:
  /// Tokenizes \p text, whose first line is line \p firstLine.
  explicit Tokenizer(llvm::StringRef text, unsigned firstLine = 1)
      : text(text), line(firstLine) {}

  Token next();
  Token peek();
  /// The line of the next token.
  unsigned currentLine();

  /// The lines from the current position (the start of a line) up to the
  /// next line whose first word is END, which is consumed with the rest of
  /// its line.
  RawBlock takeBlock();

private:
  void skipBlanks();

  llvm::StringRef text;
  size_t position = 0;
  unsigned line;
  std::optional<Token> peeked;
  size_t positionBeforePeek = 0;
  unsigned lineBeforePeek = 0;
};

/// An integer literal: negative ones as Value::Kind::Int, the others as
/// Value::Kind::UInt (past 64 bits: the largest, as strtoull gives);
/// nullopt if \p text is no integer or a negative one below INT64_MIN.
std::optional<Value> parseIntegerLiteral(llvm::StringRef text);

/// An integer or float literal (floats as Value::Kind::Float); "nan" in any
/// case is a float, as Amber's tokenizer reads it.
std::optional<Value> parseNumberLiteral(llvm::StringRef text);

/// The number \p token writes, as a value of \p scalar (convertValue), or
/// the error, in \p fileName at the token's line:
///   malformed number 'x12' in CONTEXT
///   '1.5' is not an integer (int32) in CONTEXT
/// Integers may be written for floats. An integer keeps its low bits, as
/// Amber casts it (`-1` into uint32 is 0xFFFFFFFF, `256` into uint8 is 0).
llvm::Expected<Value> parseValueFor(const Token &token, ScalarType scalar,
                                    llvm::StringRef context,
                                    llvm::StringRef fileName);

/// The error `error: FILE:LINE: MESSAGE`.
llvm::Error scriptError(llvm::StringRef fileName, unsigned line,
                        const llvm::Twine &message);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_AMBERTOKENIZER_H

//===- AmberTokenizer.cpp - Words, numbers and lines of Amber scripts -----===//

#include "spvbridge/amber/AmberTokenizer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace spvb::amber;
using llvm::StringRef;

std::string Token::describe() const {
  switch (kind) {
  case Kind::EndOfLine:
    return "end of line";
  case Kind::EndOfFile:
    return "end of file";
  case Kind::Word:
  case Kind::String:
    return text.str();
  }
  return text.str();
}

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

bool isSingleCharWord(char c) {
  return c == '(' || c == ')' || c == ',' || c == '%';
}

} // namespace

void Tokenizer::skipBlanks() {
  while (position < text.size()) {
    char c = text[position];
    if (isBlank(c)) {
      ++position;
      continue;
    }
    if (c == '\\') {
      // A continuation: `\`, blanks, then the end of the line.
      size_t end = position + 1;
      while (end < text.size() && isBlank(text[end]))
        ++end;
      if (end < text.size() && text[end] == '\n') {
        position = end + 1;
        ++line;
        continue;
      }
      if (end == text.size()) {
        position = end;
        continue;
      }
      return;
    }
    if (c == '#') {
      while (position < text.size() && text[position] != '\n')
        ++position;
      continue;
    }
    return;
  }
}

Token Tokenizer::next() {
  if (peeked) {
    Token token = *peeked;
    peeked.reset();
    return token;
  }
  skipBlanks();
  Token token;
  token.line = line;
  if (position >= text.size()) {
    token.kind = Token::Kind::EndOfFile;
    return token;
  }
  char c = text[position];
  if (c == '\n') {
    token.kind = Token::Kind::EndOfLine;
    ++position;
    ++line;
    return token;
  }
  if (isSingleCharWord(c)) {
    token.kind = Token::Kind::Word;
    token.text = text.substr(position, 1);
    ++position;
    return token;
  }
  if (c == '"') {
    // A quoted word ends at the closing quote or, unterminated, at the end
    // of the line.
    size_t end = position + 1;
    while (end < text.size() && text[end] != '"' && text[end] != '\n')
      ++end;
    token.kind = Token::Kind::String;
    token.text = text.slice(position + 1, end);
    position = end < text.size() && text[end] == '"' ? end + 1 : end;
    return token;
  }
  size_t end = position;
  while (end < text.size()) {
    char d = text[end];
    if (isBlank(d) || d == '\n' || isSingleCharWord(d) || d == '"')
      break;
    if (d == '\\') {
      size_t after = end + 1;
      while (after < text.size() && isBlank(text[after]))
        ++after;
      if (after == text.size() || text[after] == '\n')
        break;
    }
    ++end;
  }
  token.kind = Token::Kind::Word;
  token.text = text.slice(position, end);
  position = end;
  return token;
}

Token Tokenizer::peek() {
  if (!peeked) {
    positionBeforePeek = position;
    lineBeforePeek = line;
    peeked = next();
  }
  return *peeked;
}

unsigned Tokenizer::currentLine() { return peek().line; }

RawBlock Tokenizer::takeBlock() {
  // Raw text starts where the peeked token's text did.
  if (peeked) {
    position = positionBeforePeek;
    line = lineBeforePeek;
    peeked.reset();
  }
  size_t start = position;
  while (position < text.size()) {
    size_t lineEnd = text.find('\n', position);
    if (lineEnd == StringRef::npos)
      lineEnd = text.size();
    StringRef lineText = text.slice(position, lineEnd);
    StringRef firstWord = lineText.ltrim(" \t\r\v\f");
    size_t wordEnd = firstWord.find_first_of(" \t\r\v\f#");
    firstWord = firstWord.take_front(wordEnd);
    if (firstWord == "END") {
      StringRef rest = lineText.ltrim(" \t\r\v\f").drop_front(3);
      RawBlock block{text.slice(start, position), line, rest};
      position = lineEnd < text.size() ? lineEnd + 1 : lineEnd;
      ++line;
      return block;
    }
    position = lineEnd < text.size() ? lineEnd + 1 : lineEnd;
    ++line;
  }
  return RawBlock{text.slice(start, position), 0, StringRef()};
}

std::optional<Value> spvb::amber::parseIntegerLiteral(StringRef text) {
  bool negative = false;
  if (text.consume_front("-"))
    negative = true;
  else
    text.consume_front("+");
  uint64_t magnitude = 0;
  unsigned radix = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text = text.drop_front(2);
    radix = 16;
  }
  // getAsInteger would take its own "0x" prefix or a second sign.
  if (text.empty() || !llvm::all_of(text, [&](char c) {
        return radix == 16 ? llvm::isHexDigit(c) : llvm::isDigit(c);
      }))
    return std::nullopt;
  // Only digits are left, so failing means too many: strtoull, which Amber
  // reads numbers with, gives its maximum.
  if (text.getAsInteger(radix, magnitude))
    magnitude = std::numeric_limits<uint64_t>::max();
  if (!negative)
    return Value::fromUint(magnitude);
  if (magnitude > uint64_t(1) << 63)
    return std::nullopt;
  return Value::fromInt(static_cast<int64_t>(0 - magnitude));
}

std::optional<Value> spvb::amber::parseNumberLiteral(StringRef text) {
  if (std::optional<Value> integer = parseIntegerLiteral(text))
    return integer;
  // Amber's tokenizer reads "nan" in any case as a number; not "inf", not a
  // signed NaN.
  if (text.equals_insensitive("nan"))
    return Value::fromDouble(std::numeric_limits<double>::quiet_NaN());
  // [+-] digits [. digits] | [+-] . digits, then [eE [+-] digits]: what
  // strtod takes minus hexadecimal floats, infinities and NaNs.
  StringRef rest = text;
  if (!rest.empty() && (rest.front() == '-' || rest.front() == '+'))
    rest = rest.drop_front();
  size_t intDigits = rest.find_if_not(llvm::isDigit);
  intDigits = intDigits == StringRef::npos ? rest.size() : intDigits;
  rest = rest.drop_front(intDigits);
  size_t fractionDigits = 0;
  if (rest.consume_front(".")) {
    fractionDigits = rest.find_if_not(llvm::isDigit);
    fractionDigits =
        fractionDigits == StringRef::npos ? rest.size() : fractionDigits;
    rest = rest.drop_front(fractionDigits);
  }
  if (intDigits + fractionDigits == 0)
    return std::nullopt;
  if (rest.consume_front("e") || rest.consume_front("E")) {
    if (!rest.empty() && (rest.front() == '-' || rest.front() == '+'))
      rest = rest.drop_front();
    if (rest.empty() || !llvm::all_of(rest, llvm::isDigit))
      return std::nullopt;
    rest = StringRef();
  }
  if (!rest.empty())
    return std::nullopt;
  llvm::SmallString<32> buffer(text);
  return Value::fromDouble(std::strtod(buffer.c_str(), nullptr));
}

llvm::Expected<Value> spvb::amber::parseValueFor(const Token &token,
                                                 ScalarType scalar,
                                                 StringRef context,
                                                 StringRef fileName) {
  if (token.isEnd())
    return scriptError(fileName, token.line,
                       "missing value in " + context + ", got " +
                           token.describe());
  std::optional<Value> literal = parseNumberLiteral(token.text);
  if (!literal)
    return scriptError(fileName, token.line,
                       "malformed number '" + token.text + "' in " + context);
  if (scalar.isFloat())
    return convertValue(*literal, scalar);
  if (literal->isFloat())
    return scriptError(fileName, token.line,
                       "'" + token.text + "' is not an integer (" +
                           scalarTypeName(scalar) + ") in " + context);
  return convertValue(*literal, scalar);
}

llvm::Error spvb::amber::scriptError(StringRef fileName, unsigned line,
                                     const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: " + fileName + ":" +
                                     llvm::Twine(line) + ": " + message);
}

//===- ScriptReader.cpp - Statements of an Amber script -------------------===//

#include "spvbridge/amber/ScriptReader.h"

using namespace spvb::amber;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

std::string spvb::amber::quote(const Token &token) {
  return token.isEnd() ? token.describe() : "'" + token.describe() + "'";
}

Expected<Token> ScriptReader::word(const Twine &what, const Twine &context) {
  Token token = tokens.next();
  if (!token.isWord())
    return error(token.line, "missing " + what + " in " + context);
  return token;
}

Error ScriptReader::keyword(llvm::StringRef expected, const Twine &context) {
  Token token = tokens.next();
  if (!token.is(expected))
    return error(token.line, "expected " + expected + " in " + context +
                                 ", got " + quote(token));
  return Error::success();
}

Error ScriptReader::endOfStatement(const Twine &context) {
  Token token = tokens.next();
  if (!token.isEnd())
    return error(token.line,
                 "unexpected " + quote(token) + " after " + context);
  return Error::success();
}

Expected<uint64_t> ScriptReader::integer(const Twine &what,
                                         const Twine &context, uint64_t max) {
  Token token = tokens.next();
  if (token.isEnd())
    return error(token.line, "missing " + what + " in " + context);
  std::optional<Value> literal = parseNumberLiteral(token.text);
  if (!literal)
    return error(token.line,
                 "malformed number '" + token.text + "' in " + context);
  if (literal->isFloat())
    return error(token.line,
                 "'" + token.text + "' is not an integer in " + context);
  if (literal->getKind() == Value::Kind::Int || literal->asUint64() > max)
    return error(token.line,
                 "'" + token.text + "' is out of range in " + context);
  return literal->asUint64();
}

Expected<uint32_t> ScriptReader::uint32(const Twine &what,
                                        const Twine &context) {
  Expected<uint64_t> value = integer(what, context);
  if (!value)
    return value.takeError();
  return static_cast<uint32_t>(*value);
}

Expected<double> ScriptReader::number(const Twine &what, const Twine &context) {
  Expected<Value> value = literal(what, context);
  if (!value)
    return value.takeError();
  return value->asDouble();
}

Expected<Value> ScriptReader::literal(const Twine &what, const Twine &context) {
  Token token = tokens.next();
  if (token.isEnd())
    return error(token.line, "missing " + what + " in " + context);
  std::optional<Value> value = parseNumberLiteral(token.text);
  if (!value)
    return error(token.line,
                 "malformed number '" + token.text + "' in " + context);
  return *value;
}

//===- CheckMessages.cpp - Messages of the run-time checks ----------------===//
#include "CheckMessages.h"

#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

std::string spvb::conversionFor(Type type, char conversion) {
  if (auto vector = dyn_cast<VectorType>(type))
    return "(%v" +
           std::to_string(std::min<int64_t>(vector.getNumElements(), 4)) +
           conversion + ")";
  return std::string("%") + conversion;
}

/// Messages are DebugPrintf formats: a '%' of the site is literal.
static std::string escapePercent(llvm::StringRef text) {
  std::string out;
  for (char ch : text) {
    out += ch;
    if (ch == '%')
      out += '%';
  }
  return out;
}

void spvb::insertCheck(OpBuilder &b, Operation *op, Value failed,
                       llvm::StringRef message, ValueRange args) {
  std::string site = escapePercent(formatLocation(op->getLoc()));
  if (isa<VectorType>(failed.getType()))
    failed = AnyOp::create(b, op->getLoc(), b.getI1Type(), failed);
  CheckDefinedOp::create(
      b, op->getLoc(), failed,
      b.getStringAttr((site.empty() ? "" : site + ": ") + message), args);
}

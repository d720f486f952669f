//===- NanChecks.cpp - Reports the first NaN or infinity ------------------===//
#include "NanChecks.h"

#include "CheckMessages.h"

#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <spirv/unified1/GLSL.std.450.h>

using namespace mlir;
using namespace spvb;

/// The name a report gives `op`: "OpFDiv", "Log" for GLSL.std.450 Log, or
/// none when `op` computes no new float values (loads, copies, selects,
/// composites, matrices: their operands carry their NaNs in).
static std::optional<std::string> getArithmeticName(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())) ||
      !isa<FloatType, VectorType>(op->getResult(0).getType()))
    return std::nullopt;
  StringRef name = op->getName().getStringRef();
  if (name.consume_front("spirv.GL."))
    return name.str();
  if (auto ext = dyn_cast<GLSLExtOp>(op))
    return "GLSL.std.450 instruction " + std::to_string(ext.getInst());
  if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
          spirv::FRemOp, spirv::FModOp, spirv::VectorTimesScalarOp,
          spirv::DotOp, spirv::FConvertOp, spirv::ConvertSToFOp,
          spirv::ConvertUToFOp>(op)) {
    name.consume_front("spirv.");
    return ("Op" + name).str();
  }
  return std::nullopt;
}

/// i1 (or a vector of i1, lane by lane): `value` is a NaN or an infinity.
static Value isNonFinite(OpBuilder &b, Location loc, Value value) {
  return spirv::LogicalOrOp::create(b, loc,
                                    spirv::IsNanOp::create(b, loc, value),
                                    spirv::IsInfOp::create(b, loc, value));
}

void spvb::insertNanChecks(ModuleOp module) {
  SmallVector<std::pair<Operation *, std::string>> ops;
  module.walk([&](Operation *op) {
    if (!op->getParentOfType<spirv::FuncOp>() ||
        !llvm::all_of(op->getOperandTypes(), [](Type type) {
          return isa<FloatType, VectorType, IntegerType>(type);
        }))
      return;
    if (std::optional<std::string> name = getArithmeticName(op))
      ops.emplace_back(op, *name);
  });
  OpBuilder b(module.getContext());
  for (auto &[op, name] : ops) {
    Location loc = op->getLoc();
    b.setInsertionPointAfter(op);
    Value result = op->getResult(0);
    Value failed = isNonFinite(b, loc, result);
    if (isa<VectorType>(failed.getType()))
      failed = AnyOp::create(b, loc, b.getI1Type(), failed);
    std::string operands;
    SmallVector<Value> args{result};
    for (Value operand : op->getOperands()) {
      Type type = operand.getType();
      operands +=
          (operands.empty() ? " " : ", ") +
          conversionFor(type,
                        isa<FloatType>(getElementTypeOrSelf(type)) ? 'g' : 'd');
      args.push_back(operand);
      if (!isa<FloatType>(getElementTypeOrSelf(type)))
        continue;
      Value finite =
          spirv::LogicalNotOp::create(b, loc, isNonFinite(b, loc, operand));
      if (isa<VectorType>(finite.getType()))
        finite = AllOp::create(b, loc, b.getI1Type(), finite);
      failed = spirv::LogicalAndOp::create(b, loc, failed, finite);
    }
    insertCheck(b, op, failed,
                name + " made " + conversionFor(result.getType(), 'g') +
                    " from finite operands" + operands,
                args);
  }
}

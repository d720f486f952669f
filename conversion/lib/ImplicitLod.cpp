//===- ImplicitLod.cpp - Implicit-LOD sampling in fragment shaders --------===//
#include "ImplicitLod.h"

#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <spirv/unified1/spirv.hpp>

using namespace mlir;
using namespace spvb;

void spvb::addImplicitLodGradients(ModuleOp module) {
  SmallVector<ImageOp> samples;
  module.walk([&](ImageOp op) {
    if ((op.getOpcode() == spv::OpImageSampleImplicitLod ||
         op.getOpcode() == spv::OpImageSampleDrefImplicitLod) &&
        !(op.getImageOperands() & spv::ImageOperandsGradMask) &&
        op.getOperands().size() >= 2)
      samples.push_back(op);
  });
  for (ImageOp op : samples) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value coordinate = op.getOperands()[1];
    auto derivative = [&](uint32_t opcode) -> Value {
      return SubgroupOp::create(b, loc, coordinate.getType(),
                                b.getI32IntegerAttr(opcode),
                                b.getI32IntegerAttr(-1), b.getI32IntegerAttr(0),
                                ValueRange{coordinate});
    };
    Value dx = derivative(spv::OpDPdxCoarse);
    Value dy = derivative(spv::OpDPdyCoarse);
    // Image operands follow the coordinate (and Dref) in mask-bit order:
    // Bias (bit 0), Lod (bit 1, not with ImplicitLod), then Grad (bit 2).
    uint32_t mask = op.getImageOperands();
    SmallVector<Value> operands(op.getOperands().begin(),
                                op.getOperands().end());
    unsigned at =
        (op.getOpcode() == spv::OpImageSampleDrefImplicitLod ? 3 : 2) +
        ((mask & spv::ImageOperandsBiasMask) ? 1 : 0);
    operands.insert(operands.begin() + std::min<size_t>(at, operands.size()),
                    {dx, dy});
    auto replacement = ImageOp::create(
        b, loc, op->getResultTypes(), op.getOpcodeAttr(),
        b.getI32IntegerAttr(mask | spv::ImageOperandsGradMask), operands);
    op->replaceAllUsesWith(replacement);
    op.erase();
  }
}

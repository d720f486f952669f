//===- spvb-opt.cpp - mlir-opt with spvbridge's dialects and passes -------===//
//
// For lit tests of the conversion: reads spirv dialect text and runs the
// lowering (--spvb-lower-to-llvm, like mlir-opt --convert-spirv-to-llvm
// upstream) or one of its steps (spvbridge/conversion/Passes.h).
//
//===----------------------------------------------------------------------===//
#include "spvbridge/conversion/Passes.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::spirv::SPIRVDialect, spvb::SpvbDialect,
                  mlir::LLVM::LLVMDialect, mlir::func::FuncDialect,
                  mlir::scf::SCFDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect>();
  spvb::registerConversionPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "spvbridge optimizer driver\n", registry));
}

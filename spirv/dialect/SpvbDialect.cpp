//===- SpvbDialect.cpp - SPIR-V instructions missing from 'spirv' ---------===//
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;

#include "SpvbDialect.cpp.inc"

void spvb::SpvbDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "SpvbOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "SpvbOps.cpp.inc"

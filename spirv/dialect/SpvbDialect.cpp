//===- SpvbDialect.cpp - SPIR-V instructions missing from 'spirv' ---------===//
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "SpvbDialect.cpp.inc"

void spvb::SpvbDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "SpvbOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "SpvbTypes.cpp.inc"
      >();
}

#define GET_TYPEDEF_CLASSES
#include "SpvbTypes.cpp.inc"

#define GET_OP_CLASSES
#include "SpvbOps.cpp.inc"

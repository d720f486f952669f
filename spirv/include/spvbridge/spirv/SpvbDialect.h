//===- SpvbDialect.h - SPIR-V instructions missing from 'spirv' -*- C++ -*-===//
#ifndef SPVBRIDGE_SPIRV_SPVBDIALECT_H
#define SPVBRIDGE_SPIRV_SPVBDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SpvbDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "SpvbTypes.h.inc"

#define GET_OP_CLASSES
#include "SpvbOps.h.inc"

#endif // SPVBRIDGE_SPIRV_SPVBDIALECT_H

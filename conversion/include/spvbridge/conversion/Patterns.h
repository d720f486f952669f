//===- Patterns.h - SPIR-V to LLVM conversion patterns ----------*- C++ -*-===//
//
// Our patterns, by op family. They are registered with a higher benefit than
// upstream's populateSPIRVToLLVMConversionPatterns, which we keep for the ops
// whose upstream lowering has the right semantics.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_PATTERNS_H
#define SPVBRIDGE_CONVERSION_PATTERNS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace spvb {

/// Benefit of our patterns over upstream ones for the same op.
constexpr unsigned kOverrideBenefit = 10;

/// Records on each memory op how matrices behind its pointer operand are
/// laid out (the layout belongs to the struct member the pointer came from).
void annotatePointerLayouts(mlir::ModuleOp module);

void populateMemoryPatterns(const mlir::TypeConverter &converter,
                            const InterfaceLayout &layout,
                            mlir::RewritePatternSet &patterns);
void populateFunctionPatterns(const mlir::TypeConverter &converter,
                              const InterfaceLayout &layout,
                              mlir::RewritePatternSet &patterns);
void populateArithmeticPatterns(const mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
void populateCastPatterns(const mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
void populateCompositePatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
void populateAtomicAndBarrierPatterns(const mlir::TypeConverter &converter,
                                      const InterfaceLayout &layout,
                                      mlir::RewritePatternSet &patterns);
void populateControlFlowPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateRuntimeCallPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// OpEmitVertex and OpEndPrimitive: emitting into the launch's
/// spvb_geometry_emit.
void populateGeometryPatterns(const mlir::TypeConverter &converter,
                              const InterfaceLayout &layout,
                              mlir::RewritePatternSet &patterns);
void populateGLSLPatterns(const mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
/// OpKill and OpTerminateInvocation: in a fragment shader they set the
/// output record's SPVB_FRAGMENT_TERMINATED, then return.
void populateTerminationPatterns(const mlir::TypeConverter &converter,
                                 const InterfaceLayout &layout,
                                 mlir::RewritePatternSet &patterns);
void populateMatrixPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);
/// spvb.debug_value: llvm.intr.dbg.value of a variable scoped to a
/// placeholder file, which ShaderDebugInfo replaces.
void populateDebugValuePatterns(const mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_PATTERNS_H

//===- GLSLPatterns.cpp - GLSL.std.450 --------------------------------------===//
#include "spvbridge/conversion/Patterns.h"

using namespace mlir;
using namespace spvb;

void spvb::populateGLSLPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns) {}

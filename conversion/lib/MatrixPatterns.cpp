//===- MatrixPatterns.cpp - Matrix arithmetic -------------------------------===//
#include "spvbridge/conversion/Patterns.h"

using namespace mlir;
using namespace spvb;

void spvb::populateMatrixPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {}

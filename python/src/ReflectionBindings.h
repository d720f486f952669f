//===- ReflectionBindings.h - A shader's interface in Python ----*- C++ -*-===//
#ifndef SPVBRIDGE_PYTHON_REFLECTIONBINDINGS_H
#define SPVBRIDGE_PYTHON_REFLECTIONBINDINGS_H

#include <pybind11/pybind11.h>

namespace spvb::python {

/// Binds spirv/Reflection.h's types read-only: Reflection, EntryPoint,
/// Resource, Member, SpecConstant and StorageVariable.
void bindReflection(pybind11::module_ &module);

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_REFLECTIONBINDINGS_H

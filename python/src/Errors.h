//===- Errors.h - spvbridge's errors as Python exceptions -------*- C++ -*-===//
//
// Every llvm::Error the C++ API returns becomes one of the module's
// exception classes, its message exactly what spv-run prints:
//
//   spvbridge.Error (RuntimeError)
//     CompileError          loading, glslang, validation, specialization,
//                           lowering, code generation
//     BindingError          what a dispatch is given does not fit the shader
//     DispatchError         the dispatch failed (limits, barriers, a fault)
//       OutOfBoundsError    check_bounds found an access outside its buffer
//       DataRaceError       check_races found two unordered accesses
//       UndefinedResultError  check_undefined or check_nan found a result
//                           the specifications leave undefined
//       DispatchTimeoutError  the dispatch ran past its timeout and was
//                           stopped
//
// A DispatchError's `printf` holds what the shader printed before it
// failed.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_ERRORS_H
#define SPVBRIDGE_PYTHON_ERRORS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace spvb::python {

/// The C++ side of the exception classes code throws; pybind11 translates
/// them. DispatchError and its subclasses are raised as Python objects
/// (throwDispatchError), to carry the run's printf output.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct CompileError : Error {
  using Error::Error;
};
struct BindingError : Error {
  using Error::Error;
};
/// Registers the exception classes in \p module.
void registerErrors(pybind11::module_ &module);

/// Throws \p error as a CompileError.
[[noreturn]] void throwCompileError(llvm::Error error);
/// Raises \p error as the DispatchError of its kind, a check's fault
/// (runtime::ShaderFault) as its own class, with \p printed (what the run
/// printed before it failed) as its `printf`.
[[noreturn]] void throwDispatchError(llvm::Error error,
                                     const std::string &printed);
/// Seconds as Python prints them (0.5, 60), for messages.
std::string formatSeconds(double seconds);

/// Throws a BindingError "error: <message>".
[[noreturn]] void throwBindingError(const llvm::Twine &message);

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_ERRORS_H

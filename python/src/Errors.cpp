//===- Errors.cpp - spvbridge's errors as Python exceptions ---------------===//
#include "Errors.h"

#include "Session.h"

#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace py = pybind11;
using namespace spvb::python;

void spvb::python::registerErrors(py::module_ &module) {
  auto &base =
      py::register_exception<Error>(module, "Error", PyExc_RuntimeError);
  py::register_exception<CompileError>(module, "CompileError", base);
  py::register_exception<BindingError>(module, "BindingError", base);
  auto &dispatch =
      py::register_exception<DispatchError>(module, "DispatchError", base);
  py::register_exception<OutOfBoundsError>(module, "OutOfBoundsError",
                                           dispatch);
  py::register_exception<DataRaceError>(module, "DataRaceError", dispatch);
  py::register_exception<UndefinedResultError>(module, "UndefinedResultError",
                                               dispatch);
  py::register_exception<DispatchTimeoutError>(module, "DispatchTimeoutError",
                                               dispatch);
}

void spvb::python::throwCompileError(llvm::Error error) {
  throw CompileError(llvm::toString(std::move(error)));
}

void spvb::python::throwDispatchError(llvm::Error error) {
  using Kind = runtime::ShaderFault::Kind;
  Kind kind = Kind::Other;
  std::string message;
  llvm::handleAllErrors(
      std::move(error),
      [&](const runtime::ShaderFault &fault) {
        kind = fault.getKind();
        message = fault.getMessage();
      },
      [&](const llvm::ErrorInfoBase &other) { message = other.message(); });
  switch (kind) {
  case Kind::OutOfBounds:
    throw OutOfBoundsError(message);
  case Kind::DataRace:
    throw DataRaceError(message);
  case Kind::Undefined:
    throw UndefinedResultError(message);
  case Kind::Cancelled:
    // Stopped for Ctrl-C: Python's handler has recorded the signal, and
    // running it raises KeyboardInterrupt (on the main thread).
    if (Session::getInterrupt()) {
      if (PyErr_Occurred() || PyErr_CheckSignals() != 0)
        throw py::error_already_set();
      throw DispatchError(message);
    }
    throw DispatchTimeoutError(message);
  case Kind::Other:
    break;
  }
  throw DispatchError(message);
}

void spvb::python::throwBindingError(const llvm::Twine &message) {
  throw BindingError(("error: " + message).str());
}

std::string spvb::python::formatSeconds(double seconds) {
  return llvm::formatv("{0}", llvm::format("%g", seconds)).str();
}

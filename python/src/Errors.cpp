//===- Errors.cpp - spvbridge's errors as Python exceptions ---------------===//
#include "Errors.h"

#include "Session.h"

#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace py = pybind11;
using namespace spvb::python;

namespace {
/// The DispatchError classes (the module holds them for the process).
struct DispatchClasses {
  PyObject *dispatch, *outOfBounds, *dataRace, *undefined, *timeout;
} classes;
} // namespace

/// A new exception class `name` deriving from \p base, added to \p module.
static PyObject *addClass(py::module_ &module, const char *name,
                          PyObject *base) {
  std::string qualified = std::string("spvbridge._spvbridge.") + name;
  PyObject *added = PyErr_NewException(qualified.c_str(), base, nullptr);
  if (!added)
    throw py::error_already_set();
  module.add_object(name, py::handle(added));
  return added;
}

void spvb::python::registerErrors(py::module_ &module) {
  auto &base =
      py::register_exception<Error>(module, "Error", PyExc_RuntimeError);
  py::register_exception<CompileError>(module, "CompileError", base);
  py::register_exception<BindingError>(module, "BindingError", base);
  classes.dispatch = addClass(module, "DispatchError", base.ptr());
  // What the run printed; "" on the class for errors raised without one.
  py::handle(classes.dispatch).attr("printf") = "";
  classes.outOfBounds = addClass(module, "OutOfBoundsError", classes.dispatch);
  classes.dataRace = addClass(module, "DataRaceError", classes.dispatch);
  classes.undefined =
      addClass(module, "UndefinedResultError", classes.dispatch);
  classes.timeout = addClass(module, "DispatchTimeoutError", classes.dispatch);
}

/// Raises an instance of \p type with \p message and \p printed.
[[noreturn]] static void raise(PyObject *type, const std::string &message,
                               const std::string &printed) {
  py::object error = py::reinterpret_borrow<py::object>(type)(message);
  error.attr("printf") = printed;
  PyErr_SetObject(type, error.ptr());
  throw py::error_already_set();
}

void spvb::python::throwCompileError(llvm::Error error) {
  throw CompileError(llvm::toString(std::move(error)));
}

void spvb::python::throwDispatchError(llvm::Error error,
                                      const std::string &printed) {
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
    raise(classes.outOfBounds, message, printed);
  case Kind::DataRace:
    raise(classes.dataRace, message, printed);
  case Kind::Undefined:
    raise(classes.undefined, message, printed);
  case Kind::Cancelled:
    // Stopped for Ctrl-C: Python's handler has recorded the signal, and
    // running it raises KeyboardInterrupt (on the main thread).
    if (Session::getInterrupt()) {
      if (PyErr_Occurred() || PyErr_CheckSignals() != 0)
        throw py::error_already_set();
      raise(classes.dispatch, message, printed);
    }
    raise(classes.timeout, message, printed);
  case Kind::Other:
    break;
  }
  raise(classes.dispatch, message, printed);
}

void spvb::python::throwBindingError(const llvm::Twine &message) {
  throw BindingError(("error: " + message).str());
}

std::string spvb::python::formatSeconds(double seconds) {
  return llvm::formatv("{0}", llvm::format("%g", seconds)).str();
}

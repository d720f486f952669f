//===- ResourceBinding.h - Python memory bound to a dispatch ----*- C++ -*-===//
//
// Binds the buffers, images and samplers a dispatch is given to it, each
// checked against the shader's declaration, with the exporter's own memory
// (zero-copy): the buffer protocol pins it until the binder is destroyed,
// which must happen with the GIL held.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_RESOURCEBINDING_H
#define SPVBRIDGE_PYTHON_RESOURCEBINDING_H

#include "ShaderKernel.h"

#include <memory>
#include <vector>

namespace spvb::python {

/// One object's memory, pinned by PyObject_GetBuffer.
class PinnedMemory {
public:
  PinnedMemory() = default;
  PinnedMemory(const PinnedMemory &) = delete;
  PinnedMemory &operator=(const PinnedMemory &) = delete;
  ~PinnedMemory();

  /// Pins C-contiguous memory, writable unless \p readOnly; on failure
  /// returns why ("is read-only", "is not C-contiguous", ...).
  std::optional<std::string> pin(pybind11::handle object, bool readOnly);
  uint8_t *getData() const { return static_cast<uint8_t *>(view.buf); }
  uint64_t getSize() const { return uint64_t(view.len); }
  bool isWritable() const { return !view.readonly; }

private:
  Py_buffer view{};
  bool held = false;
};

class ResourceBinder {
public:
  explicit ResourceBinder(const Kernel &kernel) : kernel(kernel) {}

  /// Binds what \p request gives to \p dispatch; errors raise
  /// BindingError naming the argument (`buffers[(0, 1)]`) and the shader's
  /// declaration.
  void bind(Dispatch &dispatch, const DispatchRequest &request);

  /// Copies the writable memory, and restores it: each repeated run
  /// starts from what the first one was given.
  void save();
  void restore();

private:
  const ResourceInfo &findResource(const ResourceArgument &argument,
                                   const char *what);
  void bindBuffer(Dispatch &dispatch, const ResourceArgument &argument);
  void bindImage(Dispatch &dispatch, const ResourceArgument &argument);
  void bindSampler(Dispatch &dispatch, const ResourceArgument &argument);
  PinnedMemory &pin(const ResourceArgument &argument, const char *what,
                    const ResourceInfo &resource, bool readOnly);
  const spvb_sampler *makeSampler(const pybind11::dict &settings);

  const Kernel &kernel;
  std::vector<std::unique_ptr<PinnedMemory>> pinned;
  std::vector<std::unique_ptr<spvb_image>> images;
  std::vector<std::unique_ptr<spvb_sampler>> samplers;
  std::vector<std::vector<uint8_t>> saved;
};

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_RESOURCEBINDING_H

//===- ResourceBinding.h - Python memory bound to a dispatch ----*- C++ -*-===//
//
// Binds the buffers, images and samplers a dispatch or draw is given, each
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

/// What resources bind to: a Dispatch or a Draw (BindTargetFor).
class BindTarget {
public:
  virtual ~BindTarget() = default;
  virtual void bindBuffer(uint32_t set, uint32_t binding, void *data,
                          uint64_t size, uint32_t element) = 0;
  virtual void bindImage(uint32_t set, uint32_t binding,
                         const spvb_image *image, uint32_t element) = 0;
  virtual void bindSampler(uint32_t set, uint32_t binding,
                           const spvb_sampler *sampler, uint32_t element) = 0;
};

template <typename T> class BindTargetFor : public BindTarget {
public:
  explicit BindTargetFor(T &target) : target(target) {}
  void bindBuffer(uint32_t set, uint32_t binding, void *data, uint64_t size,
                  uint32_t element) override {
    target.bindBuffer(set, binding, data, size, element);
  }
  void bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                 uint32_t element) override {
    target.bindImage(set, binding, image, element);
  }
  void bindSampler(uint32_t set, uint32_t binding, const spvb_sampler *sampler,
                   uint32_t element) override {
    target.bindSampler(set, binding, sampler, element);
  }

private:
  T &target;
};

class ResourceBinder {
public:
  /// Resources are looked up in \p kernels in order (a draw's fragment
  /// shader, then its vertex shader).
  explicit ResourceBinder(std::vector<const Kernel *> kernels)
      : kernels(std::move(kernels)) {}

  /// Binds the resources \p request gives to \p target; errors raise
  /// BindingError naming the argument (`buffers[(0, 1)]`) and the shader's
  /// declaration.
  void bind(BindTarget &target, const DispatchRequest &request);

  /// Copies the writable memory, and restores it: each repeated run
  /// starts from what the first one was given.
  void save();
  void restore();

private:
  const ResourceInfo &findResource(const ResourceArgument &argument,
                                   const char *what);
  void bindBuffer(BindTarget &target, const ResourceArgument &argument);
  void bindImage(BindTarget &target, const ResourceArgument &argument);
  void bindSampler(BindTarget &target, const ResourceArgument &argument);
  PinnedMemory &pin(const ResourceArgument &argument, const char *what,
                    const ResourceInfo &resource, bool readOnly);
  const spvb_sampler *makeSampler(const pybind11::dict &settings);

  std::vector<const Kernel *> kernels;
  std::vector<std::unique_ptr<PinnedMemory>> pinned;
  std::vector<std::unique_ptr<spvb_image>> images;
  std::vector<std::unique_ptr<spvb_sampler>> samplers;
  std::vector<std::vector<uint8_t>> saved;
};

/// The push-constant bytes \p push gives (any buffer-protocol object),
/// checked against the blocks of \p kernels.
std::vector<uint8_t> getPushConstants(pybind11::handle push,
                                      llvm::ArrayRef<const Kernel *> kernels);

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_RESOURCEBINDING_H

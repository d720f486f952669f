//===- DescriptorBinding.h - Bound descriptor sets into a launch -*- C++
//-*-===//
//
// What vkCmdBindDescriptorSets bound at one bind point, bound into the
// stages of a dispatch or a draw before they run.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_DESCRIPTORBINDING_H
#define SPVBRIDGE_ICD_LIB_DESCRIPTORBINDING_H

#include "Objects.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <deque>
#include <map>

namespace spvb::icd {

/// Set index -> the set and the dynamic offsets of its dynamic
/// descriptors, in binding and element order.
using BoundSets =
    std::map<uint32_t, std::pair<DescriptorSet *, std::vector<uint32_t>>>;

/// Binds descriptors into every stage of one launch (a dispatch's one
/// stage, a draw's stages; a stage ignores what it does not use). It must
/// outlive the launch: it holds the combined image samplers' descriptors.
class DescriptorBinder {
public:
  /// \p command names the command in errors ("vkCmdDispatch").
  DescriptorBinder(Device &device, const char *command,
                   llvm::ArrayRef<Dispatch *> stages)
      : device(device), command(command), stages(stages) {}

  /// Every descriptor of \p sets; one never written is left unbound (a
  /// stage that uses it reports it).
  llvm::Error bindSets(const BoundSets &sets);
  /// Names the device's buffers reached by address for reports.
  void nameAddressableBuffers();

private:
  llvm::Error bindDescriptor(uint32_t set, uint32_t binding, uint32_t element,
                             VkDescriptorType type,
                             const Descriptor &descriptor,
                             uint32_t dynamicOffset);
  llvm::Error bindSet(uint32_t setIndex, DescriptorSet &set,
                      llvm::ArrayRef<uint32_t> dynamicOffsets);
  /// The VK_EXT_debug_utils name of \p object, or "".
  std::string getObjectName(const void *object);
  void label(uint32_t set, uint32_t binding, uint32_t element, const char *kind,
             const void *object);

  Device &device;
  const char *command;
  llvm::SmallVector<Dispatch *, 5> stages;
  /// Each combined image sampler's view descriptor with its sampler; a
  /// deque keeps their addresses.
  std::deque<spvb_image> combinedImages;
};

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_DESCRIPTORBINDING_H

//===- DebugUtils.cpp - VK_EXT_debug_utils --------------------------------===//
//
// Object names make messages speak the application's words (a shader
// module's name becomes the file name in its errors); messengers receive
// every error the ICD prints, as the validation layer's do.
//
//===----------------------------------------------------------------------===//
#include "DebugUtils.h"

#include "EntryPoints.h"
#include "Objects.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdio>
#include <new>

using namespace spvb;
using namespace spvb::icd;

/// Sends \p message to each of the instance's messengers that takes
/// general messages of \p severity.
static void sendToMessengers(Instance *instance,
                             VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                             const char *id, const std::string &message) {
  if (!instance)
    return;
  std::lock_guard<std::mutex> lock(instance->messengerMutex);
  for (const DebugMessenger *messenger : instance->messengers) {
    if (!(messenger->severities & severity) ||
        !(messenger->types & VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT))
      continue;
    VkDebugUtilsMessengerCallbackDataEXT data = {};
    data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
    data.pMessageIdName = id;
    data.pMessage = message.c_str();
    messenger->callback(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
                        &data, messenger->userData);
  }
}

void spvb::icd::reportError(Instance *instance, const std::string &message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  sendToMessengers(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "spvbridge", message);
}

void spvb::icd::reportShaderPrintf(Instance *instance,
                                   const std::string &line) {
  std::fwrite(line.data(), 1, line.size(), stderr);
  // Messages carry no newline.
  std::string message = line;
  if (!message.empty() && message.back() == '\n')
    message.pop_back();
  sendToMessengers(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                   "UNASSIGNED-DEBUG-PRINTF", message);
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDebugUtilsMessengerEXT(
    VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT *pCreateInfo,
    const VkAllocationCallbacks *, VkDebugUtilsMessengerEXT *pMessenger) {
  auto *messenger = new (std::nothrow) DebugMessenger();
  if (!messenger)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  messenger->severities = pCreateInfo->messageSeverity;
  messenger->types = pCreateInfo->messageType;
  messenger->callback = pCreateInfo->pfnUserCallback;
  messenger->userData = pCreateInfo->pUserData;
  Instance *owner = fromHandle<Instance>(instance);
  std::lock_guard<std::mutex> lock(owner->messengerMutex);
  owner->messengers.push_back(messenger);
  *pMessenger = toHandle<VkDebugUtilsMessengerEXT>(messenger);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDebugUtilsMessengerEXT(
    VkInstance instance, VkDebugUtilsMessengerEXT messenger,
    const VkAllocationCallbacks *) {
  Instance *owner = fromHandle<Instance>(instance);
  auto *object = fromHandle<DebugMessenger>(messenger);
  std::lock_guard<std::mutex> lock(owner->messengerMutex);
  llvm::erase(owner->messengers, object);
  delete object;
}

VKAPI_ATTR void VKAPI_CALL spvb_SubmitDebugUtilsMessageEXT(
    VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *pCallbackData) {
  Instance *owner = fromHandle<Instance>(instance);
  std::lock_guard<std::mutex> lock(owner->messengerMutex);
  for (const DebugMessenger *messenger : owner->messengers)
    if ((messenger->severities & severity) && (messenger->types & types))
      messenger->callback(severity, types, pCallbackData, messenger->userData);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_SetDebugUtilsObjectNameEXT(
    VkDevice device, const VkDebugUtilsObjectNameInfoEXT *pNameInfo) {
  Device *owner = fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner->namesMutex);
  if (pNameInfo->pObjectName && *pNameInfo->pObjectName)
    owner->objectNames[pNameInfo->objectHandle] = pNameInfo->pObjectName;
  else
    owner->objectNames.erase(pNameInfo->objectHandle);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_SetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT *) {
  return VK_SUCCESS;
}

// Labels mark regions for tools that capture command streams; nothing here
// reads them yet.
VKAPI_ATTR void VKAPI_CALL
spvb_QueueBeginDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT *) {}
VKAPI_ATTR void VKAPI_CALL spvb_QueueEndDebugUtilsLabelEXT(VkQueue) {}
VKAPI_ATTR void VKAPI_CALL
spvb_QueueInsertDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT *) {}
VKAPI_ATTR void VKAPI_CALL spvb_CmdBeginDebugUtilsLabelEXT(
    VkCommandBuffer, const VkDebugUtilsLabelEXT *) {}
VKAPI_ATTR void VKAPI_CALL spvb_CmdEndDebugUtilsLabelEXT(VkCommandBuffer) {}
VKAPI_ATTR void VKAPI_CALL spvb_CmdInsertDebugUtilsLabelEXT(
    VkCommandBuffer, const VkDebugUtilsLabelEXT *) {}

} // extern "C"

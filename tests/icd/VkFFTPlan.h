/*===- VkFFTPlan.h - VkFFT behind a C interface -------------------*- C -*-===//
 *
 * vkFFT.h initializes glslang's resource limits in a way that C accepts
 * and C++ rejects with Debian's glslang (VkFFTPlan.c works around it);
 * VkFFTPlan.c includes it, and VkFFTCheck.cpp sees only this.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SPVBRIDGE_TESTS_ICD_VKFFTPLAN_H
#define SPVBRIDGE_TESTS_ICD_VKFFTPLAN_H

#include <vulkan/vulkan.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VkFFTPlanRequest {
  VkPhysicalDevice *physicalDevice;
  VkDevice *device;
  VkQueue *queue;
  VkCommandPool *commandPool;
  VkFence *fence;
  VkBuffer *buffer;
  uint64_t *bufferSize;
  uint64_t dims;
  uint64_t size[3];
  uint64_t batch;
  int doublePrecision;
  int realInput;
} VkFFTPlanRequest;

/* A forward transform's plan, or null with *result set to VkFFT's error. */
void *createVkFFTPlan(const VkFFTPlanRequest *request, int *result);
/* Records the forward transform into commandBuffer; VkFFT's result. */
int appendVkFFTForward(void *plan, VkCommandBuffer *commandBuffer);
void destroyVkFFTPlan(void *plan);

#ifdef __cplusplus
}
#endif

#endif /* SPVBRIDGE_TESTS_ICD_VKFFTPLAN_H */

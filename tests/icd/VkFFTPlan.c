/*===- VkFFTPlan.c - VkFFT behind a C interface ---------------------------===*/
#include "VkFFTPlan.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

/* vkFFT.h (1.2.26) lists glslang's resource limits without the nine mesh
 * shader fields Debian's glslang has since added before `limits`, so its
 * `limits` read as zero and glslang refuses the loops and indexing VkFFT's
 * shaders use. Its compiles go through these, with glslang's own default
 * resource in place of VkFFT's (the same values where both have them). */
static glslang_input_t withDefaultResource(const glslang_input_t *input) {
  glslang_input_t fixed = *input;
  fixed.resource = glslang_default_resource();
  return fixed;
}

static glslang_shader_t *createShader(const glslang_input_t *input) {
  glslang_input_t fixed = withDefaultResource(input);
  return glslang_shader_create(&fixed);
}

static int preprocessShader(glslang_shader_t *shader,
                            const glslang_input_t *input) {
  glslang_input_t fixed = withDefaultResource(input);
  return glslang_shader_preprocess(shader, &fixed);
}

static int parseShader(glslang_shader_t *shader, const glslang_input_t *input) {
  glslang_input_t fixed = withDefaultResource(input);
  return glslang_shader_parse(shader, &fixed);
}

#define glslang_shader_create createShader
#define glslang_shader_preprocess preprocessShader
#define glslang_shader_parse parseShader
#include <vkFFT.h>

#include <stdlib.h>

void *createVkFFTPlan(const VkFFTPlanRequest *request, int *result) {
  VkFFTConfiguration configuration = {0};
  configuration.FFTdim = request->dims;
  for (int i = 0; i < 3; ++i)
    configuration.size[i] = request->size[i];
  configuration.numberBatches = request->batch;
  configuration.doublePrecision = request->doublePrecision;
  configuration.performR2C = request->realInput;
  configuration.physicalDevice = request->physicalDevice;
  configuration.device = request->device;
  configuration.queue = request->queue;
  configuration.commandPool = request->commandPool;
  configuration.fence = request->fence;
  configuration.buffer = request->buffer;
  configuration.bufferSize = request->bufferSize;
  VkFFTApplication *application = calloc(1, sizeof(VkFFTApplication));
  *result = initializeVkFFT(application, configuration);
  if (*result != VKFFT_SUCCESS) {
    free(application);
    return NULL;
  }
  return application;
}

int appendVkFFTForward(void *plan, VkCommandBuffer *commandBuffer) {
  VkFFTLaunchParams launch = {0};
  launch.commandBuffer = commandBuffer;
  return VkFFTAppend(plan, -1, &launch);
}

void destroyVkFFTPlan(void *plan) {
  deleteVkFFT(plan);
  free(plan);
}

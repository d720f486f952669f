/* Hand-written C/OpenMP versions of tools/benchmark.py's kernels: the
 * same computation on the same inputs, timed as spv-run times a dispatch
 * (one untimed warm-up, then the median of REPEAT runs, each starting from
 * the initial contents restored outside the timing).
 *
 *   native KERNEL REPEAT OUT INPUT...   prints {"dispatch_ms": ...}
 *
 * Built by tools/benchmark.py with cc -O3 -march=native -fopenmp.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc(*size ? *size : 1);
  if (fread(data, 1, *size, f) != *size) {
    fprintf(stderr, "error: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  return data;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* y = a * x + y */
static void saxpy(float a, const float *x, float *y, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

/* One sum per 256 elements. */
static void reduce256(const float *x, float *partial, size_t groups) {
#pragma omp parallel for schedule(static)
  for (size_t g = 0; g < groups; ++g) {
    float sum = 0;
    for (size_t i = 0; i < 256; ++i)
      sum += x[g * 256 + i];
    partial[g] = sum;
  }
}

/* 256 bins of the values' top bytes. */
static void histogram(const uint32_t *v, uint32_t *bins, size_t n) {
  memset(bins, 0, 256 * sizeof(uint32_t));
#pragma omp parallel
  {
    uint32_t local[256] = {0};
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; ++i)
      ++local[v[i] >> 24];
    for (int b = 0; b < 256; ++b)
      if (local[b]) {
#pragma omp atomic
        bins[b] += local[b];
      }
  }
}

/* C = A * B, N x N, row-major. */
static void matmul(const float *a, const float *b, float *c, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    float *row = c + i * n;
    for (size_t j = 0; j < n; ++j)
      row[j] = 0;
    for (size_t k = 0; k < n; ++k) {
      float aik = a[i * n + k];
      const float *brow = b + k * n;
      for (size_t j = 0; j < n; ++j)
        row[j] += aik * brow[j];
    }
  }
}

/* Iteration counts of z = z^2 + c, as shaders/mandelbrot.comp. */
static void mandelbrot(uint32_t *out, size_t width, size_t height) {
#pragma omp parallel for schedule(dynamic, 4)
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      float cx = -2.0f + 3.0f * ((float)x / (float)width);
      float cy = -1.0f + 2.0f * ((float)y / (float)height);
      float zx = 0, zy = 0;
      uint32_t i = 0;
      while (i < 256 && zx * zx + zy * zy <= 4.0f) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        ++i;
      }
      out[y * width + x] = i;
    }
}

/* ggml's rms_norm: each row scaled by 1 / sqrt(mean(x^2) + eps). */
static void rmsNorm(const float *x, float *d, size_t rows, size_t cols,
                    float eps) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    float sum = 0;
    for (size_t c = 0; c < cols; ++c)
      sum += row[c] * row[c];
    float scale = 1.0f / sqrtf(sum / (float)cols + eps);
    for (size_t c = 0; c < cols; ++c)
      d[r * cols + c] = scale * row[c];
  }
}

/* ncnn's swish, in place: v / (1 + exp(-v)). */
static void swish(float *v, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i)
    v[i] = v[i] / (1.0f + expf(-v[i]));
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: native KERNEL REPEAT OUT INPUT...\n");
    return 1;
  }
  const char *kernel = argv[1];
  int repeat = atoi(argv[2]);
  const char *outPath = argv[3];
  size_t sizes[4] = {0};
  void *inputs[4] = {0};
  for (int i = 4; i < argc && i < 8; ++i)
    inputs[i - 4] = readFile(argv[i], &sizes[i - 4]);
  /* The buffer the kernel writes, and its initial contents. */
  void *out = NULL, *initial = NULL;
  size_t outSize = 0;
  if (!strcmp(kernel, "saxpy") || !strcmp(kernel, "swish")) {
    int in = !strcmp(kernel, "saxpy") ? 1 : 0;
    outSize = sizes[in];
    initial = inputs[in];
  } else if (!strcmp(kernel, "reduce")) {
    outSize = sizes[0] / 256;
  } else if (!strcmp(kernel, "histogram")) {
    outSize = 256 * 4;
  } else if (!strcmp(kernel, "matmul") || !strcmp(kernel, "rms_norm")) {
    outSize = sizes[0];
  } else if (!strcmp(kernel, "mandelbrot")) {
    outSize = 1024 * 512 * 4;
  } else {
    fprintf(stderr, "error: unknown kernel '%s'\n", kernel);
    return 1;
  }
  out = malloc(outSize);
  memset(out, 0, outSize);
  double *times = malloc(sizeof(double) * (repeat + 1));
  for (int run = 0; run <= repeat; ++run) {
    if (initial)
      memcpy(out, initial, outSize);
    double start = now();
    if (!strcmp(kernel, "saxpy"))
      saxpy(2.5f, inputs[0], out, outSize / 4);
    else if (!strcmp(kernel, "reduce"))
      reduce256(inputs[0], out, sizes[0] / 4 / 256);
    else if (!strcmp(kernel, "histogram"))
      histogram(inputs[0], out, sizes[0] / 4);
    else if (!strcmp(kernel, "matmul"))
      matmul(inputs[0], inputs[1], out, (size_t)sqrt(sizes[0] / 4.0));
    else if (!strcmp(kernel, "mandelbrot"))
      mandelbrot(out, 1024, 512);
    else if (!strcmp(kernel, "rms_norm"))
      rmsNorm(inputs[0], out, sizes[0] / 4 / 4096, 4096, 1e-6f);
    else
      swish(out, outSize / 4);
    times[run] = now() - start;
  }
  /* Run 0 was the warm-up. */
  qsort(times + 1, repeat, sizeof(double), compareDoubles);
  FILE *f = fopen(outPath, "wb");
  if (!f || fwrite(out, 1, outSize, f) != outSize) {
    fprintf(stderr, "error: cannot write %s\n", outPath);
    return 1;
  }
  fclose(f);
  printf("{\"dispatch_ms\": %.6f}\n", times[1 + repeat / 2]);
  return 0;
}

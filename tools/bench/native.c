/* Hand-written C/OpenMP versions of tools/benchmark.py's kernels: the
 * same computation on the same inputs, timed as spv-run times a dispatch
 * (one untimed warm-up, then the median of REPEAT runs, each starting from
 * the initial contents restored outside the timing).
 *
 *   native KERNEL REPEAT OUT INPUT...   prints {"dispatch_ms": ...}
 *   native roofline REPEAT               prints the machine's limits
 *
 * Built by tools/benchmark.py with cc -O3 -march=native -fopenmp.
 */
#include <math.h>
#include <omp.h>
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

/* One sum per 256 elements, in 16 running sums (a vector register's
 * worth, which the compiler keeps in one): without -ffast-math it may not
 * reorder a single sum. The benchmark's inputs are multiples of 1/2 whose
 * sums are exact in any order. */
enum { kLanes = 16 };

static float sum16(const float *x, size_t n) {
  float acc[kLanes] = {0};
  for (size_t i = 0; i < n; i += kLanes)
    for (int l = 0; l < kLanes; ++l)
      acc[l] += x[i + l];
  float sum = 0;
  for (int l = 0; l < kLanes; ++l)
    sum += acc[l];
  return sum;
}

static void reduce256(const float *x, float *partial, size_t groups) {
#pragma omp parallel for schedule(static)
  for (size_t g = 0; g < groups; ++g)
    partial[g] = sum16(x + g * 256, 256);
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

/* Iteration counts of z = z^2 + c, as shaders/mandelbrot.comp, 16 pixels
 * of a row at a time: each step updates the pixels still inside, and a
 * block ends when none is (the loop over the lanes vectorizes). */
static void mandelbrot(uint32_t *out, size_t width, size_t height) {
#pragma omp parallel for schedule(dynamic, 4)
  for (size_t y = 0; y < height; ++y)
    for (size_t x0 = 0; x0 < width; x0 += kLanes) {
      float cx[kLanes], zx[kLanes] = {0}, zy[kLanes] = {0};
      uint32_t count[kLanes] = {0};
      float cy = -1.0f + 2.0f * ((float)y / (float)height);
      for (int l = 0; l < kLanes; ++l)
        cx[l] = -2.0f + 3.0f * ((float)(x0 + l) / (float)width);
      for (int step = 0; step < 256; ++step) {
        int inside = 0;
        for (int l = 0; l < kLanes; ++l) {
          int on = (zx[l] * zx[l] + zy[l] * zy[l] <= 4.0f) &
                   (count[l] == (uint32_t)step);
          float t = zx[l] * zx[l] - zy[l] * zy[l] + cx[l];
          float u = 2.0f * zx[l] * zy[l] + cy;
          zx[l] = on ? t : zx[l];
          zy[l] = on ? u : zy[l];
          count[l] += on;
          inside |= on;
        }
        if (!inside)
          break;
      }
      for (int l = 0; l < kLanes; ++l)
        out[y * width + x0 + l] = count[l];
    }
}

/* ggml's rms_norm: each row scaled by 1 / sqrt(mean(x^2) + eps). */
static void rmsNorm(const float *x, float *d, size_t rows, size_t cols,
                    float eps) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    float acc[kLanes] = {0};
    for (size_t c = 0; c < cols; c += kLanes)
      for (int l = 0; l < kLanes; ++l)
        acc[l] += row[c + l] * row[c + l];
    float sum = 0;
    for (int l = 0; l < kLanes; ++l)
      sum += acc[l];
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

/* The roofline's limits, with OMP_NUM_THREADS threads, each the best of
 * REPEAT runs: the bandwidth of b += a over two 4 MB arrays (STREAM's
 * "add" in place: two reads and a write of a line it has read, so no
 * write-allocate traffic goes uncounted), a working set like the kernels'
 * (which, as theirs between runs, may stay in the last-level cache), and
 * the peak rate of fused multiply-adds, twelve independent vectors per
 * thread to cover their latency. */
static int roofline(int repeat) {
  enum { kChains = 12, kSteps = 1 << 16 };
  size_t n = 1 << 20;
  float *a = aligned_alloc(64, n * sizeof(float));
  float *b = aligned_alloc(64, n * sizeof(float));
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)i;
    b[i] = 0;
  }
  double stream = 1e30, fma = 1e30;
  volatile float sink = 0;
  for (int run = 0; run <= repeat; ++run) {
    double start = now();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i)
      b[i] += a[i];
    double ms = now() - start;
    if (run > 0 && ms < stream)
      stream = ms;
    sink += b[run];
  }
  int threads = 1;
  for (int run = 0; run <= repeat; ++run) {
    double start = now();
#pragma omp parallel
    {
#pragma omp single
      threads = omp_get_num_threads();
      float acc[kChains * kLanes];
      for (int i = 0; i < kChains * kLanes; ++i)
        acc[i] = (float)i;
      for (int step = 0; step < kSteps; ++step)
        for (int i = 0; i < kChains * kLanes; ++i)
          acc[i] = fmaf(acc[i], 0.999999f, 1e-6f);
      float sum = 0;
      for (int i = 0; i < kChains * kLanes; ++i)
        sum += acc[i];
#pragma omp atomic
      sink += sum;
    }
    double ms = now() - start;
    if (run > 0 && ms < fma)
      fma = ms;
  }
  double flops = 2.0 * kSteps * kChains * kLanes * threads;
  printf("{\"bandwidth_gbs\": %.3f, \"peak_gflops\": %.3f, \"threads\": %d}\n",
         3.0 * n * sizeof(float) / (stream * 1e6), flops / (fma * 1e6),
         threads);
  free(a);
  free(b);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "roofline"))
    return roofline(atoi(argv[2]));
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

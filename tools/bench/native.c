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

/* on ? a : b in integer operations, which GCC vectorizes without
 * -ffast-math (a select between floats it does not). */
static inline float selectFloat(int on, float a, float b) {
  uint32_t bitsA, bitsB;
  memcpy(&bitsA, &a, sizeof(bitsA));
  memcpy(&bitsB, &b, sizeof(bitsB));
  uint32_t mask = -(uint32_t)on;
  uint32_t bits = (bitsA & mask) | (bitsB & ~mask);
  float result;
  memcpy(&result, &bits, sizeof(result));
  return result;
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
          zx[l] = selectFloat(on, t, zx[l]);
          zy[l] = selectFloat(on, u, zy[l]);
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

/* glibc's vector expf (libmvec, as spv-run calls it): math.h declares it
 * only under -ffast-math. */
#pragma omp declare simd notinbranch
float expf(float);

/* ncnn's swish, in place: v / (1 + exp(-v)), the exps in vectors. */
static void swish(float *v, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i)
    v[i] = v[i] / (1.0f + expf(-v[i]));
}

/* Without -ffast-math GCC vectorizes no loop that selects between floats
 * (a > b ? a : b, fmaxf): softmax's max and expNonPositive's clamp select
 * between their bits instead. */

/* The bits of x as an int that orders as x does (for all but NaN). */
static inline int32_t orderedBits(float x) {
  int32_t bits;
  memcpy(&bits, &x, sizeof(bits));
  return bits ^ ((bits >> 31) & 0x7fffffff);
}

static inline float fromOrderedBits(int32_t bits) {
  bits ^= (bits >> 31) & 0x7fffffff;
  float x;
  memcpy(&x, &bits, sizeof(x));
  return x;
}

/* e^x for x <= 0 as Cephes' expf computes it (within an ulp of e^x, as
 * expf, for every float in [-87, 0]), in operations that vectorize, unlike
 * a call of expf: x = n ln 2 + r, e^r by a polynomial in fmaf, 2^n put in
 * the exponent bits. n is x log2(e) rounded by adding 1.5 * 2^23 (which
 * leaves n in the low bits), shorter than converting to int and back:
 * the chain of dependent operations is what limits a loop of these. Below
 * -87 (where e^x leaves the normal range) it gives e^-87: for x <= 0, the
 * larger x's bits as an unsigned int, the smaller x. */
static inline float expNonPositive(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof(bits));
  bits = bits > 0xc2ae0000u ? 0xc2ae0000u : bits; /* -87.0f */
  memcpy(&x, &bits, sizeof(x));
  float t = fmaf(x, 1.44269504088896341f, 12582912.0f);
  float fn = t - 12582912.0f;
  memcpy(&bits, &t, sizeof(bits));
  int n = (int)(bits - 0x4b400000u);
  float r = fmaf(fn, -0.693359375f, x);
  r = fmaf(fn, 2.12194440e-4f, r);
  float y = 1.9875691500e-4f;
  y = fmaf(y, r, 1.3981999507e-3f);
  y = fmaf(y, r, 8.3334519073e-3f);
  y = fmaf(y, r, 4.1665795894e-2f);
  y = fmaf(y, r, 1.6666665459e-1f);
  y = fmaf(y, r, 5.0000001201e-1f);
  y = fmaf(y, r * r, r + 1.0f);
  bits = (uint32_t)(n + 127) << 23;
  float scale;
  memcpy(&scale, &bits, sizeof(scale));
  return y * scale;
}

/* ggml's soft_max without a mask (scale 1, no ALiBi): each row's e^(x -
 * max), times 1 / their sum as the shader scales them; the row's max, its
 * sum and its outputs each in 16 running lanes (omp simd: GCC vectorizes
 * the fmaf calls, and keeps the sums in registers). */
static void softmax(const float *x, float *d, size_t rows, size_t cols) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    float *out = d + r * cols;
    int32_t top[kLanes];
    for (int l = 0; l < kLanes; ++l)
      top[l] = INT32_MIN;
    for (size_t c = 0; c < cols; c += kLanes)
      for (int l = 0; l < kLanes; ++l) {
        int32_t bits = orderedBits(row[c + l]);
        top[l] = bits > top[l] ? bits : top[l];
      }
    for (int l = 1; l < kLanes; ++l)
      top[0] = top[l] > top[0] ? top[l] : top[0];
    float max = fromOrderedBits(top[0]);
    float acc[kLanes] = {0};
    for (size_t c = 0; c < cols; c += kLanes)
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) {
        float e = expNonPositive(row[c + l] - max);
        out[c + l] = e;
        acc[l] += e;
      }
    float sum = 0;
    for (int l = 0; l < kLanes; ++l)
      sum += acc[l];
    float scale = 1.0f / sum;
    for (size_t c = 0; c < cols; ++c)
      out[c] *= scale;
  }
}

/* ggml's mul_mat_vec: y = A x, A row-major; four rows at a time, so that
 * each load of x serves four rows, each row in 16 running sums (which omp
 * simd keeps in registers). */
enum { kRows = 4 };

static void matVec(const float *a, const float *x, float *y, size_t rows,
                   size_t cols) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; r += kRows) {
    float acc[kRows][kLanes] = {{0}};
    for (size_t c = 0; c < cols; c += kLanes)
      for (int i = 0; i < kRows; ++i)
#pragma omp simd
        for (int l = 0; l < kLanes; ++l)
          acc[i][l] += a[(r + i) * cols + c + l] * x[c + l];
    for (int i = 0; i < kRows; ++i) {
      float sum = 0;
      for (int l = 0; l < kLanes; ++l)
        sum += acc[i][l];
      y[r + i] = sum;
    }
  }
}

/* ncnn's convolution_packed, 3x3, stride and dilation 1, with a bias, on
 * ncnn's pack4 layout (channels in groups of four, a pixel's four adjacent;
 * the input already padded): out = bias + sum over the input channels and
 * the kernel's taps of in * w. The shader's weights, per output group,
 * input group and tap, are a 4x4 block [output lane][input lane]; ncnn
 * repacks them when it loads a model, and convPack repacks them (outside
 * the timing) as the inner loop reads them: per 16 output channels, input
 * group, tap and input lane, the 16 output channels' weights. Each task is
 * one output row of 16 output channels (the channels a multiple of 16, the
 * width of 4), in tiles of 4 pixels x 16 channels held in registers (eight
 * vectors) over the whole reduction: 576 steps of 4 x 16 multiply-adds,
 * fmaf, one instruction each (GCC vectorizes a loop of fmaf calls only
 * under omp simd). */
enum { kTap = 3, kTile = 4, kOut = 16 };

static float *convPack(const float *w, size_t inGroups, size_t outGroups) {
  size_t size = outGroups * inGroups * kTap * kTap * 16 * sizeof(float);
  float *packed = aligned_alloc(64, size);
  for (size_t og = 0; og < outGroups; ++og)
    for (size_t cg = 0; cg < inGroups; ++cg)
      for (int k = 0; k < kTap * kTap; ++k) {
        const float *block = w + ((og * inGroups + cg) * kTap * kTap + k) * 16;
        float *to = packed +
                    ((og / 4 * inGroups + cg) * kTap * kTap + k) * 4 * kOut +
                    og % 4 * 4;
        for (int j = 0; j < 4; ++j)
          for (int i = 0; i < 4; ++i)
            to[i * kOut + j] = block[j * 4 + i];
      }
  return packed;
}

static void convolution(const float *in, const float *packed, const float *bias,
                        float *out, size_t inGroups, size_t outGroups,
                        size_t width) {
  size_t outWidth = width - kTap + 1;
  size_t plane = width * width, outPlane = outWidth * outWidth;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t o = 0; o < outGroups / 4; ++o)
    for (size_t y = 0; y < outWidth; ++y)
      for (size_t x = 0; x < outWidth; x += kTile) {
        float acc[kTile][kOut];
        for (int p = 0; p < kTile; ++p)
          for (int l = 0; l < kOut; ++l)
            acc[p][l] = bias[o * kOut + l];
        const float *w = packed + o * inGroups * kTap * kTap * 4 * kOut;
        for (size_t cg = 0; cg < inGroups; ++cg)
          for (int ky = 0; ky < kTap; ++ky)
            for (int kx = 0; kx < kTap; ++kx) {
              const float *v =
                  in + (cg * plane + (y + ky) * width + x + kx) * 4;
              for (int i = 0; i < 4; ++i, w += kOut)
                for (int p = 0; p < kTile; ++p)
#pragma omp simd
                  for (int l = 0; l < kOut; ++l)
                    acc[p][l] = fmaf(v[p * 4 + i], w[l], acc[p][l]);
            }
        for (int g = 0; g < 4; ++g)
          for (int p = 0; p < kTile; ++p)
            for (int j = 0; j < 4; ++j)
              out[((o * 4 + g) * outPlane + y * outWidth + x + p) * 4 + j] =
                  acc[p][g * 4 + j];
      }
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
  /* The buffer the kernel writes, its initial contents, and what a kernel
   * prepares once, as a library would when it loads a model. */
  void *out = NULL, *initial = NULL, *prepared = NULL;
  size_t outSize = 0, inGroups = 0, outGroups = 0, width = 0;
  if (!strcmp(kernel, "saxpy") || !strcmp(kernel, "swish")) {
    int in = !strcmp(kernel, "saxpy") ? 1 : 0;
    outSize = sizes[in];
    initial = inputs[in];
  } else if (!strcmp(kernel, "reduce")) {
    outSize = sizes[0] / 256;
  } else if (!strcmp(kernel, "histogram")) {
    outSize = 256 * 4;
  } else if (!strcmp(kernel, "matmul") || !strcmp(kernel, "rms_norm") ||
             !strcmp(kernel, "softmax")) {
    outSize = sizes[0];
  } else if (!strcmp(kernel, "mat_vec")) {
    outSize = sizes[0] / sizes[1] * 4;
  } else if (!strcmp(kernel, "convolution")) {
    /* Inputs: the padded input, the weights, the bias (a float per
     * output channel). */
    outGroups = sizes[2] / 16;
    inGroups = sizes[1] / 4 / (kTap * kTap * 16) / outGroups;
    width = (size_t)sqrt(sizes[0] / 16.0 / inGroups);
    prepared = convPack(inputs[1], inGroups, outGroups);
    outSize = outGroups * (width - kTap + 1) * (width - kTap + 1) * 16;
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
    else if (!strcmp(kernel, "softmax"))
      softmax(inputs[0], out, sizes[0] / 4 / 4096, 4096);
    else if (!strcmp(kernel, "mat_vec"))
      matVec(inputs[0], inputs[1], out, sizes[0] / sizes[1], sizes[1] / 4);
    else if (!strcmp(kernel, "convolution"))
      convolution(inputs[0], prepared, inputs[2], out, inGroups, outGroups,
                  width);
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

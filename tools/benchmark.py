#!/usr/bin/env python3
"""spv-run against lavapipe and hand-written C: compute kernels and draws.

Compute: each kernel runs on lavapipe (vkref), on spv-run with all threads
and with one, and as hand-written C/OpenMP (tools/bench/native.c, built
here with cc -O3 -march=native -fopenmp and glibc's vector math library,
which spv-run calls too; OMP_NUM_THREADS as spv-run's threads), all on the
same inputs, each C version beside its roofline (the least time the bytes
it must move and the flops it must do take at the machine's streaming
bandwidth and fused multiply-add rate, which native.c measures); lavapipe
and spv-run get the same command line (--repeat N: one untimed warm-up, the
median of N timed dispatches); the three alternate --rounds times (3 by
default) and the table has the medians of their medians; every output must
agree with lavapipe's before its row is printed. The kernels: saxpy, a
shared-memory reduction, a shared-atomic histogram, a tiled matrix
multiply, mandelbrot (a divergent loop), a subgroup reduction, and from
../shared/corpus (skipped without it) ggml's rms_norm, soft_max and f32
mul_mat_vec (a matrix-vector product) and ncnn's swish and 3x3
convolution_packed. Compile times come from a fresh kernel cache in each
round: that round's spv-run compiles (cold), a one-thread run after the
rounds loads (warm); a second table splits the cold compile of the round
with the median ratio to lavapipe's into its phases (spv-run --json's
compile_phases_ms) beside lavapipe's with its shader cache off (vkref
--cold): its pipeline creation and its first dispatch's JIT (the first
dispatch less a warm one). The first kernel also runs with --robust,
alternating with plain runs five times each, and the ratio of their medians
is printed.

Draws: a full-screen 256x256 fragment shader with a loop
(shaders/waves.frag), a textured mesh of 4608 triangles with
implicit-LOD sampling of a mipmapped 256x256 texture (shaders/mesh.vert,
shaders/textured.frag) and the same mesh without the texture
(shaders/mesh-uv.frag), timed the same way, lavapipe and spv-run
alternating --rounds times (3 by default; the median of their medians, so
that a slow phase of a shared machine falls on both), with every hardware
thread and then per core (spv-run --threads 1, lavapipe with
LP_NUM_THREADS=1). Prints Markdown tables.

ICD: the compute suite through the Vulkan API, vkref driving lavapipe and
the spvbridge ICD beside spv-run's direct path (icd_benchmarks).

vkcube: Debian's windowed demo on an X server of its own (Xvfb), on
lavapipe and on the ICD, in immediate mode; a frame's time is the
difference of two runs' wall times (vkcube --c 220 and --c 20) over 200
frames, so that start-up and pipeline compilation cancel out; the last
frames' windows must agree (vkcube_benchmarks).

  tools/benchmark.py [--build DIR] [--repeat N] [--rounds N]
                     [--only compute|draws|icd|vkcube]
"""
import argparse
import json
import math
import os
import struct
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")


def run(command, env):
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit("error: %s failed:\n%s" % (command[0], result.stderr))
    return json.loads(result.stdout)


def check_agreement(name, ref_path, our_path, kind="f32", who="spv-run"):
    """A fast wrong answer is no answer: float outputs agree within 1e-5
    relative (soft_max's are all below 0.004: an absolute bound would pass
    anything), integer outputs exactly."""
    with open(ref_path, "rb") as f:
        ref = f.read()
    with open(our_path, "rb") as f:
        ours = f.read()
    count = len(ref) // 4
    if len(ours) != len(ref):
        sys.exit("error: %s: %s output size differs (%d vs %d bytes)" %
                 (name, who, len(ref), len(ours)))
    code = "f" if kind == "f32" else "I"
    a = struct.unpack("<%d%s" % (count, code), ref)
    b = struct.unpack("<%d%s" % (count, code), ours)
    for i, (x, y) in enumerate(zip(a, b)):
        if abs(x - y) > (1e-5 * max(abs(x), abs(y)) if code == "f" else 0):
            sys.exit("error: %s: element %d differs: lavapipe %r, %s %r"
                     % (name, i, x, who, y))


def write(path, kind, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), kind), *values))
    return path


def glsl(work, path, name=None, prefix=""):
    """`path` compiled for Vulkan 1.1; `prefix` is inserted after #version;
    its #includes are looked up beside `path`."""
    name = name or os.path.basename(path)
    source = path
    if prefix:
        with open(path) as f:
            lines = f.read().split("\n")
        at = next(i for i, line in enumerate(lines)
                  if line.startswith("#version"))
        source = os.path.join(work, name)
        with open(source, "w") as f:
            f.write("\n".join(lines[:at + 1] + [prefix] + lines[at + 1:]))
    spv = os.path.join(work, name + ".spv")
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1",
                    "-I" + os.path.dirname(path), source, "-o", spv],
                   check=True, capture_output=True)
    return spv


def compute_kernels(work):
    """The compute suite: (name, spv, flags, output binding, output kind,
    native kernel, inputs) for each kernel."""
    n = 1 << 20
    x = write(os.path.join(work, "x.bin"), "f",
              [(i % 1000) * 0.5 for i in range(n)])
    y = write(os.path.join(work, "y.bin"), "f", [float(i % 7) for i in range(n)])
    # Activations as a network's layers see them, for ncnn's swish: in
    # [-8, 8). (Arguments whose exp underflows to a subnormal, e^-87.3 to
    # e^-105, take glibc's slow path: see docs/performance.md.)
    activations = write(os.path.join(work, "act.bin"), "f",
                        [((i * 37) % 1024 - 512) / 64 for i in range(n)])
    v = write(os.path.join(work, "v.bin"), "I",
              [(i * 2654435761) & 0xffffffff for i in range(n)])
    # Multiples of 1/16 with short sums: every summation order is exact.
    m = 256
    a = write(os.path.join(work, "a.bin"), "f",
              [((i * 7) % 13 - 6) * 0.25 for i in range(m * m)])
    b = write(os.path.join(work, "b.bin"), "f",
              [((i * 5) % 11 - 5) * 0.5 for i in range(m * m)])
    shaders = os.path.join(ROOT, "shaders")
    # (name, spv, flags, output binding, output kind, native kernel, inputs)
    benchmarks = [
        ("saxpy 1M", glsl(work, os.path.join(shaders, "saxpy.comp")),
         ["--groups", str(n // 64), "1", "1", "--buffer", "0:0:storage:" + x,
          "--buffer", "0:1:storage:" + y, "--push", "f32:2.5,u32:%d" % n],
         "0:1", "f32", "saxpy", [x, y]),
        ("shared-memory reduction 1M",
         glsl(work, os.path.join(shaders, "reduce.comp")),
         ["--groups", str(n // 256), "1", "1", "--buffer", "0:0:storage:" + x,
          "--buffer", "0:1:storage:zero:%d" % (4 * n // 256)],
         "0:1", "f32", "reduce", [x]),
        ("shared-atomic histogram 1M",
         glsl(work, os.path.join(shaders, "histogram.comp")),
         ["--groups", str(n // 256), "1", "1", "--buffer", "0:0:storage:" + v,
          "--buffer", "0:1:storage:zero:1024"],
         "0:1", "u32", "histogram", [v]),
        ("tiled matmul 256", glsl(work, os.path.join(shaders, "matmul.comp")),
         ["--groups", str(m // 16), str(m // 16), "1",
          "--buffer", "0:0:storage:" + a, "--buffer", "0:1:storage:" + b,
          "--buffer", "0:2:storage:zero:%d" % (4 * m * m),
          "--push", "u32:%d" % m],
         "0:2", "f32", "matmul", [a, b]),
        ("mandelbrot 1024x512",
         glsl(work, os.path.join(shaders, "mandelbrot.comp")),
         ["--groups", "64", "32", "1",
          "--buffer", "0:0:storage:zero:%d" % (4 * 1024 * 512)],
         "0:0", "u32", "mandelbrot", []),
        ("subgroup reduction 1M",
         glsl(work, os.path.join(shaders, "subgroup_sum.comp")),
         ["--groups", str(n // 256), "1", "1", "--buffer", "0:0:storage:" + x,
          "--buffer", "0:1:storage:zero:%d" % (4 * n // 256)],
         "0:1", "f32", "reduce", [x]),
    ]
    ggml = os.path.join(CORPUS, "ggml-vulkan")
    ncnn = os.path.join(CORPUS, "ncnn")
    if os.path.isdir(ggml) and os.path.isdir(ncnn):
        rows, cols = 256, 4096
        # ggml's binary-op push constants: shapes (ne) and element strides
        # (nb) of src0, src1 and dst, misalignments, then eps.
        push = ("u32:%d,%d,%d,1,1,1,%d,%d,%d,1,1,1,1,0,0,0,0,"
                "%d,%d,1,1,1,%d,%d,%d,0,f32:1e-6,0,i32:0" %
                (n, cols, rows, cols, n, n, cols, rows, cols, n, n))
        with open(os.path.join(CORPUS, "_scripts",
                               "ncnn_fp32_preamble.glsl")) as f:
            preamble = f.read()
        # Attention scores for ggml's soft_max: in [-8, 8), a row of 4096
        # not a whole period (1021), so that the rows differ.
        logits = write(os.path.join(work, "logits.bin"), "f",
                       [((i * 37) % 1021 - 510) / 64 for i in range(n)])
        # ggml_vk_soft_max's push constants without a mask (KY 0) or sinks:
        # KX, KY, ne00-02, ne12-13, nb11-13, scale 1, max_bias 0, m0 and
        # m1 (2^0), n_head_log2, nrows_x. Rows over 1024 columns take
        # pipeline_soft_max_f32_wg512 (BLOCK_SIZE 512); the absent mask and
        # sinks are bound to src0, as ggml binds them.
        softmax_push = ("u32:%d,0,%d,%d,1,0,0,0,0,0,f32:1,0,1,1,u32:1,%d,0" %
                        (cols, cols, rows, rows))
        # ggml's f32 mul_mat_vec, a 4096x4096 matrix (the shape of a 7B
        # model's attention projections) by a vector: multiples of 1/16
        # and 1/2 whose sums are exact in any order. The matrix repeats a
        # period of 61 floats (a row is not a whole one), built as bytes.
        k = 4096
        period = struct.pack("<61f", *[((i * 37) % 61 - 30) / 16
                                       for i in range(61)])
        matrix = os.path.join(work, "matrix.bin")
        with open(matrix, "wb") as f:
            f.write((period * (4 * k * k // len(period) + 1))[:4 * k * k])
        vector = write(os.path.join(work, "vector.bin"), "f",
                       [((i * 5) % 11 - 5) * 0.5 for i in range(k)])
        # ggml_vk_mul_mat_vec_q_f16's push constants for one vector:
        # ncols, stride_a, stride_b, stride_d (the rows), the batch strides
        # of a, b and d, fusion_flags 0, base_work_group_y 0, ne02, ne12,
        # broadcast2, broadcast3. Its f32 pipeline's specialization
        # constants: BLOCK_SIZE (the subgroup size: 32), NUM_ROWS 1,
        # NUM_COLS 1; a workgroup per row. The corpus build reduces
        # through shared memory (no USE_SUBGROUP_ADD). Bindings 3 and 4
        # (fused biases) are not read without fusion_flags.
        mat_vec_push = "u32:%d,%d,%d,%d,%d,%d,%d,0,0,1,1,1,1" % (
            k, k, k, k, k * k, k, k)
        # ncnn's convolution_packed: 3x3, stride 1, 64 to 64 channels on
        # 64x64, with a bias; 64 channels take ncnn's pack4 layout (four
        # channels per vec4) in and out, the input already padded to
        # 66x66 (ncnn pads in a Padding layer before). Multiples of 1/4
        # and 1/8: every summation order is exact.
        channels, size = 64, 64
        padded = size + 2
        conv_in = write(os.path.join(work, "conv_in.bin"), "f",
                        [((i * 7) % 17 - 8) / 4
                         for i in range(channels * padded * padded)])
        conv_weights = write(os.path.join(work, "conv_w.bin"), "f",
                             [((i * 5) % 13 - 6) / 8
                              for i in range(channels * channels * 9)])
        conv_bias = write(os.path.join(work, "conv_b.bin"), "f",
                          [(i % 9 - 4) / 2 for i in range(channels)])
        # Specialization constants as Convolution_vulkan sets them: kernel,
        # dilation, stride, bias_term, activation (none) and its params,
        # elempack and out_elempack; the shapes (12-22) left 0, so that the
        # shader reads them from the push constants: dims, w, h, c (in
        # vec4s), cstep (in vec4s, ncnn's 16-byte aligned w*h) of the input
        # and of the output, num_output. Each invocation writes 2x2 pixels
        # of 2x4 channels; the local size, which ncnn sets through
        # specialization constants 233-235, 8x8x4 here.
        conv_spec = []
        for index, value in enumerate(["i32:3", "i32:3", "i32:1", "i32:1",
                                       "i32:1", "i32:1", "i32:1", "i32:0",
                                       "f32:0", "f32:0", "i32:4", "i32:4"]):
            conv_spec += ["--spec", "%d:%s" % (index, value)]
        conv_push = "i32:3,%d,%d,%d,%d,3,%d,%d,%d,%d,%d" % (
            padded, padded, channels // 4, padded * padded, size, size,
            channels // 4, size * size, channels)
        convolution = glsl(work, os.path.join(ncnn, "convolution_packed.comp"),
                           "convolution_packed.comp", preamble +
                           "\nlayout(local_size_x = 8, local_size_y = 8, "
                           "local_size_z = 4) in;")
        benchmarks += [
            ("ggml rms_norm 256x4096", os.path.join(ggml, "rms_norm.comp.spv"),
             ["--groups", str(rows), "1", "1", "--buffer", "0:0:storage:" + x,
              "--buffer", "0:1:storage:zero:16",
              "--buffer", "0:2:storage:zero:%d" % (4 * n), "--push", push],
             "0:2", "f32", "rms_norm", [x]),
            ("ggml soft_max 256x4096", os.path.join(ggml, "soft_max.comp.spv"),
             ["--groups", str(rows), "1", "1", "--spec", "0:u32:512",
              "--buffer", "0:0:storage:" + logits,
              "--buffer", "0:1:storage:" + logits,
              "--buffer", "0:2:storage:" + logits,
              "--buffer", "0:3:storage:zero:%d" % (4 * n),
              "--push", softmax_push],
             "0:3", "f32", "softmax", [logits]),
            ("ggml mul_mat_vec f32 4096x4096",
             os.path.join(ggml, "mul_mat_vec.comp.spv"),
             ["--groups", str(k), "1", "1", "--spec", "0:u32:32",
              "--spec", "1:u32:1", "--spec", "2:u32:1",
              "--buffer", "0:0:storage:" + matrix,
              "--buffer", "0:1:storage:" + vector,
              "--buffer", "0:2:storage:zero:%d" % (4 * k),
              "--buffer", "0:3:storage:zero:16",
              "--buffer", "0:4:storage:zero:16", "--push", mat_vec_push],
             "0:2", "f32", "mat_vec", [matrix, vector]),
            # ncnn sets the local size through specialization constant 233;
            # 256 here, as the preamble its corpus build uses otherwise.
            ("ncnn swish 1M", glsl(work, os.path.join(ncnn, "swish.comp"),
                                   "swish.comp", preamble +
                                   "\nlayout(local_size_x = 256) in;"),
             ["--groups", str(n // 4 // 256), "1", "1",
              "--buffer", "0:0:storage:" + activations,
              "--push", "u32:%d" % (n // 4)],
             "0:0", "f32", "swish", [activations]),
            # Bindings 0 and 1 are the pack1 views of the input and the
            # output (ncnn binds the same buffers twice); pack4 reads 2
            # and writes 3.
            ("ncnn convolution_packed 3x3 64ch 64x64", convolution,
             ["--groups", str(size // 2 // 8), str(size // 2 // 8),
              str(channels // 8 // 4)] + conv_spec +
             ["--buffer", "0:0:storage:" + conv_in,
              "--buffer", "0:1:storage:zero:16",
              "--buffer", "0:2:storage:" + conv_in,
              "--buffer", "0:3:storage:zero:%d" % (4 * channels * size * size),
              "--buffer", "0:4:storage:" + conv_weights,
              "--buffer", "0:5:storage:" + conv_bias, "--push", conv_push],
             "0:3", "f32", "convolution", [conv_in, conv_weights, conv_bias]),
        ]
    else:
        print("skipped: ggml rms_norm, soft_max and mul_mat_vec, ncnn swish "
              "and convolution_packed (no %s)" % CORPUS)
    return benchmarks


def roofline_work(kernel, out_path):
    """(bytes, flops) a kernel must at least move and compute: its inputs
    read and its outputs written once; multiply-adds as two flops,
    mandelbrot's 9 per iteration (from the iteration counts it wrote),
    an exp as one (a lower bound): swish's 3 per element, soft_max's 5
    (max, subtract, exp, sum, scale). (mul_mat_vec's 64 MB matrix does not
    fit the last-level cache that the roofline's bandwidth may come from:
    it streams from memory.)"""
    n, m, k = 1 << 20, 256, 4096
    if kernel == "mandelbrot":
        with open(out_path, "rb") as f:
            data = f.read()
        iterations = sum(struct.unpack("<%dI" % (len(data) // 4), data))
        return 4 * 1024 * 512, 9 * iterations
    # convolution_packed: 64 channels, 66x66 padded in, 64x64 out, 3x3.
    conv_bytes = 4 * (64 * 66 * 66 + 64 * 64 * 9 + 64 + 64 * 64 * 64)
    return {"saxpy": (12 * n, 2 * n), "reduce": (4 * n + 4 * n // 256, n),
            "histogram": (4 * n + 1024, n), "matmul": (12 * m * m,
                                                       2 * m ** 3),
            "rms_norm": (8 * n, 3 * n), "swish": (8 * n, 3 * n),
            "softmax": (8 * n, 5 * n),
            "mat_vec": (4 * (k * k + 2 * k), 2 * k * k),
            "convolution": (conv_bytes, 2 * 64 * 64 * 64 * 64 * 9)}[kernel]


def compute_benchmarks(args, work, env):
    benchmarks = compute_kernels(work)
    native = os.path.join(work, "native")
    subprocess.run(["cc", "-O3", "-march=native", "-fopenmp", "-ffp-contract=off",
                    os.path.join(ROOT, "tools", "bench", "native.c"), "-o",
                    native, "-lm", "-lmvec"], check=True)
    # The roofline's limits, with as many threads as spv-run uses.
    limits = run([native, "roofline", args.repeat],
                 dict(env, OMP_NUM_THREADS=str(os.cpu_count())))
    print("Roofline: %.1f GB/s (b += a over two 4 MB arrays), %.1f GFLOP/s of "
          "fused multiply-adds, %d threads.\n" % (
              limits["bandwidth_gbs"], limits["peak_gflops"],
              limits["threads"]))
    # Each round gives spv-run a fresh kernel cache: its run compiles
    # (cold); the one-thread run after the rounds loads (warm).
    print("| kernel | lavapipe ms | spv-run ms | C/OpenMP ms | roofline ms | "
          "C / roofline | lavapipe / spv-run | spv-run / C | spv-run 1 "
          "thread / all | compile ms cold / warm |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    speedups, natives = [], []
    # Each kernel's cold compile by phase (spv-run --json's
    # compile_phases_ms) and lavapipe's first dispatch without its shader
    # cache (vkref --cold), which holds its JIT.
    phases = []
    median = statistics.median
    for index, (name, spv, flags, out, kind, kernel, inputs) in enumerate(
            benchmarks):
        common = flags + ["--repeat", args.repeat, "--json"]
        files = {who: os.path.join(work, "out%d.%s.bin" % (index, who))
                 for who in ("lavapipe", "spv-run", "native")}
        # lavapipe, spv-run and C alternate --rounds times, so that a slow
        # phase of a shared machine falls on all three; the table has the
        # medians of their medians, and the compile row of the round whose
        # ratio to lavapipe's compile is the median.
        refs, ours_runs, theirs_runs, compiles = [], [], [], []
        for round_index in range(args.rounds):
            round_env = dict(env, SPVBRIDGE_KERNEL_CACHE=os.path.join(
                work, "kernel-cache-%d-%d" % (index, round_index)))
            refs.append(run([args.vkref, "--spv", spv] + common +
                            ["--out", "%s:%s" % (out, files["lavapipe"])],
                            env))
            ours_runs.append(run([args.spv_run, spv] + common +
                                 ["--out", "%s:%s" % (out, files["spv-run"])],
                                 round_env))
            cold = run([args.vkref, "--spv", spv, "--cold"] + common, env)
            compiles.append((name, ours_runs[-1]["compile_ms"],
                             ours_runs[-1]["compile_phases_ms"], cold))
            theirs_runs.append(run([native, kernel, args.repeat,
                                    files["native"]] + inputs,
                                   dict(env, OMP_NUM_THREADS=str(
                                       ours_runs[-1]["threads"]))))
        single = run([args.spv_run, spv] + common + ["--threads", "1"],
                     round_env)
        compiles.sort(key=compile_ratio)
        phases.append(compiles[len(compiles) // 2])
        ref = {"dispatch_ms": median(r["dispatch_ms"] for r in refs)}
        ours = {"dispatch_ms": median(r["dispatch_ms"] for r in ours_runs),
                "compile_ms": phases[-1][1]}
        theirs = {"dispatch_ms": median(r["dispatch_ms"]
                                        for r in theirs_runs)}
        check_agreement(name, files["lavapipe"], files["spv-run"], kind)
        check_agreement(name, files["lavapipe"], files["native"], kind,
                        "C/OpenMP")
        speedup = ref["dispatch_ms"] / ours["dispatch_ms"]
        slowdown = ours["dispatch_ms"] / theirs["dispatch_ms"]
        speedups.append(speedup)
        natives.append(slowdown)
        moved, flops = roofline_work(kernel, files["native"])
        bound = max(moved / (limits["bandwidth_gbs"] * 1e6),
                    flops / (limits["peak_gflops"] * 1e6))
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.2fx | %.2fx | %.2fx | "
              "%.2fx | %.1f / %.1f |" % (
                  name, ref["dispatch_ms"], ours["dispatch_ms"],
                  theirs["dispatch_ms"], bound,
                  theirs["dispatch_ms"] / bound, speedup, slowdown,
                  single["dispatch_ms"] / ours["dispatch_ms"],
                  ours["compile_ms"], single["compile_ms"]))
        if index == 0:
            # Alternating, five times each: the cost is a few percent, less
            # than a shared machine's drift between two runs.
            times = {"plain": [], "robust": []}
            for _ in range(5):
                for mode, extra in (("plain", []), ("robust", ["--robust"])):
                    times[mode].append(run([args.spv_run, spv] + common +
                                           extra, round_env)["dispatch_ms"])
            robust_ratio = (statistics.median(times["robust"]) /
                            statistics.median(times["plain"]))
    geomean = lambda values: math.exp(sum(map(math.log, values)) / len(values))
    print("| geomean | | | | | | %.2fx | %.2fx | | |" %
          (geomean(speedups), geomean(natives)))
    print("\n%s with --robust / without: %.2fx" % (benchmarks[0][0],
                                                  robust_ratio))
    print_compile_phases(phases)


PHASES = ("frontend", "validate", "reflect", "deserialize", "lower",
          "translate", "optimize", "codegen")


def compile_ratio(phase):
    """spv-run's cold compile over lavapipe's (its pipeline creation plus
    its first dispatch's JIT) in one round: (name, total, parts, cold)."""
    cold = phase[3]
    return phase[1] / (cold["pipeline_ms"] + cold["jit_est_ms"])


def print_compile_phases(phases):
    """The cold compiles by phase, in ms, beside lavapipe's with its shader
    cache off: its pipeline creation (NIR) plus its first dispatch's JIT
    (the first dispatch less a warm one, vkref's jit_est_ms)."""
    print("\n| cold compile, ms | " + " | ".join(PHASES) +
          " | spv-run total | lavapipe first dispatch (--cold) | lavapipe "
          "compile (pipeline + JIT) | spv-run / lavapipe compile |")
    print("|---" * (len(PHASES) + 5) + "|")
    ratios = []
    for name, total, parts, cold in phases:
        lavapipe = cold["pipeline_ms"] + cold["jit_est_ms"]
        ratios.append(compile_ratio((name, total, parts, cold)))
        print("| %s | %s | %.1f | %.1f | %.1f | %.2fx |" % (
            name, " | ".join("%.1f" % parts[p] for p in PHASES), total,
            cold["first_dispatch_ms"], lavapipe, ratios[-1]))
    print("| median | %s | | | | %.2fx |" % (
        " | ".join("" for _ in PHASES), statistics.median(ratios)))


def icd_benchmarks(args, work, env):
    """The compute suite through the Vulkan API: vkref (../shared/tools/vkref,
    a client nobody here wrote) on lavapipe and on the spvbridge ICD, beside
    spv-run's direct path, alternating --rounds times; the first row, saxpy
    on 64 elements, is all overhead (submission, descriptors, the wait)."""
    icd_env = dict(env, VK_ICD_FILENAMES=args.icd, VK_DRIVER_FILES=args.icd)
    benchmarks = compute_kernels(work)
    small = write(os.path.join(work, "small.bin"), "f", [1.0] * 64)
    benchmarks.insert(0, (
        "saxpy 64 (overhead)", benchmarks[0][1],
        ["--groups", "1", "1", "1", "--buffer", "0:0:storage:" + small,
         "--buffer", "0:1:storage:" + small, "--push", "f32:2.5,u32:64"],
        "0:1", "f32", None, []))
    print("| kernel | lavapipe (vkref) ms | spvbridge ICD (vkref) ms | spv-run "
          "direct ms | ICD / direct | lavapipe / ICD |")
    print("|---|---|---|---|---|---|")
    overheads, speedups = [], []
    for index, (name, spv, flags, out, kind, _, _) in enumerate(benchmarks):
        common = flags + ["--repeat", args.repeat, "--json"]
        files = {who: os.path.join(work, "icd%d.%s.bin" % (index, who))
                 for who in ("lavapipe", "icd", "direct")}
        times = {who: [] for who in files}
        for _ in range(args.rounds):
            times["lavapipe"].append(run(
                [args.vkref, "--spv", spv] + common +
                ["--out", "%s:%s" % (out, files["lavapipe"])],
                env)["dispatch_ms"])
            times["icd"].append(run(
                [args.vkref, "--spv", spv] + common +
                ["--out", "%s:%s" % (out, files["icd"])],
                icd_env)["dispatch_ms"])
            times["direct"].append(run(
                [args.spv_run, spv] + common +
                ["--out", "%s:%s" % (out, files["direct"])],
                env)["dispatch_ms"])
        check_agreement(name, files["lavapipe"], files["icd"], kind,
                        "the ICD")
        check_agreement(name, files["lavapipe"], files["direct"], kind)
        median = {who: statistics.median(t) for who, t in times.items()}
        overheads.append(median["icd"] / median["direct"])
        speedups.append(median["lavapipe"] / median["icd"])
        print("| %s | %.3f | %.3f | %.3f | %.2fx | %.2fx |" % (
            name, median["lavapipe"], median["icd"], median["direct"],
            overheads[-1], speedups[-1]))
    geomean = lambda values: math.exp(sum(map(math.log, values)) / len(values))
    print("| geomean | | | | %.2fx | %.2fx |" % (geomean(overheads),
                                                geomean(speedups)))


def vkcube_benchmarks(args, work, env):
    """vkcube's frame time on lavapipe and on the ICD, with every hardware
    thread and per core, alternating --rounds times (medians)."""
    tests = os.path.join(ROOT, "tests", "lit", "ICD", "Inputs")
    layers = os.path.join(args.build, "tests", "icd", "layers")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1024x768x24",
         "-nolisten", "tcp", "-nolisten", "local", "-noreset"],
        pass_fds=[write_end],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as display:
        number = display.readline().strip()
    if not number:
        sys.exit("error: Xvfb did not start")
    drivers = {"lavapipe": env["VK_ICD_FILENAMES"], "spvbridge": args.icd}
    threads = {"all": {}, "1": {"LP_NUM_THREADS": "1", "SPVB_THREADS": "1"}}

    def wall(driver, frames, extra, capture=None):
        run_env = dict(env, DISPLAY=":" + number,
                       VK_ICD_FILENAMES=drivers[driver],
                       VK_DRIVER_FILES=drivers[driver], **extra)
        if capture:
            run_env.update(VK_LAYER_PATH=layers,
                           VK_INSTANCE_LAYERS="VK_LAYER_SPVB_window_capture",
                           SPVB_CAPTURE=capture)
        start = time.perf_counter()
        result = subprocess.run(["vkcube", "--c", str(frames),
                                 "--present_mode", "0"],
                                capture_output=True, text=True, env=run_env)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit("error: vkcube on %s failed:\n%s" % (driver,
                                                            result.stderr))
        return elapsed

    try:
        captures = {d: os.path.join(work, "cube-%s.ppm" % d) for d in drivers}
        for driver in drivers:
            wall(driver, 220, {}, captures[driver])
        subprocess.run([sys.executable,
                        os.path.join(tests, "compare-captures.py"),
                        captures["spvbridge"], captures["lavapipe"]],
                       check=True, stdout=subprocess.DEVNULL)
        print("| vkcube frame (500x500) | lavapipe ms | spvbridge ICD ms | "
              "lavapipe / ICD |")
        print("|---|---|---|---|")
        for label, extra in threads.items():
            frame = {d: [] for d in drivers}
            for _ in range(args.rounds):
                for driver in drivers:
                    frame[driver].append(
                        (wall(driver, 220, extra) - wall(driver, 20, extra))
                        / 200 * 1000)
            median = {d: statistics.median(t) for d, t in frame.items()}
            print("| %s threads | %.3f | %.3f | %.2fx |" % (
                label, median["lavapipe"], median["spvbridge"],
                median["lavapipe"] / median["spvbridge"]))
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", default="20")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only",
                        choices=["compute", "draws", "icd", "vkcube"])
    args = parser.parse_args()
    args.spv_run = os.path.join(args.build, "tools", "spv-run")
    args.vkref = os.path.join(args.build, "tests", "differential", "vkref",
                              "vkref")
    args.icd = os.path.join(args.build, "icd", "spvb_icd.json")
    env = dict(os.environ,
               VK_ICD_FILENAMES="/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
    with tempfile.TemporaryDirectory(prefix="spvb-bench-") as work:
        if args.only in (None, "compute"):
            compute_benchmarks(args, work, env)
        if args.only in (None, "draws"):
            draw_benchmarks(args.spv_run, env, work, args.repeat,
                            args.rounds)
        if args.only in (None, "icd"):
            icd_benchmarks(args, work, env)
        if args.only in (None, "vkcube"):
            vkcube_benchmarks(args, work, env)


def check_image(name, ref_path, our_path, tolerance):
    """UNORM8 attachments agree within `tolerance` steps (implicit LOD is
    the implementation's approximation of the specification's formula)."""
    with open(ref_path, "rb") as f:
        ref = f.read()
    with open(our_path, "rb") as f:
        ours = f.read()
    worst = max(abs(a - b) for a, b in zip(ref, ours))
    if len(ref) != len(ours) or worst > tolerance:
        sys.exit("error: %s: images differ by up to %d steps (at most %d "
                 "allowed)" % (name, worst, tolerance))


def write_patches(work, grid=8):
    """grid x grid square patches over [-1, 1]^2, each's four corners in
    the order grid.tese mixes them; returns the R32G32_SFLOAT file."""
    corners = []
    for j in range(grid):
        for i in range(grid):
            for dj, di in ((0, 0), (0, 1), (1, 0), (1, 1)):
                corners += [-1 + 2 * (i + di) / grid, -1 + 2 * (j + dj) / grid]
    path = os.path.join(work, "patches.bin")
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(corners), *corners))
    return path


def write_mesh(work, grid=48):
    """A grid of grid x grid quads: positions and texture coordinates
    (R32G32_SFLOAT), u32 indices; a 256x256 RGBA8 texture (checkerboard
    and gradients) with its box-filtered mip chain."""
    positions, texcoords, indices = [], [], []
    for j in range(grid + 1):
        for i in range(grid + 1):
            positions += [-1 + 2 * i / grid, -1 + 2 * j / grid]
            texcoords += [i / grid, j / grid]
    for j in range(grid):
        for i in range(grid):
            a = j * (grid + 1) + i
            indices += [a, a + 1, a + grid + 1, a + grid + 1, a + 1,
                        a + grid + 2]
    paths = {}
    for name, values, kind in (("pos", positions, "f"),
                               ("tc", texcoords, "f"),
                               ("idx", indices, "I")):
        paths[name] = os.path.join(work, name + ".bin")
        with open(paths[name], "wb") as f:
            f.write(struct.pack("<%d%s" % (len(values), kind), *values))
    size = 256
    level = [(255 if ((x // 32) + (y // 32)) % 2 else 40, x, y, 255)
             for y in range(size) for x in range(size)]
    levels = [level]
    while size > 1:
        half = size // 2
        level = [tuple((sum(level[(2 * y + dy) * size + 2 * x + dx][c]
                            for dy in (0, 1) for dx in (0, 1)) + 2) // 4
                       for c in range(4))
                 for y in range(half) for x in range(half)]
        levels.append(level)
        size = half
    paths["tex"] = os.path.join(work, "tex.bin")
    with open(paths["tex"], "wb") as f:
        f.write(bytes(v for level in levels for texel in level
                      for v in texel))
    return paths, len(indices) // 3, len(levels)


def draw_benchmarks(spv_run, env, work, repeat, rounds):
    mesh, triangles, levels = write_mesh(work)
    shaders = os.path.join(ROOT, "shaders")
    vertices = ["--framebuffer", "256x256",
                "--vertex-data", "0:R32G32_SFLOAT:" + mesh["pos"],
                "--vertex-data", "1:R32G32_SFLOAT:" + mesh["tc"],
                "--index-data", "u32:" + mesh["idx"]]
    benchmarks = [
        ("full-screen loop shader 256x256", 1,
         [os.path.join(shaders, "waves.frag"), "--framebuffer", "256x256"]),
        ("textured mesh (%d triangles) 256x256" % triangles, 4,
         [os.path.join(shaders, "mesh.vert"),
          os.path.join(shaders, "textured.frag")] + vertices +
         ["--image", "0:0:rgba8:256x256,levels=%d:%s" % (levels, mesh["tex"]),
          "--sampler", "0:0:linear,mipmap=linear,address=repeat"]),
        # The same draw without the texture: the rest of the pipeline.
        ("untextured mesh (%d triangles) 256x256" % triangles, 1,
         [os.path.join(shaders, "mesh.vert"),
          os.path.join(shaders, "mesh-uv.frag")] + vertices),
        # The same again through a geometry shader that passes each
        # triangle on.
        ("untextured mesh through a geometry shader 256x256", 1,
         [os.path.join(shaders, "mesh.vert"),
          os.path.join(shaders, "pass-triangles.geom"),
          os.path.join(shaders, "mesh-uv.frag")] + vertices),
        # 8 x 8 quad patches, each tessellated into 16 x 16 quads.
        ("tessellated grid (64 patches, 32768 triangles) 256x256", 1,
         [os.path.join(shaders, "patch.vert"),
          os.path.join(shaders, "grid.tesc"),
          os.path.join(shaders, "grid.tese"),
          os.path.join(shaders, "mesh-uv.frag"), "--framebuffer", "256x256",
          "--vertex-data", "0:R32G32_SFLOAT:" + write_patches(work),
          "--patch-control-points", "4"]),
    ]
    print()
    # The median over the rounds of each run's median draw, and the fastest
    # single draw of all rounds: on a shared machine whose speed changes
    # from one moment to the next the medians swing, while the fastest draw
    # is each program undisturbed (as timeit reports its best).
    print("| draw | lavapipe draw_ms | spv-run draw_ms | speed-up | "
          "lavapipe fastest | spv-run fastest | speed-up, fastest | "
          "spv-run compile_ms | threads |")
    print("|---|---|---|---|---|---|---|---|---|")
    # Each draw with every hardware thread, then per core: spv-run
    # --threads 1 against lavapipe with one rasterizer thread
    # (LP_NUM_THREADS=1).
    for single in (False, True):
        ref_env = dict(env, LP_NUM_THREADS="1") if single else env
        threads = ["--threads", "1"] if single else []
        for index, (name, tolerance, flags) in enumerate(benchmarks):
            common = flags + ["--repeat", repeat, "--json"]
            ref_out = os.path.join(work, "draw%d.lavapipe.bin" % index)
            our_out = os.path.join(work, "draw%d.spv-run.bin" % index)
            refs, ours = [], []
            for _ in range(max(1, rounds)):
                refs.append(run([spv_run] + common + [
                    "--backend=vulkan", "--attachment-out", ref_out],
                    ref_env))
                ours.append(run([spv_run] + common + threads +
                                ["--attachment-out", our_out], env))
                check_image(name, ref_out, our_out, tolerance)
            ref_ms = statistics.median([r["draw_ms"] for r in refs])
            our_ms = statistics.median([r["draw_ms"] for r in ours])
            ref_min = min(r["draw_ms_min"] for r in refs)
            our_min = min(r["draw_ms_min"] for r in ours)
            compile_ms = statistics.median([r["compile_ms"] for r in ours])
            print("| %s | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx | %.1f "
                  "| %d |" % (name, ref_ms, our_ms, ref_ms / our_ms, ref_min,
                              our_min, ref_min / our_min, compile_ms,
                              ours[0]["threads"]))


if __name__ == "__main__":
    main()

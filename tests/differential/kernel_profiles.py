"""Inputs for corpus kernels whose parameters must agree with each other.

The corpus runner's name heuristics give each push-constant member a value on
its own. Some ggml kernels take a tensor's sizes *and* its strides, and with
independent values their workgroups (or invocations) write the same output
elements, so the result is a race and no comparison can mean anything. Each
profile below gives the shapes ggml-vulkan.cpp would pass for a small real
problem: consistent sizes and strides, the matching dispatch, buffers large
enough to hold the tensors. A profile may also say that a kernel cannot be
compared on lavapipe at all ("skip"), or fill a buffer with values the
kernel's mathematics needs (a well-conditioned triangular matrix).

Profile keys:
  specs     {spec id: value}, replacing the runner's choice
  groups    (x, y, z) workgroup counts
  elements  minimum element count of every runtime array
  push      {member name: value} for push-constant members (others keep the
            runner's heuristic value)
  fill      {binding: function(rng, index) -> value} for runtime-array
            elements of that binding
  skip      (reason tag, message): not comparable on lavapipe
"""


def fastdiv(d):
    """(mp, L) such that (mulhi(n, mp) + n) >> L == n // d, as
    init_fastdiv_values in ggml-vulkan.cpp computes them."""
    shift = 0
    while (1 << shift) < d:
        shift += 1
    mp = ((1 << 32) * ((1 << shift) - d)) // d + 1
    return mp & 0xFFFFFFFF, shift


def _mul_mm():
    # m_warptile without coopmat: BLOCK_SIZE 128 = (BM/WM) * (BN/WN) warps of
    # WARP = 32 invocations; D = A^T B for two batches.
    m, n, k, batches = 128, 64, 64, 2
    return {
        "specs": {0: 128},
        "groups": (m // 64, n // 64, batches),
        "elements": m * k * batches,
        "push": {"M": m, "N": n, "K": k, "stride_a": k, "stride_b": k,
                 "stride_d": m, "batch_stride_a": m * k,
                 "batch_stride_b": n * k, "batch_stride_d": m * n,
                 "base_work_group_z": 0, "num_batches": batches,
                 "k_split": k, "ne02": batches, "ne12": batches,
                 "broadcast2": 1, "broadcast3": 1},
    }


def _mul_mat_vec_nc():
    # A (f16) of ncols x nrows per channel, y of ncols per channel; one
    # workgroup per (row, channel) as ggml_vk_mul_mat_vec_nc_f16_f32 does.
    ncols, nrows, channels = 256, 8, 4
    return {
        "groups": (1, nrows, channels),
        "elements": ncols * nrows * channels,
        "push": {"ncols_x": ncols, "nrows_x": nrows, "row_stride_x": ncols,
                 "channel_stride_x": ncols * nrows,
                 "channel_stride_y": ncols, "channel_x_divisor": 1,
                 "ne12": channels, "b_offset": 0, "d_offset": 0,
                 "nb03": ncols * nrows * channels, "nb13": ncols * channels,
                 "nb23": nrows * channels, "fusion_flags": 0},
    }


def _rwkv():
    # Head size 64 (BLOCK_SIZE); C = H * 64 channels, T tokens in B
    # sequences. With C smaller than a head the y outputs and the final
    # state overlap in dst and invocations race on them.
    b, t, h = 2, 4, 2
    c = h * 64
    return {
        "groups": (b * h, 1, 1),
        "elements": t * c + b * c * 64,
        "push": {"B": b, "T": t, "C": c, "H": h},
    }


def _conv3d_mm():
    # 16 output channels, 4 input channels, an 8x8x8 volume and a 1x1x1
    # kernel (the spec defaults); WG_SIZE 256 as ggml uses: below BS_NPQ
    # (128) the B-tile loop steps by WG_SIZE / BS_NPQ = 0 and never ends.
    oc, ic, n, w = 16, 4, 1, 8
    push = {"OC": oc, "IC": ic, "N": n, "IW": w, "IH": w, "ID": w,
            "OW": w, "OH": w, "OD": w,
            "nb01": 1, "nb02": 1, "nb03": 1,
            "nb11": w, "nb12": w * w, "nb13": w * w * w,
            "nb1": w, "nb2": w * w, "nb3": w * w * w}
    for name, d in (("OW", w), ("OWOH", w * w), ("OWOHOD", w * w * w)):
        push[name + "mp"], push[name + "L"] = fastdiv(d)
    return {
        "specs": {0: 256},
        "groups": (1, n * w * w * w // 128, 1),
        "elements": n * oc * w * w * w,
        "push": push,
    }


def _solve_tri_a(rng, index):
    # Lower triangular with a dominant diagonal: forward substitution over
    # 64 rows stays well conditioned (random entries would amplify rounding
    # by orders of magnitude and divide by zero diagonals).
    row, col = (index % 4096) // 64, index % 64
    if col == row:
        return 1.0 + rng.randint(0, 256) / 256.0
    return rng.randint(-256, 256) / 16384.0 if col < row else 0.0


def _solve_tri():
    # A: N x N (N = 64), B and X: N x K (K = 32), two batches.
    n, k, batches = 64, 32, 2
    push = {"ne": n * k * batches,
            "ne00": n, "ne01": n, "ne02": batches, "ne03": 1,
            "nb00": 1, "nb01": n, "nb02": n * n, "nb03": n * n * batches,
            "ne10": k, "ne11": n, "ne12": batches, "ne13": 1,
            "nb10": 1, "nb11": k, "nb12": n * k, "nb13": n * k * batches,
            "ne20": k, "ne21": n, "ne22": batches, "ne23": 1,
            "nb20": 1, "nb21": k, "nb22": n * k, "nb23": n * k * batches,
            "misalign_offsets": 0}
    return {
        "specs": {4: 64},
        "groups": (batches, 1, 1),
        "elements": n * n * batches,
        "push": push,
        "fill": {0: _solve_tri_a},
    }


def _continuous(rng, index):
    # Not a multiple of a power of two: a value exactly halfway between two
    # integers after scaling (where the division's allowed error decides
    # round()'s direction) has probability zero.
    return rng.uniform(-2.0, 2.0)


def _positive(rng, index):
    return rng.randint(1, 512) / 256.0


PROFILES = {
    "ggml-vulkan/mul_mm.comp.spv": _mul_mm(),
    "ggml-vulkan/mul_mat_vec_nc.comp.spv": _mul_mat_vec_nc(),
    "ggml-vulkan/wkv6.comp.spv": _rwkv(),
    "ggml-vulkan/wkv7.comp.spv": _rwkv(),
    "ggml-vulkan/gla.comp.spv": _rwkv(),
    "ggml-vulkan/conv3d_mm.comp.spv": _conv3d_mm(),
    "ggml-vulkan/solve_tri.comp.spv": _solve_tri(),
    "ggml-vulkan/quantize_q8_1.comp.spv": {"fill": {0: _continuous}},
    # Each invocation writes num_prior boxes from its own offset: with the
    # runner's flip = num_max_size = num_aspect_ratio = 1 that is 4 (min,
    # max, aspect ratio, flipped), and sizes and ratios go through sqrt.
    "ncnn/priorbox.comp.spv": {"specs": {10: 4},
                               "fill": {1: _positive, 2: _positive,
                                        3: _positive}},
    # Without FWHT_SHMEM the kernel maps gl_SubgroupInvocationID to a column
    # and gl_SubgroupID to a row of BLOCK_SIZE = 32: it needs 32-wide
    # subgroups, and lavapipe's are 8 wide (no subgroupSizeControl range).
    "ggml-vulkan/fwht.comp.spv": {
        "skip": ("subgroup-size", "needs 32-wide subgroups; lavapipe's "
                 "are 8 wide")},
}

"""Kernels from real projects against numpy references."""

import numpy as np

import spvbridge


def test_ggml_scale(corpus):
    # ggml's unary-op head: 512 elements per row of workgroups.
    k = spvbridge.compile(corpus / "ggml-vulkan" / "scale.comp.spv")
    x = np.random.default_rng(0).standard_normal(100_000, dtype=np.float32)
    y = np.zeros_like(x)
    k.dispatch((1, (x.size + 511) // 512),
               buffers={(0, 0): x, (0, 1): y},
               push={"ne": x.size, "param1": 0.5, "param2": 3.0})
    np.testing.assert_allclose(y, x * np.float32(0.5) + np.float32(3.0),
                               rtol=1e-6)


def test_ggml_rms_norm(corpus):
    # One workgroup per row: x / sqrt(mean(x^2) + eps), times the optional
    # weight (binding 1, unused here: data_b is read only when the push
    # constants say so).
    k = spvbridge.compile(corpus / "ggml-vulkan" / "rms_norm.comp.spv")
    rows, cols = 8, 1000
    x = np.random.default_rng(1).standard_normal((rows, cols),
                                                 dtype=np.float32)
    out = np.zeros_like(x)
    weight = np.zeros(4, dtype=np.float32)
    k.dispatch(rows, buffers={(0, 0): x, (0, 1): weight, (0, 2): out},
               push={"ne": x.size, "ne00": cols, "ne01": rows, "ne02": 1,
                     "ne03": 1, "nb00": 1, "nb01": cols, "nb02": x.size,
                     "nb03": x.size, "ne10": cols, "ne11": rows, "ne12": 1,
                     "ne13": 1, "nb10": 1, "nb11": cols, "nb12": x.size,
                     "nb13": x.size, "ne20": cols, "ne21": rows, "ne22": 1,
                     "ne23": 1, "nb20": 1, "nb21": cols, "nb22": x.size,
                     "nb23": x.size, "param1": 1e-6})
    expected = x / np.sqrt(np.mean(x.astype(np.float64) ** 2, axis=1,
                                   keepdims=True) + 1e-6)
    np.testing.assert_allclose(out, expected, rtol=2e-5, atol=1e-6)


def test_ncnn_swish(corpus):
    preamble = (corpus / "_scripts" / "ncnn_fp32_preamble.glsl").read_text()
    source = (corpus / "ncnn" / "swish.comp").read_text()
    k = spvbridge.compile(source.replace(
        "#version 450", "#version 450\n" + preamble +
        "\nlayout(local_size_x = 64) in;", 1))
    x = np.linspace(-8, 8, 4096, dtype=np.float32)
    expected = x / (1 + np.exp(-x.astype(np.float64)))
    k.dispatch(4096 // 4 // 64, buffers={(0, 0): x}, push={"n": 1024})
    np.testing.assert_allclose(x, expected, rtol=1e-5, atol=1e-6)

"""Dispatches on numpy arrays: results against numpy, in place, and the
errors of what a dispatch is given."""

import numpy as np
import pytest

import spvbridge

SAXPY = """
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = p.a * x[i] + y[i];
}
"""


@pytest.fixture(scope="module")
def saxpy():
    return spvbridge.compile(SAXPY)


@pytest.mark.parametrize("check_bounds", [True, False])
@pytest.mark.parametrize("threads", [0, 1])
def test_saxpy_matches_numpy(saxpy, check_bounds, threads):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    expected = np.float32(0.75) * x + y
    result = saxpy.dispatch(16, buffers={(0, 0): x, (0, 1): y},
                            push={"a": 0.75, "n": 1000},
                            check_bounds=check_bounds, threads=threads)
    np.testing.assert_array_equal(y, expected)
    assert result.dispatch_ms > 0 and result.runs == 1
    assert result.threads == (1 if threads == 1 else result.threads)


def test_push_as_bytes_and_array(saxpy):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    push = np.zeros(2, dtype=np.uint32)
    push.view(np.float32)[0] = 2.0
    push[1] = 64
    saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push=push)
    np.testing.assert_array_equal(y, 2 * x)
    saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push=push.tobytes())
    np.testing.assert_array_equal(y, 4 * x)


def test_zero_copy_two_bindings_of_one_array():
    # With copies in and out, each binding would count to 256 on its own and
    # the last copy back would win; sharing the array's memory, the atomics
    # of both bindings add up.
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a; };
layout(set = 0, binding = 1) buffer B { uint b; };
void main() { atomicAdd(a, 1u); atomicAdd(b, 1u); }
""")
    counter = np.zeros(1, dtype=np.uint32)
    kernel.dispatch(4, buffers={(0, 0): counter, (0, 1): counter})
    assert counter[0] == 2 * 256


def test_bytearray_and_memoryview_are_written_in_place(saxpy):
    x = np.ones(64, dtype=np.float32)
    raw = bytearray(64 * 4)
    view = memoryview(raw)
    saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): view},
                   push={"a": 5.0, "n": 64})
    np.testing.assert_array_equal(np.frombuffer(raw, np.float32), 5.0)


def test_strided_arrays_go_through_a_copy(saxpy):
    x = np.arange(128, dtype=np.float32)[::2]
    storage = np.zeros((64, 2), dtype=np.float32)
    y = storage[:, 1]
    assert not y.flags.c_contiguous
    saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push={"a": 1.0, "n": 64})
    np.testing.assert_array_equal(storage[:, 1], np.arange(0, 128, 2))
    np.testing.assert_array_equal(storage[:, 0], 0)


def test_two_dimensional_groups_and_set_zero_shorthand():
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 2) buffer Out { uint v[]; };
void main() {
  uvec3 g = gl_GlobalInvocationID;
  v[g.y * 12 + g.x] = g.x * 100 + g.y;
}
""")
    out = np.zeros(12 * 4, dtype=np.uint32)
    kernel.dispatch((3, 2), buffers={2: out})
    ys, xs = np.divmod(np.arange(48), 12)
    np.testing.assert_array_equal(out, xs * 100 + ys)


def test_subgroup_size():
    kernel = spvbridge.compile("""
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
void main() {
  v[gl_LocalInvocationIndex] = gl_SubgroupSize * 1000 + gl_SubgroupInvocationID;
}
""")
    for size in (4, 16, 32):
        out = np.zeros(64, dtype=np.uint32)
        result = kernel.dispatch(1, buffers={(0, 0): out}, subgroup_size=size)
        assert result.subgroup_size == size
        np.testing.assert_array_equal(out, size * 1000 + np.arange(64) % size)


def test_repeat_starts_each_run_from_the_same_buffers(saxpy):
    x = np.ones(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    result = saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y},
                            push={"a": 1.0, "n": 64}, repeat=5)
    assert result.runs == 5
    assert result.dispatch_ms_min <= result.dispatch_ms <= result.dispatch_ms_max
    np.testing.assert_array_equal(y, 1.0)


def test_binding_errors(saxpy):
    x = np.ones(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    push = {"a": 1.0, "n": 64}
    with pytest.raises(spvbridge.BindingError,
                       match=r"^error: <inline>: the shader uses storage "
                             r"buffer 'Y' \(set 0, binding 1\) but nothing "
                             r"is bound to it$"):
        saxpy.dispatch(1, buffers={(0, 0): x}, push=push)
    with pytest.raises(spvbridge.BindingError,
                       match=r"buffers\[\(0, 7\)\]: <inline> declares "
                             r"nothing at set 0, binding 7 \(it declares "
                             r"'X' \(set 0, binding 0, storage-buffer\), "
                             r"'Y' \(set 0, binding 1, storage-buffer\)\)"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y, (0, 7): y}, push=push)
    readonly = y.copy()
    readonly.flags.writeable = False
    with pytest.raises(spvbridge.BindingError,
                       match=r"buffers\[\(0, 1\)\]: the object given is "
                             r"read-only, but the shader may write it"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): readonly}, push=push)
    # A read-only array is fine for a readonly buffer.
    x.flags.writeable = False
    saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push=push)
    with pytest.raises(spvbridge.BindingError,
                       match=r"buffers\[\(0, 0\)\]: the object given is a "
                             r"list, which does not support the buffer "
                             r"protocol"):
        saxpy.dispatch(1, buffers={(0, 0): [1.0], (0, 1): y}, push=push)
    with pytest.raises(spvbridge.BindingError,
                       match=r"buffers\[\(0, 1, 2\)\]: 'Y' \(set 0, binding "
                             r"1, storage-buffer\) is not a descriptor array"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1, 2): y}, push=push)
    with pytest.raises(spvbridge.BindingError,
                       match=r"the shader uses push constants \(8 bytes\) "
                             r"but none are"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y})
    with pytest.raises(spvbridge.BindingError,
                       match=r"push: 4 bytes given, but the shader's push "
                             r"constants take 8"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push=b"\0" * 4)
    with pytest.raises(spvbridge.BindingError,
                       match=r"push\['count'\]: the push constants have no "
                             r"member 'count' \(they have a, n\)"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push={"count": 1})
    with pytest.raises(spvbridge.BindingError,
                       match=r"groups=\(0, 1\): expected one to three "
                             r"positive workgroup counts"):
        saxpy.dispatch((0, 1), buffers={(0, 0): x, (0, 1): y}, push=push)
    with pytest.raises(spvbridge.BindingError,
                       match=r"subgroup_size=3: expected a power of two"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y}, push=push,
                       subgroup_size=3)
    with pytest.raises(spvbridge.DispatchError,
                       match=r"maxComputeWorkGroupCount"):
        saxpy.dispatch(1 << 20, buffers={(0, 0): x, (0, 1): y}, push=push)


def test_images_and_samplers():
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Texel centres of a 4x4 texture with a 2x2 one behind: nearest and
  // linear agree at centres; out of range the address mode decides.
  vec2 uv = (vec2(p) + 0.5) / 4.0 - vec2(0.25, 0.0);
  imageStore(dst, p, texture(tex, uv));
}
""")
    texels = np.arange(16 * 4, dtype=np.float32).reshape(4, 4, 4)
    out = np.zeros((4, 4, 4), dtype=np.float32)
    for address, column in (("clamp_to_edge", lambda x: max(x - 1, 0)),
                            ("repeat", lambda x: (x - 1) % 4)):
        kernel.dispatch((1, 1), images={
            (0, 0): spvbridge.Image(texels, "rgba32f", (4, 4),
                                    sampler=spvbridge.Sampler(
                                        address=address)),
            (0, 1): spvbridge.Image(out, "rgba32f", (4, 4))})
        for y in range(4):
            for x in range(4):
                np.testing.assert_array_equal(out[y, x],
                                              texels[y, column(x)])
    with pytest.raises(spvbridge.BindingError,
                       match=r"images\[\(0, 1\)\]: 'dst' \(set 0, binding 1, "
                             r"storage-image\) is declared rgba32f, not r32f"):
        kernel.dispatch(1, images={
            (0, 0): spvbridge.Image(texels, "rgba32f", (4, 4)),
            (0, 1): spvbridge.Image(out, "r32f", (4, 4))})
    with pytest.raises(spvbridge.BindingError,
                       match=r"images\[\(0, 1\)\]: 256 bytes given, but a "
                             r"4x2x1 rgba32f image"):
        kernel.dispatch(1, images={
            (0, 0): spvbridge.Image(texels, "rgba32f", (4, 4)),
            (0, 1): spvbridge.Image(out, "rgba32f", (4, 2))})
    with pytest.raises(spvbridge.BindingError,
                       match=r"buffers\[\(0, 1\)\]: 'dst' .* is not a buffer; "
                             r"give it in images="):
        kernel.dispatch(1, buffers={(0, 1): out})


def test_an_array_of_another_element_type_warns(saxpy):
    x = np.arange(64, dtype=np.float64)
    y = np.zeros(64, dtype=np.float32)
    with pytest.warns(spvbridge.LayoutWarning,
                      match=r"buffers\[\(0, 0\)\]: a float64 array for 'X' "
                            r"\(set 0, binding 0\), whose elements are f32"):
        saxpy.dispatch(1, buffers={(0, 0): x, (0, 1): y},
                       push={"a": 1.0, "n": 64})
    # Raw bytes (uint8) and matching arrays do not warn.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        saxpy.dispatch(1, buffers={(0, 0): x.astype(np.float32).view(np.uint8),
                                   (0, 1): y}, push={"a": 1.0, "n": 64})


@pytest.mark.parametrize("argument, value, expected", [
    ("threads", -1, "an integer, 0 or more"),
    ("repeat", 0, "an integer, 1 or more"),
    ("subgroup_size", "32", "an integer, 0 or more"),
    ("timeout", -2.0, "a number of seconds, 0 or more"),
])
def test_argument_errors(saxpy, argument, value, expected):
    x = np.ones(64, dtype=np.float32)
    with pytest.raises(spvbridge.BindingError,
                       match=rf"^error: {argument}={value!r}: expected "
                             rf"{expected}$"):
        saxpy.dispatch(1, buffers={0: x, 1: x.copy()},
                       push={"a": 1.0, "n": 64}, **{argument: value})

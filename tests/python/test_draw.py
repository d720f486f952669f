"""draw(): fragment shaders over the framebuffer, and vertex arrays from
numpy, returning the attachment as an array."""

import numpy as np
import pytest

import spvbridge

GRADIENT = """
#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_FragCoord.xy / 255.0, 0.25, 1.0); }
"""


def test_full_screen_fragment_shader():
    fragment = spvbridge.compile(GRADIENT, stage="fragment")
    image = spvbridge.draw(fragment, size=(16, 8),
                           format="R32G32B32A32_SFLOAT")
    assert image.shape == (8, 16, 4) and image.dtype == np.float32
    ys, xs = np.mgrid[0:8, 0:16].astype(np.float32)
    np.testing.assert_array_equal(image[..., 0], (xs + 0.5) / np.float32(255))
    np.testing.assert_array_equal(image[..., 1], (ys + 0.5) / np.float32(255))
    np.testing.assert_array_equal(image[..., 2:],
                                  np.broadcast_to([0.25, 1.0], (8, 16, 2)))


def test_unorm_attachment_and_push_constants():
    fragment = spvbridge.compile("""
#version 450
layout(location = 0) out vec4 color;
layout(push_constant) uniform P { vec4 tint; } p;
void main() { color = p.tint; }
""", stage="fragment")
    image = spvbridge.draw(fragment, size=(4, 4),
                           push={"tint": [1.0, 0.0, 0.2, 1.0]})
    assert image.dtype == np.uint8
    np.testing.assert_array_equal(image, np.broadcast_to([255, 0, 51, 255],
                                                         (4, 4, 4)))


def test_triangle_from_vertex_arrays():
    vertex = spvbridge.compile("""
#version 450
layout(location = 0) in vec2 position;
layout(location = 1) in uint shade;
layout(location = 0) flat out uint value;
void main() { gl_Position = vec4(position, 0.0, 1.0); value = shade; }
""", stage="vertex")
    fragment = spvbridge.compile("""
#version 450
layout(location = 0) flat in uint value;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(value, 1, 2, 3); }
""", stage="fragment")
    # Framebuffer corners (0, 0), (8.4, 0), (0, 8.4): the pixel centres
    # inside are those with x + y <= 7, none on an edge.
    positions = np.array([[-1, -1], [1.1, -1], [-1, 1.1]], dtype=np.float32)
    shades = np.array([7, 7, 7], dtype=np.uint32)
    image = spvbridge.draw(fragment, vertex, size=(8, 8),
                           vertices={0: positions, 1: shades})
    assert image.dtype == np.uint32 and image.shape == (8, 8, 4)
    ys, xs = np.mgrid[0:8, 0:8]
    inside = xs + ys <= 7
    np.testing.assert_array_equal(image[..., 0], np.where(inside, 7, 0))
    np.testing.assert_array_equal(image[inside][:, 1:],
                                  np.broadcast_to([1, 2, 3], (36, 3)))
    # The same triangle indexed, twice over the same vertices.
    indexed = spvbridge.draw(fragment, vertex, size=(8, 8),
                             vertices={0: positions, 1: shades},
                             indices=np.array([0, 1, 2], dtype=np.uint16))
    np.testing.assert_array_equal(indexed, image)


def test_multisampled_draws_are_resolved():
    vertex = spvbridge.compile("""
#version 450
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
""", stage="vertex")
    white = spvbridge.compile("""
#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
""", stage="fragment")
    # The left half of a 1x1 framebuffer covers two of Vulkan's standard
    # sample locations, (0.375, 0.125) and (0.125, 0.625), but not
    # (0.875, 0.375) or (0.625, 0.875): half white. One sample, at the
    # pixel centre, sees nothing.
    half = np.array([[-1, -1], [0, -1], [-1, 1], [0, 1]], dtype=np.float32)
    args = dict(size=(1, 1), format="R32G32B32A32_SFLOAT",
                vertices={0: half}, topology="triangle_strip")
    np.testing.assert_array_equal(
        spvbridge.draw(white, vertex, samples=4, **args), [[[0.5] * 4]])
    np.testing.assert_array_equal(
        spvbridge.draw(white, vertex, **args), [[[0.0] * 4]])
    # Reading gl_SampleID runs the shader per sample: the mean of 0..3.
    per_sample = spvbridge.compile("""
#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(float(gl_SampleID) / 4.0); }
""", stage="fragment")
    image = spvbridge.draw(per_sample, size=(2, 2), samples=4,
                           format="R32G32B32A32_SFLOAT")
    np.testing.assert_array_equal(image, np.full((2, 2, 4), 0.375))


def test_draw_errors():
    fragment = spvbridge.compile(GRADIENT, stage="fragment")
    compute = spvbridge.compile("""
#version 450
layout(local_size_x = 1) in;
void main() {}
""")
    with pytest.raises(spvbridge.BindingError,
                       match=r"fragment: entry point 'main' of <inline> is "
                             r"not a fragment shader"):
        spvbridge.draw(compute, size=(4, 4))
    with pytest.raises(spvbridge.BindingError,
                       match=r"location=2: <inline> has no output at "
                             r"Location 2 \(its outputs: 0\)"):
        spvbridge.draw(fragment, size=(4, 4), location=2)
    with pytest.raises(spvbridge.BindingError,
                       match=r"format: unknown format 'RGBA9'"):
        spvbridge.draw(fragment, size=(4, 4), format="RGBA9")
    with pytest.raises(spvbridge.BindingError, match=r"size=\(0, 4\)"):
        spvbridge.draw(fragment, size=(0, 4))
    with pytest.raises(spvbridge.BindingError,
                       match=r"takes no vertex data; give a vertex shader"):
        spvbridge.draw(fragment, size=(4, 4),
                       vertices={0: np.zeros(3, np.float32)})
    with pytest.raises(spvbridge.BindingError,
                       match=r"^error: samples=2: expected 1 or 4 \(Vulkan's "
                             r"standard sample locations\)$"):
        spvbridge.draw(fragment, size=(4, 4), samples=2)


@pytest.mark.parametrize("stage", ["vertex", "fragment"])
def test_an_endless_shader_in_a_draw_is_stopped_at_the_timeout(stage):
    loop = "uint n = 0u; while (n != 1u) { n = n * 2u + 2u; }"
    vertex = spvbridge.compile("""
#version 450
layout(location = 0) in vec2 position;
void main() { %s gl_Position = vec4(position, 0.0, 1.0); }
""" % (loop if stage == "vertex" else ""), stage="vertex")
    fragment = spvbridge.compile("""
#version 450
layout(location = 0) out vec4 color;
void main() { %s color = vec4(1.0); }
""" % (loop if stage == "fragment" else ""), stage="fragment")
    positions = np.array([[-1, -1], [3, -1], [-1, 3]], dtype=np.float32)
    with pytest.raises(spvbridge.DispatchTimeoutError,
                       match=r"^error: the draw did not finish in 0\.3 s"):
        spvbridge.draw(fragment, vertex, size=(16, 16),
                       vertices={0: positions}, timeout=0.3)
    # The next draw runs.
    image = spvbridge.draw(spvbridge.compile(GRADIENT, stage="fragment"),
                           size=(4, 4), format="R32G32B32A32_SFLOAT")
    assert image[0, 0, 3] == 1.0

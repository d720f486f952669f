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


def test_fragment_subgroups_hold_whole_quads():
    fragment = spvbridge.compile("""
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(location = 0) out uvec4 color;
void main() {
  color = uvec4(gl_SubgroupSize,
                subgroupBallotBitCount(subgroupBallot(!gl_HelperInvocation)),
                gl_SubgroupInvocationID, 0);
}
""", stage="fragment")
    # The full-screen rectangle's two triangles each shade the 2x2 image's
    # one quad; both quads are in one subgroup, which sees the 4 pixels.
    ys, xs = np.mgrid[0:2, 0:2]
    for size in (8, 32):
        image = spvbridge.draw(fragment, size=(2, 2), subgroup_size=size)
        np.testing.assert_array_equal(image[..., 0], np.full((2, 2), size))
        np.testing.assert_array_equal(image[..., 1], np.full((2, 2), 4))
        np.testing.assert_array_equal(image[..., 2] % 4, xs + 2 * ys)
    # At least 4: a quad is never split.
    image = spvbridge.draw(fragment, size=(2, 2), subgroup_size=1)
    np.testing.assert_array_equal(image[..., 0], np.full((2, 2), 4))
    with pytest.raises(spvbridge.BindingError,
                       match=r"subgroup_size=3: expected a power of two"):
        spvbridge.draw(fragment, size=(2, 2), subgroup_size=3)


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


PATCH_CONTROL = """
#version 450
// Four control points per patch; the control shader sums its patch's four
// ids after a barrier.
layout(vertices = 4) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId[];
layout(location = 1) patch out uint first;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  outId[gl_InvocationID] = id[gl_InvocationID];
  barrier();
  if (gl_InvocationID == 0) {
    first = outId[0] + outId[1] + outId[2] + outId[3];
    gl_TessLevelOuter = float[4](2.0, 2.0, 2.0, 2.0);
    gl_TessLevelInner = float[2](2.0, 2.0);
  }
}
"""

PATCH_EVALUATION = """
#version 450
layout(quads, equal_spacing, cw) in;
layout(location = 0) flat in uint outId[];
layout(location = 1) patch in uint first;
layout(location = 0) flat out uint id;
void main() {
  vec4 low = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
  vec4 high = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
  gl_Position = mix(low, high, gl_TessCoord.y);
  id = first + 1000u * uint(gl_PrimitiveID);
}
"""

PASS_GEOMETRY = """
#version 450
// Adds 5 to each triangle's id.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    outId = id[0] + 5u;
    EmitVertex();
  }
}
"""


def test_tessellation_and_geometry_shaders():
    vertex = spvbridge.compile("""
#version 450
layout(location = 0) in vec2 position;
layout(location = 0) flat out uint id;
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
  id = uint(gl_VertexIndex) * 10u + 7u;
}
""", stage="vertex")
    fragment = spvbridge.compile("""
#version 450
layout(location = 0) flat in uint id;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(id, 0, 0, 1); }
""", stage="fragment")
    control = spvbridge.compile(PATCH_CONTROL, stage="tess-control")
    evaluation = spvbridge.compile(PATCH_EVALUATION, stage="tess-evaluation")
    # Two patches, the left and the right half: ids 7, 17, 27, 37 sum to
    # 88, ids 47 ... 77 to 248, plus 1000 x the patch's gl_PrimitiveID.
    corners = np.array([[-1, -1], [0, -1], [-1, 1], [0, 1],
                        [0, -1], [1, -1], [0, 1], [1, 1]], dtype=np.float32)
    image = spvbridge.draw(fragment, vertex, size=(4, 4),
                           vertices={0: corners}, tess_control=control,
                           tess_evaluation=evaluation, patch_control_points=4)
    expected = np.array([[88, 88, 1248, 1248]] * 4, dtype=np.uint32)
    np.testing.assert_array_equal(image[..., 0], expected)
    # A geometry shader after them.
    geometry = spvbridge.compile(PASS_GEOMETRY, stage="geometry")
    image = spvbridge.draw(fragment, vertex, size=(4, 4),
                           vertices={0: corners}, tess_control=control,
                           tess_evaluation=evaluation, geometry=geometry,
                           patch_control_points=4)
    np.testing.assert_array_equal(image[..., 0], expected + 5)
    with pytest.raises(spvbridge.BindingError,
                       match="tess_control: entry point 'main' of .* is not "
                             "a tessellation control shader"):
        spvbridge.draw(fragment, vertex, size=(4, 4), vertices={0: corners},
                       tess_control=evaluation, tess_evaluation=evaluation)


def test_debug_pixel_errors():
    fragment = spvbridge.compile(GRADIENT, stage="fragment")
    with pytest.raises(spvbridge.BindingError,
                       match=r"^error: debug_pixel=\(4, 0\): outside the 4x4 "
                             r"framebuffer$"):
        spvbridge.draw(fragment, size=(4, 4), debug_pixel=(4, 0))
    with pytest.raises(spvbridge.BindingError,
                       match=r"^error: debug_pixel=\(1,\): expected \(x, y\)"):
        spvbridge.draw(fragment, size=(4, 4), debug_pixel=(1,))


DEBUGGED_VERTEX = """#version 450
layout(location = 0) in vec2 position;
layout(location = 0) out vec2 uv;
void main() {
  vec2 scaled = position * 0.5 + 0.5;
  uv = scaled;
  gl_Position = vec4(position, 0.0, 1.0);
}
"""
DEBUGGED_FRAGMENT = """#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(uv, 0.0, 1.0);
}
"""


def test_debug_pixel_stops_in_gdb_for_the_pixel_and_its_vertices(tmp_path):
    """Two triangles, (0, 1, 2) over the top-left half of a 4x4
    framebuffer and (2, 1, 3): pixel (0, 0) lies in the first only, so a
    breakpoint in the vertex shader stops for vertices 0, 1 and 2 (scaled =
    position / 2 + 1/2), and one in the fragment shader once, for the pixel
    (uv = (0.5, 0.5) / 4). The image is whole."""
    import shutil
    import subprocess
    import sys
    gdb = shutil.which("gdb")
    if gdb is None:
        pytest.skip("gdb is not installed")
    (tmp_path / "pixel.vert").write_text(DEBUGGED_VERTEX)
    (tmp_path / "pixel-uv.frag").write_text(DEBUGGED_FRAGMENT)
    script = tmp_path / "draw.py"
    script.write_text(f"""
import numpy as np
import spvbridge
vertex = spvbridge.compile(r"{tmp_path / 'pixel.vert'}")
fragment = spvbridge.compile(r"{tmp_path / 'pixel-uv.frag'}")
image = spvbridge.draw(
    fragment, vertex, size=(4, 4), format="R32G32B32A32_SFLOAT",
    vertices={{0: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)}},
    indices=np.array([0, 1, 2, 2, 1, 3], np.uint16), debug_pixel=(0, 0))
print("texels", image[0, 0].tolist(), image[3, 3].tolist())
""")
    commands = ["set breakpoint pending on", "break pixel.vert:6",
                "break pixel-uv.frag:5", "run"]
    for _ in range(3):
        commands += ["print scaled", "continue"]
    commands += ["print uv", "continue"]
    arguments = [gdb, "-batch", "-nx"]
    for command in commands:
        arguments += ["-ex", command]
    run = subprocess.run(arguments + ["--args", sys.executable, str(script)],
                         capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    stops = [line for line in output.splitlines() if "hit Breakpoint" in line]
    assert [stop.split('"')[1] for stop in stops] == [
        "vertex 0", "vertex 1", "vertex 2", "pixel 0,0"], output
    values = [line.split(" = ", 1)[1] for line in output.splitlines()
              if line.startswith("$")]
    assert values == ["{x = 0, y = 0}", "{x = 1, y = 0}", "{x = 0, y = 1}",
                      "{x = 0.125, y = 0.125}"], output
    assert "texels [0.125, 0.125, 0.0, 1.0] [0.875, 0.875, 0.0, 1.0]" in output

"""compile() from every source form, and what reflect() reports."""

import numpy as np
import pytest

import spvbridge

FILL = """
#version 450
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint SCALE = 3;
layout(constant_id = 7) const float OFFSET = 0.5;
layout(set = 0, binding = 0) buffer Out { float v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = float(i * SCALE) + OFFSET;
}
"""


def run_fill(kernel, n=8):
    out = np.zeros(n, dtype=np.float32)
    kernel.dispatch(n // 4, buffers={(0, 0): out})
    return out


def test_glsl_text_and_defaults():
    out = run_fill(spvbridge.compile(FILL))
    np.testing.assert_array_equal(out, np.arange(8) * 3 + 0.5)


def test_spec_by_id_and_by_name():
    kernel = spvbridge.compile(FILL, spec={0: 10, "OFFSET": -1.25})
    np.testing.assert_array_equal(run_fill(kernel), np.arange(8) * 10 - 1.25)


def test_spec_errors_name_the_constant():
    with pytest.raises(spvbridge.CompileError,
                       match=r"spec\[5\]: <inline> has no specialization "
                             r"constant with SpecId 5 \(it has 0 'SCALE', "
                             r"7 'OFFSET'\)"):
        spvbridge.compile(FILL, spec={5: 1})
    with pytest.raises(spvbridge.CompileError,
                       match=r"spec\[0\]: 1.5 is not a u32 value"):
        spvbridge.compile(FILL, spec={0: 1.5})


def test_defines():
    source = """
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { int v[]; };
void main() { v[0] = VALUE; v[1] = FLAG; }
"""
    kernel = spvbridge.compile(source, defines={"VALUE": 42, "FLAG": None})
    out = np.zeros(2, dtype=np.int32)
    kernel.dispatch(1, buffers={(0, 0): out})
    assert out.tolist() == [42, 1]


def test_file_spv_bytes_and_assembly(shaders, tmp_path):
    from_file = spvbridge.compile(shaders / "saxpy.comp")
    assert from_file.source_name.endswith("saxpy.comp")
    assert from_file.workgroup_size == (64, 1, 1)
    # The same module as SPIR-V bytes and as assembly text.
    assembly = from_file.disassemble()
    assert "OpEntryPoint GLCompute" in assembly
    from_text = spvbridge.compile(assembly)
    spv_path = tmp_path / "saxpy.spvasm"
    spv_path.write_text(assembly)
    from_path = spvbridge.compile(str(spv_path))
    for kernel in (from_text, from_path):
        x = np.arange(100, dtype=np.float32)
        y = np.full(100, 2, dtype=np.float32)
        kernel.dispatch(2, buffers={(0, 0): x, (0, 1): y},
                        push={"a": 3.0, "n": 100})
        np.testing.assert_array_equal(y, 3 * x + 2)


def test_spv_binary_bytes(shaders, tmp_path):
    import subprocess
    spv = tmp_path / "fill.spv"
    source = tmp_path / "fill.comp"
    source.write_text(FILL)
    subprocess.run(["glslangValidator", "-V", "-o", str(spv), str(source)],
                   check=True, capture_output=True)
    kernel = spvbridge.compile(spv.read_bytes())
    assert kernel.source_name == "<inline>"
    np.testing.assert_array_equal(run_fill(kernel), np.arange(8) * 3 + 0.5)


def test_hlsl():
    source = """
RWStructuredBuffer<uint> output : register(u0);
[numthreads(8, 1, 1)]
void square(uint3 id : SV_DispatchThreadID) { output[id.x] = id.x * id.x; }
"""
    kernel = spvbridge.compile(source, entry="square", language="hlsl")
    assert kernel.entry_point == "square"
    out = np.zeros(16, dtype=np.uint32)
    kernel.dispatch(2, buffers={(0, 0): out})
    np.testing.assert_array_equal(out, np.arange(16) ** 2)


def test_compile_errors_carry_spv_runs_messages(tmp_path):
    with pytest.raises(spvbridge.CompileError,
                       match=r"^error: <inline>: GLSL compilation failed:\n"
                             r"ERROR: <inline>:3: 'x' : undeclared "
                             r"identifier"):
        spvbridge.compile("#version 450\nvoid main() {\n  x = 1;\n}\n")
    missing = tmp_path / "missing.comp"
    with pytest.raises(spvbridge.CompileError,
                       match=f"^error: {missing}: cannot open file: No such "
                             "file or directory$"):
        spvbridge.compile(missing)
    with pytest.raises(spvbridge.CompileError,
                       match=r"^error: kernel.txt: unknown shader file "
                             r"extension '.txt' \(expected .spv, .spvasm, "):
        spvbridge.compile("kernel.txt")
    with pytest.raises(spvbridge.CompileError,
                       match=r"no entry point named 'other'"):
        spvbridge.compile(FILL, entry="other")
    with pytest.raises(spvbridge.CompileError, match=r"opt_level=7"):
        spvbridge.compile(FILL, options={"opt_level": 7})
    with pytest.raises(spvbridge.CompileError, match=r"options: .*nonsense"):
        spvbridge.compile(FILL, options={"nonsense": 1})


def test_options_change_how_it_runs():
    vectorized = spvbridge.compile(FILL)
    plain = spvbridge.compile(FILL, options=spvbridge.Options(vectorize=False))
    out = np.zeros(8, dtype=np.float32)
    lanes = vectorized.dispatch(2, buffers={(0, 0): out}, check_bounds=False)
    loop = plain.dispatch(2, buffers={(0, 0): out}, check_bounds=False)
    assert lanes.simd_lanes > 1 and lanes.workgroup_entry == "lanes"
    assert loop.simd_lanes == 1 and loop.workgroup_entry == "loop"


def test_reflection():
    source = """
#version 450
layout(local_size_x = 16, local_size_y = 2) in;
layout(constant_id = 3) const int COUNT = -4;
layout(set = 0, binding = 0) readonly buffer In { vec4 header; float data[]; } src;
layout(set = 1, binding = 2) uniform Params { uint n; } params;
layout(set = 0, binding = 3, r32f) uniform image2D img;
layout(push_constant) uniform Push { float scale; uvec2 size; } pc;
shared float tile[16];
void main() {
  tile[gl_LocalInvocationIndex % 16] = src.data[params.n] * pc.scale;
  barrier();
  imageStore(img, ivec2(pc.size), vec4(tile[0] + float(COUNT)));
}
"""
    kernel = spvbridge.compile(source)
    r = kernel.reflect()
    assert kernel.workgroup_size == (16, 2, 1)
    assert [e.name for e in r.entry_points] == ["main"]
    assert r.entry_points[0].stage == "compute"
    by_place = {(res.set, res.binding): res for res in r.resources}
    assert sorted(by_place) == [(0, 0), (0, 3), (1, 2)]
    src = by_place[(0, 0)]
    assert (src.name, src.kind, src.readonly) == ("src", "storage-buffer",
                                                 True)
    assert src.static_size == 16
    assert (src.runtime_array_offset, src.runtime_array_stride) == (16, 4)
    assert [(m.name, m.offset, m.type) for m in src.members] == [
        ("header", 0, "vec4<f32>"), ("data", 16, "array<f32,stride=4>")]
    assert by_place[(1, 2)].kind == "uniform-buffer"
    image = by_place[(0, 3)]
    assert (image.kind, image.format) == ("storage-image", "r32f")
    assert r.resource(1, 2).name == "params"
    assert r.resource(5, 5) is None
    assert r.push_constant_size == 16
    assert [(m.name, m.offset) for m in r.push_constants.members] == [
        ("scale", 0), ("size", 8)]
    [count] = r.spec_constants
    assert (count.spec_id, count.name, count.type, count.default) == (
        3, "COUNT", "i32", -4)
    assert r.workgroup_memory_size == 64
    assert r.uses_barriers and not r.uses_atomics
    assert "Shader" in r.capabilities

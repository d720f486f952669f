"""run_amber: Amber scripts as spv-run runs them, failures with lines."""

import pytest

import spvbridge
from conftest import interrupt_child

SCRIPT = """#!amber
SHADER compute double GLSL
#version 430
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] *= 2u; }
END

BUFFER data DATA_TYPE uint32 DATA 1 2 3 4 END
PIPELINE compute pipeline
  ATTACH double
  BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0
END
RUN pipeline 1 1 1
EXPECT data IDX 0 EQ 2 4 6 EXPECTED_FOURTH
"""


def test_passing_and_failing_scripts(tmp_path):
    passing = tmp_path / "double.amber"
    passing.write_text(SCRIPT.replace("EXPECTED_FOURTH", "8"))
    result = spvbridge.run_amber(passing)
    assert result.passed, str(result)
    assert result.status == "pass" and result.failures == []
    assert str(result) == f"PASS {passing}"

    failing = spvbridge.run_amber(SCRIPT.replace("EXPECTED_FOURTH", "9"))
    assert failing.status == "fail"
    [failure] = failing.failures
    assert failure.line == 15
    assert "9" in failure.message and "8" in failure.message


def test_a_script_that_does_not_parse_fails_at_line_zero(tmp_path):
    broken = tmp_path / "broken.amber"
    broken.write_text("#!amber\nNONSENSE here\n")
    result = spvbridge.run_amber(broken)
    assert result.status == "fail"
    assert result.failures[0].line == 0
    assert "NONSENSE" in result.failures[0].message


def test_missing_script(tmp_path):
    result = spvbridge.run_amber(tmp_path / "absent.amber")
    assert result.status == "fail"
    assert "absent.amber" in result.reason


@pytest.mark.parametrize("name, status", [
    ("compute_mat2x2.amber", "pass"),
    ("compute_descriptor_array_ssbo.amber", "pass"),
    ("clear_color.amber", "pass"),
    ("buffer_rmse_tolerance_too_large.expect_fail.amber", "fail"),
])
def test_amber_corpus_scripts(corpus, name, status):
    # Amber's own scripts, with the outcome Amber's test suite expects.
    result = spvbridge.run_amber(corpus / "amber" / "tests" / "cases" / name)
    assert result.status == status, str(result)


ENDLESS_COMPUTE = """#!amber
SHADER compute endless GLSL
#version 430
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; }
}
END

BUFFER data DATA_TYPE uint32 DATA 0 0 0 0 END
PIPELINE compute pipeline
  ATTACH endless
  BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0
END
RUN pipeline 2 1 1
EXPECT data IDX 0 EQ 1
"""

ENDLESS_FRAGMENT = """#!amber
SHADER vertex vert PASSTHROUGH
SHADER fragment frag GLSL
#version 430
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  while (v[0] != 1u) { v[0] = v[0] * 2u + 2u; }
  color = vec4(1.0);
}
END

BUFFER data DATA_TYPE uint32 DATA 0 END
BUFFER framebuffer FORMAT B8G8R8A8_UNORM
PIPELINE graphics pipeline
  ATTACH vert
  ATTACH frag
  BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER framebuffer AS color LOCATION 0
  FRAMEBUFFER_SIZE 8 8
END
RUN pipeline DRAW_RECT POS 0 0 SIZE 8 8
EXPECT framebuffer IDX 0 0 SIZE 8 8 EQ_RGBA 255 255 255 255
"""


@pytest.mark.parametrize("script, line", [(ENDLESS_COMPUTE, 17),
                                          (ENDLESS_FRAGMENT, 22)])
def test_a_script_past_its_timeout_fails_at_the_run(script, line):
    # The shader never ends; the script fails where it ran, checks after it
    # are not made, and the process goes on.
    result = spvbridge.run_amber(script, timeout=0.3)
    assert result.status == "fail"
    [failure] = result.failures
    assert failure.line == line
    assert failure.message == (
        "RUN pipeline: the script did not finish in 0.3 s (the timeout; "
        "timeout=0 waits forever); a shader may loop forever")
    assert spvbridge.run_amber(SCRIPT.replace("EXPECTED_FOURTH", "8")).passed


def test_ctrl_c_stops_a_script_with_keyboard_interrupt():
    script = f"""
import signal, spvbridge
signal.signal(signal.SIGINT, signal.default_int_handler)
print("running", flush=True)
try:
    spvbridge.run_amber({ENDLESS_COMPUTE!r}, timeout=0)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
print(spvbridge.run_amber({SCRIPT.replace("EXPECTED_FOURTH", "8")!r}).status)
"""
    lines, out, err, code = interrupt_child(
        script, ["running\n", "KeyboardInterrupt\n", "pass\n"],
        interrupt_after=["running\n"])
    assert lines == ["running\n", "KeyboardInterrupt\n", "pass\n"], err
    assert out == "" and code == 0, err

"""run_amber: Amber scripts as spv-run runs them, failures with lines."""

import numpy as np
import pytest

import spvbridge

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

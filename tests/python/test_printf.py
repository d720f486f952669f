"""debugPrintfEXT output: returned and sent to a callback, kept when the
dispatch or draw fails (what a shader printed before its fault is what a
user debugging it needs), and bounded, so that a shader printing in an
endless loop cannot exhaust memory before its timeout."""

import re

import numpy as np
import pytest

import spvbridge


def test_printf_is_returned_and_sent_to_a_callback():
    kernel = spvbridge.compile("""
#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 3) in;
void main() { debugPrintfEXT("invocation %u of %u", gl_LocalInvocationIndex, 3u); }
""")
    lines = []
    result = kernel.dispatch(1, printf=lines.append, threads=1)
    expected = [f"invocation {i} of 3" for i in range(3)]
    assert sorted(result.printf.splitlines()) == expected
    assert sorted(lines) == expected


# One invocation prints each step before its write; the writes of steps 4
# to 7 fall outside the four-element buffer (check_bounds drops them and
# reports the first once the dispatch has ended).
STEPS = """
#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
void main() {
  for (uint i = 0u; i < 8u; ++i) {
    debugPrintfEXT("step %u", i);
    v[i] = i * 10u;
  }
}
"""


def test_printf_before_a_fault_is_on_the_error_and_sent_to_the_callback():
    kernel = spvbridge.compile(STEPS)
    out = np.zeros(4, dtype=np.uint32)
    lines = []
    with pytest.raises(spvbridge.OutOfBoundsError,
                       match=r"^error: <inline>:9:\d+: out-of-bounds write "
                             r"of 4 bytes to buffer 'Out'") as info:
        kernel.dispatch(1, buffers={0: out}, printf=lines.append)
    expected = [f"step {i}" for i in range(8)]
    assert info.value.printf.splitlines() == expected
    assert lines == expected
    np.testing.assert_array_equal(out, [0, 10, 20, 30])


def test_printf_of_a_stopped_draw_is_on_the_error():
    fragment = spvbridge.compile("""
#version 450
#extension GL_EXT_debug_printf : require
layout(location = 0) out vec4 color;
layout(push_constant) uniform P { uint stop; } p;
void main() {
  debugPrintfEXT("pixel %.1f %.1f", gl_FragCoord.x, gl_FragCoord.y);
  while (p.stop == 0u) {}
  color = vec4(1.0);
}
""", stage="fragment")
    with pytest.raises(spvbridge.DispatchTimeoutError,
                       match=r"^error: the draw did not finish") as info:
        spvbridge.draw(fragment, size=(1, 1), push={"stop": 0}, timeout=0.3)
    assert info.value.printf == "pixel 0.5 0.5\n"


ENDLESS = """
#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint stop; };
void main() {
  for (uint i = 0u; stop == 0u; ++i)
    debugPrintfEXT("line %5u", i);
}
"""


@pytest.fixture
def printf_limit():
    """Sets the limit for one test, then puts the default (64 MiB) back."""
    yield spvbridge.set_printf_limit
    spvbridge.set_printf_limit(64 << 20)


def test_printf_is_kept_up_to_the_limit(printf_limit):
    printf_limit(1000)
    kernel = spvbridge.compile(ENDLESS)
    with pytest.raises(spvbridge.DispatchTimeoutError) as info:
        kernel.dispatch(1, buffers={0: np.zeros(1, np.uint32)}, timeout=0.3)
    lines = info.value.printf.splitlines()
    # Each line is 11 bytes with its newline: 90 fit in 1000.
    assert lines[:-1] == [f"line {i:5d}" for i in range(90)]
    note = (r"^spvbridge: (\d+) more lines of printf output were dropped "
            r"past 1000 bytes \(set_printf_limit\)$")
    dropped = re.match(note, lines[-1])
    assert dropped and int(dropped.group(1)) > 0


def test_printf_limit_zero_keeps_nothing_and_none_has_no_limit(printf_limit):
    kernel = spvbridge.compile(STEPS)
    big = np.zeros(8, dtype=np.uint32)
    printf_limit(0)
    printed = kernel.dispatch(1, buffers={0: big}).printf
    assert printed == ("spvbridge: 8 more lines of printf output were "
                       "dropped past 0 bytes (set_printf_limit)\n")
    printf_limit(None)
    printed = kernel.dispatch(1, buffers={0: big}).printf
    assert printed.splitlines() == [f"step {i}" for i in range(8)]


@pytest.mark.parametrize("limit", [-1, 1.5, "64", True])
def test_printf_limit_errors(limit):
    with pytest.raises(ValueError,
                       match=r"^error: set_printf_limit\(.*\): expected a "
                             r"number of bytes \(an int >= 0\) or None$"):
        spvbridge.set_printf_limit(limit)

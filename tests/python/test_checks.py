"""A shader's own bugs raise exceptions naming the source line and the
invocation; without check_bounds, they never touch memory outside the
arrays."""

import numpy as np
import pytest

import spvbridge
from conftest import interrupt_child

OUT_OF_BOUNDS = """
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i + 4] = i;
}
"""


def test_out_of_bounds_is_reported_with_line_and_invocation():
    kernel = spvbridge.compile(OUT_OF_BOUNDS)
    out = np.zeros(16, dtype=np.uint32)
    with pytest.raises(spvbridge.OutOfBoundsError,
                       match=r"^error: <inline>:7:\d+: out-of-bounds write "
                             r"of 4 bytes to buffer 'Out' \(set 0, binding "
                             r"0\) at byte 64 \(the buffer has 64 bytes\), "
                             r"workgroup \(0, 0, 0\), local invocation "
                             r"\(12, 0, 0\)$") as info:
        kernel.dispatch(1, buffers={(0, 0): out})
    assert isinstance(info.value, spvbridge.DispatchError)


def test_the_first_fault_in_dispatch_order_is_raised():
    # Every invocation writes past the buffer; workgroup 0 spins first, so
    # the second thread's workgroups fault first in time. The error is
    # still workgroup 0's, whatever the threads.
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
layout(set = 0, binding = 1) buffer Sink { uint w[]; };
layout(push_constant) uniform Push { uint spins; };
void main() {
  if (gl_WorkGroupID.x == 0u) {
    uint x = gl_LocalInvocationID.x;
    for (uint i = 0u; i < spins; ++i) x = x * 1664525u + 1013904223u;
    w[gl_LocalInvocationID.x] = x;
  }
  v[16u + gl_GlobalInvocationID.x] = 1u;
}
""")
    for threads in (2, 1, 0):
        with pytest.raises(spvbridge.OutOfBoundsError,
                           match=r"^error: <inline>:13:\d+: out-of-bounds "
                                 r"write of 4 bytes to buffer 'Out' \(set 0, "
                                 r"binding 0\) at byte 64 \(the buffer has 64 "
                                 r"bytes\), workgroup \(0, 0, 0\), local "
                                 r"invocation \(0, 0, 0\)$"):
            kernel.dispatch(64, buffers={0: np.zeros(16, np.uint32),
                                         1: np.zeros(64, np.uint32)},
                            push=np.array([1000000], np.uint32),
                            threads=threads)


def test_without_checks_out_of_bounds_writes_are_dropped():
    kernel = spvbridge.compile(OUT_OF_BOUNDS)
    memory = np.full(32, 7, dtype=np.uint32)
    kernel.dispatch(1, buffers={(0, 0): memory[:16]}, check_bounds=False)
    # In bounds: invocations 0..11 at 4..15; the rest of the array, past
    # the buffer, is untouched.
    np.testing.assert_array_equal(memory[4:16], np.arange(12))
    np.testing.assert_array_equal(memory[:4], 7)
    np.testing.assert_array_equal(memory[16:], 7)


def test_data_race():
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
  count = count + 1;
}
""")
    counter = np.zeros(1, dtype=np.uint32)
    with pytest.raises(spvbridge.DataRaceError,
                       match=r"^error: data race on buffer 'Counter' \(set 0, "
                             r"binding 0\) at byte 0: .*<inline>:6:\d+ .*"
                             r"with no barrier between them$"):
        kernel.dispatch(1, buffers={(0, 0): counter}, check_races=True)


def test_undefined_result():
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { int v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = 12 / (v[i] - 2);
}
""")
    data = np.arange(4, dtype=np.int32)
    with pytest.raises(spvbridge.UndefinedResultError,
                       match=r"^error: <inline>:7:\d+: OpSDiv of 12 by 0 is "
                             r"undefined \(division by zero\), workgroup "
                             r"\(0, 0, 0\), local invocation \(2, 0, 0\)$"):
        kernel.dispatch(1, buffers={(0, 0): data}, check_undefined=True)


def test_barrier_misuse_is_a_dispatch_error():
    kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
void main() {
  if (gl_LocalInvocationIndex < 2) barrier();
  v[gl_LocalInvocationIndex] = 1;
}
""", options={"validate": True})
    data = np.zeros(4, dtype=np.uint32)
    with pytest.raises(spvbridge.DispatchError,
                       match=r"workgroup \(0, 0, 0\): .*OpControlBarrier"):
        kernel.dispatch(1, buffers={(0, 0): data})


def test_a_wild_device_address_is_a_dispatch_error():
    kernel = spvbridge.compile("""
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Ptr { uint value; };
layout(push_constant) uniform P { Ptr target; } p;
void main() { p.target.value = 1u; }
""")
    with pytest.raises(spvbridge.DispatchError,
                       match=r"the shader accessed memory outside its "
                             r"buffers: a write at address 0x10"):
        kernel.dispatch(1, push=np.array([16], dtype=np.uint64))
    # The process goes on: the next dispatch runs.
    out = np.zeros(16, dtype=np.uint32)
    spvbridge.compile(OUT_OF_BOUNDS).dispatch(1, buffers={(0, 0): out},
                                              check_bounds=False)
    np.testing.assert_array_equal(out[4:], np.arange(12))


@pytest.mark.parametrize("body, options", [
    # SIMD lanes; one invocation after another under check_bounds.
    ("while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; }", {}),
    ("while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; }", {"check_bounds": False}),
    # Region loops between barriers, and fibers under check_races.
    ("s[i] = i; barrier(); while (v[i] != 1u) { v[i] = v[i] * 2u + s[i]; }"
     " barrier();", {}),
    ("while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; }", {"check_races": True}),
    # The loop calls the runtime, which may hold a lock: the kernel is
    # stopped only in its own code.
    ("while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; "
     "debugPrintfEXT(\"%u\", v[i]); }", {}),
])
def test_an_endless_loop_is_stopped_at_the_timeout(body, options):
    kernel = spvbridge.compile("""
#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[64];
void main() {
  uint i = gl_LocalInvocationIndex;
  %s
}
""" % body)
    data = np.zeros(64, dtype=np.uint32)
    with pytest.raises(spvbridge.DispatchTimeoutError,
                       match=r"^error: the dispatch did not finish in 0\.3 s "
                             r"\(the timeout; timeout=0 waits forever\): 0 "
                             r"of 1 workgroups finished; the shader may loop "
                             r"forever$"):
        kernel.dispatch(1, buffers={0: data}, timeout=0.3, **options)
    # The process goes on: the next dispatch runs.
    out = np.zeros(16, dtype=np.uint32)
    spvbridge.compile(OUT_OF_BOUNDS).dispatch(1, buffers={(0, 0): out},
                                              check_bounds=False)
    np.testing.assert_array_equal(out[4:], np.arange(12))


def test_ctrl_c_stops_a_dispatch_with_keyboard_interrupt():
    # Python's own handler, even where SIGINT came ignored (a background
    # job's children, as under CI). Twice, to see our handler put back after
    # the first, then once while idle, where Python's alone must answer.
    script = """
import signal, sys, time, numpy as np, spvbridge
signal.signal(signal.SIGINT, signal.default_int_handler)
kernel = spvbridge.compile('''
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { uint i = gl_GlobalInvocationID.x; while (v[i] != 1u) { v[i] = v[i] * 2u + 2u; } }
''')
for attempt in range(2):
    print("running", flush=True)
    try:
        kernel.dispatch(4, buffers={0: np.zeros(256, np.uint32)}, timeout=0)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
out = np.zeros(256, np.uint32)
spvbridge.compile('''
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = 3u; }
''').dispatch(4, buffers={0: out})
print("then", int(out.sum()), flush=True)
try:
    time.sleep(60)
except KeyboardInterrupt:
    print("KeyboardInterrupt while idle", flush=True)
"""
    expected = ["running\n", "KeyboardInterrupt\n", "running\n",
                "KeyboardInterrupt\n", "then 768\n",
                "KeyboardInterrupt while idle\n"]
    lines, out, err, code = interrupt_child(
        script, expected, interrupt_after=["running\n", "then 768\n"])
    assert lines == expected, err
    assert out == "" and code == 0, err

"""set_kernel_cache: kernels compiled by one process load in the next."""

import subprocess
import sys

import pytest

import spvbridge

CHILD = """
import sys, numpy as np, spvbridge
spvbridge.set_kernel_cache(None if sys.argv[1] == "off" else sys.argv[1])
kernel = spvbridge.compile('''
#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 7u; }
''')
out = np.zeros(8, np.uint32)
result = kernel.dispatch(1, buffers={0: out}, check_bounds=False)
assert (out == np.arange(8) * 7).all()
print(result.kernel_cache)
"""


def run_child(directory):
    run = subprocess.run([sys.executable, "-c", CHILD, str(directory)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_second_process_loads_what_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    assert run_child(cache) == "miss"
    assert run_child(cache) == "hit"
    assert run_child("off") == "off"


def test_an_unusable_directory_is_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(spvbridge.Error,
                       match=rf"^error: set_kernel_cache\('{blocker}/sub'\): "):
        spvbridge.set_kernel_cache(blocker / "sub")

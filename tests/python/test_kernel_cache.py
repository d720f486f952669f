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


INCLUDING = """
import sys, numpy as np, spvbridge
spvbridge.set_kernel_cache(sys.argv[1])
kernel = spvbridge.compile('''
#version 450
#extension GL_GOOGLE_include_directive : require
#include "value.glsl"
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v; };
void main() { v = VALUE; }
''', options={"include_dirs": [sys.argv[2]]})
out = np.zeros(1, np.uint32)
kernel.dispatch(1, buffers={0: out})
print(out[0])
"""


def test_source_text_is_cached_until_an_include_changes(tmp_path):
    # The second run takes glslang's SPIR-V from the cache; after the
    # included file changes, the third compiles again.
    include = tmp_path / "value.glsl"
    cache = tmp_path / "cache"

    def run():
        result = subprocess.run(
            [sys.executable, "-c", INCLUDING, str(cache), str(tmp_path)],
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return int(result.stdout)

    include.write_text("#define VALUE 11u\n")
    assert run() == 11
    assert run() == 11
    include.write_text("#define VALUE 22u\n")
    assert run() == 22

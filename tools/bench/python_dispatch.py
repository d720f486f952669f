"""Times dispatches from Python: saxpy on 1M floats (the dispatch alone,
with and without check_bounds) and the whole call of a 64-element dispatch.
Compare the first line with `spv-run shaders/saxpy.comp --groups 16384 1 1
--buffer 0:0:storage:zero:4194304 --buffer 0:1:storage:zero:4194304
--push f32:2,u32:1048576 --repeat 50`.

    PYTHONPATH=build/python python3 tools/bench/python_dispatch.py
"""

import pathlib
import time

import numpy as np

import spvbridge

ROOT = pathlib.Path(__file__).resolve().parents[2]
saxpy = spvbridge.compile(ROOT / "shaders" / "saxpy.comp")
n = 1 << 20
x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
y = np.ones(n, np.float32)
for check_bounds in (False, True):
    result = saxpy.dispatch(n // 64, buffers={0: x, 1: y},
                            push={"a": 2.0, "n": n},
                            check_bounds=check_bounds, repeat=50)
    print(f"saxpy 1M, check_bounds={check_bounds}: dispatch "
          f"{result.dispatch_ms:.3f} ms median of 50 "
          f"(min {result.dispatch_ms_min:.3f})")

small_x = np.ones(64, np.float32)
small_y = np.ones(64, np.float32)
push_array = np.array([2.0, 0], np.float32).view(np.uint32)
push_array[1] = 64
for name, push in (("an array", push_array), ("a dict", {"a": 2.0, "n": 64})):
    calls = 3000
    saxpy.dispatch(1, buffers={0: small_x, 1: small_y}, push=push,
                   check_bounds=False)
    start = time.perf_counter()
    for _ in range(calls):
        saxpy.dispatch(1, buffers={0: small_x, 1: small_y}, push=push,
                       check_bounds=False)
    per_call = (time.perf_counter() - start) / calls * 1e6
    print(f"64 elements, push as {name}: {per_call:.0f} us per call")

#!/usr/bin/env python3
"""Differential test: the same command line on lavapipe (vkref) and spv-run.

Each case runs a shader from the repository with deterministic inputs on both
runners and compares every --out buffer: integers exactly, floats within a
relative tolerance of 1e-5 plus an absolute one of 1e-6 (the shaders here use
+, *, fma-free arithmetic and sums whose order both sides share; differences
come only from LLVM contracting or reassociating on lavapipe's side, or from
the order of a subgroup sum). A case may add flags for spv-run alone, such
as lavapipe's subgroup size.

  differential.py --spv-run BIN --vkref BIN --shaders DIR --work DIR
"""
import argparse
import os
import struct
import subprocess
import sys


def write(path, fmt, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def cases(shaders, work):
    n = 1 << 16
    x = os.path.join(work, "x.bin")
    y = os.path.join(work, "y.bin")
    u = os.path.join(work, "u.bin")
    write(x, "f", [((i * 37) % 1001) * 0.25 - 100.0 for i in range(n)])
    write(y, "f", [((i * 11) % 13) * 1.5 for i in range(n)])
    write(u, "I", [(i * 2654435761) & 0xFFFFFFFF for i in range(n)])
    yield ("saxpy", os.path.join(shaders, "saxpy.comp"),
           ["--groups", str(n // 64), "1", "1",
            "--buffer", "0:0:storage:" + x, "--buffer", "0:1:storage:" + y,
            "--push", "f32:2.5,u32:%d" % (n - 5)], [("0:1", "f")])
    yield ("reduce-f32", os.path.join(shaders, "reduce.comp"),
           ["--groups", str(n // 256), "1", "1",
            "--buffer", "0:0:storage:" + x,
            "--buffer", "0:1:storage:zero:%d" % (4 * n // 256)], [("0:1", "f")])
    yield ("reduce-spec-64", os.path.join(shaders, "reduce.comp"),
           ["--groups", str(n // 64), "1", "1", "--spec", "0:u32:64",
            "--buffer", "0:0:storage:" + x,
            "--buffer", "0:1:storage:zero:%d" % (4 * n // 64)], [("0:1", "f")])
    yield ("integer-ops", os.path.join(shaders, "integer_ops.comp"),
           ["--groups", str(n // 128), "1", "1",
            "--buffer", "0:0:storage:" + u,
            "--buffer", "0:1:storage:zero:%d" % (4 * 4 * n)], [("0:1", "I")])
    yield ("histogram-atomics", os.path.join(shaders, "histogram.comp"),
           ["--groups", str(n // 256), "1", "1",
            "--buffer", "0:0:storage:" + u,
            "--buffer", "0:1:storage:zero:1024"], [("0:1", "I")])
    # lavapipe's subgroups have 8 invocations (llvmpipe's AVX2 width).
    yield ("subgroup-reduce", os.path.join(shaders, "subgroup_reduce.comp"),
           ["--groups", str(n // 64), "1", "1",
            "--buffer", "0:0:storage:" + x,
            "--buffer", "0:1:storage:zero:%d" % (16 * n),
            "--buffer", "0:2:storage:zero:%d" % (16 * n)],
           [("0:1", "f"), ("0:2", "I")], ["--subgroup-size", "8"])


def compile_spv(source, work, name):
    spv = os.path.join(work, name + ".spv")
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2",
                    source, "-o", spv], check=True, capture_output=True)
    return spv


def compare(name, fmt, ref, ours):
    if len(ref) != len(ours):
        return "%s: sizes differ (%d vs %d bytes)" % (name, len(ref), len(ours))
    count = len(ref) // 4
    a = struct.unpack("<%d%s" % (count, fmt), ref)
    b = struct.unpack("<%d%s" % (count, fmt), ours)
    for i, (r, o) in enumerate(zip(a, b)):
        if fmt == "f":
            if r != o and abs(r - o) > 1e-6 + 1e-5 * abs(r):
                return "%s: element %d: lavapipe %r, spv-run %r" % (name, i, r, o)
        elif r != o:
            return "%s: element %d: lavapipe %d, spv-run %d" % (name, i, r, o)
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spv-run", required=True)
    parser.add_argument("--vkref", required=True)
    parser.add_argument("--shaders", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ,
               VK_ICD_FILENAMES="/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
    passed = failed = 0
    for name, source, flags, outs, *own in cases(args.shaders, args.work):
        own_flags = own[0] if own else []
        spv = compile_spv(source, args.work, name)
        results = {}
        for runner, command in (("vkref", [args.vkref, "--spv", spv]),
                                ("spv-run", [args.spv_run, spv] + own_flags)):
            out_flags = []
            for binding, _ in outs:
                path = os.path.join(args.work, "%s.%s.%s.bin" % (
                    name, runner, binding.replace(":", "_")))
                out_flags += ["--out", binding + ":" + path]
            run = subprocess.run(command + flags + out_flags + ["--repeat", "1"],
                                 capture_output=True, text=True, env=env)
            if run.returncode != 0:
                results[runner] = "error: %s failed: %s" % (runner, run.stderr.strip())
                break
        problem = next((r for r in results.values()), None)
        if problem is None:
            for binding, fmt in outs:
                paths = [os.path.join(args.work, "%s.%s.%s.bin" % (
                    name, runner, binding.replace(":", "_")))
                    for runner in ("vkref", "spv-run")]
                data = [open(p, "rb").read() for p in paths]
                problem = compare(name, fmt, data[0], data[1])
                if problem:
                    break
        if problem:
            print("FAIL %s: %s" % (name, problem))
            failed += 1
        else:
            print("ok   %s" % name)
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

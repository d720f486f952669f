#!/usr/bin/env python3
"""spv-run against lavapipe (vkref) on 1M-element saxpy and reduction.

Both runners get the same command line (--repeat 20: one untimed warm-up, the
median of 20 timed dispatches). Prints a Markdown table.

  tools/benchmark.py [--build DIR]   (default DIR: build)
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, env):
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit("error: %s failed:\n%s" % (command[0], result.stderr))
    return json.loads(result.stdout)


def check_agreement(name, ref_path, our_path):
    """A fast wrong answer is no answer: outputs agree within 1e-5 relative."""
    with open(ref_path, "rb") as f:
        ref = f.read()
    with open(our_path, "rb") as f:
        ours = f.read()
    count = len(ref) // 4
    if len(ours) != len(ref):
        sys.exit("error: %s: output sizes differ (%d vs %d bytes)" %
                 (name, len(ref), len(ours)))
    a = struct.unpack("<%df" % count, ref)
    b = struct.unpack("<%df" % count, ours)
    for i, (x, y) in enumerate(zip(a, b)):
        if abs(x - y) > 1e-5 * max(abs(x), abs(y), 1.0):
            sys.exit("error: %s: element %d differs: lavapipe %r, spv-run %r"
                     % (name, i, x, y))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", default="20")
    args = parser.parse_args()
    spv_run = os.path.join(args.build, "tools", "spv-run")
    vkref = os.path.join(args.build, "tests", "differential", "vkref", "vkref")
    env = dict(os.environ,
               VK_ICD_FILENAMES="/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
    n = 1 << 20
    work = tempfile.mkdtemp(prefix="spvb-bench-")
    x = os.path.join(work, "x.bin")
    y = os.path.join(work, "y.bin")
    with open(x, "wb") as f:
        f.write(struct.pack("<%df" % n, *[(i % 1000) * 0.5 for i in range(n)]))
    with open(y, "wb") as f:
        f.write(struct.pack("<%df" % n, *[float(i % 7) for i in range(n)]))
    benchmarks = [
        ("saxpy 1M", "saxpy.comp",
         ["--groups", str(n // 64), "1", "1", "--buffer", "0:0:storage:" + x,
          "--buffer", "0:1:storage:" + y, "--push", "f32:2.5,u32:%d" % n]),
        ("shared-memory reduction 1M", "reduce.comp",
         ["--groups", str(n // 256), "1", "1", "--buffer", "0:0:storage:" + x,
          "--buffer", "0:1:storage:zero:%d" % (4 * n // 256)]),
    ]
    print("| kernel | lavapipe dispatch_ms | spv-run dispatch_ms | speed-up | "
          "spv-run compile_ms | threads |")
    print("|---|---|---|---|---|---|")
    for name, shader, flags in benchmarks:
        spv = os.path.join(work, shader + ".spv")
        subprocess.run(["glslangValidator", "-V", os.path.join(ROOT, "shaders",
                                                                shader),
                        "-o", spv], check=True, capture_output=True)
        common = flags + ["--repeat", args.repeat, "--json"]
        ref_out = os.path.join(work, shader + ".lavapipe.bin")
        our_out = os.path.join(work, shader + ".spv-run.bin")
        ref = run([vkref, "--spv", spv] + common + ["--out", "0:1:" + ref_out],
                  env)
        ours = run([spv_run, spv] + common + ["--out", "0:1:" + our_out], env)
        check_agreement(name, ref_out, our_out)
        print("| %s | %.3f | %.3f | %.2fx | %.1f | %d |" % (
            name, ref["dispatch_ms"], ours["dispatch_ms"],
            ref["dispatch_ms"] / ours["dispatch_ms"], ours["compile_ms"],
            ours["threads"]))


if __name__ == "__main__":
    main()

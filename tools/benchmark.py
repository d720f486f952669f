#!/usr/bin/env python3
"""spv-run against lavapipe: compute (vkref) and draws (spv-run
--backend=vulkan).

Compute: 1M-element saxpy and reduction; both runners get the same command
line (--repeat 20: one untimed warm-up, the median of 20 timed dispatches).
Draws: a full-screen 256x256 fragment shader with a loop
(shaders/waves.frag), a textured mesh of 4608 triangles with
implicit-LOD sampling of a mipmapped 256x256 texture (shaders/mesh.vert,
shaders/textured.frag) and the same mesh without the texture
(shaders/mesh-uv.frag), timed the same way. Prints Markdown tables.

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

    draw_benchmarks(spv_run, env, work, args.repeat)


def check_image(name, ref_path, our_path, tolerance):
    """UNORM8 attachments agree within `tolerance` steps (implicit LOD is
    the implementation's approximation of the specification's formula)."""
    with open(ref_path, "rb") as f:
        ref = f.read()
    with open(our_path, "rb") as f:
        ours = f.read()
    worst = max(abs(a - b) for a, b in zip(ref, ours))
    if len(ref) != len(ours) or worst > tolerance:
        sys.exit("error: %s: images differ by up to %d steps (at most %d "
                 "allowed)" % (name, worst, tolerance))


def write_mesh(work, grid=48):
    """A grid of grid x grid quads: positions and texture coordinates
    (R32G32_SFLOAT), u32 indices; a 256x256 RGBA8 texture (checkerboard
    and gradients) with its box-filtered mip chain."""
    positions, texcoords, indices = [], [], []
    for j in range(grid + 1):
        for i in range(grid + 1):
            positions += [-1 + 2 * i / grid, -1 + 2 * j / grid]
            texcoords += [i / grid, j / grid]
    for j in range(grid):
        for i in range(grid):
            a = j * (grid + 1) + i
            indices += [a, a + 1, a + grid + 1, a + grid + 1, a + 1,
                        a + grid + 2]
    paths = {}
    for name, values, kind in (("pos", positions, "f"),
                               ("tc", texcoords, "f"),
                               ("idx", indices, "I")):
        paths[name] = os.path.join(work, name + ".bin")
        with open(paths[name], "wb") as f:
            f.write(struct.pack("<%d%s" % (len(values), kind), *values))
    size = 256
    level = [(255 if ((x // 32) + (y // 32)) % 2 else 40, x, y, 255)
             for y in range(size) for x in range(size)]
    levels = [level]
    while size > 1:
        half = size // 2
        level = [tuple((sum(level[(2 * y + dy) * size + 2 * x + dx][c]
                            for dy in (0, 1) for dx in (0, 1)) + 2) // 4
                       for c in range(4))
                 for y in range(half) for x in range(half)]
        levels.append(level)
        size = half
    paths["tex"] = os.path.join(work, "tex.bin")
    with open(paths["tex"], "wb") as f:
        f.write(bytes(v for level in levels for texel in level
                      for v in texel))
    return paths, len(indices) // 3, len(levels)


def draw_benchmarks(spv_run, env, work, repeat):
    mesh, triangles, levels = write_mesh(work)
    shaders = os.path.join(ROOT, "shaders")
    vertices = ["--framebuffer", "256x256",
                "--vertex-data", "0:R32G32_SFLOAT:" + mesh["pos"],
                "--vertex-data", "1:R32G32_SFLOAT:" + mesh["tc"],
                "--index-data", "u32:" + mesh["idx"]]
    benchmarks = [
        ("full-screen loop shader 256x256", 1,
         [os.path.join(shaders, "waves.frag"), "--framebuffer", "256x256"]),
        ("textured mesh (%d triangles) 256x256" % triangles, 4,
         [os.path.join(shaders, "mesh.vert"),
          os.path.join(shaders, "textured.frag")] + vertices +
         ["--image", "0:0:rgba8:256x256,levels=%d:%s" % (levels, mesh["tex"]),
          "--sampler", "0:0:linear,mipmap=linear,address=repeat"]),
        # The same draw without the texture: the rest of the pipeline.
        ("untextured mesh (%d triangles) 256x256" % triangles, 1,
         [os.path.join(shaders, "mesh.vert"),
          os.path.join(shaders, "mesh-uv.frag")] + vertices),
    ]
    print()
    print("| draw | lavapipe draw_ms | spv-run draw_ms | speed-up | "
          "spv-run compile_ms | threads |")
    print("|---|---|---|---|---|---|")
    for index, (name, tolerance, flags) in enumerate(benchmarks):
        common = flags + ["--repeat", repeat, "--json"]
        ref_out = os.path.join(work, "draw%d.lavapipe.bin" % index)
        our_out = os.path.join(work, "draw%d.spv-run.bin" % index)
        ref = run([spv_run] + common + ["--backend=vulkan",
                                        "--attachment-out", ref_out], env)
        ours = run([spv_run] + common + ["--attachment-out", our_out], env)
        check_image(name, ref_out, our_out, tolerance)
        print("| %s | %.3f | %.3f | %.2fx | %.1f | %d |" % (
            name, ref["draw_ms"], ours["draw_ms"],
            ref["draw_ms"] / ours["draw_ms"], ours["compile_ms"],
            ours["threads"]))


if __name__ == "__main__":
    main()

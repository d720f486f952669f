#!/usr/bin/env python3
"""Checks a gdb session in vkcube's fragment shader (vkcube-pixel.gdb)
against what the shader must have computed and what the windows show.

For each stop: light = max(0, dot(L, normal)) with vkcube's light direction
L = (0.424, 0.566, 0.707), and normal of unit length. The last fragment
written is what the window shows: uFragColor * 255, rounded, is the pixel
of the capture of the same run exactly, and of lavapipe's capture of the
same frame within 2.

  check-pixel-session.py SESSION X Y OURS.ppm LAVAPIPE.ppm
"""
import math
import re
import sys

VECTOR = r"\{x = ([-\d.e+]+), y = ([-\d.e+]+), z = ([-\d.e+]+)(?:, w = ([-\d.e+]+))?\}"


def pixel(path, x, y):
    with open(path, "rb") as f:
        data = f.read()
    _, size, _, pixels = data.split(b"\n", 3)
    width = int(size.split()[0])
    offset = 3 * (y * width + x)
    return list(pixels[offset:offset + 3])


def main():
    session, x, y, ours, lavapipe = sys.argv[1:6]
    x, y = int(x), int(y)
    text = open(session).read()
    stops = re.findall(r'"pixel (\d+),(\d+)" hit Breakpoint 2[^\n]*\n[^\n]*\n'
                       r"\$\d+ = ([-\d.e+]+)\n\$\d+ = " + VECTOR +
                       r"\n\$\d+ = " + VECTOR, text)
    if not stops:
        sys.exit("error: the session never stopped at the end of main for "
                 "the pixel")
    light_dir = (0.424, 0.566, 0.707)
    for stop in stops:
        if (int(stop[0]), int(stop[1])) != (x, y):
            sys.exit(f"error: a stop for pixel {stop[0]},{stop[1]}")
        light = float(stop[2])
        normal = [float(v) for v in stop[3:6]]
        if abs(math.hypot(*normal) - 1) > 1e-5:
            sys.exit(f"error: normal {normal} is not of unit length")
        expected = max(0.0, sum(a * b for a, b in zip(light_dir, normal)))
        if abs(light - expected) > 1e-5:
            sys.exit(f"error: light {light}, expected {expected}")
    color = [float(v) for v in stops[-1][7:10]]
    shown = [min(255, max(0, round(c * 255))) for c in color]
    print(f"{len(stops)} stop(s); the last fragment's colour "
          f"{' '.join(f'{c:.4f}' for c in color)} is {shown}")
    for name, path, tolerance in (("ours", ours, 0), ("lavapipe", lavapipe, 2)):
        captured = pixel(path, x, y)
        if max(abs(a - b) for a, b in zip(captured, shown)) > tolerance:
            sys.exit(f"error: {name} shows {captured} at {x},{y}")
        print(f"{name} shows {captured}")


if __name__ == "__main__":
    main()

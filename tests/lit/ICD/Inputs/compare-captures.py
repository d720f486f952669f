#!/usr/bin/env python3
"""Compares two captures of a window (binary PPMs), as drawn by two
drivers: they agree when at most 0.1% of the pixels differ by more than 2
in a channel (a nearest-filtered texel chosen across a boundary by a
rounding of the interpolated coordinate, which Vulkan leaves to the
implementation). With --differ, the two must not agree: frames of
different times show different pictures. A capture of fewer than 64
colours is refused either way: a blank or cleared window proves nothing.

  compare-captures.py [--differ] A.ppm B.ppm
"""
import sys


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, size, depth, pixels = data.split(b"\n", 3)
    if magic != b"P6" or depth != b"255":
        sys.exit(f"error: {path}: not a binary 8-bit PPM")
    width, height = map(int, size.split())
    if len(pixels) != width * height * 3:
        sys.exit(f"error: {path}: {len(pixels)} bytes of pixels, expected "
                 f"{width * height * 3}")
    return width, height, pixels


def main():
    args = sys.argv[1:]
    differ = args and args[0] == "--differ"
    if differ:
        args = args[1:]
    (wa, ha, a), (wb, hb, b) = read_ppm(args[0]), read_ppm(args[1])
    if (wa, ha) != (wb, hb):
        sys.exit(f"error: {wa}x{ha} against {wb}x{hb}")
    for path, pixels in ((args[0], a), (args[1], b)):
        colours = len({pixels[i:i + 3] for i in range(0, len(pixels), 3)})
        if colours < 64:
            sys.exit(f"error: {path} has only {colours} colours")
    count = wa * ha
    different = 0
    largest = 0
    for i in range(count):
        diff = max(abs(a[3 * i + c] - b[3 * i + c]) for c in range(3))
        largest = max(largest, diff)
        different += diff > 2
    agree = different * 1000 <= count
    print(f"{wa}x{ha}: {different} of {count} pixels differ by more than 2 "
          f"(largest difference {largest}): "
          f"{'agree' if agree else 'disagree'}")
    if agree == differ:
        sys.exit(1)


if __name__ == "__main__":
    main()

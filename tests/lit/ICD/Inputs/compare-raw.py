#!/usr/bin/env python3
"""Compares two files of 8-bit texels byte for byte: they agree when no byte
differs by more than TOLERANCE (a colour at a rounding tie may go to either
neighbour, as Vulkan allows). Refuses files of fewer than 16 distinct
values: a blank frame proves nothing.

  compare-raw.py A B TOLERANCE
"""
import sys


def main():
    a, b = (open(path, "rb").read() for path in sys.argv[1:3])
    tolerance = int(sys.argv[3])
    if len(a) != len(b) or not a:
        sys.exit(f"error: {len(a)} bytes against {len(b)}")
    for path, data in zip(sys.argv[1:3], (a, b)):
        if len(set(data)) < 16:
            sys.exit(f"error: {path} has only {len(set(data))} distinct bytes")
    differences = [abs(x - y) for x, y in zip(a, b)]
    largest = max(differences)
    count = sum(1 for d in differences if d)
    print(f"{len(a)} bytes: {count} differ, by at most {largest}: "
          f"{'agree' if largest <= tolerance else 'disagree'}")
    sys.exit(0 if largest <= tolerance else 1)


if __name__ == "__main__":
    main()

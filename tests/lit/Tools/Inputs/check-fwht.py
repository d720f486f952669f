"""Inputs and a reference for ggml's fwht.comp (subgroup-lanes.test):
8 rows of 128 small integers, each row's Walsh-Hadamard transform in
Sylvester order computed here by the textbook butterflies (exact sums).

  check-fwht.py inputs DIR      writes DIR/rows.bin
  check-fwht.py check FILE...   prints 'NAME: ok' per FILE that matches
"""
import os
import struct
import sys

ROWS, N = 8, 128


def rows():
    return [[((r * 131 + e * 7) % 23) - 11 for e in range(N)]
            for r in range(ROWS)]


def transform(row):
    row = list(row)
    h = 1
    while h < len(row):
        for start in range(0, len(row), 2 * h):
            for i in range(start, start + h):
                a, b = row[i], row[i + h]
                row[i], row[i + h] = a + b, a - b
        h *= 2
    return row


def main():
    if sys.argv[1] == "inputs":
        values = [v for row in rows() for v in row]
        with open(os.path.join(sys.argv[2], "rows.bin"), "wb") as f:
            f.write(struct.pack("<%df" % len(values), *values))
        return 0
    expected = [float(v) for row in rows() for v in transform(row)]
    status = 0
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            got = struct.unpack("<%df" % len(expected), f.read())
        wrong = [i for i, (g, e) in enumerate(zip(got, expected)) if g != e]
        if wrong:
            i = wrong[0]
            print("%s: %d wrong, first [%d] = %g, expected %g" %
                  (os.path.basename(path), len(wrong), i, got[i],
                   expected[i]))
            status = 1
        else:
            print("%s: ok" % os.path.basename(path))
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Checks private-across-barrier.comp's output against the same sums in
Python: prints each file's mismatches, or 'ok'."""
import struct
import sys

GROUPS, SIZE = 2, 64
expected = []
for g in range(GROUPS):
    cache = [[g * 1000 + i * 8 + k for k in range(8)] for i in range(SIZE)]
    shared = [cache[i][i % 8] for i in range(SIZE)]
    for i in range(SIZE):
        total = sum(cache[i][(k + i) % 8] * (k + 1) for k in range(8))
        expected.append(float(total + shared[(i + 1) % SIZE]))
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        got = struct.unpack("<%df" % (GROUPS * SIZE), f.read())
    wrong = [(n, got[n], expected[n]) for n in range(len(expected))
             if got[n] != expected[n]]
    print("%s: %s" % (path, "ok" if not wrong else wrong[:4]))

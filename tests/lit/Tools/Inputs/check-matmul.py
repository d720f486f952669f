"""shaders/matmul.comp at N = 32: `inputs DIR` writes a.bin and b.bin
(small integers, so every float sum is exact); `check C.bin...` compares
each result with a reference loop and prints the first mismatch or ok."""
import struct
import sys

N = 32
A = [float((i * 7) % 13 - 6) for i in range(N * N)]
B = [float((i * 5) % 11 - 5) for i in range(N * N)]

if sys.argv[1] == "inputs":
    for name, values in (("a.bin", A), ("b.bin", B)):
        with open(sys.argv[2] + "/" + name, "wb") as f:
            f.write(struct.pack("<%df" % len(values), *values))
    sys.exit(0)
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        c = struct.unpack("<%df" % (N * N), f.read())
    wrong = [(r, k) for r in range(N) for k in range(N)
             if c[r * N + k] != sum(A[r * N + j] * B[j * N + k]
                                   for j in range(N))]
    print("%s: %s" % (path.rsplit("/", 1)[-1],
                      "ok" if not wrong else "wrong at row %d column %d" %
                      wrong[0]))

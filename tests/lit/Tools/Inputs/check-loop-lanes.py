# Inputs for loop-lanes.comp and its results computed here, loop by loop as
# the shader runs them: `make X W` writes the inputs, `check OUT...`
# compares each of spv-run's outputs exactly (small integers in floats).
import struct, sys
n, steps, inner = 40, 3, 9
x = [float((i * 7) % 11) for i in range(4 * n + 2)]
for i in range(n):
    if 3 <= i % 16 <= 9:
        x[i] = -1.0  # invocation i walks on to x[i + n]
        if i % 16 == 5:
            x[i + n] = -2.0  # and on to x[i + 2n]
weights = [float(k % 13 + 1) for k in range(8 * n)]
if sys.argv[1] == "make":
    open(sys.argv[2], "wb").write(struct.pack("<%df" % len(x), *x))
    open(sys.argv[3], "wb").write(struct.pack("<%df" % len(weights), *weights))
    sys.exit(0)
expected = []
for row in range(2):
    for i in range(n):
        end = i % 16 in (0, 15)
        total, skipped, at, w = 0.0, 0.0, i, row * steps * inner
        for s in range(steps):
            for k in range(inner):
                total += x[at + k] * weights[w]
                w += 1
            if s == 0 or not end:
                a, c = at, row * 8
                for k in range(inner):
                    skipped += x[a] * weights[c]
                    a += 2
                    c += 1
            at += n
        r, spread = row, 0.0
        for k in range(inner):
            spread += weights[r]
            r += i
        if x[i + 1] > 5.0 or end:
            b = i
            for k in range(inner):
                spread += x[b + k]
        else:
            b = i + n
        spread += 1000.0 * x[b]
        j = i
        while x[j] < 0.0:
            j += n
        expected += [total, skipped, x[j + 1], spread]
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    got = list(struct.unpack("<%df" % (len(data) // 4), data))
    bad = [k for k in range(len(expected)) if got[k] != expected[k]]
    if bad or len(got) != len(expected):
        first = bad[0] if bad else len(got)
        print("error: %s: %d of %d results differ, first %d (invocation %d): "
              "%s, expected %g" % (path, len(bad), len(expected), first,
                                   first // 4, got[first] if first < len(got)
                                   else "missing", expected[first]))
        sys.exit(1)
    print("%s: ok, %d results" % (path, len(expected)))

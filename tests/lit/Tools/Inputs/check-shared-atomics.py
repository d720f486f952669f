"""Prints shared-atomics.comp's results: the totals and whether each
workgroup's tickets are 0..63 in some order."""
import struct
import sys

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        words = struct.unpack("<134I", f.read())
    total, bins, highest, swapped = words[0], words[1:4], words[4], words[5]
    tickets = words[6:]
    ok = all(sorted(tickets[g * 64:(g + 1) * 64]) == list(range(64))
             for g in range(2))
    print("%s: total %d, bins %s, highest %d, swapped %d, tickets %s" %
          (path, total, " ".join(map(str, bins)), highest, swapped,
           "ok" if ok else "wrong"))

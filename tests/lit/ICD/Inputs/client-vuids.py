#!/usr/bin/env python3
"""Checks that the validation layer reported nothing of the driver's: every
VUID in a client's log on spvbridge is also in the same client's log on
lavapipe (the client's own misuse, which the layer reports whatever the
driver). Prints the VUIDs both share.

  client-vuids.py SPVBRIDGE.log LAVAPIPE.log
"""
import re
import sys


def vuids(path):
    with open(path, errors="replace") as f:
        return set(re.findall(r"\[ (VUID-[\w-]+) \]", f.read()))


def main():
    ours, theirs = vuids(sys.argv[1]), vuids(sys.argv[2])
    if ours - theirs:
        sys.exit("error: the validation layer reported on spvbridge only: " +
                 ", ".join(sorted(ours - theirs)))
    print("the client's own: " + (", ".join(sorted(ours)) or "none"))


if __name__ == "__main__":
    main()

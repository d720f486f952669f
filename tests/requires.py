#!/usr/bin/env python3
"""Runs a test only when the files it needs exist; else reports a skip.

    requires.py PATH... -- COMMAND [ARG...]

A clone without ../shared (the external corpus and the lavapipe runner) still
runs every other test: ctest shows this one as skipped (exit 77, the tests'
SKIP_RETURN_CODE) with the reason printed here.
"""
import os
import subprocess
import sys


def main():
    if "--" not in sys.argv:
        sys.exit("requires.py: usage: requires.py PATH... -- COMMAND [ARG...]")
    split = sys.argv.index("--")
    paths, command = sys.argv[1:split], sys.argv[split + 1:]
    missing = [path for path in paths if not os.path.exists(path)]
    if missing:
        print("skipped: needs %s, which is not there (a clone has no "
              "../shared; see docs/coverage.md#corpus)" % ", ".join(missing))
        sys.exit(77)
    if not command:
        sys.exit("requires.py: no command to run")
    sys.exit(subprocess.call(command))


if __name__ == "__main__":
    main()

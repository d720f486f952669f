#!/usr/bin/env python3
"""Checks that every C and C++ file of the source tree is formatted as
.clang-format says (clang-format-22, LLVM style): prints each file that is
not, with the first lines clang-format would change, and fails.

  check_format.py --clang-format BIN --root DIR

Exit status: 0 all formatted, 1 some are not, 77 (skipped) without BIN.
Fix with: clang-format-22 -i FILE...
"""
import argparse
import os
import shutil
import subprocess
import sys

FOLDERS = ["amber", "bridge", "conversion", "cpu_runtime", "python", "spirv",
           "tests", "tools", "vulkan"]
SUFFIXES = (".c", ".cpp", ".h")


def sources(root):
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clang-format", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    binary = shutil.which(args.clang_format)
    if not binary:
        print("skipped: %s not found (build.sh installs clang-format-22)"
              % args.clang_format)
        return 77
    files = sorted(sources(args.root))
    unformatted = []
    for path in files:
        run = subprocess.run([binary, "--dry-run", "--Werror", path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            unformatted.append(path)
            print("error: %s is not clang-format clean:" %
                  os.path.relpath(path, args.root))
            print("\n".join(run.stderr.splitlines()[:6]))
    print("%d of %d files clang-format clean" %
          (len(files) - len(unformatted), len(files)))
    return 1 if unformatted else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that every C and C++ file of the source tree is formatted as
.clang-format says (clang-format-22, LLVM style): prints each file that is
not, and fails.

  check_format.py --clang-format BIN --root DIR

Exit status: 0 all formatted, 1 some are not, 77 (skipped) without BIN.
Fix with: clang-format-22 -i FILE...
"""
import argparse
import os
import shutil
import subprocess
import sys

FOLDERS = ["amber", "bridge", "conversion", "cpu_runtime", "icd", "python", "spirv",
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
    # One run for all files; it names each file that differs.
    run = subprocess.run([binary, "--dry-run", "--Werror"] + files,
                         capture_output=True, text=True)
    unformatted = sorted({line.split(":")[0] for line in
                          run.stderr.splitlines() if ": error: " in line})
    for path in unformatted:
        print("error: %s is not clang-format clean (fix: clang-format-22 -i "
              "%s)" % (os.path.relpath(path, args.root),
                       os.path.relpath(path, args.root)))
    if run.returncode != 0 and not unformatted:
        print(run.stderr)
        return 1
    print("%d of %d files clang-format clean" %
          (len(files) - len(unformatted), len(files)))
    return 1 if unformatted else 0


if __name__ == "__main__":
    sys.exit(main())

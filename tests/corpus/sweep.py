#!/usr/bin/env python3
"""Corpus sweep: every compute module of ../shared/corpus through spv-to-ll.

For each compute module that spirv-val accepts (COMPILE.tsv), runs
`spv-to-ll MODULE` and checks the LLVM IR with `opt -passes=verify`. Writes a
report (module, result, first error line) and compares with the pass list kept
in the repo: a module on the list that no longer passes fails the sweep.

  sweep.py --spv-to-ll BIN --opt BIN --corpus DIR --pass-list FILE
           [--report FILE] [--update] [--jobs N]
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import subprocess
import sys
import tempfile

COMPUTE_KINDS = {"glsl-comp", "spvasm-comp", "upstream-spv"}


def compute_modules(corpus):
    with open(os.path.join(corpus, "COMPILE.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["kind"] not in COMPUTE_KINDS:
                continue
            if not row["spirv_val"].startswith("ok"):
                continue
            spv = row["out_spv"]
            if spv and spv != "-" and os.path.exists(os.path.join(corpus, spv)):
                yield row["corpus"], spv


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "no output"


def run_one(args, corpus, spv):
    path = os.path.join(corpus, spv)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.ll")
        try:
            compiled = subprocess.run(
                [args.spv_to_ll, path, "--target-env", "vulkan1.3", "-o", out],
                capture_output=True, text=True, errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return "fail", "timeout after %ds" % args.timeout
        if compiled.returncode != 0:
            kind = "crash" if compiled.returncode < 0 else "fail"
            return kind, first_error(compiled.stderr)
        verified = subprocess.run(
            [args.opt, "-passes=verify", "-disable-output", out],
            capture_output=True, text=True, errors="replace", timeout=args.timeout)
        if verified.returncode != 0:
            return "fail", "opt verify: " + first_error(verified.stderr)
    return "pass", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spv-to-ll", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--pass-list", required=True)
    parser.add_argument("--report")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()

    if not os.path.isdir(args.corpus):
        print("error: corpus folder %s not found" % args.corpus, file=sys.stderr)
        return 2
    modules = sorted(compute_modules(args.corpus), key=lambda m: m[1])
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_one, args, args.corpus, spv): (c, spv)
                   for c, spv in modules}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()

    per_corpus = collections.defaultdict(lambda: [0, 0])
    for (corpus, _), (result, _) in results.items():
        per_corpus[corpus][1] += 1
        if result == "pass":
            per_corpus[corpus][0] += 1
    if args.report:
        with open(args.report, "w") as f:
            for (corpus, spv), (result, message) in sorted(results.items()):
                f.write("%s\t%s\t%s\n" % (spv, result, message))

    passed = sorted(spv for (_, spv), (r, _) in results.items() if r == "pass")
    if args.update:
        with open(args.pass_list, "w") as f:
            f.write("".join(p + "\n" for p in passed))
    with open(args.pass_list) as f:
        expected = {line.strip() for line in f if line.strip()}

    total = len(results)
    print("corpus sweep: %d compute modules" % total)
    for corpus, (ok, count) in sorted(per_corpus.items()):
        print("  %-12s %4d / %4d" % (corpus, ok, count))
    crashes = sorted(spv for (_, spv), (r, _) in results.items() if r == "crash")
    for spv in crashes:
        print("crash: %s: %s" % (spv, results[next(k for k in results if k[1] == spv)][1]))
    regressions = sorted(expected - set(passed))
    for spv in regressions:
        message = next(m for (c, s), (r, m) in results.items() if s == spv) \
            if any(s == spv for _, s in results) else "missing from the corpus"
        print("regression: %s: %s" % (spv, message))
    print("%d passed, %d failed" % (len(passed), total - len(passed)))
    return 1 if regressions or crashes else 0


if __name__ == "__main__":
    sys.exit(main())

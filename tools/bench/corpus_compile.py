#!/usr/bin/env python3
"""Cold compile times over the corpus: spv-run against lavapipe.

For an evenly spaced sample of the compute modules the differential corpus
runner runs (tests/corpus/pass-list.txt; inputs as corpus_runner.py makes
them), compiles each module cold on both sides, one after the other:
spv-run with no kernel cache (its compile_ms, which includes validation,
and its phases), and spv-run --backend vulkan --cold on lavapipe with
Mesa's shader cache off, whose compile is its pipeline creation plus its
first dispatch's JIT (the first dispatch less a warm one). Each side runs
--rounds times, alternating; the median of each is kept. Prints one row
per module and the median of the ratios, per phase too.

  tools/bench/corpus_compile.py [--build DIR] [--sample N] [--rounds N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import corpus_runner  # noqa: E402

PHASES = ("validate", "reflect", "deserialize", "lower", "translate",
          "optimize", "codegen")


def run_json(command, timeout=120):
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def lavapipe_compile(result):
    """Pipeline creation plus the first dispatch's JIT."""
    return result["compile_ms"] + max(
        0.0, result["first_dispatch_ms"] - result["dispatch_ms"])


def measure(args, module, env, work):
    path = os.path.join(CORPUS, module)
    refl = run_json([args.spv_run, path, "--reflect", "--target-env", env])
    if refl is None or corpus_runner.skip_reason(module, refl):
        return None
    job = corpus_runner.make_job(module, refl, work)
    common = [path, "--target-env", env, "--json", "--repeat", "1",
              "--robust"] + job
    ours, theirs = [], []
    for _ in range(args.rounds):
        cpu = run_json([args.spv_run, "--kernel-cache", "off"] + common)
        vulkan = run_json([args.spv_run, "--backend", "vulkan", "--cold"] +
                          common)
        if cpu is None or vulkan is None:
            return None
        ours.append(cpu)
        theirs.append(lavapipe_compile(vulkan))
    total = statistics.median(r["compile_ms"] for r in ours)
    phases = {p: statistics.median(r["compile_phases_ms"][p] for r in ours)
              for p in PHASES}
    return total, phases, statistics.median(theirs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--sample", type=int, default=40,
                        help="modules, evenly spaced over the pass list")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not os.path.isdir(CORPUS):
        print("skipped: no corpus at %s" % CORPUS)
        return 0
    args.spv_run = os.path.join(args.build, "tools", "spv-run")
    modules = sorted(corpus_runner.compute_modules(
        CORPUS, os.path.join(ROOT, "tests", "corpus", "pass-list.txt"))
        .items())
    step = max(1, len(modules) // args.sample)
    print("| module | spv-run ms | lavapipe ms | spv-run / lavapipe | " +
          " | ".join(PHASES) + " |")
    print("|---" * (len(PHASES) + 4) + "|")
    ratios, shares = [], {p: [] for p in PHASES}
    skipped = 0
    for module, env in modules[::step]:
        with tempfile.TemporaryDirectory() as work:
            result = measure(args, module, env, work)
        if result is None:
            skipped += 1
            continue
        total, phases, lavapipe = result
        ratios.append(total / lavapipe)
        for p in PHASES:
            shares[p].append(phases[p] / total)
        print("| %s | %.1f | %.1f | %.2fx | %s |" % (
            module, total, lavapipe, ratios[-1],
            " | ".join("%.1f" % phases[p] for p in PHASES)), flush=True)
    print("\n%d modules measured, %d not runnable on both sides; median "
          "spv-run / lavapipe cold compile: %.2fx; median share of each "
          "phase: %s" % (
              len(ratios), skipped, statistics.median(ratios),
              ", ".join("%s %.0f%%" % (p, 100 * statistics.median(shares[p]))
                        for p in PHASES)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

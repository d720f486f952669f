#!/usr/bin/env python3
"""Runs spvbridge's libFuzzer targets from their seeds, or replays the inputs
that once crashed them.

  run_fuzzers.py [--build-dir DIR] [--corpus DIR] [--seconds N] [FUZZER...]
  run_fuzzers.py --replay [FUZZER...]

DIR is the Sanitize build (build.sh makes build-sanitize). Seeds come from
../shared/corpus (when present) and from the repository's own shaders and
scripts; what a run finds that is new stays in DIR/fuzz-corpus/FUZZER, so a
later run goes on from it. A crash leaves its input in
DIR/fuzz-artifacts/FUZZER/; fix the bug and add the input to
tests/fuzz/regressions/FUZZER/, which --replay (and ctest) runs.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FUZZERS = ["fuzz-spirv-frontend", "fuzz-kernel-run", "fuzz-script-parser",
           "fuzz-run-arguments"]
SKIPPED = 77


def find_files(directory, suffixes):
    for base, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(base, name)


def compile_repo_shaders(seeds):
    """The repository's own GLSL and assembly shaders as SPIR-V binaries."""
    inputs = os.path.join(ROOT, "tests", "lit", "Tools", "Inputs")
    for path in find_files(inputs, (".comp", ".spvasm", ".spv")):
        out = os.path.join(seeds, os.path.basename(path) + ".spv")
        if path.endswith(".spv"):
            shutil.copy(path, out)
            continue
        if path.endswith(".comp"):
            command = ["glslangValidator", "-V", "--target-env", "vulkan1.3",
                       path, "-o", out]
        else:
            command = ["spirv-as", "--target-env", "vulkan1.3", path, "-o",
                       out]
        subprocess.run(command, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    # Modules with NonSemantic.Shader.DebugInfo.100, as compiled and after
    # an optimizer turned their variables into DebugValue and inlined calls.
    debugging = os.path.join(ROOT, "tests", "lit", "Debugging", "Inputs")
    for path in find_files(debugging, (".comp",)):
        out = os.path.join(seeds, os.path.basename(path) + ".gVS.spv")
        subprocess.run(["glslangValidator", "-V", "-gVS", path, "-o", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        if os.path.exists(out):
            subprocess.run(["spirv-opt", "-O", out, "-o",
                            out.replace(".gVS.", ".gVS-O.")],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)


def gather_seeds(fuzzer, corpus, seeds):
    if fuzzer in ("fuzz-spirv-frontend", "fuzz-kernel-run"):
        compile_repo_shaders(seeds)
        if corpus and os.path.isdir(corpus):
            for path in find_files(corpus, (".spv",)):
                shutil.copy(path, os.path.join(
                    seeds, os.path.relpath(path, corpus).replace("/", "_")))
    elif fuzzer == "fuzz-script-parser":
        dirs = [os.path.join(ROOT, "tests")]
        if corpus and os.path.isdir(corpus):
            dirs.append(corpus)
        for directory in dirs:
            for path in find_files(directory, (".amber", ".vkscript")):
                shutil.copy(path, os.path.join(
                    seeds, os.path.relpath(path, directory).replace("/", "_")))
    else:
        own = os.path.join(HERE, "seeds", "run-arguments")
        for path in find_files(own, ("",)):
            shutil.copy(path, seeds)
    return len(os.listdir(seeds))


def fuzzer_path(build_dir, fuzzer):
    path = os.path.join(build_dir, "tests", "fuzz", fuzzer)
    if not os.path.exists(path):
        print(f"skipped: {path} is not built (the Sanitize build with "
              "SPVB_FUZZ=ON makes it: BUILD_TYPE=Sanitize ./build.sh build)")
        sys.exit(SKIPPED)
    return path


def sanitizer_environment():
    env = dict(os.environ)
    # Leaks are reported (LeakSanitizer), and a report fails the run.
    # LLVM and MLIR are not instrumented: the allocator poisoning their
    # headers inline into our code would never be undone.
    env.setdefault("ASAN_OPTIONS", "allow_user_poisoning=0:detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    return env


def fuzz(args, fuzzer):
    binary = fuzzer_path(args.build_dir, fuzzer)
    work = os.path.join(args.build_dir, "fuzz-corpus", fuzzer)
    artifacts = os.path.join(args.build_dir, "fuzz-artifacts", fuzzer) + "/"
    os.makedirs(work, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=fuzzer + "-seeds-") as seeds:
        count = gather_seeds(fuzzer, args.corpus, seeds)
        if args.seed_limit and count > args.seed_limit:
            # The smallest run fastest; a short run must get past them.
            paths = sorted((os.path.getsize(os.path.join(seeds, name)), name)
                           for name in os.listdir(seeds))
            for _, name in paths[args.seed_limit:]:
                os.remove(os.path.join(seeds, name))
            count = args.seed_limit
        command = [binary, f"-max_total_time={args.seconds}", "-timeout=60",
                   "-rss_limit_mb=6144", "-max_len=65536",
                   f"-artifact_prefix={artifacts}", "-print_final_stats=1",
                   work, seeds]
        print(f"{fuzzer}: {count} seeds, {args.seconds} s: "
              + " ".join(command), flush=True)
        result = subprocess.run(command, env=sanitizer_environment(),
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace")
    output = result.stdout
    runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", output)
    print(f"{fuzzer}: {runs.group(1) if runs else '?'} executions, exit "
          f"{result.returncode}")
    if result.returncode != 0:
        print(output[-20000:])
        crashes = [name for name in os.listdir(artifacts)]
        print(f"{fuzzer}: FAILED; inputs in {artifacts}: {crashes}")
        return False
    return True


def replay(args, fuzzer):
    binary = fuzzer_path(args.build_dir, fuzzer)
    inputs = os.path.join(HERE, "regressions", fuzzer)
    files = sorted(find_files(inputs, ("",))) if os.path.isdir(inputs) else []
    if not files:
        print(f"skipped: no regression inputs in {inputs}")
        sys.exit(SKIPPED)
    result = subprocess.run([binary, "-runs=1"] + files,
                            env=sanitizer_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    print(f"{fuzzer}: replayed {len(files)} inputs, exit {result.returncode}")
    if result.returncode != 0:
        print(result.stdout[-20000:])
        return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir",
                        default=os.path.join(ROOT, "build-sanitize"))
    parser.add_argument("--corpus", default=os.path.join(
        ROOT, "..", "shared", "corpus"))
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--seed-limit", type=int, default=0,
                        help="use only the N smallest seeds (0: all)")
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("fuzzers", nargs="*", default=FUZZERS)
    args = parser.parse_args()
    for fuzzer in args.fuzzers:
        if fuzzer not in FUZZERS:
            parser.error(f"unknown fuzzer '{fuzzer}' (expected one of "
                         + ", ".join(FUZZERS) + ")")
    ok = True
    for fuzzer in args.fuzzers:
        ok &= replay(args, fuzzer) if args.replay else fuzz(args, fuzzer)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Amber's graphics scripts drawn through the Vulkan API against the direct
path.

For each script of ../shared/corpus/amber with a draw (DRAW_RECT,
DRAW_GRID, DRAW_ARRAY, VkScript's `draw`), runs

  spv-run SCRIPT --dump-images DIR/cpu --threads 1
  spv-run SCRIPT --backend=vulkan --dump-images DIR/vulkan --threads 1

the first on the runtime, the second with every draw on the Vulkan driver
VK_ICD_FILENAMES names (spvbridge's ICD in the tests; compute dispatches
stay on the CPU), each draw starting from the bytes the script holds
(tools/spv-run, amber/executor/VulkanDraws.cpp). --dump-images writes
every attachment's texels as they are (NAME.texels), which are compared
byte for byte. Outcomes:

  agree              both runs give the same verdict (PASS, or FAIL on the
                     same EXPECT) and every attachment the same texels
  disagree           a verdict or a texel differs (the first attachment
                     and byte are reported)
  skip:REASON        not comparable: the script needs what the executor
                     lacks (cpu-skip), or the Vulkan path cannot carry an
                     attachment or descriptor (not-carried: several samples,
                     an attachment of another size than the framebuffer,
                     input attachments, resolve targets), or an
                     expect_fail script misuses the API on purpose and the
                     validation layer says so (invalid-use)
  error:KIND         vulkan (the Vulkan path failed otherwise), validation
                     (with --validation, the layer reported a message),
                     cpu (the direct path failed to run), timeout

The module names are paths under the corpus folder. With no module named
and no --all, the modules of --expectations run; --update rewrites it.

  amber_draw_runner.py --spv-run PATH --corpus DIR [--validation]
                       [--expectations FILE] [--all] [--update] [--jobs N]
                       [--timeout S] [--report FILE] [MODULE...]
"""
import collections
import os
import re
import shutil
import sys
import tempfile

import corpus_runner
import runner_driver

DRAW = re.compile(r"DRAW_RECT|DRAW_GRID|DRAW_ARRAY|^\s*draw\s", re.M)
VERDICT = re.compile(r"^(PASS|FAIL|SKIP)\b(.*)$", re.M)


def find_scripts(args):
    root = os.path.join(args.corpus, "amber")
    scripts = {}
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".amber", ".vkscript")):
                continue
            path = os.path.join(folder, name)
            with open(path, errors="replace") as f:
                if DRAW.search(f.read()):
                    scripts[os.path.relpath(path, args.corpus)] = path
    return scripts


def verdict(out):
    found = VERDICT.findall(out)
    return found[-1][0] if found else None


def compare_texels(left, right):
    """None when both folders hold the same .texels files with the same
    bytes, else what differs first."""
    names = sorted(n for n in os.listdir(left) if n.endswith(".texels"))
    others = sorted(n for n in os.listdir(right) if n.endswith(".texels"))
    if names != others:
        return "attachments %s and %s" % (names, others)
    for name in names:
        with open(os.path.join(left, name), "rb") as f:
            a = f.read()
        with open(os.path.join(right, name), "rb") as f:
            b = f.read()
        if a != b:
            if len(a) != len(b):
                return "%s: %d and %d bytes" % (name, len(a), len(b))
            first = next(i for i in range(len(a)) if a[i] != b[i])
            count = sum(1 for i in range(len(a)) if a[i] != b[i])
            return ("%s: %d of %d bytes differ, the first at byte %d "
                    "(%d, %d)" % (name, count, len(a), first, a[first],
                                  b[first]))
    return None


def run_module(args, name, path):
    work = tempfile.mkdtemp(prefix="amber-draw-")
    try:
        cpu_dir = os.path.join(work, "cpu")
        vulkan_dir = os.path.join(work, "vulkan")
        cpu_cmd = [args.spv_run, path, "--dump-images", cpu_dir,
                   "--threads", "1"]
        vulkan_cmd = [args.spv_run, path, "--backend=vulkan",
                      "--dump-images", vulkan_dir, "--threads", "1"]
        code, out, err = corpus_runner.run_spv(cpu_cmd, args.timeout)
        if code is None:
            return "error:timeout", "the direct path ran out of time", cpu_cmd
        cpu = verdict(out)
        if cpu == "SKIP":
            return "skip:cpu-skip", out.strip().splitlines()[-1], cpu_cmd
        if cpu is None:
            return "error:cpu", (err or out).strip()[:300], cpu_cmd
        code, out, err = corpus_runner.run_spv(vulkan_cmd, args.timeout)
        if code is None:
            return "error:timeout", "the Vulkan path ran out of time", \
                vulkan_cmd
        text = out + err
        if "not carried to the Vulkan driver" in text:
            reason = re.search(r"--backend=vulkan: ([^\n\"]*)", text)
            return ("skip:not-carried",
                    reason.group(1) if reason else "not carried", vulkan_cmd)
        if args.validation and re.search(r"VUID|Validation (Error|Warning)",
                                         text):
            message = re.search(r"\[ (\S+) \]", text)
            message = message.group(1) if message else "a validation message"
            # Amber's expect_fail scripts misuse the API on purpose.
            if ".expect_fail." in name:
                return "skip:invalid-use", message, vulkan_cmd
            return "error:validation", message, vulkan_cmd
        vulkan = verdict(out)
        if vulkan is None or "--backend=vulkan:" in text:
            return "error:vulkan", text.strip()[-300:], vulkan_cmd
        if vulkan != cpu:
            return ("disagree", "the direct path says %s, the Vulkan path %s"
                    % (cpu, vulkan), vulkan_cmd)
        if not os.path.isdir(cpu_dir) or not os.path.isdir(vulkan_dir):
            return "error:cpu", "no attachments were dumped", cpu_cmd
        different = compare_texels(cpu_dir, vulkan_dir)
        if different:
            return "disagree", different, vulkan_cmd
        return "agree", "%s, %d attachments" % (
            cpu, len([n for n in os.listdir(cpu_dir)
                      if n.endswith(".texels")])), vulkan_cmd
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summarize(results):
    counts = collections.Counter(outcome for outcome, _, _ in
                                 results.values())
    for outcome in sorted(counts):
        print("  %-22s %d" % (outcome, counts[outcome]))


def extra_arguments(parser):
    parser.add_argument("--validation", action="store_true",
                        help="run the Vulkan path with the validation layer "
                        "and count its messages as errors")


def main():
    if "--validation" in sys.argv:
        os.environ["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation"
    return runner_driver.main(
        __doc__, "amber_draw_runner.py", "Amber draws through Vulkan",
        "every corpus script with a draw", find_scripts,
        "%s is no corpus script with a draw", run_module, summarize,
        lambda outcome: outcome not in ("agree",),
        lambda expected, results, args: runner_driver.merged(expected,
                                                             results),
        extra_arguments=extra_arguments)


if __name__ == "__main__":
    sys.exit(main())

"""The driver corpus_runner.py and fragment_runner.py share: the command
line, the choice of modules, the parallel run, the report, the summary and
the comparison with (or --update of) the expectation file.

Each runner passes what differs: its module list, its run function, its
extra arguments, how it counts and lists the outcomes, and how --update and
the expected outcomes treat the modules.
"""
import argparse
import concurrent.futures
import os
import sys
import time

# The outcome of a module the oracle (lavapipe alone) gives no result for
# within the time limit. How far lavapipe gets in a limit depends on the
# machine, so a verdict must not: this outcome meets any expectation and is
# reported as a skip with its reason, and a module expected to time out is
# met by any outcome the oracle agreed with.
ORACLE_TIMEOUT = "skip:lavapipe-timeout"
AGREED = ("agree", "agree-rerun", "precision", "race", "undefined",
          "schedule")


def meets_allowing_timeouts(meets, expected, got):
    if got == ORACLE_TIMEOUT:
        return True
    if expected == ORACLE_TIMEOUT:
        return got in AGREED
    return meets(expected, got)


def read_expectations(path):
    expected = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    module, outcome = line.rstrip("\n").split("\t")[:2]
                    expected[module] = outcome
    return expected


def write_expectations(path, results, script):
    with open(path, "w") as f:
        f.write("# module\texpected outcome (%s; refresh with --update)\n"
                % script)
        for module in sorted(results):
            f.write("%s\t%s\n" % (module, results[module][0]))


def merged(expected, results):
    """The expectations with the modules that ran updated: a run of named
    modules keeps the other modules' lines."""
    lines = {m: (outcome,) for m, outcome in expected.items()}
    lines.update(results)
    return lines


def main(doc, script, title, all_help, modules, not_available, run_module,
         summarize, listed, updated, meets=lambda expected, got:
         got == expected, extra_arguments=lambda parser: None,
         report_header=None):
    """Runs the modules the command line names and returns the exit code.

    doc: the runner's docstring (its first line describes the command);
    script: its file name, in the expectation file's header; title: the
    summary's first words; all_help: --all's help; modules(args): every
    runnable module, name to what run_module takes; not_available: the
    error for a named module not among them (%s: the name);
    run_module(args, name, module): (outcome, detail, command);
    summarize(results): prints the counts; listed(outcome): whether the
    summary names the module; updated(expected, results, args): what
    --update writes; meets(expected, got): whether an outcome meets the
    expected one; extra_arguments(parser): adds the runner's arguments
    after --corpus; report_header: the report's first line, if any."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--spv-run", required=True)
    parser.add_argument("--corpus", required=True)
    extra_arguments(parser)
    parser.add_argument("--expectations")
    parser.add_argument("--all", action="store_true", help=all_help)
    parser.add_argument("--update", action="store_true",
                        help="rewrite the expectation file with the outcomes")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120,
                        help="CPU seconds each command may use")
    parser.add_argument("--report", help="TSV: module, outcome, detail, "
                        "command")
    parser.add_argument("--keep", help="keep each module's inputs in a "
                        "folder of this one, to rerun its command")
    parser.add_argument("modules", nargs="*")
    args = parser.parse_args()

    if not os.path.isdir(args.corpus):
        print("error: corpus folder %s not found" % args.corpus,
              file=sys.stderr)
        return 2
    if not os.path.exists(args.spv_run):
        print("error: spv-run %s not found" % args.spv_run, file=sys.stderr)
        return 2
    os.environ.setdefault("VK_ICD_FILENAMES",
                          "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
    available = modules(args)
    expected = read_expectations(args.expectations)
    if args.modules:
        names = args.modules
    elif args.all:
        names = sorted(available)
    else:
        names = sorted(expected)
    if not names:
        print("error: no modules to run (no --all and no expectation file)",
              file=sys.stderr)
        return 2
    for name in names:
        if name not in available:
            print("error: " + not_available % name, file=sys.stderr)
            return 2

    start = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_module, args, m, available[m]): m
                   for m in names}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()

    if args.report:
        with open(args.report, "w") as f:
            if report_header:
                f.write(report_header + "\n")
            for module in sorted(results):
                outcome, detail, cmd = results[module]
                f.write("%s\t%s\t%s\t%s\n" % (module, outcome, detail,
                                              " ".join(cmd)))

    print("%s: %d modules in %.0f s (--jobs %d)"
          % (title, len(results), time.monotonic() - start, args.jobs))
    summarize(results)
    for module in sorted(results):
        outcome, detail, cmd = results[module]
        if listed(outcome):
            print("%s: %s: %s" % (outcome, module, detail))

    if args.update and args.expectations:
        write_expectations(args.expectations,
                           updated(expected, results, args), script)
        return 0
    for module in sorted(results):
        outcome, detail, cmd = results[module]
        if outcome == ORACLE_TIMEOUT and expected.get(module) != outcome:
            print("skipped: %s: expected %s, but %s (not a failure: the "
                  "oracle's speed decides it)"
                  % (module, expected.get(module, "nothing"), detail))
    changed = [m for m in sorted(results)
               if m in expected and not meets_allowing_timeouts(
                   meets, expected[m], results[m][0])]
    for module in changed:
        outcome, detail, cmd = results[module]
        print("changed: %s: expected %s, got %s (%s)\n  %s"
              % (module, expected[module], outcome, detail, " ".join(cmd)))
    return 1 if changed else 0

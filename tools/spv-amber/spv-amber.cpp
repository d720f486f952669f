//===- spv-amber.cpp - Run many Amber scripts in parallel -----------------===//
//
// spv-amber [options] PATH... [-- RUNNER-ARGS...]
// spv-amber --merge-junit OUT IN...
//
// Runs every script the PATHs name (a script file, or a directory searched
// recursively for *.amber and *.vkscript) in its own runner process
// (`RUNNER SCRIPT --json RUNNER-ARGS...`, RUNNER spv-run beside spv-amber by
// default), --jobs at a time, and reports passes, failures and skips. A
// shard (--shard-index and --shard-count, or GoogleTest's environment
// variables) runs every Nth script only; --merge-junit joins the shards'
// reports.
//
// Exit status: 0 when nothing failed and something passed, 1 when a script
// failed, 77 when every script was skipped, 2 for a usage error. With
// --expectations: 0 when every outcome is the expected one, else 1.
//
//===----------------------------------------------------------------------===//
#include "Console.h"
#include "Expectations.h"
#include "JUnitMerge.h"
#include "JUnitReport.h"
#include "Scripts.h"
#include "Shards.h"
#include "TestScheduler.h"

#include "spvbridge/spirv/Validator.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"

#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <optional>

using namespace llvm;
using namespace spvb::driver;

static cl::OptionCategory category("spv-amber options");

static cl::list<std::string>
    pathArgs(cl::Positional,
             cl::desc("<script or directory>... [-- runner-args...]"),
             cl::cat(category));
static cl::opt<std::string>
    jobsArg("jobs",
            cl::desc("Scripts run at once (default: the hardware threads)"),
            cl::value_desc("N"), cl::cat(category));
static cl::opt<std::string>
    timeoutArg("timeout",
               cl::desc("Seconds a script may run before it is killed and "
                        "fails (default 60; 0: no limit)"),
               cl::value_desc("SECONDS"), cl::init("60"), cl::cat(category));
static cl::opt<std::string>
    junitPath("junit", cl::desc("Write a JUnit XML report to FILE"),
              cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string>
    runnerArg("runner",
              cl::desc("The program that runs one script (default: spv-run "
                       "in spv-amber's directory)"),
              cl::value_desc("PATH"), cl::cat(category));
static cl::opt<std::string> expectationsPath(
    "expectations",
    cl::desc("Compare each script's outcome with the one FILE expects "
             "(lines SCRIPT<TAB>pass|fail|skip)"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool>
    update("update",
           cl::desc("Rewrite the --expectations file from this run's outcomes"),
           cl::cat(category));
static cl::opt<std::string>
    shardIndexArg("shard-index",
                  cl::desc("Run shard I (from 0) of --shard-count: the "
                           "scripts at positions p with p % N == I"),
                  cl::value_desc("I"), cl::cat(category));
static cl::opt<std::string>
    shardCountArg("shard-count",
                  cl::desc("Split the scripts into N shards (default: "
                           "GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX)"),
                  cl::value_desc("N"), cl::cat(category));
static cl::opt<bool> list("list",
                          cl::desc("Print the scripts (of the shard) that "
                                   "would run, and run none"),
                          cl::cat(category));
static cl::opt<std::string> mergeJUnitPath(
    "merge-junit",
    cl::desc("Join the --junit reports IN... (the positional arguments) into "
             "one, OUT, and run nothing"),
    cl::value_desc("OUT"), cl::cat(category));
static cl::opt<std::string> targetEnvArg(
    "target-env",
    cl::desc("SPIR-V environment of every shader without TARGET_ENV, passed "
             "to the runner (default: the version each shader needs)"),
    cl::value_desc("ENV"), cl::cat(category));
static cl::opt<bool> quiet("quiet",
                           cl::desc("No per-script lines, only the summary"),
                           cl::cat(category));
static cl::opt<bool> verbose("v",
                             cl::desc("Print every script's result, and the "
                                      "runner's stderr for failures"),
                             cl::cat(category));

static constexpr const char *overview =
    R"(spv-amber: run Amber scripts in parallel, each in a child process

  spv-amber [options] PATH... [-- RUNNER-ARGS...]
  spv-amber --merge-junit OUT IN...

Each script (a PATH, or a file named *.amber or *.vkscript below a directory
PATH) runs as `RUNNER SCRIPT --json RUNNER-ARGS...`.

Exit status: 0 when nothing failed and something passed, 1 when a script
failed, 77 when every script was skipped, 2 for a usage error. With
--expectations: 0 when every outcome is the expected one, else 1.

An expectations file has lines SCRIPT<TAB>pass|fail|skip, SCRIPT relative to
the deepest directory that holds every PATH; '#' starts a comment line.

Shard I of N (--shard-index I --shard-count N, or else the environment
variables GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS) runs the scripts at
positions p with p % N == I of the sorted list; its summary, --junit report
and --expectations comparison cover its scripts only. When
GTEST_SHARD_STATUS_FILE is set, spv-amber creates that file. --list prints
the scripts a run (or shard) would run. --merge-junit OUT IN... joins the
shards' --junit reports into one.
)";

static constexpr int usageErrorStatus = 2;

/// Prints "error: MESSAGE" (or the error's text, which starts with "error: ")
/// and returns the usage error status.
static int usageError(const Twine &message) {
  errs() << "error: " << message << "\n";
  return usageErrorStatus;
}
static int usageError(Error error) {
  errs() << toString(std::move(error)) << "\n";
  return usageErrorStatus;
}

/// \p value as a number from \p min up, or an error naming \p flag.
static Expected<unsigned> parseNumber(StringRef value, StringRef flag,
                                      unsigned min, StringRef expected) {
  unsigned number = 0;
  if (value.getAsInteger(10, number) || number < min)
    return createStringError(inconvertibleErrorCode(),
                             "error: " + flag + " '" + value + "': expected " +
                                 expected);
  return number;
}

/// The value of the environment variable \p name; none when it is unset or
/// empty.
static std::optional<std::string> getVariable(StringRef name) {
  std::optional<std::string> value = sys::Process::GetEnv(name);
  if (value && value->empty())
    return std::nullopt;
  return value;
}

/// The value of \p option, if it was given.
static std::optional<StringRef> getFlag(const cl::opt<std::string> &option) {
  if (!option.getNumOccurrences())
    return std::nullopt;
  return StringRef(option);
}

/// The runner --runner names (a bare name is looked up in PATH), or spv-run
/// beside this executable.
static Expected<std::string> findRunner(const char *argv0) {
  auto makeError = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), "error: " + message);
  };
  if (runnerArg.empty()) {
    SmallString<256> runner(sys::path::parent_path(sys::fs::getMainExecutable(
        argv0, reinterpret_cast<void *>(&findRunner))));
    sys::path::append(runner, "spv-run");
    if (!sys::fs::can_execute(runner))
      return makeError("no runner: '" + runner +
                       "' is not an executable file (build spv-run, or give "
                       "--runner PATH)");
    return std::string(runner);
  }
  if (!StringRef(runnerArg).contains(sys::path::get_separator())) {
    ErrorOr<std::string> found = sys::findProgramByName(runnerArg);
    if (!found)
      return makeError("--runner '" + runnerArg + "': not found in PATH");
    return *found;
  }
  if (!sys::fs::can_execute(runnerArg) || sys::fs::is_directory(runnerArg))
    return makeError("--runner '" + runnerArg + "': not an executable file");
  return runnerArg;
}

/// Fails early, before a long run, when the report cannot be written.
static Error checkOutputDirectory(StringRef flag, StringRef path) {
  StringRef directory = sys::path::parent_path(path);
  if (directory.empty() || sys::fs::is_directory(directory))
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "error: " + flag + " '" + path +
                               "': no directory '" + directory + "'");
}

/// --merge-junit OUT IN...: joins reports, runs nothing.
static int mergeReports(bool hasRunnerArgs) {
  // A flag of a run has no meaning here: it is a mistake to point out.
  for (const cl::Option *option : std::initializer_list<const cl::Option *>{
           &jobsArg, &timeoutArg, &junitPath, &runnerArg, &expectationsPath,
           &update, &shardIndexArg, &shardCountArg, &list, &quiet, &verbose})
    if (option->getNumOccurrences())
      return usageError("--merge-junit cannot be combined with " +
                        Twine(option->ArgStr.size() > 1 ? "--" : "-") +
                        option->ArgStr + " (it runs nothing)");
  if (hasRunnerArgs)
    return usageError("--merge-junit takes no '-- RUNNER-ARGS' (it runs "
                      "nothing)");
  if (mergeJUnitPath.empty())
    return usageError("--merge-junit '': expected the output file OUT");
  if (pathArgs.empty())
    return usageError("--merge-junit '" + mergeJUnitPath +
                      "': no IN given (the --junit reports to join)");
  if (Error error = checkOutputDirectory("--merge-junit", mergeJUnitPath))
    return usageError(std::move(error));
  Expected<JUnitSuiteCounts> merged =
      mergeJUnitReports(mergeJUnitPath, pathArgs);
  if (!merged)
    return usageError(merged.takeError());
  outs() << "merged " << pathArgs.size()
         << (pathArgs.size() == 1 ? " report" : " reports") << " into "
         << mergeJUnitPath << ": "
         << merged->tests - merged->failures - merged->skipped - merged->errors
         << " passed, " << merged->failures << " failed, " << merged->skipped
         << " skipped (" << merged->tests
         << (merged->tests == 1 ? " test" : " tests") << ")\n";
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // Everything after "--" goes to the runner, so it is not parsed here.
  std::vector<const char *> args(argv, argv + argc);
  std::vector<std::string> runnerArgs;
  auto separator =
      std::find_if(args.begin() + 1, args.end(),
                   [](const char *arg) { return StringRef(arg) == "--"; });
  bool hasSeparator = separator != args.end();
  if (hasSeparator) {
    runnerArgs.assign(separator + 1, args.end());
    args.erase(separator, args.end());
  }
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(args.size(), args.data(), overview, &errs()))
    return usageErrorStatus;
  if (mergeJUnitPath.getNumOccurrences())
    return mergeReports(hasSeparator);

  if (pathArgs.empty())
    return usageError("no PATH given (a script, or a directory of scripts)");
  if (quiet && verbose)
    return usageError("--quiet and -v cannot be combined");
  if (update && expectationsPath.empty())
    return usageError("--update needs --expectations FILE");

  Expected<std::optional<Shard>> shard = getShard(
      getFlag(shardIndexArg), getFlag(shardCountArg),
      getVariable("GTEST_SHARD_INDEX"), getVariable("GTEST_TOTAL_SHARDS"));
  if (!shard)
    return usageError(shard.takeError());
  if (*shard && update)
    return usageError("--update cannot be combined with a shard (" +
                      (*shard)->source +
                      "): it would drop the other shards' scripts from '" +
                      expectationsPath + "'");
  if (std::optional<std::string> statusFile =
          getVariable("GTEST_SHARD_STATUS_FILE"))
    if (Error error = touchShardStatusFile(*statusFile))
      return usageError(std::move(error));
  auto selectScripts = [&](const ScriptSet &all) {
    return *shard ? selectShard(all, **shard) : all;
  };

  if (list) {
    Expected<ScriptSet> found = findScripts(pathArgs);
    if (!found)
      return usageError(found.takeError());
    ScriptSet selected = selectScripts(*found);
    for (const Script &script : selected.scripts)
      outs() << script.path << "\n";
    return 0;
  }

  RunOptions options;
  if (!targetEnvArg.empty()) {
    if (!spvb::findTargetEnv(targetEnvArg))
      return usageError("--target-env: " +
                        spvb::describeUnknownTargetEnv(targetEnvArg));
    runnerArgs.insert(runnerArgs.begin(), "--target-env=" + targetEnvArg);
  }
  options.runnerArgs = std::move(runnerArgs);
  if (jobsArg.empty()) {
    options.jobs = hardware_concurrency().compute_thread_count();
  } else {
    Expected<unsigned> jobs =
        parseNumber(jobsArg, "--jobs", 1, "a positive integer");
    if (!jobs)
      return usageError(jobs.takeError());
    options.jobs = *jobs;
  }
  // Runners side by side keep every core busy: a runner's warm-up on a
  // second core would slow the others more than it speeds its own compile.
  // A setting of the user's own wins.
  if (options.jobs > 1)
    ::setenv("SPVBRIDGE_COMPILE_WARMUP", "off", /*overwrite=*/0);
  Expected<unsigned> timeout = parseNumber(
      timeoutArg, "--timeout", 0, "a whole number of seconds (0: no limit)");
  if (!timeout)
    return usageError(timeout.takeError());
  options.timeoutSeconds = *timeout;
  Expected<std::string> runner = findRunner(argv[0]);
  if (!runner)
    return usageError(runner.takeError());
  options.runner = std::move(*runner);
  if (!junitPath.empty())
    if (Error error = checkOutputDirectory("--junit", junitPath))
      return usageError(std::move(error));

  // None when --update creates the file.
  std::optional<Expectations> expected;
  if (!expectationsPath.empty() &&
      !(update && !sys::fs::exists(expectationsPath))) {
    Expected<Expectations> read = readExpectations(expectationsPath);
    if (!read)
      return usageError(read.takeError());
    expected = std::move(*read);
  }
  if (update)
    if (Error error = checkOutputDirectory("--expectations", expectationsPath))
      return usageError(std::move(error));

  Expected<ScriptSet> found = findScripts(pathArgs);
  if (!found)
    return usageError(found.takeError());
  ScriptSet selected = selectScripts(*found);
  const std::vector<Script> &scripts = selected.scripts;
  if (*shard) {
    outs() << "shard " << (*shard)->index + 1 << " of " << (*shard)->count
           << " (index " << (*shard)->index << "): " << scripts.size() << " of "
           << found->scripts.size() << " scripts\n";
    if (expected)
      expected = selectShardExpectations(*expected, *found, selected, **shard);
  }

  Verbosity verbosity = quiet     ? Verbosity::Quiet
                        : verbose ? Verbosity::Verbose
                                  : Verbosity::Normal;
  Console console(outs(), scripts, verbosity,
                  sys::Process::StandardOutIsDisplayed(),
                  sys::Process::StandardOutColumns());
  auto start = std::chrono::steady_clock::now();
  std::vector<TestResult> results = runScripts(
      scripts, options, [&](size_t index) { console.started(index); },
      [&](size_t index, const TestResult &result) {
        console.finished(index, result);
      });
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  console.printSummary(results, seconds);

  if (!junitPath.empty()) {
    Error error = writeToOutput(junitPath, [&](raw_ostream &os) {
      printJUnitReport(os, selected, results, seconds);
      return Error::success();
    });
    if (error)
      return usageError("--junit '" + junitPath +
                        "': " + toString(std::move(error)));
  }

  if (!expectationsPath.empty()) {
    size_t changes =
        expected ? printChanges(outs(), *expected, scripts, results) : 0;
    if (update) {
      if (Error error = writeExpectations(expectationsPath,
                                          expected ? expected->header : "",
                                          scripts, results))
        return usageError(std::move(error));
      outs() << "updated " << expectationsPath << ": " << scripts.size()
             << " scripts\n";
      return 0;
    }
    if (changes) {
      // --update refuses a shard: it would drop the other shards' lines.
      outs() << changes << " outcomes differ from " << expectationsPath
             << (*shard ? " (--update without a shard accepts them)\n"
                        : " (--update accepts them)\n");
      return 1;
    }
    outs() << "every outcome is the one " << expectationsPath << " expects\n";
    return 0;
  }

  Tally tally = countOutcomes(results);
  if (tally.failed)
    return 1;
  // A shard with no script (more shards than scripts) fails no CI job.
  return tally.passed || scripts.empty() ? 0 : 77;
}

#!/usr/bin/env python3
"""Stands in for `spv-run SCRIPT --json [ARGS...]` in the spv-amber tests.

What it does is decided by the script's file name, the part before the
first '-' or '.':
  pass, fail, skip  print a result with that status; exit 0, 1 or 77
  crash             kill itself with SIGSEGV
  hang              sleep for a minute
  noresult          exit 3 without a result
  contradict        print a "pass" result but exit 1
  badjson           print a line that starts with '{' but is no JSON
  nostatus          print a JSON object without "status"
  args              fail with the extra arguments as the reason
  env               fail with SPVBRIDGE_COMPILE_WARMUP's value as the reason
The script's lines give the details:
  reason: TEXT              the result's reason
  failure: LINE: MESSAGE    an entry of the result's "failures"
  stdout: TEXT              printed before the result
  stderr: TEXT              printed to stderr
  stderr-hex: HEX           these bytes to stderr (invalid UTF-8, say)
TEXT that starts with '"' is a JSON string (for control characters).
"""
import json
import os
import signal
import sys
import time

EXIT_STATUS = {"pass": 0, "fail": 1, "skip": 77}


def text(value):
    return json.loads(value) if value.startswith('"') else value


def main():
    if len(sys.argv) < 3 or sys.argv[2] != "--json":
        sys.stderr.write("fake-runner: usage: fake-runner.py SCRIPT --json\n")
        return 2
    script = sys.argv[1]
    kind = os.path.basename(script).split("-")[0].split(".")[0]
    reason = ""
    failures = []
    with open(script, encoding="utf-8") as lines:
        for line in lines:
            key, _, value = line.rstrip("\n").partition(": ")
            if key == "reason":
                reason = text(value)
            elif key == "failure":
                number, _, message = value.partition(": ")
                failures.append({"line": int(number), "message": text(message)})
            elif key == "stdout":
                print(text(value))
            elif key == "stderr":
                sys.stderr.write(text(value) + "\n")
            elif key == "stderr-hex":
                sys.stderr.flush()
                sys.stderr.buffer.write(bytes.fromhex(value) + b"\n")
    sys.stdout.flush()
    sys.stderr.flush()

    if kind == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if kind == "hang":
        time.sleep(60)
    if kind == "noresult":
        return 3
    if kind == "badjson":
        print("{not json")
        return 1
    if kind == "nostatus":
        print(json.dumps({"script": script, "reason": "no status"}))
        return 1
    status = kind
    if kind == "contradict":
        status = "pass"
    if kind == "args":
        status, reason = "fail", "args: " + json.dumps(sys.argv[3:])
    if kind == "env":
        status, reason = "fail", "SPVBRIDGE_COMPILE_WARMUP=" + os.environ.get(
            "SPVBRIDGE_COMPILE_WARMUP", "<unset>")
    print(json.dumps({"script": script, "status": status, "reason": reason,
                      "failures": failures, "time_ms": 1.5}))
    return 1 if kind == "contradict" else EXIT_STATUS[status]


if __name__ == "__main__":
    sys.exit(main())

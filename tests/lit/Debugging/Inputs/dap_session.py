#!/usr/bin/env python3
"""A headless Debug Adapter Protocol session, as VS Code runs one: launches
spv-run --debug under lldb-dap, stops at a conditional breakpoint in the
shader, reads locals and steps. Prints what it saw, a line per fact, for
FileCheck (Debugging/dap.test).

usage: dap_session.py LLDB_DAP SPV_RUN SHADER LINE CONDITION -- ARGS...
"""
import json
import os
import queue
import subprocess
import sys
import threading


class Session:
    def __init__(self, adapter):
        self.process = subprocess.Popen([adapter], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.sequence = 0
        self.messages = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(stream.read(length)))

    def send(self, command, arguments=None):
        self.sequence += 1
        body = json.dumps({"seq": self.sequence, "type": "request",
                           "command": command,
                           "arguments": arguments or {}}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
        self.process.stdin.write(body)
        self.process.stdin.flush()
        return self.sequence

    def wait(self, predicate, what, timeout=120):
        while True:
            try:
                message = self.messages.get(timeout=timeout)
            except queue.Empty:
                sys.exit("dap_session: timed out waiting for " + what)
            if message is None:
                sys.exit("dap_session: the adapter exited waiting for " + what)
            if message.get("type") == "event" and \
                    message.get("event") == "output":
                sys.stdout.write(message["body"].get("output", ""))
            if predicate(message):
                return message

    def request(self, command, arguments=None):
        seq = self.send(command, arguments)
        response = self.wait(lambda m: m.get("type") == "response" and
                             m.get("request_seq") == seq, command)
        if not response.get("success"):
            sys.exit("dap_session: %s failed: %s" %
                     (command, response.get("message")))
        return response.get("body", {})

    def event(self, name):
        return self.wait(lambda m: m.get("type") == "event" and
                         m.get("event") == name, name + " event")


def show_frame(session, thread):
    frame = session.request("stackTrace", {"threadId": thread,
                                           "levels": 1})["stackFrames"][0]
    print("frame: %s at %s:%d" % (frame["name"],
                                  os.path.basename(frame["source"]["path"]),
                                  frame["line"]))
    return frame["id"]


def show_locals(session, frame, names):
    scopes = session.request("scopes", {"frameId": frame})["scopes"]
    local = next(s for s in scopes if s["name"].startswith("Locals"))
    variables = session.request(
        "variables", {"variablesReference": local["variablesReference"]})
    values = {v["name"]: v["value"] for v in variables["variables"]}
    for name in names:
        print("local: %s = %s" % (name, values.get(name, "<missing>")))


def main():
    adapter, spv_run, shader, line, condition = sys.argv[1:6]
    args = sys.argv[sys.argv.index("--") + 1:]
    session = Session(adapter)
    session.request("initialize", {"adapterID": "lldb-dap",
                                   "clientID": "spvbridge-test",
                                   "linesStartAt1": True,
                                   "columnsStartAt1": True,
                                   "pathFormat": "path"})
    session.send("launch", {"program": spv_run, "args": args,
                            "cwd": os.getcwd(), "stopOnEntry": False})
    session.event("initialized")
    breakpoints = session.request("setBreakpoints", {
        "source": {"path": shader},
        "breakpoints": [{"line": int(line), "condition": condition}]})
    print("breakpoints: %d" % len(breakpoints["breakpoints"]))
    session.request("configurationDone")
    stopped = session.event("stopped")["body"]
    print("stopped: " + stopped["reason"])
    thread = stopped["threadId"]
    frame = show_frame(session, thread)
    show_locals(session, frame, ["id", "start"])
    session.request("next", {"threadId": thread})
    stopped = session.event("stopped")["body"]
    print("stopped: " + stopped["reason"])
    frame = show_frame(session, thread)
    show_locals(session, frame, ["steps"])
    session.request("setBreakpoints", {"source": {"path": shader},
                                       "breakpoints": []})
    session.request("continue", {"threadId": thread})
    exited = session.event("exited")["body"]
    print("exited: %d" % exited["exitCode"])
    session.request("disconnect", {"terminateDebuggee": True})
    session.process.wait(timeout=60)


if __name__ == "__main__":
    main()

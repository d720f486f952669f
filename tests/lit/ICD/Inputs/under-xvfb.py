#!/usr/bin/env python3
"""Runs a command on an X server of its own: Xvfb on a display number drawn
at random from a wide range, retried if taken (a server that exits removes
its socket file late, so a number just given up is not reused: tests start
and stop servers in parallel), with -displayfd saying when it accepts
clients, so nothing waits on a timer; a 1024x768 24-bit screen. The server
keeps running when its last client leaves (-noreset: a client that
reconnects, as GStreamer's sink does, would otherwise meet a server in its
reset) and listens on its socket file only (no TCP, no abstract socket).
The command's exit status is ours; the server is stopped afterwards.

  under-xvfb.py COMMAND [ARG...]
"""
import os
import random
import subprocess
import sys


def start_server():
    for _ in range(20):
        number = random.randrange(1000, 30000)
        read_end, write_end = os.pipe()
        server = subprocess.Popen(
            ["Xvfb", ":%d" % number, "-displayfd", str(write_end), "-screen",
             "0", "1024x768x24", "-nolisten", "tcp", "-nolisten", "local",
             "-noreset"],
            pass_fds=[write_end], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        os.close(write_end)
        with os.fdopen(read_end) as display:
            ready = display.readline().strip()
        if ready:
            return server, ready
        server.wait()
        error = server.stderr.read().decode(errors="replace")
    sys.exit("error: Xvfb did not start: " + error)


def main():
    server, number = start_server()
    try:
        result = subprocess.run(sys.argv[1:],
                                env=dict(os.environ, DISPLAY=":" + number))
    finally:
        server.terminate()
        server.wait()
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs a command on an X server of its own: Xvfb on a display it picks
(-displayfd says which once the server accepts clients, so nothing waits on
a timer), a 1024x768 24-bit screen, no TCP. The command's exit status is
ours; the server is stopped afterwards.

  under-xvfb.py COMMAND [ARG...]
"""
import os
import subprocess
import sys


def main():
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1024x768x24",
         "-nolisten", "tcp"],
        pass_fds=[write_end], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end) as display:
        number = display.readline().strip()
    if not number:
        server.wait()
        sys.exit("error: Xvfb did not start: "
                 + server.stderr.read().decode(errors="replace"))
    try:
        result = subprocess.run(sys.argv[1:],
                                env=dict(os.environ, DISPLAY=":" + number))
    finally:
        server.terminate()
        server.wait()
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()

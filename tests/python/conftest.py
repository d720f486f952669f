"""Shared fixtures: the repository's shaders and ../shared's corpus; a
child interpreter to interrupt."""

import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = pathlib.Path(os.environ.get("SPVB_CORPUS_DIR",
                                     ROOT.parent / "shared" / "corpus"))


@pytest.fixture
def shaders() -> pathlib.Path:
    return ROOT / "shaders"


@pytest.fixture
def corpus() -> pathlib.Path:
    if not CORPUS.is_dir():
        pytest.skip(f"needs the external corpus ({CORPUS}, from ../shared)")
    return CORPUS


def interrupt_child(script, expected, interrupt_after):
    """Runs `script` in a child interpreter and reads its output a line at
    a time, sending SIGINT (Ctrl-C) 0.5 s after each line in
    `interrupt_after`, until a line differs from `expected`. Returns the
    lines read, the rest of stdout, stderr and the exit code. A child that
    never answers is killed after 120 s, so reading cannot hang."""
    child = subprocess.Popen([sys.executable, "-c", script],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    killer = threading.Timer(120, child.kill)
    killer.start()
    lines = []
    try:
        for want in expected:
            line = child.stdout.readline()
            lines.append(line)
            if line != want:
                break
            if want in interrupt_after:
                time.sleep(0.5)
                child.send_signal(signal.SIGINT)
        out, err = child.communicate()
    finally:
        killer.cancel()
    return lines, out, err, child.returncode

"""The README's Python example runs as written, from the clone's root."""

import re
import subprocess
import sys

import pytest

from conftest import ROOT


def test_readme_example():
    if not (ROOT.parent / "shared" / "corpus").is_dir():
        pytest.skip("the README's example reads ../shared/corpus, which is "
                    "not beside this clone")
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- python-example:[^>]*-->\n```python\n(.*?)```",
                      readme, re.DOTALL)
    assert block, "README.md has no python-example block"
    # What the README shows it printing: the first fault in dispatch order,
    # whatever the threads' timing.
    shown = re.search(r"```\n\$ [^\n]*python3 example.py\n(.*?)```", readme,
                      re.DOTALL).group(1)
    run = subprocess.run([sys.executable, "-c", block.group(1)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown

"""Runs the pytest suite for ctest: skipped (77) with the reason when numpy
or pytest is missing, as on a machine build.sh did not set up. The kernel
cache ctest gives the suite ($SPVBRIDGE_KERNEL_CACHE) starts empty."""

import os
import shutil
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as error:
    print(f"skipped: the Python tests need numpy and pytest ({error}); "
          "apt-get install python3-numpy python3-pytest")
    sys.exit(77)

cache = os.environ.get("SPVBRIDGE_KERNEL_CACHE")
if cache:
    shutil.rmtree(cache, ignore_errors=True)
# -rs lists each skipped test with its reason (the corpus in ../shared).
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider"] + sys.argv[1:]))

"""Runs the pytest suite for ctest: skipped (77) with the reason when numpy
or pytest is missing, as on a machine build.sh did not set up."""

import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as error:
    print(f"skipped: the Python tests need numpy and pytest ({error}); "
          "apt-get install python3-numpy python3-pytest")
    sys.exit(77)

# -rs lists each skipped test with its reason (the corpus in ../shared).
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider"] + sys.argv[1:]))

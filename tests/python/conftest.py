"""Shared fixtures: the repository's shaders and ../shared's corpus."""

import os
import pathlib

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

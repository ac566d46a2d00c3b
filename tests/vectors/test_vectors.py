"""The public rule vectors (copied from shared/examples) run through the app
with the same partial comparison and consistency checks as the outside
conformance runner (``conformance.py``, copied beside this file)."""

from __future__ import annotations

import glob
import json
import os

import pytest

from . import conformance

HERE = os.path.dirname(__file__)


def _load() -> list[dict]:
    vectors = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        with open(path, encoding="utf-8") as f:
            vectors += json.load(f)
    return vectors


VECTORS = _load()


def test_there_are_vectors():
    assert len(VECTORS) >= 90


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(client, vector):
    problems = conformance.run_vector(client, vector)
    assert not problems, vector.get("note")

"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib

import pytest

MODULES = ["cards", "variants", "melds", "close", "settle", "match", "game", "names", "tournament", "deal_proof"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.rules.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0, f"companion.rules.{name} has no docstring example to run"
    assert failures == 0

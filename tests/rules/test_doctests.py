"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib

import pytest

MODULES = ["cards", "variants", "melds", "close", "settle", "match", "game"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.rules.{name}")
    failures, _tried = doctest.testmod(module)
    assert failures == 0

"""The examples in the arena modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["openings", "workers", "ratings", "sprt", "tournament"])
def test_module_examples(module: str) -> None:
    mod = importlib.import_module(f"bitflip.arena.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

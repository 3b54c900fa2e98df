"""Config files that must be refused, shared by the tests of every learner's config."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


def assert_refused(load: Callable[[Path], object], folder: Path, cases: dict[str, str]) -> None:
    """``load`` raises a ValueError matching ``cases[text]`` for a file holding each ``text``."""
    path = folder / "config.toml"
    for text, match in cases.items():
        path.write_text(text)
        with pytest.raises(ValueError, match=match):
            load(path)

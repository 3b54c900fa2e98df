"""Shared fixtures: the data folder beside the repo (../shared/data or $BITFLIP_DATA)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def data_dir() -> Path | None:
    env = os.environ.get("BITFLIP_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "data")
    for c in candidates:
        if c.is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; skips (or, in CI, fails) when it is absent."""
    d = data_dir()
    if d is None:
        msg = "shared data not found: set BITFLIP_DATA or put shared/data beside the repo"
        if os.environ.get("CI"):
            pytest.fail(msg + " (CI must have it)")
        pytest.skip(msg)
    return d

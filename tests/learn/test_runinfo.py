"""The code revision a training run records (learn.runinfo)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bitflip.learn import runinfo


def test_the_revision_is_the_checkouts_head() -> None:
    src = Path(runinfo.__file__).parent
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=src, check=False
    )
    if head.returncode != 0:
        pytest.skip("the source is not in a git checkout here")
    full = runinfo.git_revision()
    assert full == head.stdout.strip() and re.fullmatch(r"[0-9a-f]{40}", full)
    assert full.startswith(runinfo.git_revision(short=True))


def test_no_git_is_an_empty_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*args: object, **kwargs: object) -> None:
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", missing)
    assert runinfo.git_revision() == ""

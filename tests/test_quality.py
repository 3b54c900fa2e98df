"""Lint, format and type checks run as part of the suite, so CI runs them with the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    exe = Path(sys.executable).with_name(name)
    found = str(exe) if exe.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_ruff_lint() -> None:
    subprocess.run([_tool("ruff"), "check", "src", "tests"], cwd=REPO, check=True)


def test_ruff_format() -> None:
    subprocess.run([_tool("ruff"), "format", "--check", "src", "tests"], cwd=REPO, check=True)


@pytest.mark.slow
def test_mypy() -> None:
    subprocess.run([_tool("mypy")], cwd=REPO, check=True)

"""What a training run records about itself beside its results (the code's revision)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_revision(short: bool = False) -> str:
    """The git commit of the code that runs ("" outside a git checkout)."""
    args = ["git", "rev-parse", *(["--short"] if short else []), "HEAD"]
    try:
        out = subprocess.run(
            args, capture_output=True, text=True, timeout=5, cwd=Path(__file__).parent
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""

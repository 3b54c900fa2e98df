"""The learners' figures (loss curves, gating scores, weight trajectories) as PNG files."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` on the Agg backend (files only, no display needed).

    Raises:
        ImportError: matplotlib is not installed.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: str | Path, dpi: int) -> Path:
    """Lay out ``fig``, write it to ``path`` and close it; returns the path."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path

"""The package's source files, for tests that hold every module to a rule."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "bitflip"


def modules_containing(needles: tuple[str, ...], *, besides: str) -> list[str]:
    """The modules (paths relative to the package) whose text holds any of ``needles``,
    except the one named ``besides`` (the module that may)."""
    return sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p.name != besides and any(n in p.read_text("utf-8") for n in needles)
    )

"""Where bitflip finds data sets: WTHOR databases, FFO endgame tests, XOT openings.

A data path that does not exist as given (``xot/openingssmall.txt``, ``wthor``) is looked up,
in order, in ``$BITFLIP_DATA``, the user data folder (``$XDG_DATA_HOME/bitflip/data``, by default
``~/.local/share/bitflip/data``) and ``../shared/data`` beside the working folder or beside a
clone of the repository. Every command that reads data and the tests use this one order.
"""

from __future__ import annotations

import os
from pathlib import Path

_CLONE = Path(__file__).resolve().parents[2]
"""The repository root when bitflip runs from a clone (src/bitflip/ -> ..)."""


def user_data_dir() -> Path:
    """The folder that downloaded data sets go to."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bitflip" / "data"


def search_path() -> list[Path]:
    """The data folders, in the order they are searched (only those that exist)."""
    dirs: list[Path] = []
    env = os.environ.get("BITFLIP_DATA")
    if env:
        dirs.append(Path(env))
    dirs += [user_data_dir(), Path.cwd().parent / "shared" / "data"]
    dirs.append(_CLONE.parent / "shared" / "data")
    out: list[Path] = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in {o.resolve() for o in out}:
            out.append(d)
    return out


def find(path: str | Path) -> Path:
    """``path`` itself when it exists, else the first data folder that holds it.

    Raises:
        FileNotFoundError: nowhere; the message names the folders searched.
    """
    p = Path(path).expanduser()
    if p.exists() or p.is_absolute():
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
        return p
    for d in search_path():
        if (d / p).exists():
            return d / p
    where = ", ".join(str(d) for d in search_path()) or "no data folder exists"
    raise FileNotFoundError(
        f"{p}: not found here nor in the data folders ({where}); set BITFLIP_DATA to the folder "
        "that holds it"
    )

"""Reading flat TOML config files into typed dataclasses, with errors that name the file."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any


def read_flat_config(path: str | Path, cls: type[Any]) -> dict[str, Any]:
    """The top-level keys of a TOML file, checked against the fields of dataclass ``cls``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: not valid TOML, or a key that ``cls`` does not have (all are named).
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"no config file {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown keys {unknown}; known: {sorted(known)}")
    return data

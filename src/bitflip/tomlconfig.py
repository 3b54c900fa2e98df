"""The one reader of TOML config files: parsed tables to typed dataclasses, errors naming the file.

Every config (training, self-play, pattern fitting, TD, Q-learning, arena) is read through
:func:`read_toml`, and its tables are checked against the fields of a dataclass with
:func:`check_keys` / :func:`build` (and their values' types too by :func:`read_table`), so every
loader reports a bad file the same way.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Checked(Protocol):
    """A config dataclass whose ``check()`` raises ValueError on a bad combination of values."""

    def check(self) -> None: ...


C = TypeVar("C", bound=Checked)


def read_toml(path: str | Path) -> dict[str, Any]:
    """The parsed TOML file.

    Raises:
        FileNotFoundError: no such file.
        ValueError: not valid TOML (the message names the file).
    """
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"no config file {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None


def check_keys(data: dict[str, Any], known: type[Any] | Iterable[str], where: str) -> None:
    """Raise ValueError naming every key of ``data`` that is not a field of ``known``.

    ``known`` is a dataclass or the allowed names; ``where`` says which file and table.
    """
    names = {f.name for f in fields(known)} if isinstance(known, type) else set(known)
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}; known: {sorted(names)}")


def build(cls: type[T], data: dict[str, Any], where: str) -> T:
    """``cls(**data)`` after checking the keys and each value's type against its field's default
    (:func:`type_mismatch`); an error, the constructor's too, is prefixed by ``where``."""
    check_keys(data, cls, where)
    for f in fields(cls):  # type: ignore[arg-type]  # cls is a dataclass
        if f.name not in data:
            continue
        if f.default is not MISSING:
            default = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            continue  # a required field: its constructor checks it
        why = type_mismatch(f.name, data[f.name], default)
        if why:
            raise ValueError(f"{where}: {why}")
    try:
        return cls(**data)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def read_flat_config(path: str | Path, cls: type[Any]) -> dict[str, Any]:
    """The top-level keys of a TOML file, checked against the fields of dataclass ``cls``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: not valid TOML, or a key that ``cls`` does not have (all are named).
    """
    data = read_toml(path)
    check_keys(data, cls, str(path))
    return data


def type_mismatch(key: str, value: Any, default: Any) -> str | None:
    """Why ``value`` cannot stand where ``default`` stands (another type; an int stands for a
    float, a list must hold strings), or None when it can. None defaults take anything."""
    if default is None:
        return None
    want = type(default)
    ok = isinstance(value, want) or (want is float and type(value) is int)
    if ok and want is int:
        ok = not isinstance(value, bool)
    if ok and want is list:
        ok = all(isinstance(x, str) for x in value)
    return None if ok else f"{key} must be {want.__name__}, not {value!r}"


def read_table(path: str | Path, table: str, cls: type[C]) -> C:
    """The config ``cls`` from the ``[table]`` of a TOML file (its top level when it has no such
    table), checked: an unknown key, a value of another type than the field's default (an int
    stands for a float; lists hold strings) or a failed ``check()`` is a ValueError naming the
    file."""
    doc = read_toml(path)
    data = doc.get(table, doc)
    cfg = build(cls, data, str(path))
    try:
        cfg.check()
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return cfg

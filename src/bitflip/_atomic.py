"""Atomic file writes: a reader (or a resumed run) sees the old file or the new one, never half.

Every writer that must not leave a torn file writes through :func:`atomic_path`: it writes to a
temporary name beside the target, which replaces the target once the write has finished; a
write that fails removes it. One naming scheme, ``NAME.tmpSUFFIX`` (``shard.npz`` ->
``shard.npz.tmp.npz``, ``run.json`` -> ``run.json.tmp.json``): it keeps the target's suffix
(numpy adds ``.npz`` to names without it), a rerun's write of the same file replaces a killed
run's leftover, and :func:`is_temporary` (which every folder listing uses) knows it by its end.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> with atomic_path(folder / "a.json") as tmp:
...     _ = tmp.write_text("{}")
>>> sorted(p.name for p in folder.iterdir())
['a.json']
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

_TEMPORARY = re.compile(r"\.tmp(\.[^.]+)?$")
"""How the name of every temporary file of an atomic write ends (and no finished file's)."""


def temporary_name(path: str | os.PathLike[str], suffix: str | None = None) -> Path:
    """The temporary file an atomic write of ``path`` goes through (in the same folder),
    ending with ``suffix`` (by default ``path``'s own)."""
    p = Path(path)
    return p.with_name(f"{p.name}.tmp{p.suffix if suffix is None else suffix}")


def is_temporary(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an atomic write's temporary file (a killed run's leftover)."""
    return _TEMPORARY.search(Path(path).name) is not None


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], suffix: str | None = None) -> Iterator[Path]:
    """A temporary path to write ``path``'s new content to; it replaces ``path`` when the block
    ends without an error, and is removed when it raises.

    Args:
        path: the file to write.
        suffix: how the temporary name ends (default: as ``path`` does); numpy writers pass
            ``".npz"``, since ``np.savez`` adds it to a name without it (a table saved as
            ``q.table`` is written through ``q.table.tmp.npz``).
    """
    tmp = temporary_name(path, suffix)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")

"""Drop numba's on-disk kernel caches when any module they compile in has changed.

numba keys a cached kernel by its own source file only: when a function it inlines changes in
another module (an evaluation, a bitboard kernel), the stale machine code would still be loaded,
silently, after an edit or an upgrade. On import we fingerprint every module that kernels
compile in and, when that changed, delete the package's cached kernels so they recompile.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

KERNEL_PACKAGES = ("core", "eval", "search", "formats", "envs", "learn", "nn")
"""Subpackages whose modules numba kernels are compiled from (or inline constants of)."""


def kernels_compiled(root: Path | None = None) -> bool:
    """Whether the search kernels are in numba's on-disk cache (else the first search compiles
    them, which takes tens of seconds)."""
    if os.environ.get("NUMBA_DISABLE_JIT"):
        return True
    cache = (
        Path(os.environ.get("NUMBA_CACHE_DIR", "")) if os.environ.get("NUMBA_CACHE_DIR") else None
    )
    root = root or Path(__file__).resolve().parent
    where = cache if cache is not None else root / "search" / "__pycache__"
    return where.is_dir() and any(where.rglob("alphabeta*.nbi"))


_listener: Callable[[], None] | None = None


@contextlib.contextmanager
def compile_notice(say: Callable[[], None]) -> Iterator[None]:
    """Within the block, ``say()`` runs once, just before the first searcher is made, when the
    search kernels are not cached (a front end tells its user why it is quiet; a command that
    fails on its arguments, or never searches, says nothing)."""
    global _listener
    _listener = say
    try:
        yield
    finally:
        _listener = None


def before_first_search() -> None:
    """Called where a searcher is made: tells the :func:`compile_notice` listener, once."""
    global _listener
    say, _listener = _listener, None
    if say is not None and not kernels_compiled():
        say()


def drop_stale_kernel_caches(root: Path | None = None) -> bool:
    """Delete the cached kernels under ``root`` (the package) if its kernel sources changed.

    Returns True when caches were dropped. Never raises: a read-only install keeps its cache.
    """
    if os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_DISABLE_JIT"):
        return False
    root = root or Path(__file__).resolve().parent
    h = hashlib.sha256()
    for pkg in KERNEL_PACKAGES:
        for f in sorted((root / pkg).rglob("*.py")):
            with contextlib.suppress(OSError):
                st = f.stat()
                h.update(f"{f.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    stamp = root / "__pycache__" / "bitflip-kernel-deps.txt"
    digest = h.hexdigest()
    with contextlib.suppress(OSError):
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for f in [*root.rglob("*.nbi"), *root.rglob("*.nbc")]:
            with contextlib.suppress(OSError):
                f.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
        return True
    return False

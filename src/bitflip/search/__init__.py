"""Search: limits, the alpha-beta engine kernels, the endgame solver, levels, time management.

numba's on-disk cache of a kernel is keyed by the kernel's own source file only: when a
function it inlines changes in another module (an evaluation, a bitboard kernel), the stale
machine code would still be loaded, silently. On import we therefore fingerprint the modules
the search kernels compile in and drop this package's cached kernels when it changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path


def _drop_stale_kernel_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_DISABLE_JIT"):
        return
    here = Path(__file__).resolve().parent
    root = here.parent
    sources = sorted(
        [*root.glob("core/*.py"), *root.glob("eval/*.py"), *here.glob("*.py")],
    )
    h = hashlib.sha256()
    for f in sources:
        with contextlib.suppress(OSError):
            st = f.stat()
            h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    cache = here / "__pycache__"
    stamp = cache / "bitflip-kernel-deps.txt"
    digest = h.hexdigest()
    with contextlib.suppress(OSError):
        if stamp.is_file() and stamp.read_text() == digest:
            return
        if cache.is_dir():
            for f in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
                with contextlib.suppress(OSError):
                    f.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)


_drop_stale_kernel_cache()

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip._kernel_cache import drop_stale_kernel_caches


def test_caches_are_dropped_exactly_when_a_kernel_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    (tmp_path / "eval" / "__pycache__").mkdir(parents=True)
    src = tmp_path / "eval" / "patterns.py"
    src.write_text("x = 1\n")
    cached = tmp_path / "eval" / "__pycache__" / "patterns.score-1.py311.nbi"

    cached.write_text("old")
    assert drop_stale_kernel_caches(tmp_path)  # first run: no fingerprint yet
    assert not cached.exists()

    cached.write_text("fresh")
    assert not drop_stale_kernel_caches(tmp_path)  # nothing changed: cache kept
    assert cached.exists()

    src.write_text("x = 22\n")  # another module a kernel inlines changes
    assert drop_stale_kernel_caches(tmp_path)
    assert not cached.exists()

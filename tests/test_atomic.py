"""Issue 33 item 7: one atomic write, one temporary-name scheme that folder listings skip."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from tests._source import SRC, modules_containing

from bitflip._atomic import atomic_path, is_temporary, temporary_name, write_text


def test_a_finished_write_replaces_the_file_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("old")
    write_text(target, "new")
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["state.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "shard.npz"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_path(target, ".npz") as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("killed")
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["shard.npz"]


def test_numpy_writes_through_a_name_it_keeps(tmp_path: Path) -> None:
    target = tmp_path / "q.table"  # numpy adds .npz to a name without it
    with atomic_path(target, ".npz") as tmp:
        np.savez(tmp, a=np.arange(3))
    with np.load(target) as z:
        assert z["a"].tolist() == [0, 1, 2]


@pytest.mark.parametrize("name", ["it0001-x.npz", "state.pt", "metrics.csv", "0001.json", "a"])
def test_every_temporary_name_is_marked_and_keeps_the_suffix(name: str) -> None:
    tmp = temporary_name(Path("/run") / name)
    assert is_temporary(tmp) and not is_temporary(name)
    assert tmp.parent == Path("/run") and tmp.name.endswith(Path(name).suffix)


def test_no_writer_renames_files_by_hand() -> None:
    hand = modules_containing(("os.replace(", "os.rename(", '".tmp'), besides="_atomic.py")
    assert hand == [], hand


def test_every_numpy_archive_is_written_through_a_temporary() -> None:
    # np.savez(path, ...) straight to its target leaves a torn file when the run is killed;
    # every writer passes atomic_path's temporary, named `tmp` by convention.
    calls = [
        (str(p.relative_to(SRC)), m.group(1))
        for p in SRC.rglob("*.py")
        for m in re.finditer(r"np\.savez(?:_compressed)?\(\s*([\w.]+)", p.read_text("utf-8"))
    ]
    direct = [c for c in calls if c[1] != "tmp" and c[0] != "_npz.py"]  # _npz: a doctest
    assert len(calls) >= 8 and direct == [], direct


def test_a_rerun_replaces_a_killed_runs_leftover(tmp_path: Path) -> None:
    target = tmp_path / "it0001-000.npz"
    temporary_name(target, ".npz").write_bytes(b"partial")  # a kill -9 mid-write
    with atomic_path(target, ".npz") as tmp:
        np.savez(tmp, a=np.arange(2))
    assert os.listdir(tmp_path) == ["it0001-000.npz"]

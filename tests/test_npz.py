"""Every ``.npz`` reader refuses a damaged file in one line that names it: a truncated file, a
file of another kind, an archive with a damaged array and one without the arrays it needs."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from tests._source import modules_containing

from bitflip._npz import read_npz
from bitflip.eval.weights import PatternWeights
from bitflip.learn.eval_labels import exact_scores, load_labels
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import _read_cache
from bitflip.learn.patterns_fit import _Checkpoint
from bitflip.learn.qlearning import QTable
from bitflip.learn.shards import FIELDS, read_shard
from bitflip.search.book import BookError, load_book

_P = np.array([1, 2, 4], dtype=np.uint64)
_O = np.array([8, 16, 32], dtype=np.uint64)
_EXACT = f"exact-{hashlib.sha256(_P.tobytes() + _O.tobytes()).hexdigest()[:12]}-00000.npz"


def _quiet(_: str) -> None:
    pass


def _exact(path: Path) -> object:
    return exact_scores(_P, _O, path.parent, workers=1, chunk=10)


READERS: dict[str, tuple[str, tuple[str, ...], Callable[[Path], object]]] = {
    # name: (file name, arrays it holds, read it)
    "book": ("book.npz", ("player", "opponent", "score", "games", "meta"), load_book),
    "weights": ("patterns-x.npz", ("meta", "raw"), PatternWeights.load),
    "q-table": ("q.npz", ("format", "format_version", "keys", "values"), QTable.load),
    "shard": ("s.shard.npz", ("format_version", *FIELDS), read_shard),
    "labels": ("labels-x-00000.npz", ("p", "o", "score", "game"), lambda f: load_labels(f.parent)),
    "exact": (_EXACT, ("p", "o", "score"), _exact),
    "cache": ("samples-x.npz", ("p", "o", "target", "game", "held", "files"),
              lambda f: _read_cache(f, _quiet)),
    "checkpoint": ("checkpoint-x.npz", ("raw", "epoch", "history"),
                   lambda f: _Checkpoint.resume(PatternsFitConfig(), f, _quiet)),
}  # fmt: skip


def _archive(path: Path, names: tuple[str, ...]) -> Path:
    rng = np.random.default_rng(0)
    np.savez_compressed(path, **{n: rng.integers(0, 1 << 30, 4000) for n in names})
    return path


def _truncated(path: Path, names: tuple[str, ...]) -> None:
    data = _archive(path, names).read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _damaged(path: Path, names: tuple[str, ...]) -> None:
    data = bytearray(_archive(path, names).read_bytes())
    data[200:400] = bytes(200)  # inside the first array's compressed data
    path.write_bytes(bytes(data))


def _foreign(path: Path, names: tuple[str, ...]) -> None:
    path.write_text("f5d6c3d3c4\n")


def _incomplete(path: Path, names: tuple[str, ...]) -> None:
    np.savez(path, unrelated=np.zeros(3))


DAMAGE = {"truncated": _truncated, "damaged": _damaged, "foreign": _foreign}
DAMAGE["incomplete"] = _incomplete


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("reader", READERS)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, reader: str, damage: str) -> None:
    name, arrays, read = READERS[reader]
    path = tmp_path / name
    DAMAGE[damage](path, arrays)
    with pytest.raises(ValueError) as err:
        read(path)
    message = str(err.value)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message and "allow_pickle" not in message
    if damage == "incomplete":
        assert ": no " in message, message


def test_the_book_keeps_its_own_error() -> None:
    with pytest.raises(BookError, match="no bitflip book nowhere.npz"):
        load_book("nowhere.npz")


def test_what_is_wrong_is_said(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    _truncated(path, ("x",))
    with pytest.raises(ValueError, match="not a test file: not an .npz file"):
        read_npz(path, "test file", ("x",))
    _damaged(path, ("x",))
    with pytest.raises(ValueError, match="not a readable test file"):
        read_npz(path, "test file", ("x",))
    np.save(tmp_path / "b.npy", np.arange(3))
    with pytest.raises(ValueError, match="not an .npz file"):
        read_npz(tmp_path / "b.npy", "test file", ("x",))
    np.savez(path, x=np.arange(3))
    with pytest.raises(ValueError, match="no y, z arrays; delete it$"):
        read_npz(path, "test file", ("x", "y", "z"), advice="delete it")
    with pytest.raises(FileNotFoundError, match="no test file .*missing.npz"):
        read_npz(tmp_path / "missing.npz", "test file", ("x",))


def test_pickled_objects_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    np.savez(path, x=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="a.npz: not a readable test file"):
        read_npz(path, "test file", ("x",))


def test_good_archives_give_the_arrays_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    np.savez_compressed(path, x=np.arange(3), y=np.array("text"), z=np.zeros(2))
    got = read_npz(path, "test file", ("x", "y"), ("w", "z"))
    assert sorted(got) == ["x", "y", "z"]
    assert got["x"].tolist() == [0, 1, 2] and str(got["y"]) == "text"


def test_no_module_opens_numpy_archives_by_hand() -> None:
    assert modules_containing(("np.load(", "numpy.load("), besides="_npz.py") == []


def test_the_module_example_runs() -> None:
    import doctest

    import bitflip._npz

    result = doctest.testmod(bitflip._npz, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

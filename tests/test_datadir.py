"""The data folders: a relative data path is found in $BITFLIP_DATA, the user folder or shared/."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip import datadir
from bitflip.arena.openings import load_openings


def test_a_relative_path_is_found_in_the_data_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "env", tmp_path / "xdg"
    (first / "xot").mkdir(parents=True)
    (second / "bitflip" / "data" / "xot").mkdir(parents=True)
    (second / "bitflip" / "data" / "xot" / "b.txt").write_text("f5d6\n")
    (first / "xot" / "a.txt").write_text("f5f6\n")
    monkeypatch.setenv("BITFLIP_DATA", str(first))
    monkeypatch.setenv("XDG_DATA_HOME", str(second))
    monkeypatch.chdir(tmp_path)
    assert datadir.search_path()[:2] == [first, second / "bitflip" / "data"]
    assert datadir.find("xot/a.txt") == first / "xot" / "a.txt"
    assert datadir.find("xot/b.txt") == second / "bitflip" / "data" / "xot" / "b.txt"
    (tmp_path / "xot").mkdir()
    (tmp_path / "xot" / "a.txt").write_text("d3\n")
    assert datadir.find("xot/a.txt") == Path("xot/a.txt")  # as given wins
    with pytest.raises(FileNotFoundError, match="nowhere.txt: not found here nor in the data"):
        datadir.find("nowhere.txt")


def test_the_readme_openings_example_works_from_the_repo_root(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BITFLIP_DATA", str(shared_data))
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    openings = load_openings("xot/openingssmall.txt")
    assert len(openings) > 1000 and all(len(o.moves) == 8 for o in openings[:50])


def test_a_missing_opening_file_names_the_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OSError, match="no-such.txt: not found.*--openings takes"):
        load_openings("no-such.txt")

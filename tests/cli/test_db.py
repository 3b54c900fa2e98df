from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.cli.main import main
from bitflip.formats import ggf, wthor
from bitflip.formats.stats import DbStats

from .test_convert import _games, _one_line_error


def _stats(out: str) -> dict[str, str]:
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in out.splitlines())}


def test_db_stats_of_small_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recs = _games(6)
    wthor.write_wtb(tmp_path / "a.wtb", recs)
    ggf.write(tmp_path / "b.ggf", recs[:2])
    assert main(["db", "stats", str(tmp_path / "a.wtb")]) == 0
    s = _stats(capsys.readouterr().out)
    assert s["games"] == "6" and s["unfinished"] == "1" and s["finished"] == "5"
    assert s["players"] == "7" and s["tournaments"] == "1" and s["years"] == "2020-2020 (1 years)"
    outcomes = [r.board().outcome() for r in recs[1:]]
    assert s["black wins"].startswith(str(sum(o.margin > 0 for o in outcomes if o)))
    assert main(["db", "stats", str(tmp_path)]) == 0  # the folder: both files
    s = _stats(capsys.readouterr().out)
    assert s["files"] == "2" and s["games"] == "8" and s["unfinished"] == "2"


def test_db_stats_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_error(capsys, main(["db", "stats", str(tmp_path / "missing.wtb")]))
    assert "no such file" in err
    err = _one_line_error(capsys, main(["db", "stats", str(tmp_path)]))
    assert "no .wtb or .ggf files" in err
    (tmp_path / "x.wtb").write_bytes(b"junk")
    err = _one_line_error(capsys, main(["db", "stats", str(tmp_path / "x.wtb")]))
    assert "x.wtb: WTHOR: file too short" in err


def test_db_stats_of_the_wthor_folder(shared_data: Path) -> None:
    stats = DbStats()
    stats.add_path(shared_data / "wthor")
    assert (stats.files, stats.games, stats.unfinished) == (47, 131_737, 413)
    assert stats.black_wins + stats.white_wins + stats.draws == 131_737 - 413
    assert min(stats.years) == 1977 and max(stats.years) == 2023
    assert stats.years[1981] == 153

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bitflip.cli.main import main
from bitflip.core.board import Board
from bitflip.formats import ggf, obf, transcript, wthor
from bitflip.formats.record import GameRecord


def _games(n: int, seed: int = 0) -> list[GameRecord]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        b = Board()
        while not b.is_game_over() and (i or len(b.move_stack) < 20):  # game 0 unfinished
            b.push(rng.choice(list(b.legal_moves)))
        o = b.outcome()
        out.append(
            GameRecord(
                moves=b.move_stack,
                black=f"B{i}",
                white="W",
                event="Test",
                date="2020",
                black_score=o.black if o else b.black.bit_count(),
            )
        )
    return out


def _one_line_error(capsys: pytest.CaptureFixture[str], rc: int) -> str:
    assert rc == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_convert_between_all_game_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = _games(5)
    ggf.write(tmp_path / "a.ggf", recs)
    assert main(["convert", str(tmp_path / "a.ggf"), str(tmp_path / "b.wtb")]) == 0
    assert "5 games" in capsys.readouterr().out
    assert (tmp_path / "b.JOU").exists() and (tmp_path / "b.TRN").exists()
    assert main(["convert", str(tmp_path / "b.wtb"), str(tmp_path / "c.txt"), "--passes"]) == 0
    assert main(["convert", str(tmp_path / "c.txt"), str(tmp_path / "d.ggf")]) == 0
    assert [r.moves for r in ggf.read(tmp_path / "d.ggf")] == [r.moves for r in recs]
    assert [r.moves for r in transcript.read(tmp_path / "c.txt")] == [r.moves for r in recs]
    back = list(wthor.read_wtb(tmp_path / "b.wtb", passes=True))
    assert [(r.black, r.event, r.date, r.black_score) for r in back] == [
        (r.black, r.event, r.date, r.black_score) for r in recs
    ]
    assert [r.moves for r in back] == [r.moves for r in recs]
    assert (
        main(["convert", str(tmp_path / "b.wtb"), str(tmp_path / "e.wtb"), "--year", "1999"]) == 0
    )
    assert wthor.read_header(tmp_path / "e.wtb").year == 1999


def test_convert_obf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.obf").write_text(Board().obf() + "; F5:+0;\n")
    assert main(["convert", str(tmp_path / "a.obf"), str(tmp_path / "b.obf")]) == 0
    assert obf.loads((tmp_path / "b.obf").read_text())[0].scores == {37: 0}
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "a.obf"), str(tmp_path / "b.ggf")])
    )
    assert "cannot convert OBF to GGF" in err


def test_convert_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text("f5d6\nf5f5\n")
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "a.txt"), str(tmp_path / "b.ggf")])
    )
    assert f"{tmp_path / 'a.txt'}:2: transcript: move 2: illegal move f5" in err
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "a.txt"), str(tmp_path / "b.pgn")])
    )
    assert "unknown file type '.pgn'" in err
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "no.txt"), str(tmp_path / "b.ggf")])
    )
    assert "no such file" in err
    (tmp_path / "ok.txt").write_text("f5d6\n")
    (tmp_path / "b.ggf").write_text("")
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "ok.txt"), str(tmp_path / "b.ggf")])
    )
    assert "exists (use --force" in err
    assert main(["convert", str(tmp_path / "ok.txt"), str(tmp_path / "b.ggf"), "--force"]) == 0
    (tmp_path / "bad.wtb").write_bytes(b"\x00" * 30)
    err = _one_line_error(
        capsys, main(["convert", str(tmp_path / "bad.wtb"), str(tmp_path / "c.ggf")])
    )
    assert "WTHOR" in err
    six = tmp_path / "six.txt"
    six.write_text("c2\n")
    err = _one_line_error(
        capsys, main(["convert", str(six), str(tmp_path / "six.wtb"), "--size", "6"])
    )
    assert "8x8" in err
    assert main(["convert", str(six), str(tmp_path / "six.ggf"), "--size", "6"]) == 0
    assert ggf.read(tmp_path / "six.ggf")[0].size == 6


def test_an_empty_file_is_an_error_not_zero_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, out in (("e.ggf", "o1.txt"), ("e.txt", "o2.ggf"), ("e.obf", "o3.obf")):
        (tmp_path / name).write_text("\n")
        err = _one_line_error(capsys, main(["convert", str(tmp_path / name), str(tmp_path / out)]))
        assert "holds no" in err and "nothing written" in err
        assert not (tmp_path / out).exists()

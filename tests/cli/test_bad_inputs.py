"""Issue 34: no traceback and no silent hang from any command-line input.

Every numeric option is bounded (one line naming the bound, exit status 2), every command that
takes a data file uses the data-folder lookup, and long searches say so.
"""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from bitflip._progress import StatusLine
from bitflip.cli._numbers import LEVEL, TT_MB
from bitflip.cli.main import main

Capsys = pytest.CaptureFixture[str]
HUGE = "99999999999999999999"


def error_line(capsys: Capsys, argv: list[str]) -> str:
    """The one error line of a refused command (status 2, whether refused while parsing or
    while running); the compile notice of a first search is not an error line."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    lines = [s for s in captured.err.splitlines() if not s.startswith("bitflip: compiling")]
    assert status == 2, (argv, captured.err)
    assert len(lines) == 1, lines
    assert "Traceback" not in captured.err
    return lines[0]


# (argv, text the error must contain: the bound it names)
BAD_NUMBERS = [
    (["perft", HUGE], "<= 20"),
    (["perft", "21"], "<= 20"),
    (["analyze", "f5d6", "--game-index", "0"], ">= 1"),
    (["analyze", "f5d6", "--game-index", "-1"], ">= 1"),
    (["analyze", "f5d6", "--mistake", "-1"], ">= 0"),
    (["analyze", "f5d6", "--blunder", "inf"], "<= 128"),
    (["analyze", "f5d6", "--level", HUGE], "<= 20"),
    (["solve", "x.obf", "--tt-mb", "99999999"], f"<= {TT_MB.high}"),
    (["solve", "x.obf", "--tt-mb", "-5"], ">= 1"),
    (["solve", "x.obf", "--tt-mb", "0"], ">= 1"),
    (["solve", "x.obf", "--first", HUGE], "<= 1000000000"),
    (["solve", "x.obf", "--skip", "-1"], ">= 0"),
    (["solve", "x.obf", "--threads", "100000"], "<= 256"),
    (["play", "--port", "99999"], "<= 65535"),
    (["play", "--port", "-1"], ">= 0"),
    (["play", "--seed", "-1"], ">= 0"),
    (["play", "--terminal", "--seed", HUGE], "<= 4294967295"),
    (["hint", "f5", "--depth", "100000"], "<= 60"),
    (["hint", "f5", "--depth", "61"], "<= 60"),
    (["hint", "f5", "--level", "21"], "<= 20"),
    (["hint", "f5", "-n", "0"], ">= 1"),
    (["hint", "f5", "-n", "65"], "<= 64"),
    (["hint", "f5", "--time", "1e300"], "<= 1000000"),
    (["hint", "f5", "--time", "nan"], "> 0"),
    (["bench", "--depth", "61"], "<= 60"),
    (["bench", "--depth", HUGE], "<= 60"),
    (["book", "build", "--out", "b.npz", "--depth", "0"], ">= 1"),
    (["book", "build", "--out", "b.npz", "--max-ply", "61"], "<= 60"),
    (["book", "build", "--out", "b.npz", "--min-games", "0"], ">= 1"),
    (["nboard", "--tt-mb", "0"], ">= 1"),
    (["nboard", "--tt-mb", HUGE], f"<= {TT_MB.high}"),
    (["nboard", "--book-randomness", "-1"], ">= 0"),
    (["nboard", "--level", HUGE], "<= 20"),
    (["nboard", "--threads", "0"], ">= 1"),
    (["arena", "random", "greedy", "--games", "0"], ">= 1"),
    (["arena", "random", "greedy", "--time-per-move", "0"], "> 0"),
    (["arena", "random", "greedy", "--grace", "-1"], ">= 0"),
    (["arena", "random", "greedy", "--hang-timeout", "inf"], "<= 1000000"),
    (["arena", "random", "greedy", "--warmup-limit", "0"], "> 0"),
    (["arena", "random", "greedy", "--workers", "0"], ">= 1"),
    (["arena", "random", "greedy", "--seed", "-1"], ">= 0"),
    (["arena", "random", "greedy", "--anchor-elo", "nan"], "<= 100000"),
    (["convert", "a.txt", "b.wtb", "--year", "70000"], "<= 65535"),
    (["train", "alphazero", "--config", "x.toml", "--iterations", "0"], ">= 1"),
    (["train", "alphazero", "--config", "x.toml", "--iteration", "-1"], ">= 0"),
    (["train", "alphazero", "--config", "x.toml", "--games", HUGE], "<= 1000000000"),
    (["train", "alphazero", "--config", "x.toml", "--sims", "0"], ">= 1"),
    (["train", "alphazero", "--config", "x.toml", "--max-minutes", "-1"], "> 0"),
    (["train", "patterns", "--config", "x.toml", "--epochs", "0"], ">= 1"),
    (["train", "patterns", "--config", "x.toml", "--max-games", "-1"], ">= 0"),
    (["train", "qlearning", "--config", "x", "--out", "y", "--episodes", "0"], ">= 1"),
    (["train", "qlearning", "--config", "x", "--out", "y", "--size", "5"], "choose from 4, 6, 8"),
    (["train", "td", "--config", "x", "--out", "y", "--games-per-stage", "0"], ">= 1"),
    (["train", "value", "--config", "x", "--max-games", "-1"], ">= 0"),
    (["train", "policy", "--config", "x", "--max-minutes", "nan"], "> 0"),
    (["train", "labels", "--config", "x", "--positions", "0"], ">= 1"),
    (["train", "labels", "--config", "x", "--workers", HUGE], "<= 1024"),
    (["arena", "random", f"minimax:depth={HUGE}", "--games", "2", "--openings", "start"], "<= 60"),
    (["arena", "random", "alphabeta:depth=61", "--games", "2", "--openings", "start"], "<= 60"),
    (["arena", "random", "greedy", "--balance", f"minimax:depth={HUGE}"], "1 to 60"),
]


@pytest.mark.parametrize(("argv", "bound"), BAD_NUMBERS, ids=[" ".join(a) for a, _ in BAD_NUMBERS])
def test_a_number_out_of_bounds_is_one_line_naming_the_bound(
    capsys: Capsys, argv: list[str], bound: str
) -> None:
    line = error_line(capsys, argv)
    assert line.startswith("bitflip ") and ": error: " in line
    assert bound in line, line


def test_the_level_bound_is_the_engine_levels() -> None:
    from bitflip.search.levels import MAX_LEVEL, MIN_LEVEL

    assert (LEVEL.low, LEVEL.high) == (MIN_LEVEL, MAX_LEVEL)


def test_an_index_past_the_games_is_one_line(capsys: Capsys, tmp_path: Path) -> None:
    f = tmp_path / "one.txt"
    f.write_text("f5d6c3\n")
    assert "has 1 game(s), not 5" in error_line(capsys, ["analyze", str(f), "--game-index", "5"])


def test_a_book_that_is_not_npz_says_so(capsys: Capsys, tmp_path: Path) -> None:
    f = tmp_path / "book.txt"
    f.write_text("not a book\n")
    line = error_line(capsys, ["book", "show", "f5", "--book", str(f)])
    assert "not an .npz file" in line and "allow_pickle" not in line


def test_an_nboard_command_named_true_is_a_command() -> None:
    from bitflip.agents import parse_spec

    assert parse_spec("nboard:cmd=true").params == {"cmd": "true"}
    assert parse_spec("nboard:name=x,cmd=edax -q, -l 5").params == {
        "name": "x",
        "cmd": "edax -q, -l 5",
    }


# --- one data lookup ----------------------------------------------------------------------


@pytest.fixture
def elsewhere(tmp_path: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder where data paths do not exist as given; BITFLIP_DATA is set."""
    monkeypatch.setenv("BITFLIP_DATA", str(shared_data))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_solve_looks_up_the_data_folders(capsys: Capsys, elsewhere: Path) -> None:
    assert main(["solve", "ffo/fforum-1-19.obf", "--first", "1", "--threads", "1"]) == 0
    assert "1/1 match the annotation" in capsys.readouterr().out


def test_db_stats_and_analyze_look_up_the_data_folders(capsys: Capsys, elsewhere: Path) -> None:
    assert main(["db", "stats", "wthor/WTH_2021.wtb"]) == 0
    assert "680" in capsys.readouterr().out
    line = error_line(capsys, ["analyze", "wthor/WTH_2021.wtb", "--game-index", "100000"])
    assert "has 680 game(s)" in line


def test_convert_looks_up_the_data_folders(capsys: Capsys, elsewhere: Path) -> None:
    assert main(["convert", "wthor/WTH_2021.wtb", str(elsewhere / "g.ggf")]) == 0
    assert "680 games" in capsys.readouterr().out


def test_a_missing_data_file_names_the_folders_searched(capsys: Capsys, elsewhere: Path) -> None:
    line = error_line(capsys, ["db", "stats", "wthor/WTH_1066.wtb"])
    assert "data folders" in line


def test_only_datadir_reads_the_data_variable() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "bitflip"
    reads = re.compile(r"environ[^\n]*(BITFLIP_DATA|XDG_DATA_HOME)")
    readers = sorted(
        str(p.relative_to(src)) for p in src.rglob("*.py") if reads.search(p.read_text("utf-8"))
    )
    assert readers == ["datadir.py"], readers


# --- long searches say so -----------------------------------------------------------------


def test_a_depth_past_the_end_says_it_is_an_exact_solve(capsys: Capsys) -> None:
    assert main(["hint", "f5", "--depth", "60", "--time", "0.3", "--threads", "1"]) == 0
    err = capsys.readouterr().err
    assert "an exact solve of 59 empties" in err and "--time limits it" in err


def test_a_status_line_shows_a_long_wait_and_nothing_for_a_short_one() -> None:
    log = io.StringIO()
    with StatusLine(lambda: "hint: searching", after=0.0, every=0.01, log_every=0.01, stream=log):
        time.sleep(0.1)
    lines = log.getvalue().splitlines()
    assert lines and lines[0].startswith("hint: searching (") and "\r" not in log.getvalue()
    quick = io.StringIO()
    with StatusLine(lambda: "x", after=5.0, stream=quick):
        pass
    assert quick.getvalue() == ""


def test_a_deep_perft_says_it_will_be_long(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import bitflip.cli.perft

    monkeypatch.setattr(bitflip.cli.perft, "LONG_PERFT", 3)  # perft(13) would take a minute
    assert main(["perft", "3"]) == 0
    assert "depth 3 counts billions of leaves" in capsys.readouterr().err

"""solve, bench, hint and analyze: output shape and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.cli._numbers import THREADS
from bitflip.cli.main import build_parser, main
from bitflip.core.parallel import usable_cores

Capsys = pytest.CaptureFixture[str]


def one_line_error(capsys: Capsys, argv: list[str], command: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bitflip {command}: error:") and len(err.strip().splitlines()) == 1
    return err


def test_solve_checks_the_annotation(tmp_path: Path, capsys: Capsys, shared_data: Path) -> None:
    lines = (shared_data / "ffo" / "fforum-1-19.obf").read_text().splitlines()[:2]
    f = tmp_path / "two.obf"
    f.write_text("\n".join(lines) + "\n")
    assert main(["solve", str(f)]) == 0
    out = capsys.readouterr().out
    assert "g8    +18    +18" in out and "2/2 match the annotation" in out
    assert main(["solve", str(f), "--wld"]) == 0
    out = capsys.readouterr().out
    assert "+18" not in out and "2/2 match the annotation" in out
    # Any winning move is a right answer to a win/loss/draw solve: G8, H1, H7, A2 or A3 here.
    first = next(row.split() for row in out.splitlines() if row.startswith("  1 "))
    assert first[2] in ("g8", "h1", "h7", "a2", "a3") and first[3:5] == ["win", "win"]
    assert main(["solve", str(f), "--skip", "1"]) == 0  # only the second, numbered 2
    out = capsys.readouterr().out
    assert "\n  2 " in out and "\n  1 " not in out and "1/1 match" in out


def test_solve_errors(tmp_path: Path, capsys: Capsys) -> None:
    one_line_error(capsys, ["solve", str(tmp_path / "missing.obf")], "solve")
    bad = tmp_path / "bad.obf"
    bad.write_text("XXO-- X; A1:+2\n")
    assert "bad.obf:1" in one_line_error(capsys, ["solve", str(bad)], "solve")
    bad.write_text("-" * 27 + "OX------XO" + "-" * 27 + " X; D3:x\n")
    assert "not an integer" in one_line_error(capsys, ["solve", str(bad)], "solve")
    assert "--skip" in one_line_error(capsys, ["solve", str(bad), "--skip", "-1"], "solve")


def test_bench_prints_the_signature(capsys: Capsys) -> None:
    assert main(["bench", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    first = int(out.split("Nodes searched: ")[1].split()[0])
    assert main(["bench", "--depth", "2"]) == 0
    assert int(capsys.readouterr().out.split("Nodes searched: ")[1].split()[0]) == first
    one_line_error(capsys, ["bench", "--depth", "0"], "bench")


def test_hint_and_analyze(capsys: Capsys) -> None:
    assert main(["hint", "f5d6", "--depth", "3", "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("(depth 3)") == 2
    obf = "-" * 27 + "OX------XO" + "-" * 27 + " X"
    assert main(["hint", obf, "--level", "2"]) == 0
    assert main(["analyze", "f5d6c3d3", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert " 4. white d3" in out and "total loss" in out


def test_analyze_a_game_file(tmp_path: Path, capsys: Capsys) -> None:
    f = tmp_path / "game.txt"
    f.write_text("f5d6c3d3c4\n")
    assert main(["analyze", str(f), "--depth", "2"]) == 0
    assert " 5. black c4" in capsys.readouterr().out
    one_line_error(capsys, ["analyze", str(f), "--game-index", "2"], "analyze")


@pytest.mark.parametrize(
    "argv",
    [
        ["hint", "f5z9"],
        ["hint", "f5d6", "--level", "0"],
        ["hint", "X" * 64 + " O"],
        ["analyze", "f5f5"],
        ["analyze", "missing-game.txt"],
    ],
)
def test_bad_input_is_one_line(capsys: Capsys, argv: list[str]) -> None:
    one_line_error(capsys, argv, argv[0])


def test_python_dash_m_runs_the_command_line() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "bitflip", "perft", "3"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "perft(3) = 56" in out.stdout


def test_a_binary_obf_file_is_named_in_the_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bitflip.cli.main import main

    bad = tmp_path / "bin.obf"
    bad.write_bytes(b"\x00\x01\xff\xfe\n")
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{bad}:1: OBF" in err


def test_every_searching_command_uses_every_core_unless_told() -> None:
    # Issue 32: what users get by default uses the machine (a level answers sooner at the same
    # depth); one thread when asked (reproducible nodes, a match on one machine).
    parser = build_parser()
    cores = min(usable_cores(), THREADS.high)
    assert parser.parse_args(["solve", "x.obf"]).threads == cores
    assert parser.parse_args(["hint", "f5"]).threads == cores
    assert parser.parse_args(["nboard"]).threads == cores
    assert parser.parse_args(["play"]).threads == cores
    assert parser.parse_args(["solve", "x.obf", "--threads", "1"]).threads == 1
    assert parser.parse_args(["nboard", "--threads", "1"]).threads == 1

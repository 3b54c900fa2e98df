"""``bitflip play``: the server by default (on localhost), the terminal game with --terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bitflip.cli.main import build_parser, main

REPO = Path(__file__).resolve().parents[2]


def test_defaults_bind_to_localhost() -> None:
    args = build_parser().parse_args(["play"])
    assert (args.host, args.terminal, args.no_browser, args.opponent) == (
        "127.0.0.1",
        False,
        False,
        None,
    )


def test_bad_opponent_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    rc = main(["play", "--no-browser", "--db", str(tmp_path / "g.sqlite"), "--opponent", "zz"])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown agent 'zz'" in err and len(err.strip().splitlines()) == 1


def test_a_missing_or_broken_book_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("fastapi")
    assert build_parser().parse_args(["play"]).book == "default"
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a book")
    for book in (tmp_path / "missing.npz", broken):
        db = str(tmp_path / "g.sqlite")
        rc = main(["play", "--no-browser", "--db", db, "--book", str(book)])
        err = capsys.readouterr().err
        assert rc == 2 and book.name in err and len(err.strip().splitlines()) == 1


def test_server_starts_answers_and_stops(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    cmd = [sys.executable, "-m", "bitflip.cli.main", "play", "--no-browser", "--port", "0"]
    cmd += ["--db", str(tmp_path / "games.sqlite"), "--opponent", "greedy"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("bitflip is serving on http://localhost:"), line
        url = line.split()[4]
        with urllib.request.urlopen(url + "api/agents", timeout=20) as r:
            assert json.loads(r.read())["default"] == "greedy"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert (tmp_path / "games.sqlite").exists()


def test_terminal_hint_scores_moves_or_says_why_not() -> None:
    import io

    from bitflip.cli.play import play_terminal

    out = io.StringIO()
    rc = play_terminal(
        opponent="greedy",
        color="black",
        size=6,
        seed=1,
        stdin=io.StringIO("hint\nquit\n"),
        stdout=out,
    )
    text = out.getvalue()
    assert rc == 0
    assert "Hints (discs, = exact): " in text


def test_a_terminal_game_whose_piped_moves_run_out_ends_cleanly() -> None:
    import io

    from bitflip.cli.play import play_terminal

    out = io.StringIO()
    rc = play_terminal(
        opponent="greedy", color="black", size=6, stdin=io.StringIO("c4\n"), stdout=out
    )
    assert rc == 0 and "end of input: game left unfinished" in out.getvalue()


def test_a_port_in_use_is_one_line_naming_port(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import socket

    from bitflip.cli.main import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        rc = main(["play", "--no-browser", "--port", str(port), "--db", str(tmp_path / "g.db")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1
    assert f"port {port} on 127.0.0.1 is in use" in err and "--port 0" in err


def test_the_terminal_hint_is_bitflip_hint(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 17: one hint path, one meaning (the terminal gave +2.9 where hint gave +0.50)."""
    from bitflip.cli.play import _hint_line
    from bitflip.core.board import Board

    # One thread, as the terminal's engine: two threads split the search differently from run
    # to run, and a score may then differ (f4: -7.2 against -8.1 once, under load).
    assert main(["hint", "f5", "--threads", "1"]) == 0
    cli = [line.split()[:2] for line in capsys.readouterr().out.splitlines() if "(depth" in line]
    board = Board()
    board.push("f5")
    terminal = _hint_line(board).split(": ", 1)[1].split()
    assert [[m, f"{float(s):+.1f}"] for m, s in cli] == [
        terminal[i : i + 2] for i in range(0, len(terminal), 2)
    ]

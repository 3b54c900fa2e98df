"""The NBoard engine side over a recording engine double: commands, errors, threads."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from typing import Any

from bitflip.agents import PositionalAgent
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.protocols.nboard import NBoardServer, fallback_move
from bitflip.search.limits import Limit, MoveScore, SearchInfo, SearchResult


class RecordingEngine:
    """Answers with the legal moves in order and records every call (tests only)."""

    def __init__(self, *, block: bool = False, fail: bool = False) -> None:
        self.calls: list[tuple[str, object]] = []
        self.board = Board()
        self.block = block
        self.fail = fail
        self.stopped = threading.Event()
        self.contempt = 0

    def set_position(self, board: Board) -> None:
        self.calls.append(("set_position", board.obf()))
        self.board = board.copy()

    def go(
        self, limit: Limit | None = None, on_info: Callable[[SearchInfo], None] | None = None
    ) -> SearchResult:
        self.calls.append(("go", limit))
        if self.fail:
            raise RuntimeError("kernel exploded")
        moves = list(self.board.legal_moves)
        for depth in (1, 2, 3):
            if on_info is not None:
                on_info(SearchInfo(depth, 0.5 * depth, moves[:1], 10 * depth, 0.0))
        if self.block:
            self.stopped.wait(10)
        return SearchResult(moves[0], 1.25, moves[:1], 3, 30, 0.1)

    def hint(
        self,
        n: int = 64,
        limit: Limit | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> list[MoveScore]:
        self.calls.append(("hint", (n, limit)))
        moves = list(self.board.legal_moves)[:n]
        for i in range(len(moves)):
            if on_info is not None:
                on_info(SearchInfo(2, 0.0, moves[i : i + 1], 7, 0.0))
        return [MoveScore(m, 2.0 - i, 2) for i, m in enumerate(moves)]

    def stop(self) -> None:
        self.stopped.set()


def session(engine: RecordingEngine, lines: list[str], **kw: Any) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    server = NBoardServer(engine, out, err=err, clock=lambda: 0.0, **kw)
    for line in lines:
        server.handle(line)
        server.wait()
    server.close()
    return out.getvalue().splitlines(), err.getvalue()


def test_handshake_ping_learn() -> None:
    out, err = session(RecordingEngine(), ["nboard 2", "ping 7", "learn", "ping 8"])
    assert out == ["set myname bitflip", "pong 7", "learned", "pong 8"]
    assert err == ""


def test_go_reports_the_move_without_playing_it() -> None:
    engine = RecordingEngine()
    out, _ = session(engine, ["nboard 2", "set depth 6", "move f5", "go", "go"])
    answer = [
        "status bitflip is thinking",
        "nodestats 30 0.00",
        "=== f4/1.25/0.0",
        "status bitflip is waiting",
    ]
    assert out == ["set myname bitflip", *answer, *answer]
    board = Board()
    board.push("f5")
    assert engine.calls[0] == ("set_position", board.obf())
    assert engine.calls[1] == ("go", Limit(level=6))


def test_set_depth_is_the_engine_level_as_gui_users_expect() -> None:
    """``set depth 13`` plays as --level 13 (depth 13, exact from 20 empties), as Edax does."""
    from bitflip.engine import Engine
    from bitflip.search.levels import extended_level, level_spec
    from bitflip.search.plan import probcut_t

    server = NBoardServer(RecordingEngine(), io.StringIO(), clock=lambda: 0.0)
    server.handle("set depth 13")
    assert server.limit() == Limit(level=13)
    engine = Engine(level=3, tt_mb=1)
    plan = engine.plan(server.limit())
    spec = level_spec(13)
    assert (plan.max_depth, plan.exact_empties, plan.probcut_t) == (
        spec.depth,
        spec.endgame_depth,
        probcut_t(spec.selectivity),
    )
    server.handle("set depth 30")  # past the table: deeper, and exact from more empties
    plan = engine.plan(server.limit())
    assert plan.max_depth == 31 and plan.exact_empties == 36 == extended_level(30).endgame_depth
    board = Board("X" * 56 + "O--O---- X")
    server.handle("set depth 5")  # a depth at or past the empties solves exactly
    assert engine.plan(server.limit(), board=board).exact_empties >= 6


def test_contempt_reaches_the_engine() -> None:
    engine = RecordingEngine()
    server = NBoardServer(engine, io.StringIO(), clock=lambda: 0.0)
    server.handle("set contempt 50")
    assert engine.contempt == 50


def test_hint_lines() -> None:
    engine = RecordingEngine()
    out, _ = session(engine, ["set depth 2", "hint 3"])
    assert out == [
        "status bitflip is thinking",
        "search d3 2.00 0 2",
        "search c4 1.00 0 2",
        "search f5 0.00 0 2",
        "nodestats 21 0.00",
        "status bitflip is waiting",
    ]
    assert engine.calls[-1] == ("hint", (3, Limit(level=2)))


def test_forced_pass_and_pass_moves() -> None:
    engine = RecordingEngine()
    server = NBoardServer(engine, io.StringIO(), clock=lambda: 0.0)
    server.board = Board("X" * 62 + "O- O")
    server.handle("move PA")
    server.handle("h8")  # NBoard 1.1's bare move
    assert server.board.move_stack == [PASS, 63]
    assert server.board.is_game_over()


def test_malformed_lines_are_reported_and_ignored() -> None:
    engine = RecordingEngine()
    lines = [
        "",
        "   ",
        "nboard 7",
        "set depth deep",
        "set depth -3",
        "set contempt lots",
        "set colour blue",
        "hint x",
        "hint 0",
        "move",
        "move z9",
        "move a1",
        "frobnicate 1 2 3",
        "zz",
        "set game (;GM[Othello]BO[garbage];)",
        "ping 1",
        "move f5/0.5/1.0",
        "go",
    ]
    out, err = session(engine, lines)
    assert out[:3] == ["set myname bitflip", "pong 1", "status bitflip is thinking"]
    messages = err.splitlines()
    assert len(messages) == 13
    assert all(m.startswith("bitflip nboard: ") for m in messages)
    assert "'nboard 7'" in messages[0]
    assert "depth must be a whole number, not 'deep'" in messages[1]
    assert "illegal move a1" in err and "'z9' is not a square" in err
    assert "unknown command 'frobnicate 1 2 3'" in err
    assert "cannot read the GGF game" in err
    # The session went on: the last move was played and searched.
    board = Board()
    board.push("f5")
    assert engine.calls[0] == ("set_position", board.obf())


def test_ping_stops_a_running_search_before_pong() -> None:
    engine = RecordingEngine(block=True)
    out = io.StringIO()
    server = NBoardServer(engine, out, clock=lambda: 0.0)
    server.handle("go")
    assert server.thinking
    server.handle("ping 3")  # returns only once the search has answered
    assert not server.thinking
    assert out.getvalue().splitlines()[-2:] == ["status bitflip is waiting", "pong 3"]


def test_a_move_while_thinking_stops_the_search_and_pings_stay_in_order() -> None:
    """Issue 20: 'set depth 24', 'go', 'move f5', 'ping 1' left the ping unanswered."""
    engine = RecordingEngine(block=True)  # thinks until stopped (or 10 s)
    out = io.StringIO()
    server = NBoardServer(engine, out, clock=lambda: 0.0)
    done = threading.Event()

    def gui() -> None:
        for line in ("nboard 2", "set depth 24", "go", "set depth 12", "move f5", "ping 1"):
            server.handle(line)
        done.set()

    threading.Thread(target=gui, daemon=True).start()
    assert done.wait(5), "a command waited behind the search"
    lines = out.getvalue().splitlines()
    assert lines[-3:] == ["=== d3/1.25/0.0", "status bitflip is waiting", "pong 1"]
    assert engine.calls[1] == ("go", Limit(level=24)) and server.depth == 12
    assert server.board.move_stack == [37]


def test_undecodable_bytes_are_a_bad_line_not_the_end(tmp_path: Any) -> None:
    """Issue 20: one invalid UTF-8 byte under a strict locale ended 'bitflip nboard'."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONIOENCODING="utf-8", LC_ALL="C", PYTHONPATH=str(repo / "src"))
    done = subprocess.run(
        [sys.executable, "-m", "bitflip", "nboard"],
        input=b"nboard 2\nping 1\nmove \xff\nping 2\nquit\n",
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == ["set myname bitflip", "pong 1", "pong 2"]
    assert b"ignored" in done.stderr


def test_quit_ends_the_session_and_stops_the_search() -> None:
    engine = RecordingEngine(block=True)
    server = NBoardServer(engine, io.StringIO(), clock=lambda: 0.0)
    server.handle("go")
    assert server.handle("quit") is False
    assert not server.thinking
    assert server.run(["ping 1", "quit", "ping 2"]) == 0


def test_failing_search_still_answers_a_move_and_keeps_the_session() -> None:
    # A GUI waits for "===": a crashed search answers a legal move found without it.
    out, err = session(RecordingEngine(fail=True), ["go", "ping 1"])
    assert out[:2] == ["status bitflip is thinking", "status bitflip failed: kernel exploded"]
    assert out[2].startswith("=== ") and out[2].split()[1].split("/")[0] in {"d3", "c4", "f5", "e6"}
    assert out[3:] == ["pong 1"]
    assert "kernel exploded" in err and "without a search" in err


def test_fallback_move_is_the_positional_choice_corners_first() -> None:
    board = Board("-" * 64 + " X")
    board.black, board.white = 1 << 2 | 1 << 17, 1 << 1 | 1 << 9  # c1 and b3 against b1, b2
    assert fallback_move(board) == 0  # a1 (taking b1) beats every other square
    start = Board()
    assert fallback_move(start) == PositionalAgent(seed=0).select_move(start)
    assert fallback_move(start) in start.legal_moves
    stuck = Board("-" * 64 + " O")
    stuck.black, stuck.white = 1 << 0, 1 << 1  # white b1 cannot move; black (c1) can
    assert list(stuck.legal_moves) == [PASS] and fallback_move(stuck) == PASS


def test_progress_lines_are_throttled() -> None:
    ticks = iter(range(100))
    out = io.StringIO()
    server = NBoardServer(
        RecordingEngine(),
        out,
        clock=lambda: float(next(ticks)),
        status_interval=2.0,
    )
    server.handle("go")
    server.wait()
    lines = out.getvalue().splitlines()
    # Clock: 0 at the start, then 1, 2, 3 at the three iterations: only depth 2 is reported.
    assert lines[:3] == [
        "status bitflip is thinking",
        "nodestats 20 2.00",
        "status depth 2 +1.00 d3",
    ]
    assert lines[3].startswith("nodestats 30 ")


def test_transcript_copy() -> None:
    log = io.StringIO()
    session(RecordingEngine(), ["nboard 2", "ping 1"], transcript=log)
    assert log.getvalue().splitlines() == [
        "> nboard 2",
        "< set myname bitflip",
        "> ping 1",
        "< pong 1",
    ]


def test_end_of_input_finishes_the_running_search() -> None:
    out = io.StringIO()
    server = NBoardServer(RecordingEngine(), out, clock=lambda: 0.0)
    assert server.run(["nboard 2", "go"]) == 0
    assert not server.thinking
    assert "=== d3/1.25/0.0" in out.getvalue().splitlines()


def test_an_internal_error_keeps_the_session() -> None:
    class Broken(RecordingEngine):
        def set_position(self, board: Board) -> None:
            raise TypeError("a bug")

    out, err = session(Broken(), ["go", "ping 1"])
    assert out == ["pong 1"]
    assert "internal error TypeError('a bug') (line 'go'): ignored" in err


def test_a_contempt_beyond_the_board_is_refused_in_one_line() -> None:
    """Issue 34: 'set contempt 1e400' was an internal OverflowError, 'nan' a ValueError of int."""
    engine = RecordingEngine()
    _, err = session(engine, ["set contempt 1e400", "set contempt nan", "set contempt -6401"])
    lines = err.splitlines()
    assert len(lines) == 3 and all("from -6400 to 6400 centidiscs" in line for line in lines)
    assert engine.contempt == 0

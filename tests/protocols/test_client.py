"""The NBoard client against a scripted engine (Edax's dialect, dying, hanging, cheating)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bitflip.agents import AgentSpecError, make_agent
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.protocols.client import (
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    NBoardEngine,
    game_ggf,
)
from bitflip.protocols.nboard_agent import NBoardAgent
from bitflip.search.limits import Limit

HERE = Path(__file__).resolve().parent
SRC = str(HERE.parent.parent / "src")
ENV = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def scripted(*flags: str) -> list[str]:
    return [sys.executable, str(HERE / "scripted_engine.py"), *flags]


def test_game_ggf_writes_start_moves_and_passes() -> None:
    board = Board()
    for m in ("f5", "d6", "c3"):
        board.push(m)
    text = game_ggf(board)
    assert text.startswith("(;GM[Othello]") and text.endswith(";)")
    assert "TY[8]BO[8 " + "-------- " * 3 + "---O*--- ---*O--- " + "-------- " * 3 + "*]" in text
    assert text.endswith("B[f5]W[d6]B[c3];)")
    # A position reached with a pass writes it as PA.
    b2 = Board("X" * 62 + "O- O")
    assert list(b2.legal_moves) == [PASS]
    b2.push(PASS)
    assert "W[PA]" in game_ggf(b2)


def test_play_and_hint_in_edax_dialect() -> None:
    with NBoardEngine.popen(scripted("--edax"), depth=5, env=ENV, timeout=20) as engine:
        assert engine.name == "Edax5"  # from 'set myname'
        board = Board()
        board.push("f5")
        result = engine.play(board)
        assert result.move in board.legal_moves
        assert result.score == 1.5 and result.nodes == 1234 and result.depth == 5
        assert not result.exact
        hints = engine.hint(board, 2, Limit(depth=7))
        assert engine.name == "Edax7"
        # The second (deeper) search line of each move wins; best first.
        assert [h.depth for h in hints] == [2, 2]
        assert [h.score for h in hints] == [2.0, 1.0]
        assert all(h.move in board.legal_moves for h in hints)


def test_play_in_protocol_dialect_keeps_pv_and_time() -> None:
    with NBoardEngine.popen(scripted(), env=ENV, timeout=20) as engine:
        board = Board()
        result = engine.play(board, Limit(depth=3))
        assert result.move in board.legal_moves
        assert result.pv == [result.move, result.move]  # from "search d3-d3 ..."
        assert result.time == pytest.approx(0.01)
        hints = engine.hint(board, 1)  # ends at a bare "status" line (Ntest's way)
        assert len(hints) == 1


def test_forced_pass_and_finished_game() -> None:
    with NBoardEngine.popen(scripted(), env=ENV, timeout=20) as engine:
        board = Board("X" * 62 + "O- O")
        assert engine.play(board).move == PASS
        over = Board("X" * 64 + " O")
        with pytest.raises(ValueError, match="game is over"):
            engine.play(over)
        with pytest.raises(ValueError, match="depth only"):
            engine.play(Board(), Limit(time=1.0))


def test_engine_dying_mid_game_is_a_clear_error() -> None:
    engine = NBoardEngine.popen(scripted("--die-after", "1"), env=ENV, timeout=20)
    board = Board()
    board.push(engine.play(board).move)
    board.push(board.legal_moves.__iter__().__next__())
    with pytest.raises(EngineTerminatedError) as info:
        engine.play(board)
    message = str(info.value)
    assert "exited with status 3" in message
    assert "fatal: out of memory" in message  # its stderr is quoted
    with pytest.raises(EngineTerminatedError):
        engine.play(board)
    engine.quit()


def test_hanging_engine_times_out() -> None:
    with NBoardEngine.popen(scripted("--hang"), env=ENV, timeout=20) as engine:
        with pytest.raises(EngineTimeoutError, match=r"did not send a move .* within 0.5 s"):
            engine.play(Board(), timeout=0.5)
        # The engine is still alive and answers pings; the stale output is skipped.
        engine.ping()


def test_illegal_answer_is_a_protocol_error() -> None:
    with (
        NBoardEngine.popen(scripted("--illegal"), env=ENV, timeout=20) as engine,
        pytest.raises(EngineProtocolError, match="(?i)illegal move 'd4'"),
    ):
        engine.play(Board())


def test_missing_program_is_a_clear_error() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start NBoard engine"):
        NBoardEngine.popen("/nonexistent/edax -nboard")


def nboard_agent(spec: str) -> NBoardAgent:
    agent = make_agent(spec)
    assert isinstance(agent, NBoardAgent)
    return agent


def test_agent_spec_and_bad_specs() -> None:
    cmd = " ".join(scripted("--edax"))
    agent = nboard_agent(f"nboard:depth=3,cmd={cmd}")
    try:
        board = Board()
        assert agent.select_move(board) in board.legal_moves
    finally:
        agent.close()
    with pytest.raises(AgentSpecError, match="depth"):
        make_agent("nboard:depth=0,cmd=edax")
    with pytest.raises(AgentSpecError, match="cmd"):
        make_agent("nboard:depth=3")
    # cmd= takes the rest of the spec, but a trailing depth/timeout is taken back out.
    agent = nboard_agent("nboard:cmd=my engine -x a,b,depth=3,timeout=7.5")
    assert (agent.cmd, agent.depth, agent.timeout) == ("my engine -x a,b", 3, 7.5)
    with pytest.raises(AgentSpecError, match="depth"):
        make_agent("nboard:cmd=edax,depth=0")
    with pytest.raises(AgentSpecError, match="depth must be a whole number"):
        make_agent("nboard:cmd=edax,depth=deep")


# --- against our own engine: `bitflip nboard` in a subprocess -------------------------------

BITFLIP_NBOARD = [sys.executable, "-m", "bitflip.cli.main", "nboard", "--tt-mb", "4"]


def test_client_drives_bitflip_nboard() -> None:
    with NBoardEngine.popen(BITFLIP_NBOARD, depth=2, env=ENV, timeout=120) as engine:
        assert engine.name == "bitflip"
        board = Board()
        for _ in range(4):
            result = engine.play(board, Limit(depth=2))
            assert result.move in board.legal_moves
            assert result.depth == 2 and not result.exact and result.nodes > 0
            board.push(result.move)
        hints = engine.hint(board, 3, Limit(depth=2))
        assert len(hints) == 3 and len({h.move for h in hints}) == 3
        assert all(h.move in board.legal_moves for h in hints)
        assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
        # An exact solve (see transcripts/endgame_exact.txt): h7 wins by 30 discs.
        end = endgame_board()
        result = engine.play(end, Limit(depth=60))
        assert (result.move, result.score, result.exact) == (end.parse_move("h7"), 30.0, True)
        hints = engine.hint(end, 3, Limit(depth=60))
        assert [(end.geometry.square_name(h.move), h.score, h.exact) for h in hints] == [
            ("h7", 30.0, True),
            ("d7", 28.0, True),
            ("c8", 20.0, True),
        ]


def endgame_board() -> Board:
    from bitflip.formats.ggf import loads

    text = (HERE / "transcripts" / "endgame_exact.txt").read_text(encoding="utf-8")
    game = next(line[len("> set game ") :] for line in text.splitlines() if "set game" in line)
    return loads(game)[0].board()


def test_nboard_agent_plays_a_legal_game_against_random(monkeypatch: pytest.MonkeyPatch) -> None:
    from bitflip.core.board import BLACK

    monkeypatch.setenv("PYTHONPATH", ENV["PYTHONPATH"])  # the agent's process inherits it
    nboard = nboard_agent(f"nboard:depth=1,timeout=120,cmd={' '.join(BITFLIP_NBOARD)}")
    rnd = make_agent("random", seed=3)
    try:
        board = Board()
        while not board.is_game_over():
            agent = nboard if board.turn == BLACK else rnd
            move = agent.select_move(board)
            assert move in board.legal_moves
            board.push(move)
        assert board.outcome() is not None and board.ply >= 30
    finally:
        nboard.close()


def test_bitflip_nboard_killed_mid_game_is_a_clear_error() -> None:
    engine = NBoardEngine.popen(BITFLIP_NBOARD, depth=1, env=ENV, timeout=120)
    board = Board()
    board.push(engine.play(board).move)
    engine.process.kill()
    board.push(next(iter(board.legal_moves)))
    with pytest.raises(EngineTerminatedError, match=r"exited with status -9"):
        engine.play(board)
    engine.quit()

"""The game line: cursor, undo/redo stops, new lines, JSON round trip."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board, IllegalMoveError
from bitflip.core.geometry import PASS
from bitflip.web.games import GameError, GameState, transcript


def names(state: GameState) -> str:
    return transcript(state.line)


def test_play_follow_and_cut_the_line() -> None:
    st = GameState.new("g", human="both", moves=[Board().parse_move(m) for m in ("f5", "d6", "c3")])
    assert st.cursor == 3
    st.jump(1)
    st.play(Board().parse_move("d6"))  # the line's own next move: followed, nothing cut
    assert names(st) == "f5d6c3" and st.cursor == 2
    st.jump(1)
    st.play(Board().parse_move("f6"))  # another move: a new line from here
    assert names(st) == "f5f6" and st.cursor == 2
    with pytest.raises(IllegalMoveError):
        st.play(0)
    with pytest.raises(GameError, match="outside"):
        st.jump(3)


def test_undo_and_redo_stop_at_the_persons_turns() -> None:
    moves = [Board().parse_move(m) for m in ("f5", "d6", "c3", "d3")]
    st = GameState.new("g", human="black", moves=moves)
    st.undo()
    assert st.cursor == 2  # back before black's c3 and white's reply
    st.undo()
    assert st.cursor == 0
    with pytest.raises(GameError, match="nothing to undo"):
        st.undo()
    st.redo()
    assert st.cursor == 2
    st.redo()
    assert st.cursor == 4 and not st.can_redo()


def test_passes_are_not_undo_stops() -> None:
    # Black to move with no legal move but the game goes on: black must pass.
    start = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- X"
    b = Board(start)
    assert list(b.legal_moves) == [PASS]
    st = GameState.new("g", start=start, human="black", moves=[PASS])
    assert not st.can_undo()
    st.play(next(iter(st.board().legal_moves)))  # white's reply: still no black turn to undo to
    assert st.cursor == 2 and not st.can_undo()


def test_bad_start_moves_name_the_move() -> None:
    with pytest.raises(GameError, match="move 2 of the game"):
        GameState.new("g", moves=[Board().parse_move("f5"), Board().parse_move("f5")])
    with pytest.raises(GameError, match="no disc"):
        GameState.new("g", start="-" * 64 + " X")
    with pytest.raises(GameError, match="human must be"):
        GameState.new("g", human="martian")


def test_json_round_trip_and_evals() -> None:
    st = GameState.new(
        "g",
        size=6,
        human="white",
        opponent="greedy",
        moves=[Board(size=6).legal_moves.mask.bit_length() - 1],
    )
    st.set_eval(1, 3.0, False, "hint")  # white to move at ply 1: +3 for white is -3 for black
    back = GameState.from_json(st.to_json())
    assert back == st
    assert back.evals[1].score == -3.0
    st.jump(0)
    st.play(next(iter(Board(size=6).legal_moves)))
    st.set_eval(0, 1.0, True, "analysis")
    st.set_eval(0, 5.0, False, "hint")  # exact values are not replaced by heuristic ones
    assert st.evals[0].score == 1.0 and st.evals[0].exact


def test_corrupt_json_is_refused() -> None:
    st = GameState.new("g")
    data = st.to_json()
    data["line"] = [0]
    with pytest.raises(IllegalMoveError):
        GameState.from_json(data)

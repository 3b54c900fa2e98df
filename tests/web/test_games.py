"""The game line: cursor, undo/redo stops, new lines, JSON round trip."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board, IllegalMoveError
from bitflip.core.geometry import PASS
from bitflip.formats.transcript import format_transcript as transcript
from bitflip.web.games import BLACK, GameError, GameState


def names(state: GameState) -> str:
    return transcript(state.line)


def test_play_follow_and_cut_the_line() -> None:
    st = GameState.new("g", human="both", moves=[Board().parse_move(m) for m in ("f5", "d6", "c3")])
    assert st.cursor == 3
    st.jump(1)
    st.play(Board().parse_move("d6"))  # the line's own next move: followed, nothing cut
    assert names(st) == "f5d6c3" and st.cursor == 2
    st.jump(1)
    assert st.play(Board().parse_move("f6"))  # another move: a variation becomes the line
    assert names(st) == "f5f6" and st.cursor == 2
    assert transcript(st.tree.line_moves(st.tree.main_line())) == "f5d6c3"  # nothing lost
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


def moves_of(text: str) -> list[int]:
    from bitflip.formats.transcript import parse_transcript

    return parse_transcript(text)


def test_a_variation_keeps_the_game_and_can_be_walked() -> None:
    st = GameState.new("g", human="both", moves=moves_of("f5d6c3d3c2f4"))
    main = list(st.path)
    st.jump(1)
    st.play(moves_of("f5f6")[1])
    assert names(st) == "f5f6" and not st.on_main_line()
    assert transcript(st.tree.line_moves(st.tree.main_line())) == "f5d6c3d3c2f4"
    st.goto(main[4])  # back into the main line: the line runs on to its end
    assert names(st) == "f5d6c3d3c2f4" and st.cursor == 4 and st.on_main_line()
    st.jump(1)
    st.play(moves_of("f5f6")[1])  # the branch again: followed, not added twice
    assert len(st.tree) == 8 and names(st) == "f5f6"
    with pytest.raises(GameError, match="no node"):
        st.goto(99)


def test_evaluations_and_analysis_belong_to_positions() -> None:
    st = GameState.new("g", human="both", moves=moves_of("f5d6c3"))
    st.set_eval(2, 4.0, False, "hint")  # black to move at node 2
    st.jump(1)
    st.play(moves_of("f5f6")[1])
    assert st.evals[2].score == 4.0  # the main line's node keeps it
    st.goto(3)
    assert st.evals[2].node == st.path[2]


def test_resign_ends_the_game_at_that_position_only() -> None:
    st = GameState.new("g", human="black", moves=moves_of("f5d6"))
    st.end(BLACK, "resigned")
    assert st.is_over() and st.ending() is not None
    with pytest.raises(GameError, match="over"):
        st.play(moves_of("f5d6c3")[2])
    st.jump(0)
    assert not st.is_over()  # an earlier position plays on
    back = GameState.from_json(st.to_json())
    assert back.endings == st.endings


def test_rows_stored_before_the_tree_still_load() -> None:
    f5, d6, c3 = moves_of("f5d6c3")
    old = {
        "id": "old",
        "size": 8,
        "start": Board().obf(),
        "line": [f5, d6, c3],
        "cursor": 2,
        "human": "both",
        "opponent": "random",
        "seed": None,
        "created": 1.0,
        "title": "",
        "evals": [{"ply": 2, "score": 1.5, "exact": False, "source": "hint"}],
        "analysis": [
            {
                "ply": 0,
                "move": f5,
                "score": 0.0,
                "best_move": f5,
                "best_score": 0.0,
                "loss": 0.0,
                "exact": False,
            }
        ],
    }
    st = GameState.from_json(old)
    assert st.line == [f5, d6, c3] and st.cursor == 2 and st.node == 2
    assert st.evals[2].score == 1.5 and st.analysis[1].played == f5
    assert st.analysis[1].ply == 0 and st.analysis[1].color == BLACK
    assert not st.analysis[1].comparable  # of unknown kind: no marks from it
    again = GameState.from_json(st.to_json())  # stored as the engine's type, read back
    assert again.analysis == st.analysis

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.formats import obf
from bitflip.formats.errors import FormatError
from bitflip.formats.obf import ObfPosition

from ._games import random_moves

FFO_FILES = ("fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf")


def test_ffo_annotations_are_exactly_the_legal_moves(shared_data: Path) -> None:
    total = 0
    for name in FFO_FILES:
        path = shared_data / "ffo" / name
        positions = list(obf.read(path))
        total += len(positions)
        for p in positions:
            assert set(p.scores) == set(p.board.legal_moves), p.board.obf()
            assert p.best_score() == max(p.scores.values())
        # writing gives back the file byte for byte
        assert obf.dumps(positions) == path.read_text()
    assert total == 59


def test_parse_line_with_comment() -> None:
    p = obf.parse_line(Board().obf() + "; F5:+0; d3:-2; % the start")
    assert p.scores == {37: 0, 19: -2} and p.comment == "the start"
    assert p.dumps() == Board().obf() + "; F5:+0; D3:-2; % the start"
    assert obf.loads("% header\n\n" + Board(size=6).obf() + "\n")[0].board == Board(size=6)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("-" * 63 + " X;", "16, 36 or 64 cells"),
        ("Z" + "-" * 63 + " X;", "bad cell 'Z' at a1"),
        ("{start}; F5:x1;", "f5: score 'x1' is not an integer"),
        ("{start}; F5:+99;", "beyond"),
        ("{start}; A1:+0;", "a1 is not a legal move"),
        ("{start}; Z9:+0;", "unknown move 'Z9'"),
        ("{start}; F5:+0; f5:+2;", "f5 is scored twice"),
        ("{start}; F5;", "'F5' is not MOVE:score"),
    ],
)
def test_errors_name_the_line_and_problem(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "p.obf"
    path.write_text("% ok\n" + Board().obf() + ";\n" + line.format(start=Board().obf()) + "\n")
    with pytest.raises(FormatError) as info:
        list(obf.read(path))
    assert str(info.value).startswith(f"{path}:3: OBF: ")
    assert message in str(info.value)


@st.composite
def positions(draw: st.DrawFn) -> ObfPosition:
    size = draw(st.sampled_from((8, 6)))
    moves = random_moves(draw(st.integers(0, 2**32)), size, draw(st.integers(0, 60)))
    board = Board(size=size)
    for m in moves:
        board.push(m)
    board = board.copy(stack=False)
    legal = list(board.legal_moves)
    rng = random.Random(draw(st.integers(0, 1000)))
    chosen = rng.sample(legal, rng.randint(0, len(legal)))
    n = size * size
    scores = {m: draw(st.integers(-n, n)) for m in chosen}
    comment = draw(st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=10))
    return ObfPosition(board, scores, comment.strip())


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(positions(), max_size=5))
def test_round_trip(tmp_path: Path, ps: list[ObfPosition]) -> None:
    assert obf.loads(obf.dumps(ps)) == ps
    obf.write(tmp_path / "x.obf", ps)
    assert list(obf.read(tmp_path / "x.obf")) == ps


_PIECES = ["-", "X", "O", " ", ";", ":", "+", "1", "F5", "D3", "%", "\n", "\r", "pa"]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=100),
        st.lists(st.sampled_from(_PIECES), max_size=90).map("".join),
        st.text(max_size=20).map(lambda t: Board().obf() + ";" + t),
    )
)
def test_fuzz(text: str) -> None:
    try:
        ps = obf.loads(text)
    except FormatError as exc:
        assert exc.fmt == "OBF" and exc.line is not None
        return
    for p in ps:
        assert set(p.scores) <= set(p.board.legal_moves)
        assert obf.loads(obf.dumps([p])) == [p]


def test_forced_pass_is_written_ps() -> None:
    # white to move with no legal move while black still has one
    board = Board("X" * 8 + "O" + "-" * 55 + " O")
    assert list(board.legal_moves) == [64]
    p = ObfPosition(board, {64: -3})
    assert p.dumps().endswith("O; PS:-3;")
    assert obf.loads(p.dumps()) == [p]

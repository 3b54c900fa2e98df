from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.core.geometry import PASS, geometry
from bitflip.formats import transcript
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord
from bitflip.formats.transcript import format_transcript, parse_transcript

from ._games import games, random_moves


def _game_with_a_pass(size: int = 8) -> list[int]:
    for seed in range(1000):
        moves = random_moves(seed, size)
        if PASS in moves:
            return moves
    raise AssertionError("no random game with a pass")


def test_parse_any_case_and_spaces() -> None:
    assert parse_transcript("f5d6c3") == [37, 43, 18]
    assert parse_transcript(" F5 d6\tC3 ") == [37, 43, 18]
    assert parse_transcript("") == []


def test_passes_written_or_implicit() -> None:
    moves = _game_with_a_pass()
    assert parse_transcript(format_transcript(moves)) == moves
    written = format_transcript(moves, passes=True)
    assert "pa" in written
    assert parse_transcript(written.upper()) == moves
    cut = moves[: moves.index(PASS) + 1]  # a game cut right after a pass keeps it
    assert format_transcript(cut).endswith("pa")
    assert parse_transcript(format_transcript(cut)) == cut
    with pytest.raises(FormatError, match=r"move 1: illegal move pa"):
        parse_transcript("pa")


def test_illegal_move_names_number_and_move() -> None:
    with pytest.raises(FormatError, match=r"^transcript: move 2: illegal move f5 for white"):
        parse_transcript("f5f5")
    with pytest.raises(FormatError, match=r"move 3: 'z9' is not a square"):
        parse_transcript("f5d6z9")
    with pytest.raises(FormatError, match="odd number"):
        parse_transcript("f5d")
    with pytest.raises(FormatError, match="not a square of a 6x6"):
        parse_transcript("g7", size=6)


@settings(max_examples=60, deadline=None)
@given(games(), st.booleans(), st.data())
def test_round_trip(game: tuple[int, list[int]], passes: bool, data: st.DataObject) -> None:
    size, moves = game
    text = format_transcript(moves, passes=passes)
    assert text == text.lower()
    if data.draw(st.booleans()):
        text = text.upper()
    if data.draw(st.booleans()):
        text = " ".join(text[i : i + 2] for i in range(0, len(text), 2))
    assert parse_transcript(text, size) == moves


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(games(sizes=(6,)), max_size=5))
def test_file_round_trip(tmp_path: Path, gs: list[tuple[int, list[int]]]) -> None:
    recs = [GameRecord(moves=m, size=s) for s, m in gs if m]
    path = tmp_path / "games.txt"
    transcript.write(path, recs)
    assert list(transcript.read(path, size=6)) == recs
    assert transcript.loads(transcript.dumps(recs, passes=True), size=6) == recs


def test_file_errors_carry_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text("# comment\n\nf5d6\nf5d6c3d3c4f4f6f3e6e7d7c6c5d8c7b6e3e8\n")
    with pytest.raises(FormatError) as info:
        list(transcript.read(path))
    assert str(info.value).startswith(f"{path}:4: transcript: move 18: illegal move e8")
    assert info.value.line == 4
    with pytest.raises(ValueError, match="non-standard start"):
        transcript.dumps([GameRecord(start=Board().obf())])
    with pytest.raises(ValueError, match="without moves"):
        transcript.dumps([GameRecord()])


_TOKENS = [*(geometry(8).square_name(s) for s in range(64)), "pa", "PA", " ", "zz", "i9"]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=80), st.lists(st.sampled_from(_TOKENS), max_size=70).map("".join))
)
def test_fuzz(text: str) -> None:
    try:
        moves = parse_transcript(text)
    except FormatError as exc:
        assert exc.fmt == "transcript"
        return
    b = Board()  # whatever parsed is a legal game with its passes written out
    for m in moves:
        b.push(m)
    squashed = "".join(text.split()).lower()
    tokens = [squashed[i : i + 2] for i in range(0, len(squashed), 2)]
    squares = [geometry(8).parse_square(t) for t in tokens if t not in ("pa", "ps", "--")]
    assert [m for m in moves if m != PASS] == squares

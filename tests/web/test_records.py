"""Save and load: web games to transcripts and GGF through bitflip.formats, and back."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats.errors import FormatError
from bitflip.web import records
from bitflip.web.games import GameState


def test_ggf_round_trip_keeps_a_set_up_6x6_start_and_passes() -> None:
    start = "-" * 14 + "OX----XO" + "-" * 14 + " O"
    b = Board(start)
    moves = []
    for _ in range(6):
        m = next(iter(b.legal_moves))
        b.push(m)
        moves.append(m)
    st = GameState.new("g", start=start, moves=moves, human="white", opponent="greedy")
    text = records.write(records.record_of(st, ("you", "greedy")), "ggf")
    assert "PB[you]" in text and "PW[greedy]" in text and "BO[6 " in text
    back = records.read(text)
    assert back.start == start and back.moves == moves and back.size == 6


def test_transcript_round_trip_and_detection() -> None:
    st = GameState.new("g", moves=[Board().parse_move(m) for m in ("f5", "d6", "c3")])
    text = records.write(records.record_of(st, ("", "")), "transcript")
    assert text == "f5d6c3" and records.detect_format(text) == "transcript"
    assert records.detect_format("  (;GM[Othello];)") == "ggf"
    assert records.read("F5 d6 C3").moves == st.line
    assert PASS not in records.read("f5d6c3").moves


@pytest.mark.parametrize(
    ("text", "fmt", "words"),
    [
        ("", "auto", "empty"),
        ("f5f", "transcript", "odd"),
        ("f5d6a1", "auto", "move 3"),
        ("(;GM[Othello]B[f5", "ggf", "GGF"),
        ("f5", "pdf", "unknown format"),
    ],
)
def test_bad_text_says_what_is_wrong(text: str, fmt: str, words: str) -> None:
    with pytest.raises((FormatError, ValueError), match=words):
        records.read(text, fmt)

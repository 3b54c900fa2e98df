"""Hypothesis strategies shared by the format tests: random legal games and records."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats.record import GameRecord


def random_moves(
    seed: int, size: int = 8, max_plies: int = 200, start: str | None = None
) -> list[int]:
    """A random legal game (passes written out), cut after ``max_plies`` plies."""
    rng = random.Random(seed)
    board = Board(start) if start else Board(size=size)
    moves: list[int] = []
    while not board.is_game_over() and len(moves) < max_plies:
        m = rng.choice(list(board.legal_moves))
        board.push(m)
        moves.append(m)
    return moves


@st.composite
def games(draw: st.DrawFn, sizes: tuple[int, ...] = (8, 6)) -> tuple[int, list[int]]:
    """(size, moves): a random legal game, finished or cut short, on one of ``sizes``."""
    size = draw(st.sampled_from(sizes))
    seed = draw(st.integers(0, 2**32))
    cut = draw(st.one_of(st.just(200), st.integers(0, 70)))
    return size, random_moves(seed, size, cut)


names = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="]\\"),
    max_size=12,
)


def finished_black_score(size: int, moves: list[int]) -> int | None:
    b = Board(size=size)
    for m in moves:
        b.push(m)
    o = b.outcome()
    return o.black if o else None


__all__ = ["PASS", "GameRecord", "finished_black_score", "games", "names", "random_moves"]

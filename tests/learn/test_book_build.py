"""Building a book from WTHOR: counts by symmetry, leaves searched, scores negamaxed."""

from __future__ import annotations

from pathlib import Path

from bitflip import Board
from bitflip.learn.book_build import BookConfig, build_book, wthor_files


def test_a_small_book_from_wthor(shared_data: Path) -> None:
    files = wthor_files(shared_data / "wthor")[-3:]
    book = build_book(files, BookConfig(max_ply=4, min_games=200, depth=2, tt_mb=1))
    start = Board()
    here = book.probe(*start.side_bitboards())
    assert here is not None
    score, games = here
    assert games == int(book.meta["source"].split()[-2])  # type: ignore[union-attr]
    moves = book.moves(*start.side_bitboards(), start.geometry.mask)
    assert len(moves) == 4 and all(m.games == games for m in moves)  # one position by symmetry
    # Negamax: the start's score is its best child's.
    assert score == max(m.score for m in moves)
    b = Board()
    b.push("f5")
    replies = book.moves(*b.side_bitboards(), b.geometry.mask)
    assert {b.geometry.square_name(m.move) for m in replies} >= {"d6", "f6"}
    assert book.probe(*b.side_bitboards())[0] >= replies[0].score  # type: ignore[index]

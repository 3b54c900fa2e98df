"""An opening book: positions with negamaxed scores and game counts, looked up by symmetry.

A book is an ``.npz`` file (built by :mod:`bitflip.learn.book_build`) holding the canonical
(symmetry-reduced, :func:`bitflip.core.hashing.canonical`) side-relative positions, sorted,
with each one's score (centidiscs, side to move's view: the negamax over the book's tree of
short searches at its leaves) and the number of games that reached it. The engine asks
:meth:`Book.choose` for a move before searching: among the legal moves whose position is in
the book, the best by score, or with ``randomness`` any within that many discs of it.

Books are input from anywhere: :func:`load_book` checks every array and raises
:class:`BookError` naming the file and what is wrong.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bitflip._atomic import atomic_path
from bitflip._npz import read_npz
from bitflip.core.bitboard import legal_moves, play
from bitflip.core.hashing import canonical

BOOK_FORMAT = "bitflip-book"
BOOK_VERSION = 1
BOOK_ARRAYS = ("player", "opponent", "score", "games")
MAX_BOOK_SCORE = 6400
"""Scores are centidiscs: at most 64 discs either way."""


class BookError(ValueError):
    """A book file that cannot be read: missing, not a book, or with inconsistent arrays."""


@dataclass(frozen=True)
class BookMove:
    """A move whose position is in the book: its score (discs, mover's view) and games."""

    move: int
    score: float
    games: int


@dataclass(frozen=True)
class Book:
    """Sorted canonical positions and their scores and counts (see the module docstring)."""

    player: np.ndarray
    opponent: np.ndarray
    score: np.ndarray
    games: np.ndarray
    meta: dict[str, object] = field(default_factory=dict)
    """How the book was built (command, data, depth, date): shown by ``bitflip book show``."""

    def __len__(self) -> int:
        return int(self.player.shape[0])

    def probe(self, p: int, o: int) -> tuple[float, int] | None:
        """(score in discs, games) of the side-relative position (any symmetry), or None."""
        cp, co, _ = canonical(np.uint64(p), np.uint64(o), 8)
        lo = int(np.searchsorted(self.player, cp, "left"))
        hi = int(np.searchsorted(self.player, cp, "right"))
        if lo == hi:
            return None
        i = lo + int(np.searchsorted(self.opponent[lo:hi], co, "left"))
        if i >= hi or self.opponent[i] != co:
            return None
        return int(self.score[i]) / 100, int(self.games[i])

    def moves(self, p: int, o: int, mask: int) -> list[BookMove]:
        """The legal moves of (p, o) that lead into the book, best first."""
        out = []
        m = int(legal_moves(np.uint64(p), np.uint64(o), np.uint64(mask)))
        while m:
            sq = (m & -m).bit_length() - 1
            m &= m - 1
            np_, no = play(np.uint64(p), np.uint64(o), sq)
            hit = self.probe(int(np_), int(no))
            if hit is not None:
                out.append(BookMove(sq, -hit[0], hit[1]))
        out.sort(key=lambda b: (-b.score, -b.games))
        return out

    def choose(
        self, p: int, o: int, mask: int, randomness: float = 0.0, rng: random.Random | None = None
    ) -> BookMove | None:
        """A book move of (p, o): the best, or with ``randomness`` (discs) any move scored
        within that much of the position's book score, chosen at random. None when the
        position is not in the book or its best move leaves it."""
        if mask != (1 << 64) - 1:
            return None  # the book is for 8x8
        moves = self.moves(p, o, mask)
        if not moves:
            return None
        here = self.probe(p, o)
        best = here[0] if here is not None else moves[0].score
        good = [m for m in moves if m.score >= best - max(randomness, 0.0) - 1e-9]
        if not good:
            return None  # the best move is one the book does not hold: search it
        if randomness <= 0 or len(good) == 1:
            return good[0]
        return (rng or random.Random()).choice(good)


def load_book(path: str | os.PathLike[str]) -> Book:
    """Read and check a book file.

    Raises:
        BookError: the file is missing, not an npz book, or its arrays disagree.
    """
    name = os.fspath(path)
    try:
        arrays = read_npz(name, "bitflip book", (*BOOK_ARRAYS, "meta"), error=BookError)
    except FileNotFoundError as e:
        raise BookError(str(e)) from None
    meta_text = str(arrays.pop("meta"))
    try:
        meta = json.loads(meta_text)
    except json.JSONDecodeError as e:
        raise BookError(f"{name}: the meta record is not JSON: {e}") from e
    if not isinstance(meta, dict) or meta.get("format") != BOOK_FORMAT:
        raise BookError(f"{name}: not a bitflip book (format {meta!r:.60})")
    if meta.get("version") != BOOK_VERSION:
        raise BookError(f"{name}: book version {meta.get('version')!r}, this reads {BOOK_VERSION}")
    return _checked(name, arrays, meta)


def _checked(name: str, a: dict[str, np.ndarray], meta: dict[str, object]) -> Book:
    kinds = {"player": np.uint64, "opponent": np.uint64, "score": np.int16, "games": np.uint32}
    n = a["player"].shape
    for k, dtype in kinds.items():
        if a[k].dtype != dtype or a[k].ndim != 1 or a[k].shape != n:
            raise BookError(
                f"{name}: array {k!r} is {a[k].dtype}{list(a[k].shape)}, expected "
                f"{np.dtype(dtype)}{list(n)} like 'player'"
            )
    p, o = a["player"], a["opponent"]
    if (p & o).any():
        raise BookError(f"{name}: a position has a square with both colours")
    if len(p) > 1:
        step_ok = (p[1:] > p[:-1]) | ((p[1:] == p[:-1]) & (o[1:] > o[:-1]))
        if not step_ok.all():
            raise BookError(
                f"{name}: positions are not sorted and unique (at {np.argmin(step_ok) + 1})"
            )
    if (np.abs(a["score"].astype(np.int32)) > MAX_BOOK_SCORE).any():
        raise BookError(f"{name}: a score is beyond 64 discs")
    return Book(p, o, a["score"], a["games"], meta)


def save_book(path: str | os.PathLike[str], book: Book) -> None:
    """Write a book (the arrays must already be sorted canonical positions) to ``path`` as
    named, whole or not at all (a killed build leaves the old file)."""
    meta = {"format": BOOK_FORMAT, "version": BOOK_VERSION, **book.meta}
    with atomic_path(path, ".npz") as tmp:
        np.savez_compressed(
            tmp,
            player=book.player,
            opponent=book.opponent,
            score=book.score,
            games=book.games,
            meta=np.array(json.dumps(meta)),
        )


DEFAULT_BOOK = "book-wthor.npz"
"""The book shipped in ``bitflip/data`` (``book="default"``)."""


def default_book_path() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / DEFAULT_BOOK


def open_book(book: str | os.PathLike[str] | Book | None) -> Book | None:
    """A book from a path, ``"default"`` (the shipped one), a Book, or None/``"none"``."""
    if book is None or isinstance(book, Book):
        return book
    if str(book) in ("none", "off", ""):
        return None
    return load_book(default_book_path() if str(book) == "default" else book)

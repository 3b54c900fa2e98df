"""Build an opening book from recorded games: positions, counts, negamaxed search scores.

As Edax builds its book: every position that at least ``min_games`` games reached within the
first ``max_ply`` moves is a book node. A node's moves that stay in the book take the value of
the position they lead to; its other moves are scored together by one short search that skips
the book moves (the best "leaf" move). Negamax from the deepest nodes up gives each node its
score. Reading and choosing book moves is :mod:`bitflip.search.book`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.bitboard import legal_moves, play, popcount
from bitflip.core.geometry import geometry
from bitflip.core.hashing import canonical
from bitflip.core.replay import replay
from bitflip.engine import load_engine_evaluation
from bitflip.formats.wthor import load_wtb, wtb_files
from bitflip.search.book import MAX_BOOK_SCORE, Book
from bitflip.search.driver import Searcher
from bitflip.search.levels import level_spec
from bitflip.search.plan import SearchPlan, probcut_t
from bitflip.search.probcut import load_table

FULL = (1 << 64) - 1


@dataclass(frozen=True)
class BookConfig:
    """What goes into a book and how its leaves are scored."""

    max_ply: int = 22
    """Positions with at most this many moves (passes included) played."""
    min_games: int = 10
    """Keep a position reached by at least this many games."""
    depth: int = 10
    """Leaf search depth; its selectivity is that of the level of the same number in the same
    position (levels 14-16 cut at 88% below 42 empties)."""
    tt_mb: int = 64


@dataclass(frozen=True)
class Positions:
    """Unique canonical positions and how many games reached each."""

    player: np.ndarray
    opponent: np.ndarray
    games: np.ndarray
    total_games: int


@njit(cache=True)
def _canonical_many(p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cp = np.empty_like(p)
    co = np.empty_like(o)
    for i in range(p.shape[0]):
        a, b, _ = canonical(p[i], o[i], 8)
        cp[i] = a
        co[i] = b
    return cp, co


def collect_positions(files: Sequence[Path], max_ply: int) -> Positions:
    """Every canonical position of the games' first ``max_ply`` moves, with its game count
    (a game counts once per position even if it comes back by symmetry)."""
    g8 = geometry(8)
    ps, os_, gs = [], [], []
    total = 0
    for f in files:
        games = load_wtb(f)
        rep = replay(games.squares(), g8.mask, start=g8.start_position(), positions=True)
        pos = rep.positions
        assert pos is not None
        keep = pos.ply <= max_ply
        ps.append(pos.player[keep])
        os_.append(pos.opponent[keep])
        gs.append(pos.game[keep] + total)
        total += len(games)
    p, o = _canonical_many(np.concatenate(ps), np.concatenate(os_))
    g = np.concatenate(gs).astype(np.uint64)
    # One row per (position, game), then count the games of each position.
    rows = np.unique(np.stack([p, o, g], axis=1), axis=0)
    uniq, counts = np.unique(rows[:, :2], axis=0, return_counts=True)
    return Positions(uniq[:, 0].copy(), uniq[:, 1].copy(), counts.astype(np.uint32), total)


def build_book(
    files: Sequence[Path],
    config: BookConfig,
    on_progress: Callable[[int, int], None] | None = None,
) -> Book:
    """The book of the games in ``files`` (``.wtb``), its leaves searched as ``config`` says."""
    t0 = time.perf_counter()
    found = collect_positions(files, config.max_ply)
    keep = found.games >= config.min_games
    player, opponent, games = found.player[keep], found.opponent[keep], found.games[keep]
    index = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(player, opponent, strict=True))}
    n = len(player)
    evaluation = load_engine_evaluation("default")
    searcher = Searcher(evaluation, tt_mb=config.tt_mb, mpc=load_table(evaluation.name))
    spec = level_spec(min(config.depth, 20))
    leaf = np.full(n, -(10**6), dtype=np.int64)
    children: list[list[int]] = []
    for i in range(n):
        p, o = int(player[i]), int(opponent[i])
        kids, book_moves = _book_children(p, o, index)
        children.append(kids)
        plan = SearchPlan(
            max_depth=config.depth,
            exact_empties=spec.endgame_depth,
            probcut_t=probcut_t(spec.selectivity_at(64 - (p | o).bit_count())),
            exclude=book_moves,
        )
        moves = int(legal_moves(np.uint64(p), np.uint64(o), np.uint64(FULL)))
        if moves == 0 or moves & ~book_moves:
            result, _ = searcher.search(p, o, FULL, plan)
            leaf[i] = round(result.score * 100)
        if on_progress is not None and (i + 1) % 200 == 0:
            on_progress(i + 1, n)
    score = _negamax(player, opponent, leaf, children)
    meta: dict[str, object] = {
        "source": f"WTHOR, {len(files)} files, {found.total_games} games",
        "max_ply": config.max_ply,
        "min_games": config.min_games,
        "leaf_depth": config.depth,
        "positions": n,
        "build_seconds": round(time.perf_counter() - t0, 1),
        "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    return Book(player, opponent, score, games, meta)


def _book_children(p: int, o: int, index: dict[tuple[int, int], int]) -> tuple[list[int], int]:
    """The book nodes the moves of (p, o) lead to, and those moves as a square mask."""
    kids: list[int] = []
    mask = 0
    m = int(legal_moves(np.uint64(p), np.uint64(o), np.uint64(FULL)))
    while m:
        sq = (m & -m).bit_length() - 1
        m &= m - 1
        np_, no = play(np.uint64(p), np.uint64(o), sq)
        cp, co, _ = canonical(np.uint64(np_), np.uint64(no), 8)
        k = index.get((int(cp), int(co)))
        if k is not None:
            kids.append(k)
            mask |= 1 << sq
    return kids, mask


def _negamax(
    player: np.ndarray, opponent: np.ndarray, leaf: np.ndarray, children: list[list[int]]
) -> np.ndarray:
    """Each node's score: the best of its leaf score and its book children's, negated;
    children (one more disc) are done before their parents."""
    discs = np.array(
        [int(popcount(np.uint64(a | b))) for a, b in zip(player, opponent, strict=True)]
    )
    value = leaf.copy()
    for i in np.argsort(-discs, kind="stable"):
        for k in children[i]:
            value[i] = max(value[i], -value[k])
    if (np.abs(value) > MAX_BOOK_SCORE).any():
        raise ValueError("a book node has no move scored: the book's tree is broken")
    return value.astype(np.int16)


def wthor_files(folder: Path) -> list[Path]:
    """The ``.wtb`` files of a WTHOR folder."""
    files = wtb_files(folder)
    if not files:
        raise ValueError(f"no .wtb files in {folder}")
    return files

"""Game databases -> training positions, and the splits and deduplication learners need.

:func:`positions_from_games` replays games (through :func:`bitflip.core.replay.replay`, the one
replay) into a :class:`~bitflip.learn.shards.PositionBatch`, the one training-data format; a
writer of finished games from the standard start needs three lines::

    batch, stats = positions_from_games(GameSource(move_lists))  # passes optional
    write_shard(out_dir / "selfplay-000123", batch, source="self-play generation 3")
    everything = read_shards(out_dir)  # game numbers stay unique across shards

WTHOR's theoretical score is exact only at the position where ``depth`` empties remain (24 in
every file), so it is stored there and ``NO_SCORE`` elsewhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from bitflip.core.arrays import empties_many, legal_moves_many
from bitflip.core.bitboard import FULL, U1, lowest_square, transform
from bitflip.core.geometry import PASS, geometry
from bitflip.core.hashing import position_hash
from bitflip.core.replay import END, replay
from bitflip.learn.shards import NO_SCORE, PositionBatch


@dataclass
class GameSource:
    """Games to convert: move lists (squares, passes optional) with what the file says.

    Self-play can pass just the move lists: ``GameSource(moves)`` (year 0, no theoretical
    score); the results come from replaying the games. ``moves`` may also be an array of
    squares, one row per game, padded with -1 (passes not allowed there).
    """

    moves: list[list[int]] | np.ndarray
    years: Sequence[int] | np.ndarray | None = None
    """Year of each game (None: 0 for all)."""
    theoretical_black: Sequence[int] | np.ndarray | None = None
    """Black's perfect-play disc count at ``theoretical_depth`` empties, or -1 (None: all -1)."""
    theoretical_depth: int | np.ndarray = 24
    """Empties at which the theoretical score holds: one for all games, or one per game."""

    def move_array(self) -> np.ndarray:
        """The moves without passes as an END-padded int16 array (games, plies)."""
        if isinstance(self.moves, np.ndarray):
            return np.where(self.moves < 0, END, self.moves).astype(np.int16)
        played = [[m for m in ms if m != PASS] for ms in self.moves]
        lengths = np.array([len(ms) for ms in played], dtype=np.int64)
        out = np.full((len(played), max(1, int(lengths.max(initial=0)))), END, dtype=np.int16)
        rows = np.repeat(np.arange(len(played)), lengths)
        cols = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        out[rows, cols] = np.fromiter(itertools.chain.from_iterable(played), np.int16, len(rows))
        return out


@dataclass
class BuildStats:
    """What a conversion kept and dropped."""

    games: int = 0
    illegal: list[tuple[int, int]] | None = None
    """(game number, move index) of games dropped because a move was illegal."""
    unfinished: int = 0
    positions: int = 0


def _per_game(values: Sequence[int] | np.ndarray | int | None, n: int, default: int) -> np.ndarray:
    if values is None:
        return np.full(n, default, dtype=np.int64)
    return np.broadcast_to(np.asarray(values, dtype=np.int64), (n,))


def positions_from_games(source: GameSource) -> tuple[PositionBatch, BuildStats]:
    """Replay the games of ``source`` into training positions (8x8 standard start only).

    Games with an illegal move are dropped and listed in the stats; games that stop before
    the end keep their positions with ``result_known`` False. Positions where the mover must
    pass are left out.
    """
    moves = source.move_array()
    n_games = moves.shape[0]
    g8 = geometry(8)
    rep = replay(moves, g8.mask, start=g8.start_position(), positions=True)
    pos = rep.positions
    assert pos is not None
    game = pos.game
    side = pos.white.astype(np.int8)
    known = rep.over[game]
    mover = np.where(side == 0, 1, -1)
    diff = np.where(known, rep.black_margin()[game] * mover, 0)
    theoretical = np.full(len(game), NO_SCORE, dtype=np.int64)
    theo_black = _per_game(source.theoretical_black, n_games, -1)
    depth = _per_game(source.theoretical_depth, n_games, 24)
    at_depth = (empties_many(pos.player, pos.opponent, FULL) == depth[game]) & (
        theo_black[game] >= 0
    )
    first = np.unique(game[at_depth], return_index=True)[1]
    rows = np.flatnonzero(at_depth)[first]
    theoretical[rows] = (2 * theo_black[game[rows]] - 64) * mover[rows]
    years = _per_game(source.years, n_games, 0)
    batch = PositionBatch(
        player=pos.player,
        opponent=pos.opponent,
        side=side,
        legal=legal_moves_many(pos.player, pos.opponent, FULL),
        move=moves[game, _move_index(game)],
        disc_diff=diff,
        wdl=np.sign(diff),
        theoretical=theoretical,
        result_known=known,
        game=game,
        year=years[game],
        ply=pos.ply,
    )
    illegal = [(int(g), int(rep.bad[g])) for g in np.flatnonzero(rep.bad >= 0)]
    finished = int(np.count_nonzero(rep.over & (rep.bad < 0)))
    stats = BuildStats(
        games=n_games - len(illegal),
        illegal=illegal,
        unfinished=n_games - len(illegal) - finished,
        positions=len(batch),
    )
    return batch, stats


def _move_index(game: np.ndarray) -> np.ndarray:
    """Index of each position's move within its game (positions are in game order)."""
    if not len(game):
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    counts = np.diff(np.r_[starts, len(game)])
    return np.arange(len(game)) - np.repeat(starts, counts)


# --- splits and dedup ---------------------------------------------------------------


def split_by_game(
    positions: PositionBatch, fractions: Sequence[float], seed: int
) -> list[np.ndarray]:
    """Boolean masks assigning whole games to parts of the given sizes (a seeded shuffle).

    Different seeds give the independent splits of the HKU protocol; a position never sits in
    two parts unless the same position occurs in two games.
    """
    if any(f < 0 for f in fractions) or not 0.999 <= sum(fractions) <= 1.001:
        raise ValueError(f"split fractions must be >= 0 and sum to 1, not {list(fractions)}")
    games = np.unique(positions.game)
    rng = np.random.default_rng(seed)
    rng.shuffle(games)
    bounds = np.round(np.cumsum([0.0, *fractions]) * len(games)).astype(np.int64)
    masks = []
    for a, b in itertools.pairwise(bounds):
        masks.append(np.isin(positions.game, games[a:b]))
    return masks


def by_years(positions: PositionBatch, first: int | None, last: int | None) -> np.ndarray:
    """Mask of the positions whose game year lies in [first, last] (None: unbounded)."""
    ok = np.ones(len(positions), dtype=bool)
    if first is not None:
        ok &= positions.year >= first
    if last is not None:
        ok &= positions.year <= last
    return ok


@njit(cache=True)
def canonical_keys(p: np.ndarray, o: np.ndarray, move: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each (position, move) up to symmetry (move < 0: position only).

    Two positions get the same key when one board (and move) is a symmetry of the other;
    different ones collide with probability about n**2 / 2**65 (1e-6 for 7 M positions).
    """
    n = len(p)
    keys = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        bp, bo = p[i], o[i]
        for s in range(1, 8):
            tp = transform(p[i], s, 8)
            to = transform(o[i], s, 8)
            if tp < bp or (tp == bp and to < bo):
                bp, bo = tp, to
        sq = 255
        if move[i] >= 0:
            # a symmetric board (the start, say) maps a move to several squares: take the least
            for s in range(8):
                if transform(p[i], s, 8) == bp and transform(o[i], s, 8) == bo:
                    sq = min(sq, lowest_square(transform(U1 << np.uint64(move[i]), s, 8)))
        keys[i] = position_hash(bp, bo ^ (np.uint64(sq) * _GOLDEN))
    return keys


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def dedup_policy(positions: PositionBatch) -> PositionBatch:
    """One position per (position, move) up to symmetry: repeated openings count once.

    Pass rows are left out (they have no move to learn).
    """
    positions = positions.moves_played()
    keys = canonical_keys(positions.player, positions.opponent, positions.move.astype(np.int64))
    _, first = np.unique(keys, return_index=True)
    return positions.subset(np.sort(first))


@dataclass
class ValueTargets:
    """Deduplicated value-training positions: each position once, its targets averaged."""

    positions: PositionBatch
    """One representative per position (its own targets are not the averaged ones)."""
    wdl: np.ndarray
    """Mean result from the mover's view over all games that reached the position, float32."""
    disc_diff: np.ndarray
    """Mean final disc difference from the mover's view, float32."""
    count: np.ndarray
    """How many positions were merged into each."""


def dedup_value(positions: PositionBatch) -> ValueTargets:
    """One entry per position up to symmetry (finished games only), targets averaged."""
    known = positions.subset(positions.result_known)
    moves = np.full(len(known), -1, dtype=np.int64)
    keys = canonical_keys(known.player, known.opponent, moves)
    _, first, inverse, count = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    inverse = inverse.reshape(-1)
    wdl = np.bincount(inverse, weights=known.wdl, minlength=len(first)) / count
    diff = np.bincount(inverse, weights=known.disc_diff, minlength=len(first)) / count
    return ValueTargets(
        positions=known.subset(first),
        wdl=wdl.astype(np.float32),
        disc_diff=diff.astype(np.float32),
        count=count.astype(np.int64),
    )

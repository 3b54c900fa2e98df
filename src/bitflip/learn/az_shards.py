"""Self-play games as shards of the shared training format, and read back for training.

:func:`write_selfplay_shard` writes a self-play batch (pass rows and the search's ``policy``
included) as one shard (:mod:`bitflip.learn.shards`); :func:`read_selfplay_shards` reads a
window of them into the network's action space, with the exact margins of solved positions as
targets where known.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bitflip.learn.shards import NO_SCORE, PositionBatch, read_shards, write_shard
from bitflip.nn.alphazero import action_squares
from bitflip.search.mcts.games import GameBatch


def selfplay_positions(
    games: GameBatch, size: int, theoretical: np.ndarray | None = None
) -> PositionBatch:
    """A self-play batch in the shared training format, pass rows and ``policy`` included;
    ``theoretical``: exact margins where known (``NO_SCORE`` elsewhere, the default)."""
    margin = games.mover_margin()
    n = len(margin)
    return PositionBatch(
        player=games.player,
        opponent=games.opponent,
        side=games.side,
        legal=games.legal,
        move=games.move,
        disc_diff=margin,
        wdl=np.sign(margin),
        theoretical=np.full(n, NO_SCORE) if theoretical is None else theoretical,
        result_known=np.ones(n, np.bool_),
        game=games.game,
        year=np.zeros(n),
        ply=games.ply,
        policy=games.policy[:, action_squares(size)],
        size=size,
    )


def write_selfplay_shard(
    path: Path, games: GameBatch, size: int, source: str, theoretical: np.ndarray | None = None
) -> Path:
    """Write a self-play batch as one shard (:mod:`bitflip.learn.shards`)."""
    return write_shard(path, selfplay_positions(games, size, theoretical), source=source)


@dataclass
class TrainingData:
    """Self-play positions in the network's action space."""

    player: np.ndarray
    opponent: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    """Result of the game for the mover (+1 / 0 / -1), or the exact one where it is known."""
    margin: np.ndarray
    """Final disc difference for the mover, or the exact one where it is known."""

    def __len__(self) -> int:
        return len(self.player)


def read_selfplay_shards(
    paths: list[Path], size: int, backfill_exact: bool = False
) -> TrainingData:
    """Concatenate self-play shards (:func:`bitflip.learn.shards.read_shards`), checking size.

    ``backfill_exact`` (``train.backfill_exact``): positions played before a game's first
    exactly solved position take that position's exact margin as their game's result, as if
    the game had been finished perfectly from there.
    """
    batches = [read_shards([p]) for p in paths]
    for p, batch in zip(paths, batches, strict=True):
        if batch.size != size:
            raise ValueError(f"{p}: a {batch.size}x board, the run is {size}x")
        if batch.policy is None:
            raise ValueError(f"{p}: not a self-play shard (no policy)")
    margins, values = [], []
    for batch in batches:
        known = batch.theoretical != NO_SCORE
        margin = np.where(known, batch.theoretical, batch.disc_diff).astype(np.float32)
        value = np.where(known, np.sign(batch.theoretical), batch.wdl).astype(np.float32)
        if backfill_exact:
            margin = exact_backfill(batch.game, batch.ply, batch.side, batch.theoretical, margin)
            value = np.sign(margin).astype(np.float32)
        margins.append(margin)
        values.append(value)
    return TrainingData(
        np.concatenate([b.player for b in batches]),
        np.concatenate([b.opponent for b in batches]),
        np.concatenate([b.policy for b in batches]).astype(np.float32),
        np.concatenate(values),
        np.concatenate(margins),
    )


def exact_backfill(
    game: np.ndarray, ply: np.ndarray, side: np.ndarray, theoretical: np.ndarray,
    margin: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``margin`` with every position before its game's first solved one (the least ``ply``
    whose ``theoretical`` is known) set to that position's exact margin, seen from its own
    mover; games without a solved position are left as they are."""
    out = margin.copy()
    known = theoretical != NO_SCORE
    order = np.lexsort((ply, game))
    first: dict[int, int] = {}
    for i in order[known[order]]:
        first.setdefault(int(game[i]), int(i))
    for i in np.flatnonzero(~known):
        r = first.get(int(game[i]))
        if r is not None and ply[i] < ply[r]:
            out[i] = theoretical[r] if side[i] == side[r] else -theoretical[r]
    return out

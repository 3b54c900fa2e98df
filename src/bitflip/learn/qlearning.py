"""Tabular Q-learning over hashed states (the Q-learning report), in numba.

Q(s, a) lives in an open-addressing hash table keyed by a 64-bit hash of the side-relative
position (optionally reduced over the 8 symmetries, the action moved with it) and the action.
Positions are seen from the side to move, so one table serves both colours: in self-play the
target of a move is ``r - gamma * max Q(s', .)`` where ``s'`` is the opponent's position
(zero-sum); against a fixed opponent it is ``r + gamma * max Q(s'', .)`` at our next turn.
Rewards come only at the end: +1 win, 0 draw, -1 loss. When the table is full, new pairs are
not stored and read as 0: on 8x8 that is what happens, and the numbers show it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from bitflip._atomic import atomic_path
from bitflip._npz import read_npz
from bitflip._progress import ProgressLine
from bitflip.core.bitboard import (
    FULL,
    U1,
    final_margin,
    game_over,
    legal_moves,
    lowest_square,
    play_or_pass,
    popcount,
    random_square,
    transform,
)
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS, board_mask, geometry
from bitflip.core.hashing import position_hash
from bitflip.tomlconfig import read_flat_config

TABLE_FORMAT = "bitflip-qtable"
TABLE_FORMAT_VERSION = 1
_EMPTY = np.uint64(0)
_ACT_MUL = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)


@dataclass(frozen=True)
class QConfig:
    """Q-learning settings (every key of configs/qlearning.toml)."""

    size: int = 4
    """Board size (4, 6 or 8)."""
    episodes: int = 100_000
    """Training games."""
    opponent: str = "self"
    """'self' (self-play, one table for both sides) or 'random' (a uniformly random opponent)."""
    lr: float = 0.2
    """Learning rate alpha."""
    discount: float = 1.0
    """Discount gamma (rewards come only at the end)."""
    epsilon: float = 0.2
    """Exploration rate at the start; it decays linearly to ``epsilon_end``."""
    epsilon_end: float = 0.02
    """Exploration rate at the last episode."""
    table_bits: int = 22
    """The table holds 2**table_bits (state, action) pairs."""
    symmetric: bool = True
    """Share values among the 8 symmetric positions."""
    seed: int = 0
    """Seed of exploration and tie-breaks."""
    eval_games: int = 1000
    """Games per line of the evaluation table."""

    def __post_init__(self) -> None:
        if self.size not in (4, 6, 8):
            raise ValueError(f"size must be 4, 6 or 8, not {self.size}")
        if self.opponent not in ("self", "random"):
            raise ValueError(f"opponent must be 'self' or 'random', not {self.opponent!r}")
        if not 8 <= self.table_bits <= 30:
            raise ValueError(f"table_bits must be in 8..30, not {self.table_bits}")
        if not 0 < self.lr <= 1 or not 0 <= self.discount <= 1:
            raise ValueError("lr must be in (0, 1] and discount in [0, 1]")


def load_qconfig(path: str | Path) -> QConfig:
    """Read a QConfig from TOML (keys at the top level), naming unknown keys."""
    data = read_flat_config(path, QConfig)
    return QConfig(**data)


# --- the table --------------------------------------------------------------------------------


@njit(cache=True)
def _key(p: np.uint64, o: np.uint64, a: int, size: int, symmetric: bool) -> np.uint64:
    if not symmetric:
        k = position_hash(p, o) ^ (np.uint64(a + 1) * _ACT_MUL)
        return k if k != _EMPTY else _ONE
    best = FULL
    for s in range(8):
        tp = transform(p, s, size)
        to = transform(o, s, size)
        ta = a if a == PASS else lowest_square(transform(U1 << np.uint64(a), s, size))
        k = position_hash(tp, to) ^ (np.uint64(ta + 1) * _ACT_MUL)
        if k < best:
            best = k
    return best if best != _EMPTY else _ONE


@njit(cache=True)
def _find(keys: np.ndarray, k: np.uint64) -> int:
    # Slot of k, or of the empty slot where it would go; -1 when the probe finds neither.
    n = keys.shape[0]
    i = np.int64(k & np.uint64(n - 1))
    for _ in range(64):
        if keys[i] == k or keys[i] == _EMPTY:
            return int(i)
        i = (i + 1) & (n - 1)
    return -1


@njit(cache=True)
def q_get(
    keys: np.ndarray, vals: np.ndarray, p: np.uint64, o: np.uint64, a: int, size: int,
    symmetric: bool
) -> float:  # fmt: skip
    i = _find(keys, _key(p, o, a, size, symmetric))
    return vals[i] if i >= 0 else 0.0


@njit(cache=True)
def _q_set(
    keys: np.ndarray, vals: np.ndarray, p: np.uint64, o: np.uint64, a: int, size: int,
    symmetric: bool, v: float, used: np.ndarray
) -> None:  # fmt: skip
    k = _key(p, o, a, size, symmetric)
    i = _find(keys, k)
    if i < 0:
        return
    if keys[i] == _EMPTY:
        if used[0] >= keys.shape[0] * 0.9:
            return  # full: the pair stays unknown (value 0)
        keys[i] = k
        used[0] += 1
    vals[i] = v


@njit(cache=True)
def _moves_list(m: np.uint64) -> np.ndarray:
    out = np.empty(max(popcount(m), 1), np.int64)
    if m == 0:
        out[0] = PASS
        return out
    j = 0
    while m:
        out[j] = lowest_square(m)
        m &= m - U1
        j += 1
    return out


@njit(cache=True)
def _best(
    keys: np.ndarray, vals: np.ndarray, p: np.uint64, o: np.uint64, mask: np.uint64, size: int,
    symmetric: bool
) -> tuple[float, int]:  # fmt: skip
    # (max Q, a random argmax) over the legal actions of (p, o).
    moves = _moves_list(legal_moves(p, o, mask))
    best = -1e30
    count = 0
    pick = moves[0]
    for a in moves:
        q = q_get(keys, vals, p, o, a, size, symmetric)
        if q > best + 1e-9:
            best = q
            pick = a
            count = 1
        elif abs(q - best) <= 1e-9:
            count += 1
            if np.random.randint(count) == 0:
                pick = a
    return best, pick


@njit(cache=True)
def _random_move(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    moves = legal_moves(p, o, mask)
    if moves == 0:
        np.random.randint(1)  # the draw a one-move list takes: trained tables stay the same
        return PASS
    return random_square(moves)


@njit(cache=True)
def train_episodes(
    keys: np.ndarray, vals: np.ndarray, used: np.ndarray, p0: np.uint64, o0: np.uint64,
    mask: np.uint64, size: int, symmetric: bool, episodes: int, first: int, total: int,
    vs_random: bool, lr: float, gamma: float, eps0: float, eps1: float, seed: int
) -> None:  # fmt: skip
    """Run ``episodes`` games (numbers first .. first+episodes-1 of ``total``), updating Q."""
    np.random.seed(seed)
    for ep in range(first, first + episodes):
        frac = ep / max(total - 1, 1)
        eps = eps0 + (eps1 - eps0) * frac
        p, o = p0, o0
        learner = ep % 2  # vs random: the learner is black in even games
        turn = 0
        if vs_random and learner == 1:
            p, o = play_or_pass(p, o, _random_move(p, o, mask))
            turn = 1
        while not game_over(p, o, mask):
            if np.random.random() < eps:
                a = _random_move(p, o, mask)
            else:
                a = _best(keys, vals, p, o, mask, size, symmetric)[1]
            q = q_get(keys, vals, p, o, a, size, symmetric)
            np_, no_ = play_or_pass(p, o, a)
            if game_over(np_, no_, mask):
                target = -float(np.sign(final_margin(np_, no_, mask)))
            elif not vs_random:
                target = -gamma * _best(keys, vals, np_, no_, mask, size, symmetric)[0]
            else:
                rp, ro = play_or_pass(np_, no_, _random_move(np_, no_, mask))
                if game_over(rp, ro, mask):
                    target = float(np.sign(final_margin(rp, ro, mask)))
                else:
                    target = gamma * _best(keys, vals, rp, ro, mask, size, symmetric)[0]
                np_, no_ = rp, ro
            _q_set(keys, vals, p, o, a, size, symmetric, q + lr * (target - q), used)
            p, o = np_, no_
            turn += 1


@njit(cache=True)
def play_eval(
    k1: np.ndarray, v1: np.ndarray, k2: np.ndarray, v2: np.ndarray, p0: np.uint64,
    o0: np.uint64, mask: np.uint64, size: int, symmetric: bool, games: int, random1: bool,
    random2: bool, seed: int
) -> tuple[int, int, int]:  # fmt: skip
    """Player 1 (table k1/v1, or random) against player 2, colours alternating: (w, d, l)."""
    np.random.seed(seed)
    w = d = lost = 0
    for g in range(games):
        p, o = p0, o0
        mover_is_1 = g % 2 == 0
        while not game_over(p, o, mask):
            if mover_is_1:
                if random1:
                    a = _random_move(p, o, mask)
                else:
                    a = _best(k1, v1, p, o, mask, size, symmetric)[1]
            elif random2:
                a = _random_move(p, o, mask)
            else:
                a = _best(k2, v2, p, o, mask, size, symmetric)[1]
            p, o = play_or_pass(p, o, a)
            mover_is_1 = not mover_is_1
        r = float(np.sign(final_margin(p, o, mask)))  # for the side to move now
        r1 = r if mover_is_1 else -r
        if r1 > 0:
            w += 1
        elif r1 < 0:
            lost += 1
        else:
            d += 1
    return w, d, lost


@njit(cache=True)
def _seed(seed: int) -> None:
    np.random.seed(seed)


# --- Python side ------------------------------------------------------------------------------


@dataclass
class QTable:
    """A trained table and the settings it was trained with."""

    keys: np.ndarray
    values: np.ndarray
    config: QConfig
    episodes_done: int = 0

    @classmethod
    def empty(cls, config: QConfig) -> QTable:
        n = 1 << config.table_bits
        return cls(np.zeros(n, np.uint64), np.zeros(n, np.float32), config)

    @property
    def used(self) -> int:
        return int(np.count_nonzero(self.keys))

    def save(self, path: str | Path) -> Path:
        """Write an .npz atomically (keys, values, config, format version)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {  # Any: savez's keywords include allow_pickle: bool
            "format": np.array(TABLE_FORMAT),
            "format_version": np.array(TABLE_FORMAT_VERSION, np.int64),
            "keys": self.keys,
            "values": self.values,
            "episodes_done": np.array(self.episodes_done, np.int64),
        }
        arrays.update({f"cfg_{k}": np.array(v) for k, v in asdict(self.config).items()})
        with atomic_path(path, ".npz") as tmp:
            np.savez_compressed(tmp, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> QTable:
        """Read a table written by :meth:`save`, naming what is wrong with a bad file."""
        path = Path(path)
        z = read_npz(path, "bitflip Q-table", ("format", "format_version"))
        if str(z["format"]) != TABLE_FORMAT:
            raise ValueError(f"{path}: not a bitflip Q-table")
        if int(z["format_version"]) != TABLE_FORMAT_VERSION:
            raise ValueError(f"{path}: Q-table version {int(z['format_version'])}")
        names = [f"cfg_{f.name}" for f in fields(QConfig)]
        z = read_npz(path, "bitflip Q-table", ("keys", "values", "episodes_done", *names))
        cfg = {f.name: z[f"cfg_{f.name}"].item() for f in fields(QConfig)}
        return cls(z["keys"], z["values"], QConfig(**cfg), int(z["episodes_done"]))


def train(
    table: QTable, episodes: int | None = None, chunk: int = 5000, progress: bool = False
) -> QTable:
    """Continue training ``table`` up to ``config.episodes`` (or ``episodes`` more games)."""
    cfg = table.config
    g = geometry(cfg.size)
    p0, o0 = (np.uint64(x) for x in g.start_position())
    total = cfg.episodes
    end = total if episodes is None else min(total, table.episodes_done + episodes)
    used = np.array([table.used], np.int64)
    bar = ProgressLine("q-learning", quiet=not progress)
    while table.episodes_done < end:
        n = min(chunk, end - table.episodes_done)
        train_episodes(table.keys, table.values, used, p0, o0, board_mask(cfg.size), cfg.size,
                       cfg.symmetric, n, table.episodes_done, total, cfg.opponent == "random",
                       cfg.lr, cfg.discount, cfg.epsilon, cfg.epsilon_end,
                       cfg.seed * 100_003 + table.episodes_done)  # fmt: skip
        table.episodes_done += n
        bar.update(table.episodes_done, end, " games")
    bar.close()
    return table


def evaluate(
    a: QTable | None, b: QTable | None, size: int, games: int, seed: int = 0
) -> tuple[int, int, int]:
    """Games of a against b (None: a random player), colours alternating: (wins, draws, losses)."""
    g = geometry(size)
    p0, o0 = (np.uint64(x) for x in g.start_position())
    dummy = QTable.empty(QConfig(size=size, table_bits=8))
    ta, tb = a or dummy, b or dummy
    sym = (a or b or dummy).config.symmetric
    w, d, lost = play_eval(ta.keys, ta.values, tb.keys, tb.values, p0, o0, board_mask(size), size,
                           sym, games, a is None, b is None, seed)  # fmt: skip
    return int(w), int(d), int(lost)


class QLearningAgent:
    """Greedy play from a trained table (``qlearning:table=FILE``); unknown states: random."""

    def __init__(self, table: str, seed: int | None = None) -> None:
        self.table = QTable.load(table)
        self.seed = seed
        _seed(seed or 0)
        self.name = f"qlearning:table={table}"

    def new_game(self) -> None:
        pass

    def select_move(self, board: Board) -> Move:
        if board.size != self.table.config.size:
            raise ValueError(f"the table plays {self.table.config.size}x, not {board.size}x")
        moves = list(board.legal_moves)
        if moves == [PASS]:
            return PASS
        p, o = (np.uint64(x) for x in board.side_bitboards())
        t = self.table
        return int(_best(t.keys, t.values, p, o, board_mask(board.size), board.size,
                         t.config.symmetric)[1])  # fmt: skip

"""The one training-record format: game databases and self-play -> versioned npz shards.

A *record* is one position of one game, seen from the side to move, with the targets a learner
needs. :class:`Records` holds many of them as parallel numpy arrays (struct of arrays):

============== ======= ===================================================================
field          dtype   meaning
============== ======= ===================================================================
player         uint64  discs of the side to move (bit ``8 * row + col``; a1 = 0, h8 = 63)
opponent       uint64  discs of the other side
side           int8    colour to move: 0 black, 1 white
legal          uint64  legal moves of the side to move (never 0: pass positions are left out)
move           int8    the move played from here (0..63), the policy target
disc_diff      int8    final disc difference from the mover's view, empties to the winner
wdl            int8    +1 the mover won, 0 draw, -1 lost
theoretical    int8    perfect-play disc difference from the mover's view, or ``NO_SCORE``
result_known   bool    False when the game stopped early (disc_diff and wdl are then 0)
game           int64   game number, unique inside one shard (splits go by game, never position)
year           int16   year of the game (0 when unknown)
ply            int8    number of moves (passes included) played before this position
============== ======= ===================================================================

A shard is an ``.npz`` file with these arrays plus ``format_version`` and ``source`` (a short
text). :func:`write_shard` and :func:`read_shards` are the whole interface; self-play writes
the same shards as the WTHOR converter (:func:`records_from_games`), so training has one input
path. Symmetries are *not* stored: loaders apply the 8 board symmetries at training time.
A writer of finished games from the standard start needs three lines::

    records, stats = records_from_games(GameSource(move_lists))  # passes optional
    write_shard(out_dir / "selfplay-000123", records, source="self-play generation 3")
    everything = read_shards(out_dir)  # game numbers stay unique across shards

WTHOR's theoretical score is exact only at the position where ``depth`` empties remain (24 in
every file), so it is stored there and ``NO_SCORE`` elsewhere.
"""

from __future__ import annotations

import itertools
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.bitboard import U1, flips, legal_moves, popcount, transform
from bitflip.core.geometry import PASS
from bitflip.core.hashing import position_hash

FORMAT_VERSION = 1
"""Bumped whenever a field changes meaning; readers refuse versions they do not know."""
NO_SCORE = -128
"""``theoretical`` when no perfect-play score is known for the position."""
SHARD_SUFFIX = ".npz"

_FIELDS: dict[str, type] = {
    "player": np.uint64,
    "opponent": np.uint64,
    "side": np.int8,
    "legal": np.uint64,
    "move": np.int8,
    "disc_diff": np.int8,
    "wdl": np.int8,
    "theoretical": np.int8,
    "result_known": np.bool_,
    "game": np.int64,
    "year": np.int16,
    "ply": np.int8,
}


class ShardError(ValueError):
    """A shard that cannot be read: wrong version, missing or mismatched arrays."""


@dataclass
class Records:
    """Positions with their targets, as parallel arrays (see the module docstring)."""

    player: np.ndarray
    opponent: np.ndarray
    side: np.ndarray
    legal: np.ndarray
    move: np.ndarray
    disc_diff: np.ndarray
    wdl: np.ndarray
    theoretical: np.ndarray
    result_known: np.ndarray
    game: np.ndarray
    year: np.ndarray
    ply: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.player)
        for f in fields(self):
            arr: np.ndarray = np.asarray(getattr(self, f.name), dtype=_FIELDS[f.name])
            if arr.shape != (n,):
                raise ShardError(f"field {f.name!r} has shape {arr.shape}, expected ({n},)")
            setattr(self, f.name, arr)

    def __len__(self) -> int:
        return len(self.player)

    @classmethod
    def empty(cls) -> Records:
        return cls(**{name: np.zeros(0, dtype=dt) for name, dt in _FIELDS.items()})

    def subset(self, index: np.ndarray) -> Records:
        """The records at ``index`` (a boolean mask or integer positions)."""
        return Records(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    @staticmethod
    def concat(parts: Sequence[Records]) -> Records:
        """One Records of several; game numbers are offset so they stay unique."""
        if not parts:
            return Records.empty()
        out: dict[str, list[np.ndarray]] = {f: [] for f in _FIELDS}
        offset = 0
        for part in parts:
            for name in _FIELDS:
                arr = getattr(part, name)
                out[name].append(arr + offset if name == "game" else arr)
            if len(part):
                offset += int(part.game.max()) + 1
        return Records(**{k: np.concatenate(v) for k, v in out.items()})


def write_shard(path: str | Path, records: Records, source: str = "") -> Path:
    """Write ``records`` as one compressed shard; returns the path (``.npz`` added if absent)."""
    path = Path(path)
    if path.suffix != SHARD_SUFFIX:
        path = path.with_name(path.name + SHARD_SUFFIX)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f.name: getattr(records, f.name) for f in fields(records)}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(
        tmp, format_version=np.int64(FORMAT_VERSION), source=np.str_(source), **arrays
    )
    tmp.replace(path)
    return path


def read_shard(path: str | Path) -> Records:
    """Read one shard, checking its version and arrays."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            if "format_version" not in z.files:
                raise ShardError(f"{path}: not a bitflip shard (no format_version)")
            version = int(z["format_version"])
            if version != FORMAT_VERSION:
                raise ShardError(
                    f"{path}: shard format version {version}, this bitflip reads {FORMAT_VERSION}"
                )
            missing = [name for name in _FIELDS if name not in z.files]
            if missing:
                raise ShardError(f"{path}: shard lacks {', '.join(missing)}")
            return Records(**{name: z[name] for name in _FIELDS})
    except (zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise ShardError(f"{path}: corrupt shard ({exc})") from None
    except ShardError as exc:
        if str(exc).startswith(str(path)):
            raise
        raise ShardError(f"{path}: {exc}") from None


def shard_paths(directory: str | Path) -> list[Path]:
    """The shards of a directory, sorted by name (raises if there are none)."""
    directory = Path(directory)
    if directory.is_file():
        return [directory]
    if not directory.is_dir():
        raise FileNotFoundError(f"no shard directory {directory}")
    paths = sorted(p for p in directory.glob("*" + SHARD_SUFFIX) if ".tmp." not in p.name)
    if not paths:
        raise FileNotFoundError(f"no {SHARD_SUFFIX} shards in {directory}")
    return paths


def read_shards(directory: str | Path, progress: bool = False) -> Records:
    """All shards of a directory (or one shard file) as one Records, games kept apart."""
    paths = shard_paths(directory)
    parts = [read_shard(p) for p in _progress(paths, "reading shards", progress)]
    return Records.concat(parts)


def _progress(items: Sequence[Path], desc: str, enabled: bool) -> Iterable[Path]:
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the dev environment
        return items
    bar: Iterable[Path] = tqdm(items, desc=desc, unit="file")
    return bar


# --- games -> records -------------------------------------------------------------------------


@njit(cache=True)
def _replay_games(
    moves: np.ndarray,
    offsets: np.ndarray,
    theo_black: np.ndarray,
    theo_depth: int,
    out_p: np.ndarray,
    out_o: np.ndarray,
    out_side: np.ndarray,
    out_legal: np.ndarray,
    out_move: np.ndarray,
    out_diff: np.ndarray,
    out_theo: np.ndarray,
    out_known: np.ndarray,
    out_game: np.ndarray,
    out_ply: np.ndarray,
    bad: np.ndarray,
) -> int:
    """Replay every game from the 8x8 start; fill the out arrays; return the record count.

    ``bad[g]`` becomes the index of the first illegal move of game g (or -1).
    """
    mask = np.uint64(0xFFFFFFFFFFFFFFFF)
    n = 0
    for g in range(len(offsets) - 1):
        start = n
        black = (U1 << np.uint64(28)) | (U1 << np.uint64(35))
        white = (U1 << np.uint64(27)) | (U1 << np.uint64(36))
        p, o = black, white
        side = 0
        ply = 0
        theo_done = False
        bad[g] = -1
        for i in range(offsets[g], offsets[g + 1]):
            m = moves[i]
            lm = legal_moves(p, o, mask)
            if lm == 0:  # the side to move must pass; the record leaves passes out
                p, o = o, p
                side = 1 - side
                ply += 1
                lm = legal_moves(p, o, mask)
            if m < 0 or m > 63 or (lm >> np.uint64(m)) & U1 == 0:
                bad[g] = i - offsets[g]
                break
            out_p[n] = p
            out_o[n] = o
            out_side[n] = side
            out_legal[n] = lm
            out_move[n] = m
            out_theo[n] = -128
            empties = 64 - popcount(p | o)
            if not theo_done and empties == theo_depth and theo_black[g] >= 0:
                d = 2 * theo_black[g] - 64
                out_theo[n] = d if side == 0 else -d
                theo_done = True
            out_game[n] = g
            out_ply[n] = ply
            n += 1
            f = flips(p, o, m)
            p, o = o ^ f, p | f | (U1 << np.uint64(m))
            side = 1 - side
            ply += 1
        if bad[g] >= 0:
            n = start
            continue
        over = legal_moves(p, o, mask) == 0 and legal_moves(o, p, mask) == 0
        if side == 0:
            b, w = popcount(p), popcount(o)
        else:
            b, w = popcount(o), popcount(p)
        diff = b - w  # black's view, empties to the winner
        if diff > 0:
            diff += 64 - b - w
        elif diff < 0:
            diff -= 64 - b - w
        for k in range(start, n):
            out_known[k] = over
            if over:
                out_diff[k] = diff if out_side[k] == 0 else -diff
            else:
                out_diff[k] = 0
    return n


@dataclass
class GameSource:
    """Games to convert: move lists (squares, passes optional) with what the file says.

    Self-play can pass just the move lists: ``GameSource(moves)`` (year 0, no theoretical
    score); the results come from replaying the games.
    """

    moves: list[list[int]]
    years: list[int] | None = None
    """Year of each game (None: 0 for all)."""
    theoretical_black: list[int] | None = None
    """Black's perfect-play disc count at ``theoretical_depth`` empties, or -1 (None: all -1)."""
    theoretical_depth: int = 24


@dataclass
class BuildStats:
    """What a conversion kept and dropped."""

    games: int = 0
    illegal: list[tuple[int, int]] | None = None
    """(game number, move index) of games dropped because a move was illegal."""
    unfinished: int = 0
    positions: int = 0


def records_from_games(source: GameSource) -> tuple[Records, BuildStats]:
    """Replay the games of ``source`` into records (8x8 standard start only).

    Games with an illegal move are dropped and listed in the stats; games that stop before
    the end keep their positions with ``result_known`` False.
    """
    n_games = len(source.moves)
    lengths = np.array([sum(1 for m in ms if m != PASS) for ms in source.moves], dtype=np.int64)
    offsets = np.zeros(n_games + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = np.fromiter(
        (m for ms in source.moves for m in ms if m != PASS), dtype=np.int64, count=int(offsets[-1])
    )
    cap = int(offsets[-1])
    out: dict[str, np.ndarray] = {name: np.zeros(cap, dtype=dt) for name, dt in _FIELDS.items()}
    bad = np.full(n_games, -1, dtype=np.int64)
    n = _replay_games(
        flat,
        offsets,
        np.asarray(
            source.theoretical_black if source.theoretical_black is not None else [-1] * n_games,
            dtype=np.int64,
        ),
        source.theoretical_depth,
        out["player"],
        out["opponent"],
        out["side"],
        out["legal"],
        out["move"],
        out["disc_diff"],
        out["theoretical"],
        out["result_known"],
        out["game"],
        out["ply"],
        bad,
    )
    rec = {k: v[:n] for k, v in out.items()}
    diff = rec["disc_diff"].astype(np.int64)
    rec["wdl"] = np.sign(diff).astype(np.int8)
    years = np.asarray(source.years if source.years is not None else [0] * n_games, np.int16)
    rec["year"] = years[rec["game"]] if n else rec["year"]
    records = Records(**rec)
    illegal = [(int(g), int(bad[g])) for g in np.flatnonzero(bad >= 0)]
    finished_games = np.unique(records.game[records.result_known])
    stats = BuildStats(
        games=n_games - len(illegal),
        illegal=illegal,
        unfinished=n_games - len(illegal) - len(finished_games),
        positions=n,
    )
    return records, stats


# --- splits, dedup, symmetries ---------------------------------------------------------------


def split_by_game(records: Records, fractions: Sequence[float], seed: int) -> list[np.ndarray]:
    """Boolean masks assigning whole games to parts of the given sizes (a seeded shuffle).

    Different seeds give the independent splits of the HKU protocol; a position never sits in
    two parts unless the same position occurs in two games.
    """
    if any(f < 0 for f in fractions) or not 0.999 <= sum(fractions) <= 1.001:
        raise ValueError(f"split fractions must be >= 0 and sum to 1, not {list(fractions)}")
    games = np.unique(records.game)
    rng = np.random.default_rng(seed)
    rng.shuffle(games)
    bounds = np.round(np.cumsum([0.0, *fractions]) * len(games)).astype(np.int64)
    masks = []
    for a, b in itertools.pairwise(bounds):
        masks.append(np.isin(records.game, games[a:b]))
    return masks


def by_years(records: Records, first: int | None, last: int | None) -> np.ndarray:
    """Mask of the records whose game year lies in [first, last] (None: unbounded)."""
    ok = np.ones(len(records), dtype=bool)
    if first is not None:
        ok &= records.year >= first
    if last is not None:
        ok &= records.year <= last
    return ok


@njit(cache=True)
def canonical_keys(p: np.ndarray, o: np.ndarray, move: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each (position, move) up to symmetry (move < 0: position only).

    Two records get the same key when one board (and move) is a symmetry of the other;
    different ones collide with probability about n**2 / 2**65 (1e-6 for 7 M records).
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
                    mb = transform(U1 << np.uint64(move[i]), s, 8)
                    t = 0
                    while mb > U1:
                        mb >>= U1
                        t += 1
                    sq = min(sq, t)
        keys[i] = position_hash(bp, bo ^ (np.uint64(sq) * _GOLDEN))
    return keys


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def dedup_policy(records: Records) -> Records:
    """One record per (position, move) up to symmetry: repeated openings count once."""
    keys = canonical_keys(records.player, records.opponent, records.move.astype(np.int64))
    _, first = np.unique(keys, return_index=True)
    return records.subset(np.sort(first))


@dataclass
class ValueTargets:
    """Deduplicated value-training positions: each position once, its targets averaged."""

    records: Records
    """One representative record per position (its own targets are not the averaged ones)."""
    wdl: np.ndarray
    """Mean result from the mover's view over all games that reached the position, float32."""
    disc_diff: np.ndarray
    """Mean final disc difference from the mover's view, float32."""
    count: np.ndarray
    """How many records were merged into each."""


def dedup_value(records: Records) -> ValueTargets:
    """One record per position up to symmetry (finished games only), targets averaged."""
    known = records.subset(records.result_known)
    moves = np.full(len(known), -1, dtype=np.int64)
    keys = canonical_keys(known.player, known.opponent, moves)
    _, first, inverse, count = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    inverse = inverse.reshape(-1)
    wdl = np.bincount(inverse, weights=known.wdl, minlength=len(first)) / count
    diff = np.bincount(inverse, weights=known.disc_diff, minlength=len(first)) / count
    return ValueTargets(
        records=known.subset(first),
        wdl=wdl.astype(np.float32),
        disc_diff=diff.astype(np.float32),
        count=count.astype(np.int64),
    )


@njit(cache=True)
def transform_many(x: np.ndarray, syms: np.ndarray) -> np.ndarray:
    """``transform(x[i], syms[i], 8)`` for every i (8x8 bitboards)."""
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = transform(x[i], syms[i], 8)
    return out


@njit(cache=True)
def opponent_legal(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Legal moves of the side *not* to move, for every record (the HKU 'freemove' planes)."""
    mask = np.uint64(0xFFFFFFFFFFFFFFFF)
    out = np.empty_like(p)
    for i in range(len(p)):
        out[i] = legal_moves(o[i], p[i], mask)
    return out


def symmetry_square_table() -> np.ndarray:
    """``table[s, sq]``: where symmetry s sends square sq (8x8), shape (8, 64), int64."""
    table = np.zeros((8, 64), dtype=np.int64)
    for s in range(8):
        for sq in range(64):
            t = int(transform(np.uint64(1 << sq), s, 8))
            table[s, sq] = t.bit_length() - 1
    return table

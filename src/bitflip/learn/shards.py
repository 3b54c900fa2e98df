"""The one training-data format: positions with their targets, in versioned npz shards.

Every learner reads and every producer writes through this module: the game-database
converter (:mod:`bitflip.learn.build`), AlphaZero self-play (:mod:`bitflip.learn.alphazero`),
supervised training and pattern fitting. A :class:`PositionBatch` holds many positions as
parallel numpy arrays (struct of arrays), each seen from its side to move:

============== ======= ===================================================================
field          dtype   meaning
============== ======= ===================================================================
player         uint64  discs of the side to move (bit ``8 * row + col``; a1 = 0, h8 = 63)
opponent       uint64  discs of the other side
side           int8    colour to move: 0 black, 1 white
legal          uint64  legal moves of the side to move (0 only on a pass row)
move           int8    the move played from here (0..63), the policy target; PASS (64) on a
                       pass row
disc_diff      int8    final disc difference from the mover's view, empties to the winner
wdl            int8    +1 the mover won, 0 draw, -1 lost
theoretical    int8    perfect-play disc difference from the mover's view, or ``NO_SCORE``
result_known   bool    False when the game stopped early (disc_diff and wdl are then 0)
game           int64   game number, unique inside one shard (splits go by game, never position)
year           int16   year of the game (0 when unknown)
ply            int8    number of moves (passes included) played before this position
============== ======= ===================================================================

and, optionally, ``policy`` (float16, one row per position): a search's move distribution
over a network's actions (self-play's training target; see
:func:`bitflip.nn.alphazero.action_squares` for the columns). A shard also says its board
``size`` (8 unless given; smaller boards sit in the top-left corner of the 64 bits).

Passes: a *pass row* is a position whose mover has no legal move (``legal`` 0, ``move`` PASS).
Game-database shards have none (a forced pass teaches a policy nothing); self-play writes them,
because its policy target covers the pass action. Learners of the move played skip them.

Versions: 1 had no ``policy`` or ``size`` in database shards; AlphaZero's self-play wrote both
and its pass rows had ``move`` -1. Version 2 (now) names both and writes PASS. Older versions
are read and brought up to date, as KataGo pads old shards; newer ones are refused.
Symmetries are *not* stored: loaders apply the 8 board symmetries at training time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bitflip._atomic import atomic_path, is_temporary
from bitflip._npz import read_npz
from bitflip._progress import track
from bitflip.core.geometry import PASS

FORMAT_VERSION = 2
"""Bumped whenever a field changes meaning; readers pad older versions, refuse newer ones."""
NO_SCORE = -128
"""``theoretical`` when no perfect-play score is known for the position."""
SHARD_SUFFIX = ".npz"

FIELDS: dict[str, type] = {
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
"""The per-position arrays every shard has, with their dtypes."""

_SHARD_ARRAYS = (*FIELDS, "policy", "size")
"""What a reader takes from a shard besides its ``format_version`` (``policy`` and ``size`` may
be absent)."""


class ShardError(ValueError):
    """A shard that cannot be read: wrong version, missing or mismatched arrays."""


@dataclass
class PositionBatch:
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
    policy: np.ndarray | None = None
    """(positions, actions) float16 search distribution, or None."""
    size: int = 8
    """Board size of every position."""

    def __post_init__(self) -> None:
        n = len(self.player)
        for name, dtype in FIELDS.items():
            arr: np.ndarray = np.asarray(getattr(self, name), dtype=dtype)
            if arr.shape != (n,):
                raise ShardError(f"field {name!r} has shape {arr.shape}, expected ({n},)")
            setattr(self, name, arr)
        if self.policy is not None:
            self.policy = np.asarray(self.policy, dtype=np.float16)
            if self.policy.ndim != 2 or self.policy.shape[0] != n:
                raise ShardError(f"policy has shape {self.policy.shape}, expected ({n}, actions)")
        self.size = int(self.size)

    def __len__(self) -> int:
        return len(self.player)

    @classmethod
    def empty(cls) -> PositionBatch:
        arrays: dict[str, Any] = {name: np.zeros(0, dtype=dt) for name, dt in FIELDS.items()}
        return cls(**arrays)

    def arrays(self) -> dict[str, np.ndarray]:
        """The per-position arrays by name (``policy`` included when present)."""
        out = {name: getattr(self, name) for name in FIELDS}
        if self.policy is not None:
            out["policy"] = self.policy
        return out

    def subset(self, index: np.ndarray) -> PositionBatch:
        """The positions at ``index`` (a boolean mask or integer positions)."""
        return PositionBatch(
            **{name: arr[index] for name, arr in self.arrays().items()}, size=self.size
        )

    def moves_played(self) -> PositionBatch:
        """The positions where a move was played (pass rows left out): policy learning's data."""
        return self if not (self.move == PASS).any() else self.subset(self.move != PASS)

    @staticmethod
    def concat(parts: Sequence[PositionBatch]) -> PositionBatch:
        """One batch of several; game numbers are offset so they stay unique."""
        if not parts:
            return PositionBatch.empty()
        sizes = {p.size for p in parts}
        if len(sizes) > 1:
            raise ShardError(f"cannot join positions of board sizes {sorted(sizes)}")
        with_policy = {p.policy is not None for p in parts}
        if len(with_policy) > 1:
            raise ShardError("cannot join positions with and without a policy target")
        out: dict[str, list[np.ndarray]] = {name: [] for name in parts[0].arrays()}
        offset = 0
        for part in parts:
            for name, arr in part.arrays().items():
                out[name].append(arr + offset if name == "game" else arr)
            if len(part):
                offset += int(part.game.max()) + 1
        joined = {k: np.concatenate(v) for k, v in out.items()}
        return PositionBatch(**joined, size=parts[0].size)


def write_shard(path: str | Path, batch: PositionBatch, source: str = "") -> Path:
    """Write ``batch`` as one compressed shard; returns the path (``.npz`` added if absent).

    The file appears whole or not at all (written under a temporary name, then renamed).
    """
    path = Path(path)
    if path.suffix != SHARD_SUFFIX:
        path = path.with_name(path.name + SHARD_SUFFIX)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload: dict[str, Any] = {
        "format_version": np.int64(FORMAT_VERSION),
        "source": np.str_(source),
        "size": np.int64(batch.size),
        **batch.arrays(),
    }
    with atomic_path(path, ".npz") as tmp:
        np.savez_compressed(tmp, **payload)
    return path


def _from_arrays(path: Path, z: dict[str, np.ndarray], version: int) -> PositionBatch:
    missing = [name for name in FIELDS if name not in z]
    if missing:
        raise ShardError(f"{path}: shard lacks {', '.join(missing)}")
    arrays = {name: z[name] for name in FIELDS}
    policy = z.get("policy")
    size = int(z["size"]) if "size" in z else 8
    if version == 1 and policy is not None:  # version 1 self-play wrote passes as move -1
        arrays["move"] = np.where(arrays["move"] < 0, PASS, arrays["move"])
    return PositionBatch(**arrays, policy=policy, size=size)


def read_shard(path: str | Path) -> PositionBatch:
    """Read one shard, checking its version and arrays (older versions brought up to date)."""
    path = Path(path)
    z = read_npz(path, "bitflip shard", ("format_version",), _SHARD_ARRAYS, error=ShardError)
    version = int(z["format_version"])
    if not 1 <= version <= FORMAT_VERSION:
        raise ShardError(
            f"{path}: shard format version {version}, this bitflip reads 1 to {FORMAT_VERSION}"
        )
    return _from_arrays(path, z, version)


def shard_paths(directory: str | Path) -> list[Path]:
    """The shards of a directory, sorted by name (raises if there are none)."""
    directory = Path(directory)
    if directory.is_file():
        return [directory]
    if not directory.is_dir():
        raise FileNotFoundError(f"no shard directory {directory}")
    paths = sorted(p for p in directory.glob("*" + SHARD_SUFFIX) if not is_temporary(p))
    if not paths:
        raise FileNotFoundError(f"no {SHARD_SUFFIX} shards in {directory}")
    return paths


def read_shards(source: str | Path | Sequence[Path], progress: bool = False) -> PositionBatch:
    """The shards of a directory, one shard file, or a list of files as one batch.

    Game numbers are offset so that games of different shards stay apart.
    """
    if isinstance(source, str | Path):
        paths = shard_paths(source)
    else:
        paths = list(source)
        if not paths:
            raise FileNotFoundError("no shards to read")
    parts = [read_shard(p) for p in track(paths, "reading shards", enabled=progress, unit=" files")]
    return PositionBatch.concat(parts)

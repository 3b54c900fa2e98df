"""Labels for the pattern fit from the engine's own searches.

Strong engines fit their pattern weights to the scores of searches rather than to game
results: a game's result carries every later mistake of its players, a search's score only
the evaluation's error several plies further on, and none at all where the search reaches the
end. This module makes such labels:

* positions are drawn from WTHOR games, the same number for every count of empties in
  ``[min_empties, max_empties]``; a share ``perturb`` of them is moved 1 to ``random_moves``
  random legal moves off the game line: the positions a full-width search meets below a game
  position, which humans avoid (NTest fits on positions sampled from its own search trees; a
  fit on game positions alone leaves the table entries those positions read untrained); with
  ``walk = "search"`` one side of such a line plays its best move by the static evaluation and
  the other random moves, the lines a search tree is made of;
* each gets the score of the engine's search at ``level`` (its midgame depth, and exact from
  the level's endgame depth, so late positions get perfect-play scores), from the side to
  move's view, in discs.

Chunks of positions are labelled by worker processes or Ray tasks (:mod:`bitflip.jobs`) and
written by the driver alone (``labels-NNNNN.npz``); a killed run resumes at the first missing
chunk. ``bitflip train patterns`` then fits on them with
``labels = "<out>"`` (the ``[labels]`` and ``[patterns]`` tables of ``configs/patterns.toml``).

:func:`exact_scores` labels given positions with their perfect-play scores, in chunks the same
way; the WTHOR fit uses it near the end of the games (``exact_empties``,
:mod:`bitflip.learn.patterns_data`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bitflip._atomic import atomic_path, is_temporary
from bitflip._npz import read_npz
from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL, legal_moves, lowest_square, play, popcount
from bitflip.core.jit import kernel
from bitflip.eval.evaluator import evaluate, load_evaluation
from bitflip.jobs import BACKENDS, Backend, run_tasks
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.tomlconfig import read_table

LABEL_FILES = "labels-*.npz"
_NOT_IN_KEY = ("workers", "out", "backend", "ray_address")
"""Settings of where the labels are made, not of what they are."""
WALKS = ("random", "search")


@dataclass(frozen=True)
class LabelConfig:
    """Settings of a labelling run (the ``[labels]`` table of a config file)."""

    wthor: str = "wthor"
    """A folder of .wtb files (or one file) to draw positions from; looked up in the data
    folders (:mod:`bitflip.datadir`) when it is not a path that exists."""
    first_year: int = 0
    last_year: int = 2022
    """Only files of these years (2023 stays unseen for benchmarks/eval.py)."""
    positions: int = 100_000
    """Positions to label in all."""
    min_empties: int = 14
    max_empties: int = 56
    """Empties of the positions drawn (the same number for each count)."""
    perturb: float = 0.5
    """Share of positions moved off the game line by random legal moves."""
    random_moves: int = 1
    """A moved position is moved by 1 to this many random moves (uniformly); the empties
    range applies to where it lands (a move that would end the game is not made)."""
    walk: str = "random"
    """How a moved position leaves its line: 'random' (both sides play random legal moves) or
    'search' (one side, drawn at random, plays its best move by the static evaluation, the
    other random legal moves: the lines of an alpha-beta tree, whose cut nodes play their
    first-ordered move and whose all nodes play every move)."""
    level: int = 8
    """Engine level of the labelling searches (depth, exact endgame depth, ProbCut)."""
    chunk: int = 2000
    """Positions per chunk file (the unit of resume)."""
    workers: int = 2
    """Processes labelling chunks (one engine on one thread each); under backend 'ray' the
    CPUs of the local Ray instance (a cluster's own CPUs are all used)."""
    backend: str = "local"
    """'local' (processes on this machine) or 'ray' (tasks on a Ray cluster; no shared disk)."""
    ray_address: str = ""
    """Ray cluster to join under backend 'ray' ('auto', 'HOST:6379'); empty: a local instance."""
    seed: int = 1
    out: str = "runs/labels"

    @classmethod
    def from_toml(cls, path: str | Path) -> LabelConfig:
        """Read the ``[labels]`` table of a config file (errors name the key and the file)."""
        return read_table(path, "labels", cls)

    def check(self) -> None:
        if not 0 <= self.min_empties <= self.max_empties <= 59:
            raise ValueError("need 0 <= min_empties <= max_empties <= 59")
        if not 0.0 <= self.perturb <= 1.0:
            raise ValueError(f"perturb must be in [0, 1], not {self.perturb}")
        if self.walk not in WALKS:
            raise ValueError(f"walk must be random or search, not {self.walk!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be local or ray, not {self.backend!r}")
        for name in ("positions", "chunk", "workers", "level", "random_moves"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")

    def key(self) -> str:
        """Hash of the settings the labels depend on (chunks of another key are not reused).
        The WTHOR data counts by its folder's or file's name, not where it sits, so that labels
        made on one machine resume on another (``datasets/eval-labels``)."""
        d = {k: v for k, v in asdict(self).items() if k not in _NOT_IN_KEY}
        if d["walk"] == "random":
            del d["walk"]  # the key of the labels made before there was a choice
        d["wthor"] = Path(self.wthor).name
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]


def draw_positions(cfg: LabelConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(player, opponent, game) of the positions to label, in a seeded order."""
    # patterns_data imports this module (its exact targets and labels come from here).
    from bitflip.learn.patterns_data import load_games

    games = load_games(
        PatternsFitConfig(wthor=cfg.wthor, first_year=cfg.first_year, last_year=cfg.last_year)
    )
    batch, _ = positions_from_games(GameSource(games.moves))
    rng = np.random.default_rng(cfg.seed)
    e = empties_many(batch.player, batch.opponent, FULL)
    # Each count of empties gets the same share of positions where they land, so a position
    # to be moved k random moves is drawn at k more empties than it will have.
    n = len(batch.player)
    steps = np.where(rng.random(n) < cfg.perturb, rng.integers(1, cfg.random_moves + 1, n), 0)
    lands = e - steps
    counts = range(cfg.min_empties, cfg.max_empties + 1)
    per = -(-cfg.positions // len(counts))
    picked = []
    for k in counts:
        rows = np.flatnonzero(lands == k)
        if len(rows):
            picked.append(rng.choice(rows, min(per, len(rows)), replace=False))
    idx = rng.permutation(np.concatenate(picked))[: cfg.positions]
    p, o = batch.player[idx].copy(), batch.opponent[idx].copy()
    # Under walk "search" the static evaluation's best move stands for a cut node's
    # first-ordered move, on every other step (which side: drawn per position).
    ev = load_evaluation("default") if cfg.walk == "search" else None
    for i in range(len(idx)):
        best_side = int(rng.integers(2)) if ev is not None else 0
        for step in range(int(steps[idx[i]])):
            if ev is not None and (step + best_side) % 2:
                p[i], o[i] = _best_child(p[i], o[i], FULL, ev.kind, ev.weights)
            else:
                p[i], o[i] = _random_step(p[i], o[i], rng)
    return p, o, batch.game[idx].astype(np.int32)


def _random_step(p: np.uint64, o: np.uint64, rng: np.random.Generator) -> tuple[int, int]:
    # One random legal move; a position whose child must pass or ends stays as it is.
    moves = np.uint64(legal_moves(p, o, FULL))
    k = int(rng.integers(int(popcount(moves))))
    for _ in range(k):
        moves &= moves - np.uint64(1)
    q, r = (np.uint64(x) for x in play(p, o, int(lowest_square(moves))))
    if legal_moves(q, r, FULL) == 0:
        return int(p), int(o)
    return int(q), int(r)


@kernel()
def _best_child(
    p: np.uint64, o: np.uint64, mask: np.uint64, kind: int, weights: np.ndarray
) -> tuple[np.uint64, np.uint64]:
    # The child (side to move's view) of the move the static evaluation likes best; a
    # position whose best child must pass or ends stays as it is, as in _random_step.
    moves = legal_moves(p, o, mask)
    best, bq, br = 1 << 30, p, o
    while moves:
        sq = lowest_square(moves)
        moves &= moves - np.uint64(1)
        q, r = play(p, o, sq)
        v = evaluate(q, r, mask, kind, weights)
        if v < best:
            best, bq, br = v, q, r
    if legal_moves(bq, br, mask) == 0:
        return p, o
    return bq, br


def label_chunk(p: np.ndarray, o: np.ndarray, level: int) -> np.ndarray:
    """The engine's score (discs, mover's view) of every position at ``level``: exact from
    the level's win/loss/draw depth on."""
    from bitflip.core.board import Board, Color
    from bitflip.engine import Engine
    from bitflip.search.levels import level_spec
    from bitflip.search.limits import Limit

    engine = Engine(level=level, tt_mb=32)
    wld_depth = level_spec(level).wld_depth
    out = np.zeros(len(p), np.float32)
    for i in range(len(p)):
        board = Board()
        board.black, board.white, board.turn = int(p[i]), int(o[i]), Color.BLACK
        engine.set_position(board)
        # Where the level would prove only win, loss or draw, the label needs the margin.
        exact = board.empties <= wld_depth
        out[i] = engine.go(Limit(exact=True) if exact else Limit(level=level)).score
    return out


def _label_work(level: int, chunk: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    # A task of the labelling job (jobs.run_tasks): the chunk's scores go back to the driver.
    return label_chunk(chunk[0], chunk[1], level)


def make_labels(
    cfg: LabelConfig,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
) -> list[Path]:
    """Label the configured positions (resuming) and return the chunk files.

    ``backend`` (default: the config's ``backend``, ``ray_address`` and ``workers``) runs the
    searches; this process alone writes the chunks, so Ray nodes need no shared folder.
    """
    cfg.check()
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "labels.json").write_text(json.dumps({"key": cfg.key(), **asdict(cfg)}, indent=1))
    p, o, game = draw_positions(cfg)
    paths = [out / f"labels-{cfg.key()}-{k:05d}.npz" for k in range(-(-len(p) // cfg.chunk))]
    todo = [k for k, path in enumerate(paths) if not path.is_file()]
    rows = [slice(k * cfg.chunk, (k + 1) * cfg.chunk) for k in todo]

    def store(k: int, s: slice, scores: np.ndarray) -> None:
        # Compressed: about 17 bytes a position, so that datasets/ can keep labels in git.
        with atomic_path(paths[k], ".npz") as tmp:
            np.savez_compressed(tmp, p=p[s], o=o[s], game=game[s], score=scores)

    if backend is None:
        backend = Backend(cfg.backend, cfg.ray_address or None, cfg.workers)
    chunks = [(p[s], o[s]) for s in rows]
    _run_chunks(_label_work, cfg.level, chunks, todo, rows, store, len(paths), backend, progress)
    return paths


def _run_chunks(
    work: Callable[[Any, Any], np.ndarray],
    shared: Any,
    chunks: list[Any],
    todo: list[int],
    rows: list[slice],
    store: Callable[[int, slice, np.ndarray], None],
    total: int,
    backend: Backend,
    progress: Callable[[int, int], None] | None,
) -> None:
    # ``work(shared, chunks[i])`` scores chunk ``todo[i]`` (rows ``rows[i]``); ``store`` writes
    # it. ``total`` counts the chunks already there too.
    done = total - len(todo)
    if progress:
        progress(done, total)

    def stored(i: int, scores: np.ndarray) -> None:
        nonlocal done
        store(todo[i], rows[i], scores)
        done += 1
        if progress:
            progress(done, total)

    run_tasks(work, shared, chunks, backend, stored)


def _solve_work(_: None, chunk: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    from bitflip.search.exact import solve

    p, o = chunk
    return np.array([solve(a, b, FULL) for a, b in zip(p, o, strict=True)], dtype=np.int8)


def exact_scores(
    p: np.ndarray,
    o: np.ndarray,
    folder: str | Path,
    *,
    workers: int = 2,
    chunk: int = 20_000,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
) -> np.ndarray:
    """Perfect-play margins of the positions (p, o), solved in chunks of ``chunk`` positions
    by ``workers`` processes (or on ``backend``) and kept in ``folder``
    (``exact-<key>-NNNNN.npz``, the key a hash of the positions), written by this process
    alone: a killed run resumes at the first missing chunk, a finished one is read back.
    WTHOR positions take about 5 ms each at 16 empties, 23 ms at 18 and 90 ms at 20 on one
    core."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    p = np.ascontiguousarray(p, dtype=np.uint64)
    o = np.ascontiguousarray(o, dtype=np.uint64)
    key = hashlib.sha256(p.tobytes() + o.tobytes()).hexdigest()[:12]
    starts = range(0, len(p), chunk)
    paths = [out / f"exact-{key}-{k:05d}.npz" for k in range(len(starts))]
    todo = [k for k, path in enumerate(paths) if not path.is_file()]
    rows = [slice(starts[k], starts[k] + chunk) for k in todo]

    def store(k: int, s: slice, scores: np.ndarray) -> None:
        with atomic_path(paths[k], ".npz") as tmp:
            np.savez(tmp, p=p[s], o=o[s], score=scores)

    chunks = [(p[s], o[s]) for s in rows]
    backend = backend or Backend(workers=workers)
    _run_chunks(_solve_work, None, chunks, todo, rows, store, len(paths), backend, progress)
    scores = np.zeros(len(p), dtype=np.int8)
    for path, s in zip(paths, starts, strict=True):
        z = read_npz(path, "chunk of exact scores", ("p", "o", "score"), advice="delete it")
        ok = np.array_equal(z["p"], p[s : s + chunk]) and np.array_equal(z["o"], o[s : s + chunk])
        part = z["score"]
        if not ok or len(part) != min(chunk, len(p) - s):
            raise ValueError(f"{path}: holds other positions than its name says; delete it")
        scores[s : s + chunk] = part
    return scores


def load_labels(folder: str | Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(player, opponent, score, game) of every finished chunk in ``folder``; scores in discs,
    within the +-64 a game can end with."""
    files = sorted(p for p in Path(folder).glob(LABEL_FILES) if not is_temporary(p))
    if not files:
        raise OSError(f"no label chunks ({LABEL_FILES}) in {folder}")
    parts: dict[str, list[np.ndarray]] = {"p": [], "o": [], "score": [], "game": []}
    for f in files:
        z = read_npz(f, "label chunk", tuple(parts), advice="delete it")
        for k in parts:
            parts[k].append(z[k])
    p, o, score, game = (np.concatenate(parts[k]) for k in ("p", "o", "score", "game"))
    # A midgame search's score is an evaluation and can pass the 64 discs no game can reach
    # (0.15% of the level-6 labels in datasets/eval-labels); a target beyond them is no margin.
    return p, o, np.clip(score, -64, 64), game

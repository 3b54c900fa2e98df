"""Start positions for tournaments: opening files, random openings and a balanced set.

An opening is a short move sequence from the standard start. A tournament plays every opening
twice with the colours swapped, so a lopsided opening costs both agents the same; a *balanced*
set (random openings that a search scores near 0) makes fewer games decisive by accident.

>>> ops = random_openings(3, k=4, seed=1)
>>> len(ops), len(ops[0].moves)
(3, 4)
>>> parse_opening("f5d6c3").transcript
'f5d6c3'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bitflip.core import hashing
from bitflip.core.board import Board, Move, MoveError
from bitflip.core.geometry import PASS, geometry
from bitflip.datadir import find
from bitflip.eval.positional import TABLES
from bitflip.search.limits import Limit
from bitflip.search.minimax import minimax_root


@dataclass(frozen=True)
class Opening:
    """A move sequence from the standard start of a ``size`` x ``size`` board."""

    moves: tuple[Move, ...]
    size: int = 8

    @property
    def transcript(self) -> str:
        """The moves as ``f5d6c3...`` (PASS written ``pa``); empty for the start position."""
        g = geometry(self.size)
        return "".join(g.square_name(m) for m in self.moves)

    def board(self) -> Board:
        """The position after the opening, with its moves on the stack."""
        b = Board(size=self.size)
        for m in self.moves:
            b.push(m)
        return b


class TooFewOpeningsError(ValueError):
    """Fewer distinct openings were found than were asked for."""

    def __init__(self, message: str, found: int, wanted: int) -> None:
        super().__init__(message)
        self.found = found
        self.wanted = wanted


Scorer = Callable[[Board], float]
"""A search score of a position from the side to move's view (0 = balanced)."""


def parse_opening(text: str, size: int = 8, *, where: str = "") -> Opening:
    """Read one transcript (``f5d6c3``, spaces allowed, ``pa`` for a pass).

    Raises:
        ValueError: a malformed square or an illegal move, naming it and ``where``.
    """
    t = "".join(text.split())
    at = f" ({where})" if where else ""
    if len(t) % 2:
        raise ValueError(f"opening {text.strip()!r} has an odd number of characters{at}")
    board = Board(size=size)
    moves: list[Move] = []
    for i in range(0, len(t), 2):
        try:
            m = board.parse_move(t[i : i + 2])
            board.push(m)
        except MoveError as exc:
            raise ValueError(f"bad move {i // 2 + 1} of opening {t!r}: {exc.detail}{at}") from None
        moves.append(m)
    if board.is_game_over():
        raise ValueError(f"opening {t!r} ends the game{at}")
    return Opening(tuple(moves), size)


def load_openings(path: str | Path, size: int = 8) -> list[Opening]:
    """Openings from a file with one transcript per line (blank lines and ``#`` comments skipped).

    Raises:
        OSError: the file cannot be read, or is found neither as given nor in a data folder
            (:mod:`bitflip.datadir`).
        ValueError: a line is not a legal opening (the message names file and line).
    """
    try:
        p = find(path)  # a relative name is also looked up in the data folders
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file of openings") from None
    except FileNotFoundError as exc:
        raise OSError(
            f"no such opening file: {exc} (--openings takes balanced[:K], random:K, start or a "
            "file)"
        ) from None
    out: list[Opening] = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(parse_opening(line, size, where=f"{p}, line {n}"))
    if not out:
        raise ValueError(f"{p}: no openings in the file")
    return out


def _random_opening(rng: np.random.Generator, k: int, size: int) -> Opening | None:
    board = Board(size=size)
    for _ in range(k):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(moves[int(rng.integers(len(moves)))])
    if board.is_game_over():
        return None
    return Opening(tuple(board.move_stack), size)


def _key(op: Opening) -> tuple[int, int, int]:
    """Position key up to symmetry, so mirrored openings count once."""
    b = op.board()
    p, o = b.side_bitboards()
    cp, co, _ = hashing.canonical(np.uint64(p), np.uint64(o), op.size)
    return int(cp), int(co), int(b.turn)


def random_openings(n: int, k: int = 8, size: int = 8, seed: int = 0) -> list[Opening]:
    """``n`` distinct (up to symmetry) openings of ``k`` random legal moves.

    Raises:
        TooFewOpeningsError: fewer than ``n`` distinct openings of that length were found.
    """
    return balanced_openings(n, k, size, seed, scorer=None)


def balanced_openings(
    n: int,
    k: int = 8,
    size: int = 8,
    seed: int = 0,
    *,
    scorer: Scorer | None = None,
    threshold: float = 0.0,
    max_tries: int | None = None,
) -> list[Opening]:
    """``n`` distinct random ``k``-move openings whose ``|scorer(position)| <= threshold``.

    With ``scorer=None`` every distinct opening is kept (that is :func:`random_openings`).

    Raises:
        TooFewOpeningsError: not enough openings passed within ``max_tries`` random draws.
    """
    if n < 0 or k < 0:
        raise ValueError(f"need n >= 0 and k >= 0, not n={n}, k={k}")
    rng = np.random.default_rng([seed, k, size])
    tries = max_tries if max_tries is not None else 200 * n + 1000
    seen: set[tuple[int, int, int]] = set()
    out: list[Opening] = []
    for _ in range(tries):
        if len(out) >= n:
            break
        op = _random_opening(rng, k, size)
        if op is None:
            continue
        key = _key(op)
        if key in seen:
            continue
        seen.add(key)
        if scorer is not None and abs(scorer(op.board())) > threshold:
            continue
        out.append(op)
    if len(out) < n:
        what = "balanced " if scorer is not None else ""
        raise TooFewOpeningsError(
            f"found only {len(out)} distinct {what}{k}-move openings on {size}x{size} in "
            f"{tries} tries (wanted {n}); use fewer games, another length or a wider threshold",
            len(out),
            n,
        )
    return out


def minimax_scorer(depth: int = 6) -> Scorer:
    """Score with :mod:`bitflip.search.minimax` (disc-square units, about 100 = a corner)."""

    def score(board: Board) -> float:
        moves = board.legal_mask()
        p, o = board.side_bitboards()
        mask = np.uint64(board.geometry.mask)
        if moves == 0:  # a pass: the opponent's score, negated
            values = minimax_root(np.uint64(o), np.uint64(p), mask, TABLES[board.size], depth)
            return -float(values.max())
        values = minimax_root(np.uint64(p), np.uint64(o), mask, TABLES[board.size], depth)
        return float(values.max())

    return score


def engine_scorer(depth: int = 12, size: int = 8) -> Scorer:
    """Score with the alpha-beta engine (:mod:`bitflip.engine`), in discs.

    Raises:
        ValueError: this install has no engine.
    """
    try:  # here, not at the top: the engine compiles the search kernels on first import
        from bitflip.engine import Engine
    except ImportError:
        raise ValueError(
            "the alpha-beta engine (bitflip.engine) is not available in this install; "
            "use --balance minimax:depth=N"
        ) from None

    engine = Engine(size=size)

    def score(board: Board) -> float:
        if board.legal_mask() == 0:
            board = board.copy()
            board.push(PASS)
            return -score(board)
        engine.set_position(board)
        return float(engine.hint(1, Limit(depth=depth))[0].score)

    return score


@dataclass(frozen=True)
class BalanceSearch:
    """Which search judges openings, and how close to 0 a kept opening must score."""

    kind: str = "minimax"
    """``minimax`` (disc-square units) or ``engine`` (discs)."""
    depth: int = 6
    threshold: float | None = None
    """Largest ``|score|`` kept; default 10 units for minimax, 2 discs for the engine."""

    def scorer(self, size: int) -> Scorer:
        if self.kind == "minimax":
            return minimax_scorer(self.depth)
        if self.kind == "engine":
            return engine_scorer(self.depth, size)
        raise ValueError(f"unknown balance search {self.kind!r}; use minimax or engine")

    @property
    def limit(self) -> float:
        if self.threshold is not None:
            return self.threshold
        return 10.0 if self.kind == "minimax" else 2.0

    @classmethod
    def parse(cls, text: str) -> BalanceSearch:
        """``"minimax:depth=6,threshold=10"`` or ``"engine:depth=12"``."""
        kind, _, rest = text.strip().partition(":")
        depth, threshold = 6 if kind == "minimax" else 12, None
        for part in filter(None, rest.split(",")):
            key, eq, value = part.partition("=")
            try:
                if key == "depth" and eq:
                    depth = int(value)
                elif key == "threshold" and eq:
                    threshold = float(value)
                else:
                    raise ValueError
            except ValueError:
                raise ValueError(
                    f"bad balance search {text!r}: want minimax|engine[:depth=N,threshold=X]"
                ) from None
        if kind not in ("minimax", "engine") or not 1 <= depth <= 60:
            raise ValueError(
                f"bad balance search {text!r}: want minimax|engine[:depth=N,threshold=X], "
                "N from 1 to 60"
            )
        return cls(kind, depth, threshold)


def resolve_openings(
    source: str,
    n: int,
    *,
    size: int = 8,
    seed: int = 0,
    balance: BalanceSearch | None = None,
) -> list[Opening]:
    """The ``n`` openings a tournament uses, from an ``--openings`` value.

    ``source`` is ``balanced`` or ``balanced:K`` (default K = 8 on 8x8, 6 on 6x6), ``random:K``,
    ``start`` (every game from the start position: only useful with random agents), or a file
    with one transcript per line. A file's openings are shuffled with ``seed`` and the first ``n``
    taken (cycling when the file has fewer), so a bigger ``n`` extends a smaller run.
    """
    kind, _, arg = source.partition(":")
    default_k = 8 if size == 8 else 6
    if kind in ("balanced", "random") and not Path(source).exists():
        try:
            k = int(arg) if arg else default_k
        except ValueError:
            raise ValueError(f"bad openings {source!r}: the length after ':' is a number") from None
        if kind == "random":
            return random_openings(n, k, size, seed)
        bal = balance or BalanceSearch()
        return balanced_openings(n, k, size, seed, scorer=bal.scorer(size), threshold=bal.limit)
    if source == "start":
        return [Opening((), size)] * n
    ops = load_openings(source, size)
    order = np.random.default_rng(seed).permutation(len(ops))
    return [ops[order[i % len(ops)]] for i in range(n)]

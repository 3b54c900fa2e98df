"""Many games at once, every move chosen by batched MCTS: self-play records and matches.

All games advance in lockstep; at each step every player searches all the games where it is to
move in one batched search. Trees are fresh for every move, so no game shares a tree with
another (alpha-zero-general's arena played 40 copies of 2 games that way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from bitflip.core.arrays import game_over_many, legal_moves_many, play_many, random_moves
from bitflip.core.bitboard import margin_with_empties
from bitflip.core.board import Board, Color, Move
from bitflip.core.geometry import PASS, board_mask, geometry
from bitflip.search.mcts.search import BatchedSearch, choose_moves


class MovePicker(Protocol):
    """What a match needs of a non-MCTS player (every :class:`bitflip.agents.Agent` has it).

    Declared here so that search does not import the agents layer above it.
    """

    def select_move(self, board: Board) -> Move: ...


@dataclass
class GameBatch:
    """Finished games and, for self-play, their searched positions with MCTS targets."""

    black_margin: np.ndarray
    """(games,) black discs minus white discs at the end, empties to the winner."""
    moves: list[list[int]]
    """Each game's moves from the start, passes and the opening included."""
    player: np.ndarray
    opponent: np.ndarray
    side: np.ndarray
    """0 black, 1 white: the colour to move at each recorded position."""
    legal: np.ndarray
    policy: np.ndarray
    """(N, 65) visit distribution of the search (the training target)."""
    move: np.ndarray
    game: np.ndarray
    ply: np.ndarray

    def mover_margin(self) -> np.ndarray:
        """Final disc difference from each recorded position's mover's view."""
        m = self.black_margin[self.game]
        return np.asarray(np.where(self.side == 0, m, -m))


def _opening_move(line: list[int], step: int, legal: int, game: int) -> int:
    """Move ``step`` of game ``game``'s opening ``line``, checked against its legal squares."""
    move = line[step]
    ok = legal == 0 if move == PASS else 0 <= move < PASS and (legal >> move) & 1 == 1
    if not ok:
        raise ValueError(f"play_games: opening move {step + 1} of game {game} ({move}) is illegal")
    return move


def random_lines(n: int, plies: int, size: int, seed: int = 0) -> list[list[int]]:
    """``n`` lines of ``plies`` uniformly random legal moves from the start (PASS where the side
    to move has none; shorter where the game ends), drawn independently: they may repeat. For
    openings without repeats see :func:`bitflip.arena.openings.random_openings`."""
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**31, (n, max(plies, 1)))
    mask = board_mask(size)
    black, white = geometry(size).start_position()
    p = np.full(n, black, np.uint64)
    o = np.full(n, white, np.uint64)
    lines: list[list[int]] = [[] for _ in range(n)]
    for step in range(plies):
        live = ~game_over_many(p, o, mask)
        mine = legal_moves_many(p, o, mask)
        moves = np.full(n, PASS, np.int64)
        for g in np.flatnonzero(live & (mine != 0)):
            moves[g] = random_moves(mine[g : g + 1], int(seeds[g, step]))[0]
        for g in np.flatnonzero(live):
            lines[g].append(int(moves[g]))
        play_many(p, o, moves, live)
    return lines


def _board(p: int, o: int, side: int, size: int) -> Board:
    b = Board(size=size)
    b.black, b.white = (p, o) if side == 0 else (o, p)
    b.turn = Color(side)
    return b


def play_games(
    players: Sequence[BatchedSearch | MovePicker],
    seats: np.ndarray,
    *,
    record: bool = False,
    temp_moves: int = 0,
    noise: bool = False,
    openings: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    on_move: Callable[[int, int], None] | None = None,
) -> GameBatch:
    """Play ``len(seats)`` games; ``seats[g] = (i, j)``: players[i] is black, players[j] white.

    A player is a :class:`BatchedSearch` (all its games searched in one batch) or any registry
    :class:`~bitflip.agents.Agent` (asked game by game).

    Args:
        record: keep every searched position with its visit distribution (self-play).
        temp_moves: moves (per game, counted from the first searched one) chosen in proportion
            to visits; after them, the most visited move.
        noise: Dirichlet noise at the roots.
        openings: each game's first moves from the start (squares, PASS where the side to
            move has none), played before the players take over: in ``GameBatch.moves`` but
            never recorded as training positions; games may share one (a colour-swapped pair)
            and differ in length. Default: none.
        on_move: called with (games still running, step) after every step.

    Raises:
        ValueError: ``openings`` is not one list per game, or one of its moves is illegal.
    """
    size = next(pl.size for pl in players if isinstance(pl, BatchedSearch))
    mask = board_mask(size)
    n = len(seats)
    lines = [list(map(int, line)) for line in openings] if openings is not None else [[]] * n
    if len(lines) != n:
        raise ValueError(f"play_games: {len(lines)} openings for {n} games")
    lengths = np.array([len(line) for line in lines], np.int64)
    rng = np.random.default_rng(seed)
    black, white = geometry(size).start_position()
    p = np.full(n, black, np.uint64)
    o = np.full(n, white, np.uint64)
    side = np.zeros(n, np.int64)
    done = np.zeros(n, np.bool_)
    searched = np.zeros(n, np.int64)
    move_lists: list[list[int]] = [[] for _ in range(n)]
    rec: dict[str, list[np.ndarray]] = {k: [] for k in ("p", "o", "s", "l", "pi", "m", "g", "y")}
    step = 0
    while not done.all():
        done |= game_over_many(p, o, mask)
        mine = legal_moves_many(p, o, mask)
        live = ~done
        if not live.any():
            break
        moves = np.full(n, PASS, np.int64)
        opening = live & (step < lengths)
        for g in np.flatnonzero(opening):
            moves[g] = _opening_move(lines[g], step, int(mine[g]), int(g))
        if (live & ~opening).any():
            counts = np.array([int(x).bit_count() for x in mine])
            single = live & ~opening & (counts == 1)
            moves[single] = [int(x).bit_length() - 1 for x in mine[single]]
            policy = np.zeros((n, 65), np.float32)
            policy[single, moves[single]] = 1.0
            multi = live & ~opening & (counts > 1)
            for i, mcts in enumerate(players):
                mover = seats[np.arange(n), side]
                todo = multi & (mover == i)
                if not todo.any():
                    continue
                if not isinstance(mcts, BatchedSearch):
                    for g in np.flatnonzero(todo):
                        moves[g] = mcts.select_move(_board(int(p[g]), int(o[g]), side[g], size))
                        policy[g, moves[g]] = 1.0
                    continue
                out = mcts.search(p, o, todo, noise=noise)
                temp = np.where(searched < temp_moves, 1.0, 0.0)
                chosen = choose_moves(out.visits, temp, rng)
                moves[todo] = chosen[todo]
                visits = out.visits[todo]
                policy[todo] = visits / visits.sum(axis=1, keepdims=True)
            if record:
                keep = np.flatnonzero(single | multi)
                rec["p"].append(p[keep].copy())
                rec["o"].append(o[keep].copy())
                rec["s"].append(side[keep].copy())
                rec["l"].append(mine[keep].copy())
                rec["pi"].append(policy[keep])
                rec["m"].append(moves[keep].copy())
                rec["g"].append(keep)
                rec["y"].append(np.array([len(move_lists[g]) for g in keep], np.int64))
            searched += single | multi
        for g in np.flatnonzero(live):
            move_lists[g].append(int(moves[g]))
        play_many(p, o, moves, live)
        side = np.where(live, 1 - side, side)
        step += 1
        if on_move is not None:
            on_move(int(live.sum()), step)
    pb = np.array([int(x).bit_count() for x in p])
    ob = np.array([int(x).bit_count() for x in o])
    b_discs = np.where(side == 0, pb, ob)
    w_discs = np.where(side == 0, ob, pb)
    margin = np.array(
        [
            margin_with_empties(b - w, size * size - b - w)
            for b, w in zip(b_discs, w_discs, strict=True)
        ]
    )

    def cat(key: str, dtype: type, shape: tuple[int, ...] = (0,)) -> np.ndarray:
        return np.concatenate(rec[key]).astype(dtype) if rec[key] else np.zeros(shape, dtype)

    return GameBatch(
        margin,
        move_lists,
        cat("p", np.uint64),
        cat("o", np.uint64),
        cat("s", np.int8),
        cat("l", np.uint64),
        cat("pi", np.float32, (0, 65)),
        cat("m", np.int64),
        cat("g", np.int64),
        cat("y", np.int64),
    )


@dataclass(frozen=True)
class MatchResult:
    """Games of player A against player B, from A's side."""

    wins: int
    draws: int
    losses: int
    pentanomial: tuple[int, int, int, int, int] | None = None
    """Colour-swapped pairs in which A scored 0, 0.5, 1, 1.5 and 2 points (None: not paired);
    what a sequential test of paired games counts (:func:`bitflip.arena.sprt.sprt_pentanomial`)."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's points per game (draws count half)."""
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)


def play_match(
    a: BatchedSearch | MovePicker,
    b: BatchedSearch | MovePicker,
    pairs: int,
    *,
    opening_plies: int = 4,
    openings: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
) -> MatchResult:
    """``pairs`` pairs of games, each pair from one opening with colours swapped.

    The openings are ``openings`` (one move list a pair, as :func:`play_games` takes them) when
    given, else ``opening_plies`` random moves a pair drawn from ``seed`` (:func:`random_lines`,
    which may repeat an opening).
    """
    seats = np.array([(0, 1), (1, 0)] * pairs, np.int64)
    size = next(pl.size for pl in (a, b) if isinstance(pl, BatchedSearch))
    if openings is None:
        openings = random_lines(pairs, opening_plies, size, seed)
    elif len(openings) != pairs:
        raise ValueError(f"play_match: {len(openings)} openings for {pairs} pairs")
    per_game = [line for line in openings for _ in range(2)]
    games = play_games([a, b], seats, openings=per_game, seed=seed + 1)
    a_margin = np.where(seats[:, 0] == 0, games.black_margin, -games.black_margin)
    points = (np.sign(a_margin) + 1).reshape(pairs, 2).sum(axis=1)  # half-points of each pair
    penta = np.bincount(points, minlength=5)
    return MatchResult(
        int((a_margin > 0).sum()), int((a_margin == 0).sum()), int((a_margin < 0).sum()),
        (int(penta[0]), int(penta[1]), int(penta[2]), int(penta[3]), int(penta[4])),
    )  # fmt: skip

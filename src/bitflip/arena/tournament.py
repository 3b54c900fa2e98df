"""Tournaments: which games to play, playing them (resuming from the store), and SPRT matches.

A round robin pairs every two agents; a gauntlet pairs one agent (``vs``) with each of the
others. Every pair plays each opening twice, once with each colour. A game's key hashes
everything that decides it (agents, board size, opening slot and moves, time limit, seed), so
the same tournament run again on the same database plays only the games still missing, and a
larger ``games`` count extends a finished run instead of starting over.

>>> cfg = TournamentConfig(("random", "greedy"), games=4, openings="random:2", seed=1)
>>> [(t.black, t.white, t.slot) for t in plan(cfg)]
[('random', 'greedy', 0), ('greedy', 'random', 0), ('random', 'greedy', 1), ('greedy', 'random', 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bitflip.agents import make_agent, parse_spec
from bitflip.arena.match import GameResult, GameTask, close_agent, derive_seed, load_plugin
from bitflip.arena.openings import BalanceSearch, Opening, resolve_openings
from bitflip.arena.sprt import SequentialTest, SprtResult
from bitflip.arena.store import Store, StoredGame
from bitflip.arena.workers import GamePool, run_games
from bitflip.core.parallel import usable_cores


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that defines a tournament (see ``configs/arena.toml`` for each key)."""

    specs: tuple[str, ...]
    games: int = 20
    """Games per pair of agents (even: each opening is played with both colours)."""
    vs: str | None = None
    """Gauntlet: play only ``vs`` against each of ``specs``."""
    openings: str = "balanced"
    balance: BalanceSearch = field(default_factory=BalanceSearch)
    time_per_move: float | None = None
    grace: float = 1.0
    hang_timeout: float | None = 600.0
    build_timeout: float = 300.0
    size: int = 8
    seed: int = 0
    workers: int | None = None
    plugins: tuple[str, ...] = ()

    def players(self) -> list[str]:
        """Every agent in the tournament, ``vs`` first in a gauntlet."""
        return [self.vs, *self.specs] if self.vs else list(self.specs)

    def pairs(self) -> list[tuple[str, str]]:
        if self.vs:
            return [(self.vs, s) for s in self.specs]
        s = self.specs
        return [(s[i], s[j]) for i in range(len(s)) for j in range(i + 1, len(s))]


def canonical_spec(spec: str) -> str:
    """The spec written the one way the store uses (``Minimax: depth=2`` -> ``minimax:depth=2``)."""
    return str(parse_spec(spec))


def validate(cfg: TournamentConfig) -> TournamentConfig:
    """Check a config and build each agent once, so that bad specs fail before any game.

    Returns the config with specs in canonical form.

    Raises:
        ValueError: bad counts or sizes, duplicate or unknown specs, bad agent parameters.
    """
    from dataclasses import replace

    for plugin in cfg.plugins:
        load_plugin(plugin)
    if cfg.games < 2 or cfg.games % 2:
        raise ValueError(
            f"--games must be even and >= 2 (each opening is played with both colours), "
            f"not {cfg.games}"
        )
    if cfg.size not in (6, 8):
        raise ValueError(f"board size must be 6 or 8, not {cfg.size}")
    if cfg.time_per_move is not None and cfg.time_per_move <= 0:
        raise ValueError(f"time per move must be positive, not {cfg.time_per_move}")
    if cfg.build_timeout <= 0:
        raise ValueError(f"the warm-up limit must be positive, not {cfg.build_timeout}")
    if cfg.workers is not None and cfg.workers < 1:
        raise ValueError(f"workers must be >= 1, not {cfg.workers}")
    specs = tuple(canonical_spec(s) for s in cfg.specs)
    vs = canonical_spec(cfg.vs) if cfg.vs else None
    players = [vs, *specs] if vs else list(specs)
    if len(players) < 2:
        raise ValueError("a tournament needs at least two agents (or one and --vs)")
    dup = {p for p in players if players.count(p) > 1}
    if dup:
        raise ValueError(f"agent {sorted(dup)[0]!r} is listed twice")
    for spec in players:
        close_agent(make_agent(spec, seed=0))
    return replace(cfg, specs=specs, vs=vs)


def tournament_openings(cfg: TournamentConfig) -> list[Opening]:
    return resolve_openings(
        cfg.openings, cfg.games // 2, size=cfg.size, seed=cfg.seed, balance=cfg.balance
    )


def plan(cfg: TournamentConfig, openings: Sequence[Opening] | None = None) -> list[GameTask]:
    """Every game of the tournament, interleaved so that partial results cover all pairs."""
    ops = list(openings) if openings is not None else tournament_openings(cfg)
    tasks: list[GameTask] = []
    for slot, op in enumerate(ops):
        for a, b in cfg.pairs():
            for black, white in ((a, b), (b, a)):
                key = derive_seed(
                    "game", black, white, cfg.size, slot, op.transcript, cfg.time_per_move, cfg.seed
                )
                tasks.append(
                    GameTask(
                        key=f"{key:016x}",
                        black=black,
                        white=white,
                        opening=op.moves,
                        size=cfg.size,
                        slot=slot,
                        seed=derive_seed(cfg.seed, slot, op.transcript, black, white),
                        time_per_move=cfg.time_per_move,
                        grace=cfg.grace,
                        hang_timeout=cfg.hang_timeout,
                        build_timeout=cfg.build_timeout,
                    )
                )
    return tasks


@dataclass
class TournamentRun:
    """What :func:`run_tournament` did: the tournament's games (stored before or now)."""

    config: TournamentConfig
    games: list[StoredGame]
    played: int
    """Games played in this run (the rest were already in the store)."""
    skipped: int


def run_tournament(
    cfg: TournamentConfig,
    store: Store,
    *,
    backend: str = "local",
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
    tasks: Sequence[GameTask] | None = None,
) -> TournamentRun:
    """Play the games of ``cfg`` that ``store`` lacks, storing each as it ends.

    ``on_start(to_play, already_stored)`` is called once before the first game; ``tasks``
    is the tournament's :func:`plan` when the caller made it already.
    """
    tasks = list(tasks) if tasks is not None else plan(cfg)
    have = store.keys()
    todo = [t for t in tasks if t.key not in have]
    if on_start is not None:
        on_start(len(todo), len(tasks) - len(todo))

    def done(result: GameResult) -> None:
        store.add(result)
        if on_result is not None:
            on_result(result)

    if backend == "local":
        run_games(todo, workers=cfg.workers, on_result=done, plugins=cfg.plugins)
    elif backend == "ray":
        from bitflip.arena.ray_backend import run_games_ray  # ray is an optional extra

        run_games_ray(
            todo, address=ray_address, workers=cfg.workers, on_result=done, plugins=cfg.plugins
        )
    else:
        raise ValueError(f"unknown backend {backend!r}; use local or ray")
    games = store.games(t.key for t in tasks)
    return TournamentRun(cfg, games, len(todo), len(tasks) - len(todo))


def sprt_match(
    candidate: str,
    baseline: str,
    *,
    test: SequentialTest | None = None,
    max_games: int = 1000,
    batch: int | None = None,
    openings: str = "random:8",
    size: int = 8,
    seed: int = 0,
    time_per_move: float | None = None,
    workers: int | None = None,
    store: Store | None = None,
    on_batch: Callable[[SprtResult], None] | None = None,
) -> SprtResult:
    """Play colour-swapped pairs until the SPRT decides whether ``candidate`` beats ``baseline``.

    The learning loops' gate: ``sprt_match(new, best).decision == "H1"`` means the candidate is
    better by about the test's ``elo1`` (default ``SequentialTest(elo0=0, elo1=30)``) with its
    error rates ``alpha``/``beta``; the games are added to ``test``. Pairs are played in batches of
    ``batch`` games (default: two per worker); the test stops at a decision or ``max_games``
    (then ``decision`` is None). With a ``store`` the games are kept, and a rerun resumes.
    """
    cfg = validate(
        TournamentConfig(
            (candidate,),
            vs=baseline,
            games=max_games + max_games % 2,
            openings=openings,
            size=size,
            seed=seed,
            time_per_move=time_per_move,
            workers=workers,
        )
    )
    tasks = plan(cfg)
    step = batch or 2 * (workers or usable_cores())
    step += step % 2
    test = test if test is not None else SequentialTest(elo0=0.0, elo1=30.0)
    have = {g.key: g for g in store.games(t.key for t in tasks)} if store is not None else {}
    cand = cfg.specs[0]
    result = test.result()
    with GamePool(workers) as pool:
        for start in range(0, len(tasks), step):
            chunk = tasks[start : start + step]
            todo = [t for t in chunk if t.key not in have]
            scores: dict[str, float] = {t.key: have[t.key].score for t in chunk if t.key in have}
            for r in pool.run(todo):
                if store is not None:
                    store.add(r)
                scores[r.task.key] = r.score
            for first, second in zip(chunk[::2], chunk[1::2], strict=True):
                a = scores[first.key] if first.black == cand else 1 - scores[first.key]
                b = scores[second.key] if second.black == cand else 1 - scores[second.key]
                test.add_pair(a, b)
            result = test.result()
            if on_batch is not None:
                on_batch(result)
            if result.decision is not None:
                break
    return result

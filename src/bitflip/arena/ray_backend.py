"""The same tournament games on a Ray cluster (``pip install bitflip[distributed]``).

Each game is one Ray task of :func:`bitflip.jobs.run_tasks`: it returns the game's record to
the driver, which stores it (nodes need no shared disk), and a game lost with its node is
played again elsewhere. Inside a task the game runs in a :class:`~bitflip.arena.workers.GameWorker`,
the child process with the local backend's watchdog, so time limits, crashes and hangs are
handled identically; each Ray worker process keeps its game worker for the games after.
``address=None`` starts a local Ray instance for the job (or uses the one this process has
already initialised; an instance ``ray start`` left running is joined with ``"auto"``);
``"auto"``, ``"HOST:6379"`` or ``"ray://HOST:10001"`` joins a cluster, whose nodes must have
bitflip installed.
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Iterable, Sequence

from bitflip.arena.match import GameResult, GameTask, registry_snapshot
from bitflip.arena.workers import GameWorker
from bitflip.jobs import Backend, run_tasks

Setup = tuple[dict[str, str], tuple[str, ...]]
"""The agent registry and plugins every game's worker installs."""

_WORKERS: dict[tuple[object, ...], GameWorker] = {}
"""This Ray worker process's game worker for each setup (one in practice)."""


def _close_workers() -> None:
    for worker in _WORKERS.values():
        worker.close()
    _WORKERS.clear()


def play_one(setup: Setup, task: GameTask) -> GameResult:
    """Play one game in this process's game worker (started at its first game)."""
    key = (*sorted(setup[0].items()), *setup[1])
    worker = _WORKERS.get(key)
    if worker is None:
        if not _WORKERS:
            atexit.register(_close_workers)
        worker = _WORKERS[key] = GameWorker(*setup)
    return worker.run(task)


def run_games_ray(
    tasks: Iterable[GameTask],
    *,
    address: str | None = None,
    workers: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    plugins: Sequence[str] = (),
) -> list[GameResult]:
    """Play games on Ray, one task each; results in finishing order, each also passed to
    ``on_result`` in this process as it arrives (to store it at once).

    ``workers`` is the CPUs of a local instance (default one per core); on a cluster every
    CPU is used. A local instance started here is shut down afterwards; a cluster it joined is
    left running.
    """
    games = list(tasks)
    results: list[GameResult] = []

    def done(_: int, result: GameResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    setup: Setup = (registry_snapshot(), tuple(plugins))
    run_tasks(play_one, setup, games, Backend("ray", address, workers), done)
    return results

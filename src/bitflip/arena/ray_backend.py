"""The same tournament games on a Ray cluster (``pip install bitflip[distributed]``).

Each Ray actor owns one :class:`~bitflip.arena.workers.GameWorker`: a child process that plays
the games with the same watchdog as the local backend, so time limits, crashes and hangs are
handled identically. The driver hands games to idle actors and stores results as they come.
``address=None`` starts (or joins) a local Ray instance; ``"auto"`` or ``"ray://host:10001"``
joins a cluster, whose nodes must have bitflip installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bitflip.arena.match import GameResult, GameTask, registry_snapshot
from bitflip.arena.workers import GameWorker, default_workers


class GameHost:
    """A Ray actor body: one supervised game worker process."""

    def __init__(self, registry: dict[str, str], plugins: Sequence[str]) -> None:
        self.worker = GameWorker(registry, plugins)

    def play(self, task: GameTask) -> GameResult:
        return self.worker.run(task)

    def close(self) -> None:
        self.worker.close()


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--backend ray needs Ray: pip install 'bitflip[distributed]' (or pip install ray)"
        ) from None
    return ray


def run_games_ray(
    tasks: Iterable[GameTask],
    *,
    address: str | None = None,
    workers: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    plugins: Sequence[str] = (),
) -> list[GameResult]:
    """Play games on Ray with ``workers`` actors (default: the cluster's CPUs).

    Starts a local Ray instance when none is running and ``address`` is None, and shuts it
    down afterwards; a cluster it joined is left running.
    """
    ray = _ray()
    queue = list(tasks)
    results: list[GameResult] = []
    if not queue:
        return results
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"address": address, "log_to_driver": False}
        if address is None:
            kwargs["num_cpus"] = workers or default_workers()
            kwargs["include_dashboard"] = False
        ray.init(**kwargs)
        started = True
    try:
        n = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        n = max(1, min(n, len(queue)))
        host_cls = ray.remote(num_cpus=1)(GameHost)
        registry = registry_snapshot()
        hosts = [host_cls.remote(registry, tuple(plugins)) for _ in range(n)]
        pending: dict[Any, Any] = {}
        queue.reverse()
        for host in hosts:
            if queue:
                pending[host.play.remote(queue.pop())] = host
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                host = pending.pop(ref)
                result: GameResult = ray.get(ref)
                results.append(result)
                if on_result is not None:
                    on_result(result)
                if queue:
                    pending[host.play.remote(queue.pop())] = host
        ray.get([h.close.remote() for h in hosts])
        for h in hosts:
            ray.kill(h)
    finally:
        if started:
            ray.shutdown()
    return results

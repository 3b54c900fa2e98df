"""AlphaZero's self-play step: shards played by tasks, written by the driver alone.

Each shard (``concurrent_games`` games in lockstep, seeded by run seed, iteration and shard
number) is one task of :func:`bitflip.jobs.run_tasks`: in this process, in local worker
processes (``selfplay.workers``), or on a Ray cluster (``selfplay.backend = "ray"``). A task
gets the config and the best net's bytes (sent once to each Ray node through the object
store) and returns the games; this process writes each shard as it arrives, atomically. So no
node needs the run directory, a node lost mid-step costs only its unfinished shards (Ray runs
them again elsewhere), and a killed driver resumes at the shards it had not written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from bitflip.jobs import Backend, run_tasks
from bitflip.learn.az_config import RunConfig
from bitflip.learn.az_rundir import RunDir, initial_net
from bitflip.learn.az_selfplay import (
    SelfPlaySearch,
    exact_policies,
    exact_scores,
    keep_trained_rows,
)
from bitflip.learn.az_selfplay import selfplay_search as make_search
from bitflip.learn.az_shards import write_selfplay_shard
from bitflip.learn.shards import NO_SCORE
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.nn.threads import single_thread_worker, torch_threads
from bitflip.search.mcts.games import GameBatch, play_games

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass(frozen=True)
class ShardJob:
    """What every shard task of one self-play step shares."""

    cfg: RunConfig
    iteration: int
    net_name: str
    net: bytes
    """The best net's file contents: a task on another node has no access to the run folder."""
    driver: int
    """The driver's pid: a task running in it keeps its threads as they are."""


Shard = tuple[GameBatch, np.ndarray | None]
"""A shard's games and, with ``selfplay.exact_empties``, their positions' exact scores."""


def shard_path(run: RunDir, iteration: int, k: int) -> Path:
    return run.shards / f"it{iteration:04d}-{k:03d}.npz"


def selfplay_backend(cfg: RunConfig) -> Backend:
    """Where the config's self-play runs (``selfplay.backend``, ``ray_address``, ``workers``)."""
    sp = cfg.selfplay
    return Backend(sp.backend, sp.ray_address or None, sp.workers)


def selfplay_step(
    cfg: RunConfig,
    run: RunDir,
    iteration: int,
    log: Log = _quiet,
    backend: Backend | None = None,
) -> list[Path]:
    """Write this iteration's shards with the best net; existing shards are kept and skipped.

    Returns the shards written now, in shard order.
    """
    net_path = initial_net(cfg, run)
    sp = cfg.selfplay
    n_shards = -(-sp.games_per_iteration // sp.concurrent_games)
    todo = [k for k in range(n_shards) if not shard_path(run, iteration, k).exists()]
    if not todo:
        return []
    job = ShardJob(cfg, iteration, net_path.name, net_path.read_bytes(), os.getpid())
    source = f"selfplay {net_path.name}"
    t0 = time.time()

    def store(i: int, shard: Shard) -> None:
        k = todo[i]
        games, theoretical = shard
        path = shard_path(run, iteration, k)
        write_selfplay_shard(path, games, cfg.net.size, source, theoretical)
        log(f"self-play it{iteration} shard {k + 1}/{n_shards}: {time.time() - t0:.1f}s")

    backend = backend or selfplay_backend(cfg)
    # Self-play's batches are small: on a busy 2-core machine torch's two threads waited at
    # every call's barrier and self-play ran 15x slower than on one (benchmarks/selfplay.md).
    # A count the user set (OMP_NUM_THREADS) wins; training, after it, gets its threads back.
    here = backend.name == "local" and min(backend.workers or 1, len(todo)) <= 1
    pinned = here and "OMP_NUM_THREADS" not in os.environ
    with torch_threads(1) if pinned else contextlib.nullcontext():
        run_tasks(play_shard, job, todo, backend, store)
    return [shard_path(run, iteration, k) for k in todo]


def play_shard(job: ShardJob, k: int) -> Shard:
    """Shard ``k`` of ``job``'s iteration: its games, and exact scores where asked."""
    if os.getpid() != job.driver:
        # A worker that imported torch before it could set OMP_NUM_THREADS (a Ray task, a
        # spawned pool process): one thread for numba and torch, as in every worker.
        single_thread_worker()
    cfg = job.cfg
    policy_value = NetPolicyValue.from_file(_local_copy(job.net_name, job.net), cfg.device)
    sp = cfg.selfplay
    n = min(sp.concurrent_games, sp.games_per_iteration - k * sp.concurrent_games)
    seed = cfg.seed * 1_000_003 + job.iteration * 1009 + k
    mcts = make_search(
        policy_value, n, cfg.mcts, sp, seed=seed, value_margin=cfg.train.value_margin
    )
    temp_moves = 0 if cfg.mcts.root == "gumbel" else sp.temp_moves  # Gumbel noise explores
    games = play_games(
        [mcts], np.zeros((n, 2), np.int64), record=True, temp_moves=temp_moves,
        noise=True, seed=seed,
    )  # fmt: skip
    if isinstance(mcts, SelfPlaySearch):
        games = keep_trained_rows(games, mcts)
    theoretical = None
    if sp.exact_empties > 0:
        known = np.full(len(games.player), NO_SCORE, np.int64)
        if sp.exact_policy_empties > 0:
            rows, targets, margins = exact_policies(
                games.player, games.opponent, cfg.net.size, sp.exact_policy_empties
            )
            known[rows] = margins
            policy = games.policy.copy()
            policy[rows] = targets
            games = replace(games, policy=policy)
        theoretical = exact_scores(
            games.player, games.opponent, cfg.net.size, sp.exact_empties, known
        )
    return games, theoretical


_COPIES: dict[str, tuple[tempfile.TemporaryDirectory[str], Path]] = {}
"""This process's files of the nets it was sent, by content hash (removed when it exits)."""


def _local_copy(name: str, data: bytes) -> Path:
    """The net's bytes as a file of this process (the loader reads files), written once: the
    process's later shards of the same net read the same copy. Only the newest net is kept."""
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _COPIES:
        for old, _ in _COPIES.values():
            old.cleanup()
        _COPIES.clear()
        folder = tempfile.TemporaryDirectory(prefix="bitflip-net-")
        path = Path(folder.name) / name
        path.write_bytes(data)
        _COPIES[digest] = (folder, path)
    return _COPIES[digest][1]

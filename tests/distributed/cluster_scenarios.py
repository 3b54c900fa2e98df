"""Issue 36: self-play, labelling and a tournament on a real Ray cluster of three nodes (a head
and two worker nodes on this machine, one CPU each, made by ``ray.cluster_utils.Cluster``), with
a worker node killed mid-job: the job finishes, and its files equal a local run's with the same
seeds (nothing lost, duplicated or half-written). One cluster serves the whole module.

Run in a child process by ``test_cluster.py`` (see why there); ``pytest
tests/distributed/cluster_scenarios.py`` runs it alone."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bitflip.jobs import Backend

pytestmark = pytest.mark.slow

MiB = 1 << 20


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    ray = pytest.importorskip(
        "ray", reason="ray is not installed (pip install 'bitflip[distributed]')"
    )
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        pytest.fail("a Ray instance is already running in this process")
    node = {"num_cpus": 1, "object_store_memory": 80 * MiB}
    c = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    for _ in range(2):
        c.add_node(**node)
    ray.init(address=c.address, log_to_driver=False)
    try:
        yield c
    finally:
        ray.shutdown()
        c.shutdown()
        c.global_state.disconnect()  # its GCS client would wait for the dead GCS, then exit


class NodeKiller:
    """Called on the driver as each result arrives: at the first, kills a worker node that is
    running a task (waiting for one to start one, a few seconds at most); :meth:`replace` adds
    a fresh node for the next test."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster
        self.killed = False
        self.was_running = False

    def __call__(self, *_: object) -> None:
        if self.killed:
            return
        import ray

        free = ray._private.state.state.available_resources_per_node
        nodes = list(self.cluster.worker_nodes)
        deadline = time.monotonic() + 10
        busy = nodes[0]
        while time.monotonic() < deadline:
            idle = free()  # a node with no CPU left has no "CPU" key
            running = [n for n in nodes if n.node_id in idle and idle[n.node_id].get("CPU", 0) < 1]
            if running:
                busy, self.was_running = running[0], True
                break
            time.sleep(0.05)
        self.cluster.remove_node(busy, allow_graceful=False)
        self.killed = True

    def replace(self) -> None:
        assert self.killed, "the job ended before a node could be killed"
        assert self.was_running, "no worker node was running a task when one was killed"
        self.cluster.add_node(num_cpus=1, object_store_memory=80 * MiB)


@pytest.fixture
def kill_a_node(cluster: Any) -> Iterator[NodeKiller]:
    killer = NodeKiller(cluster)
    yield killer
    if killer.killed:
        killer.replace()


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def assert_same_files(a: list[Path], b: list[Path]) -> None:
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b, strict=True):
        ax, ay = _arrays(x), _arrays(y)
        assert ax.keys() == ay.keys(), x.name
        for k in ax:
            assert np.array_equal(ax[k], ay[k]), f"{x.name}: {k} differs"


def test_selfplay_iteration_loses_a_node_and_equals_a_local_run(
    kill_a_node: NodeKiller, tmp_path: Path
) -> None:
    pytest.importorskip("torch", reason="self-play needs torch (pip install 'bitflip[nn]')")
    from bitflip.learn.az_config import config_from_dict
    from bitflip.learn.az_rundir import RunDir
    from bitflip.learn.az_selfplay_step import selfplay_step

    def config(name: str) -> Any:
        return config_from_dict({
            "run": {"dir": str(tmp_path / name), "device": "cpu", "seed": 5},
            "net": {"size": 6, "channels": 4, "fc1": 8, "fc2": 8},
            "mcts": {"sims": 24},
            "selfplay": {"games_per_iteration": 6, "concurrent_games": 1, "temp_moves": 2},
        })  # fmt: skip

    local = RunDir(config("local").dir)
    expected = selfplay_step(config("local"), local, 0, backend=Backend("local", workers=1))
    cfg = config("ray")
    cfg = replace(cfg, selfplay=replace(cfg.selfplay, backend="ray"))
    got = selfplay_step(cfg, RunDir(cfg.dir), 0, kill_a_node)
    assert kill_a_node.killed and len(got) == 6
    assert_same_files(sorted(got), sorted(expected))
    assert sorted(p.name for p in (tmp_path / "ray" / "shards").iterdir()) == [p.name for p in got]


def test_labelling_job_loses_a_node_and_equals_a_local_run(
    kill_a_node: NodeKiller, shared_data: Path, tmp_path: Path
) -> None:
    from bitflip.learn.eval_labels import LabelConfig, make_labels

    wthor = shared_data / "wthor" / "WTH_2001.wtb"
    cfg = LabelConfig(
        wthor=str(wthor), positions=12, chunk=2, level=5, min_empties=20, max_empties=40,
        workers=1, out=str(tmp_path / "local"),
    )  # fmt: skip
    expected = make_labels(cfg)
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done:
            kill_a_node()

    ray_cfg = replace(cfg, backend="ray", out=str(tmp_path / "ray"))
    got = make_labels(ray_cfg, progress)
    assert kill_a_node.killed and seen == list(range(7))  # each chunk arrived once
    assert_same_files(got, expected)
    # A driver killed after some chunks resumes with the others (here: two lost chunks).
    for path in got[1:3]:
        path.unlink()
    seen.clear()
    assert_same_files(make_labels(ray_cfg, progress), expected)
    assert seen == [4, 5, 6]


def test_tournament_loses_a_node_and_equals_a_local_run(kill_a_node: NodeKiller) -> None:
    from bitflip.arena.store import Store
    from bitflip.arena.tournament import TournamentConfig, run_tournament, validate

    cfg = validate(
        TournamentConfig(("alphabeta:depth=4", "positional"), games=6, openings="random:6", seed=7)
    )
    with Store(":memory:") as local_store, Store(":memory:") as ray_store:
        local = run_tournament(cfg, local_store, backend="local")
        keys: list[str] = []

        def stored(result: Any) -> None:
            keys.append(result.task.key)
            kill_a_node()

        remote = run_tournament(cfg, ray_store, backend="ray", on_result=stored)
    assert kill_a_node.killed and remote.played == 6
    assert sorted(keys) == sorted(g.key for g in local.games)  # each game stored once
    by_key = {g.key: g for g in remote.games}
    for g in local.games:
        r = by_key[g.key]
        assert (r.moves, r.score, r.margin, r.error) == (g.moves, g.score, g.margin, None)


def test_a_failing_task_stops_the_job_with_its_own_error(cluster: Any) -> None:
    import operator

    from bitflip.jobs import run_tasks

    items = [3, 4, 0, 6]
    got: dict[int, int] = {}
    with pytest.raises(ZeroDivisionError):  # the task's own error, not Ray's wrapper
        run_tasks(operator.floordiv, 12, items, Backend("ray"), got.__setitem__)
    assert 2 not in got and all(got[i] == 12 // items[i] for i in got)

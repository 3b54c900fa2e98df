"""Serial and parallel twins agree; parallelism only for big calls on idle cores."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest
from numba import prange

from bitflip.core import parallel


def _double(x: np.ndarray, out: np.ndarray) -> None:
    for i in prange(x.shape[0]):
        out[i] = 2 * x[i]


def test_serial_and_parallel_twins_compute_the_same() -> None:
    serial, twin = parallel.serial_and_parallel(_double)
    x = np.arange(1000, dtype=np.int64)
    a, b = np.zeros_like(x), np.zeros_like(x)
    serial(x, a)
    twin(x, b)
    np.testing.assert_array_equal(a, 2 * x)
    np.testing.assert_array_equal(b, 2 * x)
    c = np.zeros_like(x)
    parallel.call(serial, twin, 10**9, x, c)
    np.testing.assert_array_equal(c, 2 * x)


def test_threads_only_for_big_calls_on_idle_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.numba, "get_num_threads", lambda: 8)
    monkeypatch.setattr(parallel, "usable_cores", lambda: 4)
    monkeypatch.setattr(parallel, "busy_cores", lambda: 1.0)
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK - 1) == 1
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK) == 4  # this process + 3 idle cores
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK, most=2) == 2  # torch's pool size
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK, most=1) == 1
    monkeypatch.setattr(parallel, "busy_cores", lambda: 2.5)
    assert parallel.threads_for(10**9) == 2
    monkeypatch.setattr(parallel, "busy_cores", lambda: 4.0)
    assert parallel.threads_for(10**9) == 1


def test_busy_cores_counts_jobs_the_load_average_has_not_seen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A busy loop started seconds ago is runnable now but not yet in the load average."""
    real_open = open
    fake = tmp_path / "loadavg"
    monkeypatch.setattr(parallel, "open", lambda path: real_open(fake), raising=False)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (0.2, 0.1, 0.1))
    fake.write_text("0.20 0.10 0.10 3/120 4567\n")
    assert parallel.busy_cores() == 3.0
    fake.write_text("0.20 0.10 0.10 1/120 4567\n")
    assert parallel.busy_cores() == 1.0
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (2.5, 0.1, 0.1))
    assert parallel.busy_cores() == 2.5
    fake.write_text("garbled\n")
    assert parallel.busy_cores() == 2.5


def test_single_thread_process_leaves_what_the_user_set(monkeypatch: pytest.MonkeyPatch) -> None:
    before = numba.get_num_threads()
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    try:
        parallel.single_thread_process()
        assert numba.get_num_threads() == 1
        assert parallel.os.environ["OMP_NUM_THREADS"] == "3"
        assert parallel.os.environ["MKL_NUM_THREADS"] == "1"
    finally:
        numba.set_num_threads(before)


def test_threads_and_workers_count_only_the_cores_this_process_may_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under ``taskset`` or a container's cpuset the affinity, not the machine, sets the count:
    more search threads or workers than usable cores only wait for each other."""
    from bitflip.arena.workers import GamePool
    from bitflip.cli.main import build_parser

    if not hasattr(parallel.os, "sched_getaffinity"):
        pytest.skip("this OS has no CPU affinity (sched_getaffinity)")
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 16)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {3})
    assert parallel.usable_cores() == 1
    assert GamePool().size == 1  # the workers of arena and jobs: one a usable core
    assert build_parser().parse_args(["nboard"]).threads == 1
    monkeypatch.setattr(parallel, "busy_cores", lambda: 1.0)  # this process: 15 "idle" elsewhere
    assert parallel.threads_for(10**9, most=16) == 1

"""Serial and parallel twins agree; parallelism only for big calls on idle cores."""

from __future__ import annotations

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
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK - 1) == 1
    assert parallel.threads_for(parallel.PARALLEL_MIN_WORK) == 4  # this process + 3 idle cores
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (2.5, 1.0, 1.0))
    assert parallel.threads_for(10**9) == 2
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (4.0, 1.0, 1.0))
    assert parallel.threads_for(10**9) == 1


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

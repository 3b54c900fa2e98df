"""The worker pool of the web app: tasks run, at most N at once, and idle threads end."""

from __future__ import annotations

import threading
import time

import pytest

from bitflip.web.workers import WorkerPool

from .conftest import until


def test_tasks_run_in_order_on_at_most_n_threads() -> None:
    pool = WorkerPool(2, name="t", idle=0.05)
    done: list[int] = []
    running = 0
    most = 0
    lock = threading.Lock()

    def task(i: int) -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.01)
        with lock:
            running -= 1
            done.append(i)

    for i in range(20):
        pool.submit(task, i)
    until(lambda: len(done) == 20)
    assert sorted(done) == list(range(20)) and most <= 2
    until(lambda: pool.threads == 0)  # idle threads end
    pool.submit(task, 20)  # and a new task starts one again
    until(lambda: len(done) == 21)
    pool.shutdown()


def test_a_failing_task_is_logged_and_the_pool_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    pool = WorkerPool(1, idle=0.05)
    done = threading.Event()

    def fail() -> None:
        raise RuntimeError("boom")

    pool.submit(fail)
    pool.submit(done.set)
    assert done.wait(5)
    assert "a background task failed" in caplog.text
    pool.shutdown()


def test_shutdown_drops_tasks_not_started_and_refuses_new_ones() -> None:
    pool = WorkerPool(1, idle=5.0)
    gate = threading.Event()
    ran: list[str] = []
    pool.submit(gate.wait, 5)
    pool.submit(ran.append, "queued")
    threading.Timer(0.1, gate.set).start()
    pool.shutdown()
    pool.submit(ran.append, "late")
    time.sleep(0.1)
    assert ran == [] and pool.threads == 0
    with pytest.raises(ValueError, match="at least 1"):
        WorkerPool(0)

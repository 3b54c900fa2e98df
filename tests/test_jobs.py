"""bitflip.jobs on the local backend: every result reaches the driver once, under its index;
a task's error stops the job; a wrong backend or a missing Ray is one clear line. (The Ray
backend is tested on a real cluster in tests/distributed/.)"""

from __future__ import annotations

import operator
import os
import sys

import pytest

from bitflip.jobs import Backend, run_tasks


def _pid(shared: int, item: int) -> tuple[int, int]:
    return shared * item, os.getpid()


@pytest.mark.parametrize("workers", [1, 2])
def test_each_result_comes_back_once_under_its_index(workers: int) -> None:
    got: dict[int, tuple[int, int]] = {}

    def store(i: int, result: tuple[int, int]) -> None:
        assert i not in got
        got[i] = result

    items = [1, 2, 3, 4, 5]
    run_tasks(_pid, 10, items, Backend("local", workers=workers), store)
    assert {i: r[0] for i, r in got.items()} == {i: 10 * x for i, x in enumerate(items)}
    pids = {r[1] for r in got.values()}
    # One worker: in this process; two: in worker processes, never this one.
    assert pids == {os.getpid()} if workers == 1 else os.getpid() not in pids


@pytest.mark.parametrize("workers", [1, 2])
def test_a_task_error_stops_the_job(workers: int) -> None:
    got: dict[int, int] = {}
    with pytest.raises(ZeroDivisionError):
        run_tasks(operator.floordiv, 12, [3, 0, 4], Backend(workers=workers), got.__setitem__)
    assert 1 not in got


def test_no_items_no_work() -> None:
    run_tasks(operator.add, 0, [], Backend("ray"), lambda i, r: pytest.fail("called"))


def test_bad_backends_are_one_line() -> None:
    with pytest.raises(ValueError, match="unknown backend 'spark'; use local or ray"):
        Backend("spark")
    with pytest.raises(ValueError, match="workers must be at least 1"):
        Backend(workers=0)


def test_missing_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ValueError, match=r"needs Ray: pip install 'bitflip\[distributed\]'"):
        run_tasks(operator.add, 0, [1], Backend("ray"), lambda i, r: None)

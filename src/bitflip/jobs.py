"""Heavy work as tasks whose results come back to the driver: on local processes or on Ray.

Self-play, labelling and tournaments all split their work the same way: a list of items, a
function that turns one item (plus data every item shares: a config, a network) into a result,
and a driver that stores each result as it arrives. :func:`run_tasks` runs that shape on a
:class:`Backend`:

* ``local``: the calling process for one worker, else a pool of spawned processes on this
  machine, each on one thread and gone when the driver is (:mod:`bitflip._watchdog`);
* ``ray``: one Ray task per item, one CPU each, on a cluster it joins (``address``) or on a
  local Ray instance it starts and stops (``address`` None).

Results travel back to the driver (through Ray's object store on a cluster), which alone writes
the run's files, atomically: no node needs the run directory, and a killed driver resumes from
what it wrote. On Ray a task whose node dies is run again elsewhere (``max_retries``): a lost
node costs only its unfinished tasks, and each result reaches the driver once, whichever
attempt made it. A task that raises is not retried: a bug or bad input fails the same way
twice, so its error reaches the driver at once.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from typing import Any, TypeAlias, TypeVar

from bitflip._watchdog import watch_driver
from bitflip.core.parallel import single_thread_process, usable_cores

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H")

TaskFn: TypeAlias = Callable[[S, T], R]
"""A task's body, ``fn(shared, item) -> result``."""
OnResult: TypeAlias = Callable[[int, R], None]
"""The driver's ``on_result(index of the item, result)``."""

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Backend:
    """Where :func:`run_tasks` runs its tasks."""

    name: str = "local"
    """'local' (processes on this machine) or 'ray' (tasks on a Ray cluster)."""
    address: str | None = None
    """Ray cluster to join under 'ray' ('auto', 'HOST:6379', 'ray://HOST:10001'); None or
    empty: start a local Ray instance with ``workers`` CPUs, stopped afterwards."""
    workers: int | None = None
    """Local: processes (default one per core). Ray: the CPUs of a local instance started
    here (default one per core); on a cluster every CPU it has runs tasks."""
    max_retries: int = 3
    """Ray: times a task lost with its node (or its worker process) is run again."""

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise ValueError(f"unknown backend {self.name!r}; use local or ray")
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be at least 0, not {self.max_retries}")


def run_tasks(
    fn: TaskFn[S, T, R], shared: S, items: Sequence[T], backend: Backend, on_result: OnResult[R]
) -> None:
    """Call ``fn(shared, item)`` for every item on ``backend``; ``on_result(i, result)`` gets
    the result of ``items[i]`` in this process, in finishing order, once per item.

    ``fn`` must be a module-level function (workers import it by name); ``shared`` is sent to
    each worker once on Ray (``ray.put``), with each task locally. An exception in a task
    stops the job: the tasks in flight are cancelled and the exception is raised here.
    """
    if not items:
        return
    if backend.name == "ray":
        _run_ray(fn, shared, items, backend, on_result)
        return
    workers = min(backend.workers or usable_cores(), len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            on_result(i, fn(shared, item))
        return
    _run_pool(fn, shared, items, workers, on_result)


def _pool_worker(driver: int) -> None:
    """A pool process: one thread, and gone when the driver is (even killed)."""
    single_thread_process()
    watch_driver(driver)


def _in_flight(
    items: Sequence[T],
    slots: int,
    submit: Callable[[T], H],
    wait_any: Callable[[list[H]], Iterable[tuple[H, R]]],
    pending: dict[H, int],
    on_result: OnResult[R],
) -> None:
    """Run every item with ``2 * slots`` tasks in flight, ``submit(item)`` giving a task's
    handle and ``wait_any(handles)`` the ended ones with their results; ``pending`` holds the
    handles in flight (for the caller to cancel when this raises)."""
    # Twice as many tasks in flight as slots: none idles, and the driver holds few results.
    queue = deque(enumerate(items))
    while queue or pending:
        while queue and len(pending) < 2 * slots:
            i, item = queue.popleft()
            pending[submit(item)] = i
        for handle, result in wait_any(list(pending)):
            on_result(pending.pop(handle), result)


def _run_pool(
    fn: TaskFn[S, T, R], shared: S, items: Sequence[T], workers: int, on_result: OnResult[R]
) -> None:
    def submit(item: T) -> Future[R]:
        return ex.submit(fn, shared, item)

    def wait_any(futures: list[Future[R]]) -> Iterator[tuple[Future[R], R]]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return ((fut, fut.result()) for fut in done)

    # spawn, never fork: the driver may run threads (progress, torch) that fork would copy.
    ctx = get_context("spawn")
    ex = ProcessPoolExecutor(workers, ctx, initializer=_pool_worker, initargs=(os.getpid(),))
    try:
        _in_flight(items, workers, submit, wait_any, {}, on_result)
    except BaseException:
        # An error, a time limit or Ctrl-C: the tasks in flight are dropped (a resume makes
        # them again) and the workers end now instead of finishing them.
        for child in ctx.active_children():
            child.kill()
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def import_ray() -> Any:
    """The ``ray`` module, or a one-line error saying how to install it."""
    try:
        import ray  # the distributed extra: only a Ray backend needs it
    except ImportError:
        raise ValueError(
            "backend 'ray' needs Ray: pip install 'bitflip[distributed]' (or pip install ray)"
        ) from None
    return ray


@contextmanager
def ray_session(backend: Backend) -> Iterator[Any]:
    """Ray, connected: to a running instance, to ``backend.address``, or to a local instance
    started here (and shut down at the end; an instance or cluster joined is left running)."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    kwargs: dict[str, Any] = {"log_to_driver": False}
    if backend.address:
        kwargs["address"] = backend.address
    else:
        # "local": a fresh instance even where an earlier one, killed, left its address behind
        # (Ray would otherwise try to join that dead one and fail).
        kwargs.update(
            address="local",
            num_cpus=backend.workers or usable_cores(),
            include_dashboard=False,
        )
    try:
        ray.init(**kwargs)
    except ConnectionError as exc:
        raise ValueError(f"cannot join the Ray cluster at {backend.address!r}: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _run_ray(
    fn: TaskFn[S, T, R], shared: S, items: Sequence[T], backend: Backend, on_result: OnResult[R]
) -> None:
    with ray_session(backend) as ray:
        # retry_exceptions=False: only a lost worker or node is retried, not an error of fn.
        task = ray.remote(num_cpus=1, max_retries=backend.max_retries, retry_exceptions=False)(
            _ray_task
        )
        shared_ref = ray.put(shared)  # sent once, read by every task on its node
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

        def wait_any(refs: list[Any]) -> Iterator[tuple[Any, Any]]:
            ready, _ = ray.wait(refs, num_returns=1)
            return ((ref, _get(ray, ref)) for ref in ready)

        # Twice the CPUs in flight: a node's next task is queued there as one ends.
        pending: dict[Any, int] = {}
        try:
            _in_flight(
                items, cpus, partial(task.remote, fn, shared_ref), wait_any, pending, on_result
            )
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise


def _ray_task(fn: TaskFn[S, T, R], shared: S, item: T) -> R:
    """A Ray task's body: ``fn(shared, item)`` on one thread (the task holds one CPU)."""
    single_thread_process()
    return fn(shared, item)


def _get(ray: Any, ref: Any) -> Any:
    """A task's result; its own exception (not Ray's wrapper) when it raised one."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause if isinstance(exc.cause, BaseException) else None
        if cause is not None:
            raise cause from None
        raise

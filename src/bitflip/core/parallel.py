"""When the batched kernels run on several threads, and how worker processes stay on one.

numba's parallel loops end in a barrier: every call waits for its slowest thread. On a machine
whose cores are busy (a tournament's other workers, training beside self-play, anyone else's
jobs) a thread is often descheduled, and a call that takes 0.5 ms on one thread took 5-250 ms
(issue 19); even calls of 40 ms ran 3x slower on two threads than on one when a third process
shared the two cores. So a batched kernel is compiled twice from one source, serial and
parallel (:func:`serial_and_parallel`), and :func:`call` takes the parallel one only for a call
with enough work to pay for the barrier and only on the cores that the load leaves idle
(:func:`threads_for`). Worker processes, which already run one per core, keep to one thread
(:func:`single_thread_process`).

The threading layer is numba's default (TBB where installed, else OpenMP): with parallel calls
only this large and only on idle cores, the layers' differences (spinning, start-up) do not
show.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from typing import Any

import numba
from numba import njit

PARALLEL_MIN_WORK = 1 << 20
"""Work units (roughly one bitboard move each, ~10-20 ns) below which a call stays serial.

About 10-20 ms of one-thread work: far above the cost of waking threads and the barrier.
"""


def threads_for(work: int, most: int | None = None) -> int:
    """Threads for a call of ``work`` units: 1 unless it is large and cores are idle.

    Idle cores are the usable CPUs less the busy ones (which count this process): a parallel call on
    a core that another process holds waits for it at the barrier. ``most`` caps the answer
    (default: numba's thread count; torch callers pass torch's).
    """
    if most is None:
        most = numba.get_num_threads()
    if work < PARALLEL_MIN_WORK or most == 1:
        return 1
    idle = usable_cores() - busy_cores()
    return max(1, min(most, int(idle) + 1))


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the OS has one (``taskset``,
    a container's cpuset), else every core. The one count of cores for threads and workers."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def busy_cores() -> float:
    """The 1-minute load average, or the tasks runnable right now if that is more.

    The load average lags by about a minute: a job that started seconds ago (a busy loop, a
    tournament's workers) is not in it yet, and a parallel call would wait for it. The
    runnable count of ``/proc/loadavg`` (Linux) is instant but noisy, so the larger is taken:
    it can only keep a call serial.
    """
    load = os.getloadavg()[0]
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return load
    return max(load, float(running))


def call(serial: Callable[..., Any], parallel: Callable[..., Any], work: int, *args: Any) -> Any:
    """Run ``serial(*args)``, or ``parallel(*args)`` on :func:`threads_for` threads."""
    k = threads_for(work)
    if k <= 1:
        return serial(*args)
    before = numba.get_num_threads()
    numba.set_num_threads(k)
    try:
        return parallel(*args)
    finally:
        numba.set_num_threads(before)


def serial_and_parallel(fn: Callable[..., Any]) -> tuple[Any, Any]:
    """``fn`` (a loop over ``numba.prange``) compiled serially and with ``parallel=True``.

    The parallel twin is a copy of the function under another name, so that the two do not
    share numba's on-disk cache entry (keyed by the function's qualified name).
    """
    twin = types.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__ + "_parallel", fn.__defaults__, fn.__closure__
    )
    twin.__qualname__ = fn.__qualname__ + "_parallel"
    twin.__doc__ = fn.__doc__
    return njit(cache=True)(fn), njit(cache=True, parallel=True)(twin)


def single_thread_process() -> None:
    """Keep this worker process's numba and BLAS/torch (OpenMP) pools to one thread.

    For processes started one per core (tournament workers, self-play shards, Ray tasks):
    several workers each running a pool of threads oversubscribe the machine. An environment
    variable the user set (``NUMBA_NUM_THREADS``, ``OMP_NUM_THREADS``) wins. Call it before
    torch is imported for the OpenMP setting to reach torch.
    """
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    if "NUMBA_NUM_THREADS" not in os.environ:
        numba.set_num_threads(1)

"""When the batched kernels run on several threads, and how worker processes stay on one.

numba's parallel loops end in a barrier: every call waits for its slowest thread. On a machine
whose cores are busy (a tournament's other workers, training beside self-play, anyone else's
jobs) a thread is often descheduled, and a call that takes 0.5 ms on one thread took 5-250 ms
(issue 19). So a batched kernel is compiled twice from one source, serial and parallel
(:func:`serial_and_parallel`), and takes the parallel one only when a call does enough work to
pay for waking threads and waiting at the barrier (:func:`parallel_pays`). Worker processes,
which already run one per core, keep to one thread (:func:`single_thread_process`).
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

About 10-20 ms of one-thread work: far above the cost of a barrier that waits for a thread
the scheduler put aside for a time slice, so a busy machine can lose little to parallelism.
"""


def parallel_pays(work: int) -> bool:
    """Whether a call of ``work`` units should run on numba's threads (more than one set)."""
    return work >= PARALLEL_MIN_WORK and numba.get_num_threads() > 1


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

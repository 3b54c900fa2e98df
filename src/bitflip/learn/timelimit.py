"""A wall-clock limit that a long training run keeps, cutting off whatever step is running.

The training loops are kill-safe (every shard and net is written to a temporary name and
renamed), so stopping one at an arbitrary point loses at most the step in progress, and the
same command resumes. :func:`time_limit` raises :class:`TimeLimitReached` in the main thread
when the time is up, from a timer signal: a numba kernel or a torch step in progress finishes
its call first (milliseconds), then the exception unwinds the step.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class TimeLimitReached(BaseException):
    """The run's time is up (a BaseException, like KeyboardInterrupt: no ``except Exception``
    in a step may swallow it)."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitReached` in this block after ``seconds`` (None: no limit).

    Raises:
        ValueError: ``seconds`` is not positive, or the limit is asked for outside the main
            thread (timer signals reach only the main thread).
    """
    if seconds is None:
        yield
        return
    if seconds <= 0:
        raise ValueError(f"the time limit must be positive, not {seconds / 60:g} minutes")
    if threading.current_thread() is not threading.main_thread():
        raise ValueError("a time limit works only in the main thread")

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitReached(f"the time limit of {seconds / 60:g} minutes is reached")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

"""A thread pool whose idle threads end, so a quiet server holds no worker threads.

``concurrent.futures.ThreadPoolExecutor`` keeps every thread it ever started until shutdown: a
burst of work leaves its threads behind for the life of the server. Here a thread that finds no
work for :data:`IDLE_SECONDS` ends, and the next task starts a new one.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

IDLE_SECONDS = 2.0
"""How long a worker thread waits for a task before it ends."""

Task = Callable[..., Any]


class WorkerPool:
    """At most ``workers`` threads run the submitted tasks, first in first out."""

    def __init__(self, workers: int, *, name: str = "worker", idle: float | None = None) -> None:
        """``idle``: seconds a thread waits for work before it ends (None: :data:`IDLE_SECONDS`
        as it is when the thread waits)."""
        if workers < 1:
            raise ValueError(f"a worker pool needs at least 1 thread, not {workers}")
        self.workers = workers
        self.name = name
        self.idle = idle
        self._tasks: queue.SimpleQueue[tuple[Task, tuple[Any, ...]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: set[threading.Thread] = set()
        self._waiting = 0
        """Threads waiting for a task now (they take the next one, no new thread is needed)."""
        self._queued = 0
        """Tasks submitted and not yet taken by a thread."""
        self._closed = False
        self._count = 0

    def submit(self, task: Task, *args: Any) -> None:
        """Run ``task(*args)`` on a pool thread; an exception is logged, not raised."""
        with self._lock:
            if self._closed:
                return
            self._queued += 1
            self._tasks.put((task, args))
            if self._queued > self._waiting and len(self._threads) < self.workers:
                self._count += 1
                t = threading.Thread(
                    target=self._work, name=f"{self.name}-{self._count}", daemon=True
                )
                self._threads.add(t)
                t.start()

    def _work(self) -> None:
        me = threading.current_thread()
        while True:
            with self._lock:
                self._waiting += 1
            try:
                item = self._tasks.get(timeout=IDLE_SECONDS if self.idle is None else self.idle)
            except queue.Empty:
                item = None
            with self._lock:
                self._waiting -= 1
                if item is None:
                    if self._queued == 0 or self._closed:
                        self._threads.discard(me)
                        return
                    continue  # a task came in just as the wait ended: take it
                self._queued -= 1
            task, args = item
            try:
                task(*args)
            except Exception:
                log.exception("a background task failed")

    @property
    def threads(self) -> int:
        """Worker threads alive now."""
        with self._lock:
            return len(self._threads)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Drop the tasks not yet started and wait (up to ``timeout`` s each) for the running."""
        with self._lock:
            self._closed = True
            threads = list(self._threads)
            while True:
                try:
                    item = self._tasks.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    self._queued -= 1
            for _ in threads:
                self._tasks.put(None)  # wakes each waiting thread at once
        for t in threads:
            if t is not threading.current_thread():
                t.join(timeout)

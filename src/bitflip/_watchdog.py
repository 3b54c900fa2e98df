"""Worker processes end when the process that drives them is gone.

A killed driver (SIGKILL, SIGTERM: no cleanup runs) would leave its workers running, and with
them whatever their agents started (engine processes). Each worker calls :func:`watch_driver`
with the driver's pid at start: a daemon thread waits for that process to end, then kills the
worker's own process group (when the worker leads one) and exits. The driver, not the parent:
under forkserver the parent is the fork server, which outlives the driver for a while.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time


def driver_gone(driver: int) -> None:
    """Block until process ``driver`` has ended."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        try:
            fd = pidfd_open(driver)
        except OSError:
            return  # already gone
        select.select([fd], [], [])  # a pidfd turns readable when its process exits
        return
    while True:
        try:
            os.kill(driver, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass
        time.sleep(0.5)


def end_with_driver(driver: int) -> None:
    """Wait for the driver to end, then end this process and its group (see module doc)."""
    driver_gone(driver)
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)  # the worker's own group: it and its engines
    os._exit(3)


def watch_driver(driver: int) -> None:
    """Start the thread that ends this worker once process ``driver`` is gone."""
    threading.Thread(target=end_with_driver, args=(driver,), daemon=True).start()

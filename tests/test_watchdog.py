"""Workers end when their driver is gone, even a driver killed with SIGKILL (_watchdog)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bitflip._watchdog import driver_gone

SRC = str(Path(__file__).resolve().parent.parent / "src")

WORKER = """
import sys, time
from bitflip._watchdog import watch_driver
watch_driver(int(sys.argv[1]))
print("watching", flush=True)
time.sleep(60)
sys.exit(0)
"""


def test_a_worker_ends_when_its_driver_is_killed() -> None:
    driver = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(driver.pid)],
        env={"PYTHONPATH": SRC},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None and worker.stdout.readline() == "watching\n"
        assert worker.poll() is None  # the driver lives: the worker goes on
        driver.kill()
        driver.wait()
        assert worker.wait(timeout=30) == 3  # not its own 0 after 60 s: the watchdog ended it
    finally:
        for p in (driver, worker):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_a_driver_already_gone_is_no_wait() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    driver_gone(gone.pid)  # returns at once: the pid names no process any more

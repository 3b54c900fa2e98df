"""The wall-clock limit of a training run (learn.timelimit)."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from bitflip.learn.timelimit import TimeLimitReached, time_limit


def test_the_limit_cuts_off_the_block_and_puts_the_old_handler_back() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(TimeLimitReached, match="time limit of"), time_limit(0.05):
        for _ in range(1000):  # 10 s if nothing stops it
            time.sleep(0.01)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_block_that_ends_in_time_is_not_disturbed() -> None:
    with time_limit(5.0):
        done = sum(range(1000))
    assert done == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left to go off later


def test_no_limit_sets_no_timer() -> None:
    with time_limit(None):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_exception_handler_of_a_step_cannot_swallow_it() -> None:
    with pytest.raises(TimeLimitReached), time_limit(0.05):
        try:
            time.sleep(2)
        except Exception:  # what a step's own error handling catches
            pytest.fail("TimeLimitReached is not an Exception")


@pytest.mark.parametrize("seconds", [0, -1.0])
def test_a_limit_must_be_positive(seconds: float) -> None:
    with pytest.raises(ValueError, match="must be positive"), time_limit(seconds):
        pass


def test_only_the_main_thread_can_keep_a_limit() -> None:
    errors: list[Exception] = []

    def run() -> None:
        try:
            with time_limit(1.0):
                pass
        except ValueError as exc:
            errors.append(exc)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert len(errors) == 1 and "main thread" in str(errors[0])

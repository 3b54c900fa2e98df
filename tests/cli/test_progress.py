"""Progress lines: rewritten in a terminal, a line per tenth in a log (issue 17: piled-up \\r)."""

from __future__ import annotations

import io

from bitflip._progress import ProgressLine


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_per_tenth_and_no_carriage_return() -> None:
    log = io.StringIO()
    bar = ProgressLine("analysing", stream=log)
    for done in range(1, 61):
        bar.update(done, 60)
    bar.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert lines[0] == "analysing 1/60" and lines[-1] == "analysing 60/60" and len(lines) == 11


def test_a_terminal_line_is_rewritten_in_place() -> None:
    tty = _Tty()
    bar = ProgressLine("analysing", stream=tty)
    for done in range(1, 4):
        bar.update(done, 3)
    bar.close()
    assert tty.getvalue() == "\ranalysing 1/3\ranalysing 2/3\ranalysing 3/3\n"


def test_quiet_prints_nothing() -> None:
    log = io.StringIO()
    bar = ProgressLine("x", stream=log, quiet=True)
    bar.update(1, 2)
    bar.close()
    assert log.getvalue() == ""

"""Progress lines: rewritten in a terminal, a line per tenth in a log (issue 17: piled-up \\r)."""

from __future__ import annotations

import io

import pytest

from bitflip._progress import ProgressLine, track


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


def test_track_counts_a_loop_and_says_nothing_when_off(capsys: pytest.CaptureFixture[str]) -> None:
    assert list(track([1, 2, 3], "files")) == [1, 2, 3]
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "files 0/3" and err[-1] == "files 3/3"
    assert list(track([1, 2], "files", enabled=False)) == [1, 2]
    assert capsys.readouterr().err == ""


def test_progress_is_shown_one_way() -> None:
    """Issue 33 item 7: tqdm in learn/, the CLI's progress line and ad-hoc lines were three."""
    from tests._source import modules_containing

    others = modules_containing(("tqdm", 'print(f"\\r'), besides="_progress.py")
    assert others == [], others

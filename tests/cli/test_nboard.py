"""``bitflip nboard``: the command reads NBoard lines on stdin and answers on stdout."""

from __future__ import annotations

import io

import pytest

from bitflip.cli.main import main


def test_nboard_command_session(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    log = f"{tmp_path}/nboard.log"
    lines = "nboard 2\nset depth 2\nmove f5\nbogus\ngo\nping 1\nquit\nping 2\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["nboard", "--level", "2", "--tt-mb", "1", "--log", log]) == 0
    out = capsys.readouterr()
    replies = out.out.splitlines()
    assert replies[0] == "set myname bitflip"
    answer = next(r for r in replies if r.startswith("=== "))
    assert answer.split()[1].split("/")[0] in ("d6", "f4", "f6")
    assert replies[-1] == "pong 1"  # nothing after quit
    assert "unknown command 'bogus'" in out.err
    with open(log, encoding="utf-8") as f:
        logged = f.read().splitlines()
    assert logged[:2] == ["> nboard 2", "< set myname bitflip"]
    assert logged[-1] == "> quit"


def test_nboard_command_rejects_a_bad_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nboard", "--level", "99"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bitflip nboard: error:") and len(err.strip().splitlines()) == 1

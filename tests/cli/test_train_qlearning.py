"""``bitflip train qlearning``: trains and saves a table, resumes from it, prints the report's
table, and refuses a table trained with other settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.cli.main import main
from bitflip.learn.qlearning import QTable

TINY = "size = 4\nepisodes = 1500\ntable_bits = 12\neval_games = 20\n"


def test_train_resume_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, out = tmp_path / "q.toml", tmp_path / "q.npz"
    config.write_text(TINY)
    args = ["train", "qlearning", "--config", str(config), "--out", str(out), "--quiet"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert first.startswith("4x4, 1500 games vs self, ")
    rows = {line[:20].strip(): line[20:].split() for line in first.splitlines()[2:]}
    assert set(rows) == {"random vs random", "trained vs random", "trained vs trained"}
    assert sum(map(int, rows["trained vs random"])) == 20
    assert QTable.load(out).episodes_done == 1500
    assert main(args) == 0  # nothing left to train: the saved table is reported again
    assert capsys.readouterr().out == first
    assert main([*args, "--episodes", "2500"]) == 0  # more games continue the table
    assert QTable.load(out).episodes_done == 2500


def test_a_table_of_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, out = tmp_path / "q.toml", tmp_path / "q.npz"
    config.write_text(TINY)
    args = ["train", "qlearning", "--config", str(config), "--out", str(out), "--quiet"]
    assert main(args) == 0
    config.write_text(TINY.replace("table_bits = 12", "table_bits = 13"))
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "table_bits=12; the config says otherwise" in err

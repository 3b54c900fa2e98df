"""``bitflip bench`` counts the nodes recorded in benchmarks/BENCH (the last ``Bench:`` line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.cli.main import main

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "BENCH"


def recorded_nodes() -> int:
    """The count on the last line of benchmarks/BENCH that is not a comment."""
    lines = [x.strip() for x in BENCH.read_text(encoding="utf-8").splitlines()]
    return int([x for x in lines if x and not x.startswith("#")][-1])


def test_bench_counts_the_recorded_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 0
    nodes = int(capsys.readouterr().out.split("Nodes searched: ")[1].split()[0])
    recorded = recorded_nodes()
    assert nodes == recorded, (
        f"bitflip bench searched {nodes} nodes; benchmarks/BENCH records {recorded}. "
        f"If the change is meant to change the search, write {nodes} on the last line of "
        f"benchmarks/BENCH and end the commit message with 'Bench: {nodes}'; if not, the "
        "search changed by accident."
    )

"""NBoard transcripts: lines in, exact lines out, over the real engine.

A transcript file has ``> line`` for what the GUI sends, ``< line`` for each line the engine
must answer (in order, nothing more), ``! text`` for each line expected on stderr (it must
contain ``text``) and ``#`` comments. In an expected line a ``*`` token matches any one token:
it stands for node counts, search depths reported by the engine and, in midgame searches,
moves and evaluations that depend on the evaluation function. Times are exact: the session
runs on a clock that stands still. Each transcript gets a fresh engine and depth-limited,
single-threaded searches, so runs are deterministic.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.protocols.nboard import NBoardServer

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))


@dataclass
class Transcript:
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def read_transcript(path: Path) -> Transcript:
    t = Transcript()
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        kind, text = line[:2], line[2:]
        if kind == "> ":
            t.inputs.append(text)
        elif kind == "< ":
            t.outputs.append(text)
        elif kind == "! ":
            t.errors.append(text)
        else:
            raise ValueError(f"{path.name}:{n}: a line must start with '> ', '< ', '! ' or '#'")
    return t


def run_session(inputs: list[str]) -> tuple[list[str], list[str], NBoardServer]:
    """Feed the lines one by one, each after the previous one's answer (deterministic order)."""
    out, err = io.StringIO(), io.StringIO()
    server = NBoardServer(Engine(tt_mb=4), out, err=err, clock=lambda: 0.0)
    for line in inputs:
        if not server.handle(line):
            break
        server.wait()
    server.close()
    return out.getvalue().splitlines(), err.getvalue().splitlines(), server


def matches(expected: str, actual: str) -> bool:
    want, got = expected.split(), actual.split()
    return len(want) == len(got) and all(w in ("*", g) for w, g in zip(want, got, strict=True))


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_transcript(path: Path) -> None:
    t = read_transcript(path)
    out, err, _ = run_session(t.inputs)
    assert len(out) == len(t.outputs), "\n".join(out)
    for i, (want, got) in enumerate(zip(t.outputs, out, strict=True)):
        assert matches(want, got), f"{path.name}: reply {i + 1}: want {want!r}, got {got!r}"
    assert len(err) == len(t.errors), "\n".join(err)
    for want, got in zip(t.errors, err, strict=True):
        assert want in got, f"{path.name}: stderr: want {want!r} in {got!r}"


def test_midgame_answers_are_legal_and_deterministic() -> None:
    t = read_transcript(Path(__file__).parent / "transcripts" / "midgame.txt")
    out1, _, server = run_session(t.inputs)
    out2, _, _ = run_session(t.inputs)
    assert out1 == out2
    board = server.board  # after 'move d3'
    before = board.copy()
    before.pop()
    answers = [line for line in out1 if line.startswith("=== ")]
    hints = [line.split()[1] for line in out1 if line.startswith("search ")]
    assert before.parse_move(answers[0].split()[1].split("/")[0]) in before.legal_moves
    assert all(before.parse_move(h) in before.legal_moves for h in hints)
    assert len(set(hints)) == 2
    assert board.parse_move(answers[1].split()[1].split("/")[0]) in board.legal_moves
    assert isinstance(board, Board)


def test_ping_interrupts_a_deep_search() -> None:
    """A search that would take hours ends at 'ping': its move comes first, then 'pong'."""
    out = io.StringIO()
    server = NBoardServer(Engine(tt_mb=4), out, err=io.StringIO())
    for line in ("nboard 2", "set depth 40", "move f5", "go"):
        server.handle(line)
    assert server.thinking
    server.handle("ping 4")  # blocks until the search has stopped and answered
    assert not server.thinking
    lines = out.getvalue().splitlines()
    assert lines[-1] == "pong 4" and lines[-2] == "status bitflip is waiting"
    move = next(x for x in lines if x.startswith("=== ")).split()[1].split("/")[0]
    assert move in ("d6", "f4", "f6")

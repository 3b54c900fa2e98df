"""Every reader, fed any bytes or a mutated valid file, gives games that replay legally or a
FormatError naming the file: never another exception (benchmarks/fuzz_formats.py runs longer)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.formats import obf
from bitflip.formats.errors import FormatError
from bitflip.formats.io import read_games

SAMPLES: dict[str, bytes] = {
    ".txt": b"f5d6c3d3c4f4f6f3e6e7\nf5f6e6f4\n",
    ".ggf": b"(;GM[Othello]PC[x]PB[a]PW[b]RE[+4.000]TY[8]BO[8 "
    + b"-" * 27
    + b"O*------*O"
    + b"-" * 27
    + b" *]B[f5//1.2]W[d6/-0.5/3];)\n",
    ".obf": b"---------------------------OX------XO--------------------------- X; f5:+0 d3:+0\n",
}


def _wtb_sample() -> bytes:
    from bitflip.formats.record import GameRecord
    from bitflip.formats.transcript import parse_transcript
    from bitflip.formats.wthor import write_wtb

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "S.wtb"
        moves = parse_transcript("f5d6c3d3c4f4f6f3e6e7")
        write_wtb(path, [GameRecord(moves=moves, black="a", white="b")])
        return path.read_bytes()


SAMPLES[".wtb"] = _wtb_sample()
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read(suffix: str, data: bytes) -> None:
    """Read ``data`` as a file of that kind; every game must replay, else a FormatError."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            if suffix == ".obf":
                for position in obf.read(path):
                    assert isinstance(position.board, Board)
            else:
                for record in read_games(path):
                    record.board()  # replays every move; raises on an illegal one
        except FormatError as exc:
            assert exc.path == str(path), f"the error does not name the file: {exc}"


def _mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    out = bytearray(data)
    for kind, where, value in edits:
        if not out:
            out.append(value)
            continue
        i = where % len(out)
        if kind == 0:
            out[i] = value
        elif kind == 1:
            out.insert(i, value)
        else:
            del out[i]
    return bytes(out)


EDITS = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 10_000), st.integers(0, 255)), max_size=8
)


def _case(suffix: str) -> Callable[..., None]:
    @FUZZ
    @given(st.binary(max_size=400), EDITS)
    def run(noise: bytes, edits: list[tuple[int, int, int]]) -> None:
        _read(suffix, noise)
        _read(suffix, _mutate(SAMPLES[suffix], edits))

    return run


test_transcript_files = _case(".txt")
test_ggf_files = _case(".ggf")
test_obf_files = _case(".obf")
test_wthor_files = _case(".wtb")


def test_the_samples_are_valid() -> None:
    for suffix, data in SAMPLES.items():
        _read(suffix, data)
    assert len(list(read_games(_write(".ggf")))) == 1


def _write(suffix: str) -> Path:
    d = Path(tempfile.mkdtemp())
    (d / f"s{suffix}").write_bytes(SAMPLES[suffix])
    return d / f"s{suffix}"


def test_the_ggf_inputs_that_crashed() -> None:
    """Issue 20: an infinite result, a non-ASCII digit, sizes past Python's digit limit."""
    for text in (
        "(;RE[" + "9" * 309 + "];)",
        "(;BO[\u00b2];)",
        "(;TY[" + "8" * 5000 + "];)",
        "(;BO[" + "8" * 4301 + "];)",
        "(;TY[\u0668];)",
    ):
        _read(".ggf", text.encode())

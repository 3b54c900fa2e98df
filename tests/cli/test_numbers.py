"""Bounded numbers of the command-line options (cli._numbers): parsed, refused in one line."""

from __future__ import annotations

import argparse

import pytest

from bitflip.cli._numbers import DISCS, PORT, SECONDS, FloatRange, IntRange


def test_a_whole_number_in_range_is_parsed() -> None:
    assert PORT("0") == 0 and PORT("65535") == 65535 and PORT(" 80 ") == 80


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("65536", "a whole number >= 0 and <= 65535, not 65536"),
        ("-1", "a whole number >= 0 and <= 65535, not -1"),
        ("8.5", "a whole number >= 0 and <= 65535, not '8.5'"),
        ("eighty", "a whole number >= 0 and <= 65535, not 'eighty'"),
    ],
)
def test_a_whole_number_out_of_range_names_the_bound(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as err:
        PORT(text)
    assert str(err.value) == message


def test_a_value_met_later_is_checked_by_the_same_bound() -> None:
    depth = IntRange(1, 60)
    assert depth.check(12, "depth") == 12
    with pytest.raises(ValueError, match=r"^depth must be a whole number >= 1 and <= 60, not 61$"):
        depth.check(61, "depth")
    with pytest.raises(ValueError, match="not True"):  # a bool is not a number of plies
        depth.check(True, "depth")
    with pytest.raises(ValueError, match="not '3'"):
        depth.check("3", "depth")  # type: ignore[arg-type]


def test_a_float_bound_is_open_or_closed_as_asked() -> None:
    assert SECONDS("0.5") == 0.5 and DISCS("0") == 0.0
    with pytest.raises(argparse.ArgumentTypeError, match=r"^a number > 0 and <= 1000000, not 0$"):
        SECONDS("0")
    for bad in ("nan", "inf", "1e7", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            SECONDS(bad)
    ratio = FloatRange(0.0, 1.0, inclusive=True)
    assert ratio.check(1, "share") == 1
    with pytest.raises(ValueError, match=r"^share must be a number >= 0 and <= 1, not 1.5$"):
        ratio.check(1.5, "share")
    with pytest.raises(ValueError, match="not nan"):
        ratio.check(float("nan"), "share")

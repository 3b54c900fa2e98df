"""The help texts table (cli._subcommand.TEXTS) and the parser agree: every command has its
texts there, and every entry there is a command."""

from __future__ import annotations

import argparse

import pytest

from bitflip.cli._subcommand import TEXTS, add_subcommand
from bitflip.cli.main import build_parser


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, str | None]:
    """Every command below ``parser`` by its words after ``bitflip``, with its description."""
    out: dict[str, str | None] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                words = f"{prefix} {name}".strip()
                out[words] = sub.description
                out.update(_commands(sub, words))
    return out


def test_every_command_has_its_texts_and_every_text_a_command() -> None:
    commands = _commands(build_parser())
    assert set(commands) == set(TEXTS)
    for words, description in commands.items():
        assert description == TEXTS[words][1], words


def test_summaries_are_one_short_line() -> None:
    for words, (summary, _) in TEXTS.items():
        assert summary and "\n" not in summary and len(summary) <= 80, words
        assert not summary.endswith("."), words  # argparse lists them as phrases


def test_a_command_is_typed_by_its_last_word() -> None:
    sub = argparse.ArgumentParser().add_subparsers()
    p = add_subcommand(sub, "data build")
    assert p.prog.endswith(" build") and p.description == TEXTS["data build"][1]
    with pytest.raises(KeyError):
        add_subcommand(sub, "data unknown")

"""The error type subcommands raise for a one-line message to the user."""

from __future__ import annotations


class CommandError(Exception):
    """An error to report to the user in one line."""


def install_hint(extra: str) -> str:
    """The install line that brings an optional extra, from a clone and from PyPI.

    torch comes first with its CPU pin: an unpinned torch pulls a multi-GB CUDA build.
    """
    torch = "pip install torch==2.13.0 && " if extra == "nn" else ""
    return f"{torch}pip install -e '.[{extra}]' in the clone (or pip install 'bitflip[{extra}]')"

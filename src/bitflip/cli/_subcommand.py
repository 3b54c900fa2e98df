"""How a subcommand module adds its parser: one call with its one-line help and its details."""

from __future__ import annotations

import argparse
from typing import TypeAlias

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers()`` returns: the ``sub`` every ``register(sub)`` receives."""


def add_subcommand(
    sub: Subparsers, name: str, summary: str, details: str | None = None
) -> argparse.ArgumentParser:
    """The parser of subcommand ``name``: ``summary`` in the list, ``details`` in its --help."""
    return sub.add_parser(name, help=summary, description=details)

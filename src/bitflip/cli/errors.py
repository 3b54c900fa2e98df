"""The error type subcommands raise for a one-line message to the user."""

from __future__ import annotations


class CommandError(Exception):
    """An error to report to the user in one line."""

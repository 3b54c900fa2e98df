"""MkDocs hooks: the command-line reference, rendered from the real parser at build time.

``docs/cli.md`` holds the marker ``<!-- bitflip-cli -->``; this hook replaces it with every
subcommand of :func:`bitflip.cli.main.build_parser`, its usage, description and options, so
the page cannot drift from the code.
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path
from typing import Any

MARKER = "<!-- bitflip-cli -->"
SRC = Path(__file__).resolve().parent.parent / "src"


def _text(value: str) -> str:
    """Help text as Markdown that shows it verbatim (tables, emphasis and links escaped)."""
    out = html.escape(" ".join(value.split()), quote=False)
    for char, entity in (("|", "&#124;"), ("*", "&#42;"), ("_", "&#95;"), ("[", "&#91;")):
        out = out.replace(char, entity)
    return out.replace("`", "&#96;")


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, help, parser) of each subcommand of ``parser``, in the order --help lists them."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # aliases share a parser
                    seen.add(id(sub))
                    out.append((name, helps.get(name, ""), sub))
    return out


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    formatter = parser._get_formatter()
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction | argparse._HelpAction) or (
            action.help == argparse.SUPPRESS
        ):
            continue
        if action.option_strings:
            name = ", ".join(action.option_strings)
            if action.nargs != 0:
                name += " " + formatter._format_args(action, action.dest.upper())
        else:
            name = formatter._format_args(action, action.dest)
        helptext = formatter._expand_help(action) if action.help else ""
        default = action.default
        shown = (
            ""
            if default in (None, False, argparse.SUPPRESS)
            or action.nargs == 0
            or "default" in helptext
            else f" (default: {default})"
        )
        rows.append(f"| `{name}` | {_text(helptext + shown)} |")
    return rows


def _render(name: str, helptext: str, parser: argparse.ArgumentParser, depth: int) -> list[str]:
    lines = [f"{'#' * depth} {name}", ""]
    about = parser.description or helptext
    if about:
        lines += [_text(about), ""]
    usage = " ".join(parser.format_usage().split())
    lines += ["```text", usage.removeprefix("usage: "), "```", ""]
    rows = _option_rows(parser)
    if rows:
        lines += ["| argument | what |", "|---|---|", *rows, ""]
    children = _subparsers(parser)
    if children:
        lines += ["| subcommand | what |", "|---|---|"]
        lines += [
            f"| [`{name} {child}`](#{(name + ' ' + child).replace(' ', '-')}) | {_text(h)} |"
            for child, h, _ in children
        ]
        lines.append("")
    if parser.epilog:
        lines += [_text(parser.epilog), ""]
    for child, h, sub in children:
        lines += _render(f"{name} {child}", h, sub, min(depth + 1, 4))
    return lines


def cli_reference() -> str:
    """The reference of every ``bitflip`` subcommand as Markdown."""
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    from bitflip.cli.main import build_parser

    parser = build_parser()
    parser.prog = "bitflip"
    lines = ["| command | what |", "|---|---|"]
    subs = _subparsers(parser)
    lines += [f"| [`bitflip {n}`](#bitflip-{n}) | {_text(h)} |" for n, h, _ in subs]
    lines.append("")
    for n, h, sub in subs:
        lines += _render(f"bitflip {n}", h, sub, 2)
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown

"""A griffe extension for the docs build: docstrings written for pytest and Sphinx read well.

The docstrings keep their examples as plain doctest (``>>>`` lines and the output after them,
run by pytest); Markdown would read them as text, and ``[...]`` in an output as a link. This
wraps each run of example lines (up to a blank line) in a ``pycon`` fence.

They also name other objects with Sphinx roles (``:class:`~bitflip.engine.Engine```); these
become cross-references that link when the object is in the reference and stay plain code when
it is not (autorefs' optional references, so the strict build does not fail on them).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_PROMPT = re.compile(r"^(\s*)>>> ")
_ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj|const):`(~?)([\w.]+)(?:\(\))?`")


def link_roles(text: str, module: str) -> str:
    """``text`` with Sphinx roles as optional cross-references (``.name``: in ``module``)."""

    def ref(match: re.Match[str]) -> str:
        short, target = match.group(1) == "~", match.group(2)
        title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
        if target.startswith("."):  # relative to this module, one level up per extra dot
            dots = len(target) - len(target.lstrip("."))
            base = module.rsplit(".", dots - 1)[0] if dots > 1 else module
            target = f"{base}.{target.lstrip('.')}"
        elif "." not in target:
            target = f"{module}.{target}"
        return f'<autoref identifier="{target}" optional><code>{title}</code></autoref>'

    return _ROLE.sub(ref, text)


def fence_doctests(text: str) -> str:
    """``text`` with every doctest example (``>>>`` up to a blank line) fenced as ``pycon``."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        match = None if in_fence else _PROMPT.match(line)
        if match is None:
            out.append(line)
            i += 1
            continue
        indent = match.group(1)
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        text = obj.docstring.value
        if ">>> " in text:
            text = fence_doctests(text)
        if ":`" in text:
            text = link_roles(text, obj.module.path)
        obj.docstring.value = text

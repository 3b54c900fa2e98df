"""The header every weights file starts with: its format name and version, checked once."""

from __future__ import annotations

from typing import Any


def check_header(doc: object, where: str, what: str, fmt: str, version: int) -> dict[str, Any]:
    """``doc`` as a dict, after checking that it is a ``what`` file of this version.

    Raises:
        ValueError: naming ``where`` and what is wrong (not such a file, or another version).
    """
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise ValueError(f"{where}: not a {what} file (format must be {fmt!r})")
    if doc.get("version") != version:
        raise ValueError(
            f"{where}: {what} version {doc.get('version')!r} is not supported (expected {version})"
        )
    return doc

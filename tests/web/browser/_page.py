"""Helpers of the browser tests: start a game through the API, read the page's view."""

from __future__ import annotations

from typing import Any


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("window.bitflip.view")  # type: ignore[no-any-return]


def start(page: Any, server: str, **settings: Any) -> dict[str, Any]:
    """A new game through the API, opened in the page by its id."""
    import json
    import urllib.request

    req = urllib.request.Request(
        server + "/api/games",
        data=json.dumps(settings).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        game = json.loads(r.read())
    page.goto(f"{server}/#game={game['id']}")
    page.wait_for_function(f"window.bitflip.view && window.bitflip.view.id === '{game['id']}'")
    return game  # type: ignore[no-any-return]

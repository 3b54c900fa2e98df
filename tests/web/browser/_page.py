"""Helpers of the browser tests: call the JSON API, start a game, read the page's view."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("window.bitflip.view")  # type: ignore[no-any-return]


def api(server: str, method: str, path: str, body: Any = None) -> Any:
    """One request to the app's JSON API; the decoded answer (None when empty)."""
    req = urllib.request.Request(
        server + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        text = r.read()
    return json.loads(text) if text else None


def start(page: Any, server: str, **settings: Any) -> dict[str, Any]:
    """A new game through the API, opened in the page by its id."""
    game = api(server, "POST", "/api/games", settings)
    page.goto(f"{server}/#game={game['id']}")
    page.wait_for_function(f"window.bitflip.view && window.bitflip.view.id === '{game['id']}'")
    return game  # type: ignore[no-any-return]

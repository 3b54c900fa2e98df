"""Fixtures of the web tests: an app over a temporary SQLite file and a client for it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra (pip install -e '.[web]')")

from fastapi.testclient import TestClient

from bitflip.web.app import create_app

View = dict[str, Any]
BASE = "http://localhost"
"""The test client's URL: the app answers only requests that name a localhost host."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, opponent="random"), base_url=BASE) as c:
        yield c


def wait_for(
    client: TestClient, view: View, ready: Callable[[View], bool], timeout: float = 30.0
) -> View:
    """Long-poll the game until ``ready(view)`` (the opponent moves in the background)."""
    deadline = time.monotonic() + timeout
    while not ready(view):
        assert time.monotonic() < deadline, f"timed out waiting; last view: {view}"
        r = client.get(f"/api/games/{view['id']}", params={"after": view["version"], "wait": 5})
        assert r.status_code == 200, r.text
        view = r.json()
    return view

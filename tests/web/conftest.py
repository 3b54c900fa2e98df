"""Fixtures of the web tests: an app over a temporary SQLite file and a client for it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra (pip install -e '.[web]')")

from fastapi.testclient import TestClient

from bitflip.web import api
from bitflip.web.app import create_app
from bitflip.web.live_game import LiveGame
from bitflip.web.manager import GameManager
from bitflip.web.store import GameStore

from . import fake_engine

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


class Clock:
    """A clock the test moves (the manager's watching, eviction and game clocks read it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def manager(clock: Clock) -> Iterator[GameManager]:
    """A manager on the stand-in engine and the test's clock; the test calls the reaper."""
    fake_engine.Engine.instances.clear()
    m = GameManager(
        GameStore(":memory:"),
        default_opponent="engine:level=5",
        make_engine=fake_engine.Engine,
        clock=clock,
        reaper=False,
    )
    yield m
    m.close()


def until(ready: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def new(manager: GameManager, **body: object) -> LiveGame:
    return manager.create(api.NewGame.model_validate(body))

"""Hints, analysis, "move now" and pondering through the engine facade.

Runs against a stand-in engine (tests/web/fake_engine.py) whose answers are known, given to the
app as ``make_engine``; test_engine_real.py uses the real one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bitflip.web.app import create_app
from bitflip.web.manager import mistake_kind

from . import fake_engine
from .conftest import BASE, View, wait_for


@pytest.fixture
def eclient(tmp_path: Path) -> Iterator[TestClient]:
    fake_engine.Engine.instances.clear()
    app = create_app(
        tmp_path / "g.sqlite", opponent="engine:level=5", make_engine=fake_engine.Engine
    )
    with TestClient(app, base_url=BASE) as c:
        yield c


def new(client: TestClient, **body: object) -> View:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_default_opponent_is_the_engine(eclient: TestClient) -> None:
    info = eclient.get("/api/agents").json()
    assert info["default"] == "engine:level=5"
    assert "engine:level=20" in info["examples"]
    r = eclient.post("/api/games", json={"opponent": "engine:level=99"})
    assert r.status_code == 400 and "engine level" in r.json()["detail"]


def test_hints_score_every_legal_move_and_feed_the_graph(eclient: TestClient) -> None:
    v = new(eclient, human="both", moves="f5d6")
    r = eclient.post(f"/api/games/{v['id']}/hint", json={"seconds": 0.2})
    assert r.status_code == 200, r.text
    hints = r.json()
    assert hints["ply"] == 2 and sorted(h["move"] for h in hints["hints"]) == sorted(v["legal"])
    scores = [h["score"] for h in hints["hints"]]
    assert scores == sorted(scores, reverse=True)
    after = eclient.get(f"/api/games/{v['id']}").json()
    point = next(e for e in after["evals"] if e["ply"] == 2)
    assert point["source"] == "hint" and point["score"] == scores[0]  # black to move at ply 2


def test_analysis_marks_the_mistakes(eclient: TestClient) -> None:
    # Against one-ply disc counting, the last move (b5) loses two discs.
    v = new(eclient, human="both", moves="f5d6c3d3c4b5")
    r = eclient.post(f"/api/games/{v['id']}/analyse", json={"seconds_per_move": 0.05})
    assert r.status_code == 200, r.text
    v = wait_for(eclient, r.json(), lambda v: not v["analysing"] and bool(v["analysis"]))
    rows = v["analysis"]
    assert [a["move"] for a in rows] == ["f5", "d6", "c3", "d3", "c4", "b5"]
    for a in rows:
        assert a["loss"] == a["best_score"] - a["score"] >= 0
        assert a["mistake"] == mistake_kind(a["loss"])
    assert any(a["mistake"] for a in rows), rows
    assert {e["ply"] for e in v["evals"]} >= {0, 1, 2, 3}
    # A second analysis while one runs is refused; after, it may run again.
    r = eclient.post(f"/api/games/{v['id']}/analyse", json={"seconds_per_move": 0.05})
    assert r.status_code == 200


def test_move_now_stops_a_long_think_and_the_engine_ponders(eclient: TestClient) -> None:
    v = new(eclient, human="black", opponent="engine:level=20")
    v = eclient.post(f"/api/games/{v['id']}/moves", json={"move": "f5"}).json()
    v = wait_for(eclient, v, lambda v: v["thinking"] and v["search"] is not None)
    assert len(v["moves"]) == 1  # level 20 thinks until told
    assert v["search"]["depth"] == 1 and len(v["search"]["pv"]) == 1
    v = eclient.post(f"/api/games/{v['id']}/move-now").json()
    v = wait_for(eclient, v, lambda v: len(v["moves"]) == 2, timeout=10)
    assert v["human_to_move"] and any(e["source"] == "move" for e in v["evals"])
    v = wait_for(eclient, v, lambda v: v["pondering"], timeout=10)
    opponent = fake_engine.Engine.instances[0]
    assert opponent.pondered and opponent.pondered[-1].endswith(" X")
    # The person's move ends pondering; undo while the engine thinks throws its search away.
    v = eclient.post(f"/api/games/{v['id']}/moves", json={"move": v["legal"][0]}).json()
    v = wait_for(eclient, v, lambda v: v["thinking"])
    v = eclient.post(f"/api/games/{v['id']}/undo").json()
    assert v["cursor"] == 2 and not v["thinking"]


def test_pondering_rests_after_a_while(
    eclient: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bitflip.web import tasks

    monkeypatch.setattr(tasks, "PONDER_SECONDS", 0.3)
    v = new(eclient, human="white", opponent="engine:level=1")
    v = wait_for(eclient, v, lambda v: v["pondering"], timeout=10)
    opponent = fake_engine.Engine.instances[0]
    v = wait_for(eclient, v, lambda v: not v["pondering"], timeout=10)
    deadline = time.monotonic() + 5
    while opponent.pondering and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not opponent.pondering and v["human_to_move"]

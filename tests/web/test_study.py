"""The study board through the API: levels, variations, resign, the game library, clocks,
honest scores and analysis marks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bitflip.core.board import Board
from bitflip.search.limits import MoveScore
from bitflip.web.app import create_app
from bitflip.web.engine_bridge import Analyst, disc_score

from . import fake_engine
from .conftest import BASE, View, wait_for


def new(client: TestClient, **body: object) -> View:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def eclient(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        tmp_path / "g.sqlite", opponent="engine:level=5", make_engine=fake_engine.Engine
    )
    with TestClient(app, base_url=BASE) as c:
        yield c


def test_levels_come_with_their_measured_times(client: TestClient) -> None:
    info = client.get("/api/agents").json()
    times = info["level_times"]
    assert [t["level"] for t in times] == list(range(1, 21))
    assert all(t["label"].startswith(f"Level {t['level']}:") for t in times)
    assert times[-1]["mean_seconds"] > times[0]["mean_seconds"]


def test_a_variation_is_kept_shown_and_walked(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3d3c2f4")
    gid = v["id"]
    v = client.post(f"/api/games/{gid}/jump", json={"ply": 1}).json()
    v = client.post(f"/api/games/{gid}/moves", json={"move": "f6", "ply": 1}).json()
    assert v["moves"] == ["f5", "f6"] and not v["on_main_line"]
    [branch] = v["branches"]
    assert branch == {"ply": 2, "node": 2, "move": "d6", "main": True}
    v = client.post(f"/api/games/{gid}/jump", json={"node": branch["node"]}).json()
    assert v["moves"] == ["f5", "d6", "c3", "d3", "c2", "f4"] and v["cursor"] == 2
    assert v["on_main_line"] and [b["move"] for b in v["branches"]] == ["f6"]
    # Exports give the line shown, or the main line.
    v = client.post(f"/api/games/{gid}/jump", json={"node": v["branches"][0]["node"]}).json()
    assert client.get(f"/api/games/{gid}/export?format=transcript").text.strip() == "f5f6"
    main = client.get(f"/api/games/{gid}/export?format=transcript&line=main").text
    assert main.strip() == "f5d6c3d3c2f4"
    r = client.post(f"/api/games/{gid}/jump", json={})
    assert r.status_code == 400
    assert client.post(f"/api/games/{gid}/jump", json={"node": 99}).status_code == 400


def test_resign(client: TestClient) -> None:
    v = new(client, human="black", moves="f5d6")
    r = client.post(f"/api/games/{v['id']}/resign")
    assert r.status_code == 200
    v = r.json()
    assert v["over"] and v["result"]["text"] == "Black resigns: white wins"
    assert client.post(f"/api/games/{v['id']}/resign").status_code == 409
    assert client.post(f"/api/games/{v['id']}/moves", json={"move": "c3"}).status_code == 409
    [g] = client.get("/api/games").json()
    assert g["result"] == "white" and g["score"] == "resigned"
    w = new(client, human="none")
    assert client.post(f"/api/games/{w['id']}/resign").status_code == 409


def test_rename_delete_and_filter_the_library(client: TestClient) -> None:
    a = new(client, human="both", moves="f5d6")
    b = new(client, human="both", moves="f5f6", title="Diagonal study")
    r = client.patch(f"/api/games/{a['id']}", json={"title": "Tiger against Ann"})
    assert r.status_code == 200 and r.json()["title"] == "Tiger against Ann"
    assert client.patch(f"/api/games/{a['id']}", json={"title": "x" * 201}).status_code == 422
    titles = [g["title"] for g in client.get("/api/games", params={"player": "ann"}).json()]
    assert titles == ["Tiger against Ann"]
    assert client.get("/api/games", params={"result": "black"}).json() == []
    assert len(client.get("/api/games", params={"result": "none"}).json()) == 2
    assert client.get("/api/games", params={"result": "maybe"}).status_code == 422
    assert client.delete(f"/api/games/{b['id']}").status_code == 204
    assert client.get(f"/api/games/{b['id']}").status_code == 404
    assert [g["id"] for g in client.get("/api/games").json()] == [a["id"]]


def test_opening_a_page_stores_no_game_until_a_move(client: TestClient) -> None:
    v = new(client)  # what the page does on '/'
    assert client.get("/api/games").json() == []
    client.post(f"/api/games/{v['id']}/moves", json={"move": "f5"})
    assert [g["id"] for g in client.get("/api/games").json()] == [v["id"]]


def test_the_opening_is_named(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3d3c4f4e6")
    assert v["opening"] == {"name": "Leader's Tiger", "ply": 7}
    v = client.post(f"/api/games/{v['id']}/jump", json={"ply": 5}).json()
    assert v["opening"]["name"] == "Tiger"


def test_a_game_clock_runs_for_the_side_to_move(eclient: TestClient) -> None:
    v = new(eclient, human="black", minutes=5, increment=2)
    clock = v["clock"]
    assert clock["running"] == "black" and clock["white"] == 300.0 and clock["black"] <= 300.0
    v = eclient.post(f"/api/games/{v['id']}/moves", json={"move": "f5"}).json()
    v = wait_for(eclient, v, lambda v: len(v["moves"]) == 2)
    assert v["clock"]["running"] == "black" and v["clock"]["white"] <= 302.0
    limit = fake_engine.Engine.instances[-1].limits[-1]  # the opponent's search
    assert limit is not None and limit.clocks is not None
    assert limit.clocks.increment == 2 and 290 < limit.clocks.mine <= 300


def test_watch_mode_can_pause(eclient: TestClient) -> None:
    v = new(eclient, human="none", opponent="engine:level=1")
    v = eclient.patch(f"/api/games/{v['id']}", json={"paused": True, "delay": 0}).json()
    assert v["paused"] and v["delay"] == 0
    v = eclient.patch(f"/api/games/{v['id']}", json={"paused": False}).json()
    v = wait_for(eclient, v, lambda v: len(v["moves"]) >= 4)
    assert eclient.patch(f"/api/games/{v['id']}", json={"delay": 11}).status_code == 422


# --- honest numbers ----------------------------------------------------------------------------


def test_scores_are_discs_the_board_allows() -> None:
    assert disc_score(-74.6, False, 8) == -64.0  # an evaluation's estimate past the board
    assert disc_score(12.5, False, 8) == 12.5
    assert disc_score(40.0, False, 6) == 36.0
    assert disc_score(-64.0, True, 8) == -64.0


class Overshooting(fake_engine.Engine):
    """Heuristic scores past the board, and the played move scored at another depth."""

    def hint(self, n: int = 64, limit: object = None, on_info: object = None) -> list[MoveScore]:
        scores = fake_engine.one_ply(self.board)[:n]
        out = [MoveScore(s.move, s.score * 40, 12) for s in scores]
        return [out[0], *(MoveScore(s.move, s.score, 11) for s in out[1:])]


def test_hints_and_analysis_stay_within_the_board_and_mark_only_like_scores() -> None:
    analyst = Analyst(8, make_engine=Overshooting)
    board = Board()
    for m in ("f5", "d6", "c3", "d3", "c4"):
        board.push(board.parse_move(m))
    hints = analyst.hints(board, 0.1)
    assert hints and all(-64 <= h.score <= 64 for h in hints)
    rows = analyst.analyse(board, 0.1)
    assert [r.ply for r in rows] == [0, 1, 2, 3, 4]
    assert all(-64 <= r.played_score <= 64 and -64 <= r.best_score <= 64 for r in rows)
    best_played = [r for r in rows if r.played == r.best]
    others = [r for r in rows if r.played != r.best]
    assert all(r.comparable for r in best_played) and others
    assert not any(r.comparable for r in others)  # depth 11 against depth 12: not compared

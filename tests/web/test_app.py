"""The JSON API: games, moves, undo/redo/jump, errors, persistence, save and load."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bitflip.web.app import create_app

from .conftest import BASE, View, wait_for


def new(client: TestClient, **body: object) -> View:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def move(client: TestClient, view: View, square: str, **extra: object) -> View:
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": square, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def test_new_game_and_a_move_against_the_opponent(client: TestClient) -> None:
    v = new(client, human="black", opponent="greedy", seed=3)
    assert (
        v["turn"] == "black"
        and v["human_to_move"]
        and sorted(v["legal"])
        == [
            "c4",
            "d3",
            "e6",
            "f5",
        ]
    )
    assert (v["black"], v["white"], v["cursor"], v["moves"]) == (2, 2, 0, [])
    v = move(client, v, "f5")
    assert v["moves"][0] == "f5" and v["flipped"] == ["e5"] and v["last_move"] == "f5"
    v = wait_for(client, v, lambda v: len(v["moves"]) == 2)
    assert v["turn"] == "black" and not v["thinking"] and v["transcript"].startswith("f5")


def test_opponent_opens_when_the_person_plays_white(client: TestClient) -> None:
    v = new(client, human="white")
    v = wait_for(client, v, lambda v: len(v["moves"]) == 1)
    assert v["turn"] == "white" and v["human_to_move"]


@pytest.mark.slow
def test_whole_game_between_agents_ends_with_a_result(client: TestClient) -> None:
    v = new(client, human="none", size=6, opponent="random", seed=1)
    v = wait_for(client, v, lambda v: v["over"], timeout=60)
    res = v["result"]
    assert res["black"] + res["white"] == 36
    assert v["turn"] is None and v["legal"] == [] and v["evals"][-1]["exact"]
    assert res["text"].startswith(("Black wins", "White wins", "Draw"))


def test_bad_requests_get_4xx_and_change_nothing(client: TestClient) -> None:
    v = new(client, human="black", opponent="random")
    gid = v["id"]
    before = client.get(f"/api/games/{gid}").json()
    cases = [
        (client.post(f"/api/games/{gid}/moves", json={"move": "a1"}), 400, "illegal move a1"),
        (client.post(f"/api/games/{gid}/moves", json={"move": "z9"}), 400, "'z9'"),
        (client.post(f"/api/games/{gid}/moves", json={"move": "f5", "ply": 7}), 409, "ply 7"),
        (client.post(f"/api/games/{gid}/moves", json={}), 422, "move: Field required"),
        (client.post(f"/api/games/{gid}/moves", json={"move": "f5", "x": 1}), 422, "x:"),
        (
            client.post(
                f"/api/games/{gid}/moves",
                content=b"{not json",
                headers={"content-type": "application/json"},
            ),
            400,
            "not valid JSON",
        ),
        (client.post("/api/games/nope/moves", json={"move": "f5"}), 404, "no game"),
        (client.get("/api/games/nope"), 404, "no game with id 'nope'"),
        (client.post(f"/api/games/{gid}/undo"), 400, "nothing to undo"),
        (client.post(f"/api/games/{gid}/redo"), 400, "nothing to redo"),
        (client.post(f"/api/games/{gid}/jump", json={"ply": 5}), 400, "outside the move list"),
        (client.post(f"/api/games/{gid}/jump", json={"ply": -1}), 422, "ply"),
        (client.post("/api/games", json={"opponent": "nobody"}), 400, "unknown agent 'nobody'"),
        (client.post("/api/games", json={"size": 7}), 422, "size"),
        (client.post("/api/games", json={"start": "XO"}), 400, "OBF"),
        (client.post("/api/games", json={"moves": "f5f5"}), 400, "move 2"),
        (client.post("/api/games/load", json={"text": "(;GM[Othello]B[zz];)"}), 400, "GGF"),
        (client.post("/api/games/load", json={"text": ""}), 400, "empty"),
    ]
    for r, status, words in cases:
        assert r.status_code == status, (words, r.status_code, r.text)
        assert words in r.json()["detail"], (words, r.json())
    after = client.get(f"/api/games/{gid}").json()
    assert after == before


def test_wrong_turn_is_a_conflict(client: TestClient) -> None:
    v = new(client, human="white", opponent="random", seed=2)
    r = client.post(f"/api/games/{v['id']}/moves", json={"move": "f5"})
    # Either the opponent (black) is still to move, or it has moved and f5 may be illegal.
    if r.status_code == 409:
        assert "black's turn" in r.json()["detail"]
    v = wait_for(client, v, lambda v: v["human_to_move"])
    r = client.post(f"/api/games/{v['id']}/moves", json={"move": v["legal"][0], "ply": 0})
    assert r.status_code == 409 and "meant for ply 0" in r.json()["detail"]


def test_undo_redo_jump_and_a_new_line(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3d3c4")
    gid = v["id"]
    assert v["cursor"] == 5 and v["can_undo"] and not v["can_redo"]
    v = client.post(f"/api/games/{gid}/undo").json()
    assert v["cursor"] == 4 and v["can_redo"] and len(v["moves"]) == 5
    v = client.post(f"/api/games/{gid}/redo").json()
    assert v["cursor"] == 5
    v = client.post(f"/api/games/{gid}/jump", json={"ply": 2}).json()
    assert v["cursor"] == 2 and v["last_move"] == "d6" and v["moves"][2] == "c3"
    v = move(client, v, "c5")  # leaves the line: a new one starts here
    assert v["moves"] == ["f5", "d6", "c5"] and v["cursor"] == 3 and not v["can_redo"]


def test_undo_against_an_opponent_takes_back_its_reply(client: TestClient) -> None:
    v = new(client, human="black", opponent="random", seed=5)
    v = move(client, v, "f5")
    v = wait_for(client, v, lambda v: len(v["moves"]) == 2 and v["human_to_move"])
    v = client.post(f"/api/games/{v['id']}/undo").json()
    assert v["cursor"] == 0 and v["turn"] == "black" and v["moves"][0] == "f5"
    # Jumping back does not make the opponent play over the line.
    v = client.post(f"/api/games/{v['id']}/jump", json={"ply": 1}).json()
    assert v["turn"] == "white" and not v["thinking"] and len(v["moves"]) == 2
    v = client.post(f"/api/games/{v['id']}/move-now").json()
    v = wait_for(client, v, lambda v: v["cursor"] == 2)
    assert v["human_to_move"]


def test_games_survive_a_restart(db: Path) -> None:
    with TestClient(create_app(db, opponent="greedy"), base_url=BASE) as c:
        v = new(c, human="both", moves="f5d6c3")
        c.post(f"/api/games/{v['id']}/jump", json={"ply": 1})
        other = wait_for(c, new(c, human="white"), lambda v: len(v["moves"]) == 1)
        bare = new(c, human="black")  # nothing happened in it: not stored
    with TestClient(create_app(db, opponent="greedy"), base_url=BASE) as c:
        assert c.get(f"/api/games/{bare['id']}").status_code == 404
        back = c.get(f"/api/games/{v['id']}").json()
        assert back["moves"] == ["f5", "d6", "c3"] and back["cursor"] == 1
        assert c.get(f"/api/games/{other['id']}").json()["opponent"] == "greedy"
        ids = [g["id"] for g in c.get("/api/games").json()]
        assert set(ids) == {v["id"], other["id"]}
        assert c.delete(f"/api/games/{other['id']}").status_code == 204
        assert c.get(f"/api/games/{other['id']}").status_code == 404


def test_several_games_at_once_do_not_mix(client: TestClient) -> None:
    a = new(client, human="both")
    b = new(client, human="both", size=6)
    move(client, a, "f5")
    move(client, b, "c2" if "c2" in b["legal"] else b["legal"][0])
    a2 = client.get(f"/api/games/{a['id']}").json()
    b2 = client.get(f"/api/games/{b['id']}").json()
    assert a2["moves"] == ["f5"] and b2["size"] == 6 and len(b2["moves"]) == 1


def test_save_and_load_ggf_and_transcript(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3d3c4f4f6")
    ggf = client.get(f"/api/games/{v['id']}/export", params={"format": "ggf"}).text
    assert ggf.startswith("(;GM[Othello]") and "B[f5]" in ggf
    tr = client.get(
        f"/api/games/{v['id']}/export", params={"format": "transcript", "download": True}
    )
    assert tr.text.strip() == "f5d6c3d3c4f4f6"
    assert "attachment" in tr.headers["content-disposition"]
    for text in (ggf, tr.text, "F5 D6 C3 D3 C4 F4 F6"):
        r = client.post("/api/games/load", json={"text": text})
        assert r.status_code == 201, r.text
        assert r.json()["moves"] == v["moves"] and r.json()["cursor"] == 7
    r = client.get(f"/api/games/{v['id']}/export", params={"format": "pdf"})
    assert r.status_code == 422


def test_set_up_position_from_the_board_editor(client: TestClient) -> None:
    start = "-" * 27 + "OX------XO" + "-" * 27 + " O"  # standard discs, white to move
    v = new(client, start=start, human="both")
    assert v["turn"] == "white" and v["start"] == start and v["cells"] == start[:64]
    ggf = client.get(f"/api/games/{v['id']}/export", params={"format": "ggf"}).text
    back = client.post("/api/games/load", json={"text": ggf}).json()
    assert back["start"] == start and back["turn"] == "white"


def test_person_with_no_move_passes_and_it_is_announced(client: TestClient) -> None:
    start = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- X"
    v = new(client, start=start, human="black", opponent="greedy")
    v = wait_for(client, v, lambda v: v["over"] or v["human_to_move"])
    assert v["moves"][0] == "pa"
    v = client.post(f"/api/games/{v['id']}/jump", json={"ply": 1}).json()
    assert v["notice"] == "Black has no legal move and passes."


def test_agents_and_docs(client: TestClient) -> None:
    info = client.get("/api/agents").json()
    assert info["default"] == "random" and "minimax" in info["agents"]
    assert info["default_level"] in info["levels"]
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/hint"):
        assert p in paths
    assert client.get("/").status_code == 200
    assert client.get("/static/app.js").status_code == 200


def test_idle_games_leave_memory_but_not_the_store(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bitflip.web.manager as manager_module

    monkeypatch.setattr(manager_module, "MAX_LIVE", 2)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    games = [new(client, human="both", moves="f5") for _ in range(4)]
    assert len(manager._live) == 2
    first = client.get(f"/api/games/{games[0]['id']}").json()  # back from the store
    assert first["moves"] == ["f5"] and len(manager._live) == 2


def test_change_sides_and_opponent_of_a_running_game(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6")
    r = client.patch(f"/api/games/{v['id']}", json={"opponent": "nobody"})
    assert r.status_code == 400 and "unknown agent" in r.json()["detail"]
    assert client.get(f"/api/games/{v['id']}").json()["opponent"] == "random"
    r = client.patch(f"/api/games/{v['id']}", json={"human": "white", "opponent": "greedy"})
    assert r.status_code == 200 and r.json()["opponent"] == "greedy"
    v = wait_for(client, r.json(), lambda v: len(v["moves"]) == 3)  # greedy plays black's move
    assert v["human_to_move"] and v["turn"] == "white"


@pytest.mark.parametrize("size", [4, 6])
def test_an_opponent_that_cannot_play_the_size_is_refused(client: TestClient, size: int) -> None:
    for opponent in ("policy", "value:depth=1"):
        r = client.post("/api/games", json={"size": size, "human": "black", "opponent": opponent})
        assert r.status_code == 400, r.text
        assert f"not {size}x{size}" in r.json()["detail"] and "8x8" in r.json()["detail"]
    v = new(client, size=size, human="both")
    r = client.patch(f"/api/games/{v['id']}", json={"opponent": "policy"})
    assert r.status_code == 400 and client.get(f"/api/games/{v['id']}").json()["opponent"] == (
        "random"
    )
    sizes = client.get("/api/agents").json()["sizes"]
    assert sizes["policy"] == [8] and sizes["random"] == [4, 6, 8]
    assert all(sizes[e] for e in client.get("/api/agents").json()["examples"])


def test_a_start_position_that_disagrees_with_size_is_refused(client: TestClient) -> None:
    start = "-" * 14 + "OX----XO" + "-" * 14 + " X"  # 36 squares: 6x6
    r = client.post("/api/games", json={"start": start, "size": 8, "human": "both"})
    assert r.status_code == 400
    assert "6x6" in r.json()["detail"] and "8x8" in r.json()["detail"]
    assert new(client, start=start, human="both")["size"] == 6  # size left out: the start's
    assert new(client, start=start, size=6, human="both")["size"] == 6


def test_the_app_and_the_manager_are_built_from_small_parts() -> None:
    import inspect

    from bitflip.web import app, manager, tasks

    assert len(inspect.getsource(app.create_app).splitlines()) <= 80  # it was 208
    assert manager.GameManager.__bases__ == (object,)  # composed, not a mixin
    for module in (manager, tasks):
        assert "NotImplementedError" not in inspect.getsource(module)


def test_a_refused_move_carries_its_message_apart_from_the_position(client: TestClient) -> None:
    from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError

    board = Board()
    with pytest.raises(IllegalMoveError) as illegal:
        board.push("a1")
    assert illegal.value.detail == "illegal move a1 for black: it flips no disc"
    assert illegal.value.position == board.obf() and board.obf() in str(illegal.value)
    with pytest.raises(InvalidMoveError) as invalid:
        board.parse_move("z9")
    assert invalid.value.position == board.obf() and "(position" not in invalid.value.detail
    v = new(client, human="both")
    r = client.post(f"/api/games/{v['id']}/moves", json={"move": "a1"})
    assert r.status_code == 400 and r.json()["detail"] == illegal.value.detail

"""Hints, analysis and the engine opponent with the real engine."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from bitflip.agents import DEFAULT_OPPONENT
from bitflip.core.board import Board
from bitflip.search.book import open_book
from bitflip.search.levels import DEFAULT_LEVEL
from bitflip.web.app import create_app

from .conftest import BASE, View, wait_for


def new(client: TestClient, **body: object) -> View:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_default_opponent_is_the_engine() -> None:
    assert f"engine:level={DEFAULT_LEVEL}" == DEFAULT_OPPONENT
    with TestClient(create_app(":memory:"), base_url=BASE) as c:
        assert c.get("/api/agents").json()["default"] == DEFAULT_OPPONENT


def test_hints_give_every_legal_move_and_exact_scores_near_the_end(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3")
    hints = client.post(f"/api/games/{v['id']}/hint", json={"seconds": 0.3}).json()["hints"]
    assert sorted(h["move"] for h in hints) == sorted(v["legal"])
    assert [h["score"] for h in hints] == sorted((h["score"] for h in hints), reverse=True)
    # Six empties: the engine solves them, so every hint is exact and a whole disc count.
    start = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOO--XXXX--OXXXX--- X"
    v = new(client, human="both", start=start)
    r = client.post(f"/api/games/{v['id']}/hint", json={"seconds": 2})
    assert r.status_code == 200, r.text
    hints = r.json()["hints"]
    assert hints and all(h["exact"] and h["score"] == int(h["score"]) for h in hints)


def test_analysis_scores_every_move(client: TestClient) -> None:
    v = new(client, human="both", moves="f5d6c3d3c4f4")
    r = client.post(f"/api/games/{v['id']}/analyse", json={"seconds_per_move": 0.05})
    assert r.status_code == 200, r.text
    v = wait_for(client, r.json(), lambda v: not v["analysing"] and bool(v["analysis"]), 120)
    assert [a["move"] for a in v["analysis"]] == v["moves"]
    assert all(a["loss"] >= -1e-9 for a in v["analysis"])


def test_engine_opponent_moves_and_move_now(client: TestClient) -> None:
    v = new(client, human="black", opponent="engine:level=1")
    v = client.post(f"/api/games/{v['id']}/moves", json={"move": "f5"}).json()
    v = wait_for(client, v, lambda v: len(v["moves"]) == 2, 60)
    assert v["human_to_move"]
    v = new(client, human="white", opponent="engine:level=20")
    client.post(f"/api/games/{v['id']}/move-now")
    v = wait_for(client, v, lambda v: len(v["moves"]) >= 1, 60)
    assert v["moves"][0] in ("d3", "c4", "f5", "e6")


def test_hints_in_a_lopsided_position_are_discs_within_the_board(client: TestClient) -> None:
    # Black (random) against a strong white at ply 24: the evaluation's raw estimates here
    # were -67 and -81 discs, past what a board holds.
    moves = "f5d6c5f4e7c6d3e3c7c4b3c3g3b4b2c2d1c1d2e1f3e2b5b1"
    v = new(client, human="both", moves=moves)
    r = client.post(f"/api/games/{v['id']}/hint", json={"seconds": 0.3})
    hints = r.json()["hints"]
    assert hints and all(-64 <= h["score"] <= 64 for h in hints)


def test_engine_opponent_plays_from_the_book_and_marks_it(client: TestClient) -> None:
    v = new(client, human="black", opponent="engine:level=1")
    v = client.post(f"/api/games/{v['id']}/moves", json={"move": "f5"}).json()
    v = wait_for(client, v, lambda v: len(v["moves"]) == 2, 60)
    # The reply to f5 is the book's (scored by the book, marked for the move list) ...
    point = next(e for e in v["evals"] if e["ply"] == 1)
    assert point["source"] == "book"
    board = Board()
    board.push("f5")
    p, o = board.side_bitboards()
    held = open_book("default").moves(p, o, board.geometry.mask)
    near_best = {board.geometry.square_name(m.move): m.score for m in held}
    near_best = {k: s for k, s in near_best.items() if s >= held[0].score - 1}
    assert v["moves"][1] in near_best
    assert point["score"] == pytest.approx(-near_best[v["moves"][1]])  # black's view
    # ... and a hint there later keeps the mark.
    client.post(f"/api/games/{v['id']}/hint", json={"seconds": 0.1})
    v = client.get(f"/api/games/{v['id']}").json()
    assert next(e for e in v["evals"] if e["ply"] == 1)["source"] == "book"


def test_without_a_book_the_engine_searches_its_first_move() -> None:
    with TestClient(create_app(":memory:", book=None), base_url=BASE) as c:
        v = new(c, human="white", opponent="engine:level=1")
        v = wait_for(c, v, lambda v: len(v["moves"]) == 1, 60)
        assert next(e for e in v["evals"] if e["ply"] == 0)["source"] == "move"


def test_a_win_loss_draw_proof_gives_the_opponent_move_no_score() -> None:
    from bitflip.search.exact import solve
    from bitflip.web.engine_bridge import Opponent

    # Level 3 solves from 6 empties and proves win/loss/draw at 7-8: a proof is no disc count
    # for the page to show or plot; a loss is a midgame score; an exact solve is exact.
    opponent = Opponent("engine:level=3", size=8)
    seen = set()
    for seed in range(40):
        b = Board()
        moves = 0
        while bin(b.empty).count("1") > 8 and not b.is_game_over():
            legal = list(b.legal_moves)
            b.push(legal[(seed * 7 + moves * 13) % len(legal)])
            moves += 1
        if b.is_game_over() or not b.legal_mask() or bin(b.empty).count("1") != 8:
            continue
        p, o = b.side_bitboards()
        exact = solve(p, o, b.geometry.mask)
        choice = opponent.choose(b)
        assert b.is_legal(choice.move)
        if exact >= 0:
            assert choice.score is None and not choice.exact
        else:
            assert choice.score is not None and not choice.exact
        seen.add(exact >= 0)
    assert seen == {True, False}

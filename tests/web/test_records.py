"""Save and load: web games to transcripts and GGF through bitflip.formats, and back."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats.errors import FormatError
from bitflip.web import records
from bitflip.web.games import GameState


def test_ggf_round_trip_keeps_a_set_up_6x6_start_and_passes() -> None:
    start = "-" * 14 + "OX----XO" + "-" * 14 + " O"
    b = Board(start)
    moves = []
    for _ in range(6):
        m = next(iter(b.legal_moves))
        b.push(m)
        moves.append(m)
    st = GameState.new("g", start=start, moves=moves, human="white", opponent="greedy")
    text = records.write(records.record_of(st, ("you", "greedy")), "ggf")
    assert "PB[you]" in text and "PW[greedy]" in text and "BO[6 " in text
    back = records.read(text)
    assert back.start == start and back.moves == moves and back.size == 6


def test_transcript_round_trip_and_detection() -> None:
    st = GameState.new("g", moves=[Board().parse_move(m) for m in ("f5", "d6", "c3")])
    text = records.write(records.record_of(st, ("", "")), "transcript")
    assert text == "f5d6c3" and records.detect_format(text) == "transcript"
    assert records.detect_format("  (;GM[Othello];)") == "ggf"
    assert records.read("F5 d6 C3").moves == st.line
    assert PASS not in records.read("f5d6c3").moves


@pytest.mark.parametrize(
    ("text", "fmt", "words"),
    [
        ("", "auto", "empty"),
        ("f5f", "transcript", "odd"),
        ("f5d6a1", "auto", "move 3"),
        ("(;GM[Othello]B[f5", "ggf", "GGF"),
        ("f5", "pdf", "unknown format"),
    ],
)
def test_bad_text_says_what_is_wrong(text: str, fmt: str, words: str) -> None:
    with pytest.raises((FormatError, ValueError), match=words):
        records.read(text, fmt)


GGF_GAME = (
    "(;GM[Othello]PC[Paris Open]DT[2021.05.01_10:00:00]PB[Alice]PW[Bob]RB[1800.5]RW[1900]"
    "TI[15:00//01:00]TY[8]RE[+10.000]BO[8 -------- -------- -------- ---O*--- ---*O--- "
    "-------- -------- -------- *]B[f5//2.5]W[d6/-1.5/3]B[c3]W[d3];)"
)


def _export(client: TestClient, gid: str, fmt: str = "ggf") -> str:
    r = client.get(f"/api/games/{gid}/export", params={"format": fmt})
    assert r.status_code == 200, r.text
    return r.text


def test_a_loaded_ggf_game_keeps_every_field_through_save_and_reload(client: TestClient) -> None:
    v = client.post("/api/games/load", json={"text": GGF_GAME}).json()
    assert v["title"] == "Alice - Bob"
    first = _export(client, v["id"])
    for tag in ("PC[Paris Open]", "DT[2021.05.01_10:00:00]", "PB[Alice]", "PW[Bob]"):
        assert tag in first
    for tag in ("RB[1800.5]", "RW[1900]", "TI[15:00//01:00]", "RE[+10.000]", "B[f5//2.5]"):
        assert tag in first
    assert "bitflip web" not in first and "GN[" not in first  # the names make the title
    again = client.post("/api/games/load", json={"text": first}).json()
    assert again["moves"] == v["moves"] and again["title"] == v["title"]
    assert _export(client, again["id"]) == first
    back = records.read(first)
    assert (back.black, back.white, back.event, back.date) == (
        "Alice",
        "Bob",
        "Paris Open",
        "2021.05.01_10:00:00",
    )
    assert back.black_score == 37 and back.evals[1] == -1.5 and back.times[0] == 2.5


def test_the_title_is_saved_and_loaded(client: TestClient) -> None:
    v = client.post("/api/games", json={"human": "both", "moves": "f5d6"}).json()
    client.patch(f"/api/games/{v['id']}", json={"title": "Club night, round 2"})
    text = _export(client, v["id"])
    back = client.post("/api/games/load", json={"text": text}).json()
    assert back["title"] == "Club night, round 2"
    assert _export(client, back["id"]) == text
    # A transcript holds only the moves: they come back, passes and all.
    moves = client.post("/api/games/load", json={"text": _export(client, v["id"], "transcript")})
    assert moves.json()["moves"] == ["f5", "d6"]


def test_a_line_played_on_from_a_loaded_game_drops_the_files_result(client: TestClient) -> None:
    v = client.post("/api/games/load", json={"text": GGF_GAME}).json()
    v = client.post(f"/api/games/{v['id']}/moves", json={"move": v["legal"][0]}).json()
    text = _export(client, v["id"])
    assert "RE[" not in text and "PB[Alice]" in text


def test_two_pasted_ggf_games_are_refused(client: TestClient) -> None:
    r = client.post("/api/games/load", json={"text": GGF_GAME + "\n" + GGF_GAME})
    assert r.status_code == 400 and "2 games" in r.json()["detail"]


def test_the_library_counts_moves_not_passes(client: TestClient) -> None:
    # A 4x4 game of 12 moves in which white passes once (13 plies).
    v = client.post(
        "/api/games", json={"size": 4, "human": "both", "moves": "c4b4a1d2d4d3a2c1a4a3b1d1"}
    ).json()
    assert v["over"] and "pa" in v["moves"] and len(v["moves"]) == 13
    listed = client.get("/api/games").json()
    assert [g["moves"] for g in listed if g["id"] == v["id"]] == [12]

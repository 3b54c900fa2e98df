"""Attacks on the web app: each request here ran a command, reached the server from another
site, or grew memory before the server refused it. None may do anything but get a short 4xx."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bitflip import agents
from bitflip.web.app import create_app
from bitflip.web.games import GameState
from bitflip.web.store import GameStore

from .conftest import BASE


def _touch(path: Path) -> str:
    """An NBoard 'engine' that only creates ``path``: the proof that a command ran."""
    script = f"open({str(path)!r}, 'w')"
    return "nboard:cmd=" + shlex.join([sys.executable, "-c", script])


def _nothing_ran(path: Path) -> None:
    time.sleep(0.5)  # a started process would have created the file by now
    assert not path.exists(), "a request ran a command"


def _short_error(r: object, status: int) -> str:
    assert getattr(r, "status_code", None) == status, getattr(r, "text", r)
    text: str = r.text  # type: ignore[attr-defined]
    assert len(text) < 400 and "\n" not in text
    detail: str = r.json()["detail"]  # type: ignore[attr-defined]
    return detail


def test_an_nboard_command_in_a_new_game_is_refused(client: TestClient, tmp_path: Path) -> None:
    proof = tmp_path / "pwned"
    r = client.post("/api/games", json={"human": "white", "opponent": _touch(proof)})
    assert "not allowed" in _short_error(r, 403)
    _nothing_ran(proof)


def test_an_nboard_command_in_settings_and_load_is_refused(
    client: TestClient, tmp_path: Path
) -> None:
    proof = tmp_path / "pwned"
    game = client.post("/api/games", json={"human": "both"}).json()
    r = client.patch(f"/api/games/{game['id']}", json={"opponent": _touch(proof)})
    _short_error(r, 403)
    r = client.post(
        "/api/games/load", json={"text": "f5d6", "human": "white", "opponent": _touch(proof)}
    )
    _short_error(r, 403)
    _nothing_ran(proof)
    assert client.get(f"/api/games/{game['id']}").json()["opponent"] == "random"


@pytest.mark.parametrize(
    "spec",
    [
        "policy:net=/etc/passwd",
        "value:net=../../x.pt",
        "td:weights=/etc/passwd",
        "qlearning:table=/etc/passwd",
        "mcts:net=/tmp/x.pt",
        "engine:level=5,eval=/tmp/x",
        "minimax:depth=40",
        "mcts:sims=10000000",
    ],
)
def test_paths_and_unbounded_work_are_refused(client: TestClient, spec: str) -> None:
    r = client.post("/api/games", json={"human": "black", "opponent": spec})
    _short_error(r, 403)


def test_the_owner_can_allow_a_spec(db: Path, tmp_path: Path) -> None:
    spec = "minimax:depth=7"
    app = create_app(db, opponent="random", allow_opponents=[spec])
    with TestClient(app, base_url=BASE) as c:
        assert c.post("/api/games", json={"human": "both", "opponent": spec}).status_code == 201
        assert spec in c.get("/api/agents").json()["examples"]
        r = c.post("/api/games", json={"human": "both", "opponent": "minimax:depth=8"})
        _short_error(r, 403)


def test_the_page_is_offered_safe_opponents_only(client: TestClient) -> None:
    info = client.get("/api/agents").json()
    assert "nboard" not in info["agents"] and "qlearning" not in info["agents"]
    assert not any(e.startswith(("nboard", "qlearning")) for e in info["examples"])


def test_a_stored_forbidden_opponent_is_never_built(db: Path, tmp_path: Path) -> None:
    """A game stored by an older, open version keeps its moves but not its command."""
    proof = tmp_path / "pwned"
    store = GameStore(db)
    store.save(GameState.new("old1", size=8, moves=[], human="black", opponent=_touch(proof)))
    store.close()
    with TestClient(create_app(db, opponent="random"), base_url=BASE) as c:
        v = c.get("/api/games/old1").json()
        assert v["opponent"] == "random" and "not allowed" in v["error"]
    _nothing_ran(proof)


def test_a_foreign_host_header_is_refused(client: TestClient) -> None:
    r = client.get("/api/games", headers={"Host": "evil.example:8765"})
    assert "Host" in _short_error(r, 400)
    r = client.post("/api/games", json={}, headers={"Host": "evil.example"})
    _short_error(r, 400)
    assert client.get("/api/games", headers={"Host": "127.0.0.1:8765"}).status_code == 200


def test_bound_to_an_address_the_app_answers_that_name_only(db: Path) -> None:
    with TestClient(create_app(db, opponent="random", host="192.0.2.7"), base_url=BASE) as c:
        _short_error(c.get("/api/games"), 400)
        assert c.get("/api/games", headers={"Host": "192.0.2.7:8765"}).status_code == 200


@pytest.mark.parametrize("action", ["undo", "redo", "move-now", "analyse", "hint"])
def test_body_less_posts_from_another_origin_are_refused(client: TestClient, action: str) -> None:
    game = client.post("/api/games", json={"human": "both", "moves": "f5d6"}).json()
    url = f"/api/games/{game['id']}/{action}"
    r = client.post(url, headers={"Origin": "http://evil.example"})
    assert "own page" in _short_error(r, 403)
    r = client.post(url, headers={"Origin": "null"})
    _short_error(r, 403)
    r = client.post(url, headers={"Sec-Fetch-Site": "cross-site"})
    _short_error(r, 403)
    # The app's own page, and clients that send no Origin (curl, scripts), still work.
    r = client.post(url, headers={"Origin": BASE, "Sec-Fetch-Site": "same-origin"})
    assert r.status_code in (200, 400, 409, 503), r.text
    assert "own page" not in r.text


def test_a_foreign_origin_cannot_delete(client: TestClient) -> None:
    game = client.post("/api/games", json={"human": "both"}).json()
    r = client.delete(f"/api/games/{game['id']}", headers={"Origin": "http://localhost:9999"})
    _short_error(r, 403)
    assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    huge = "f5" * 1_000_000
    r = client.post("/api/games/load", json={"text": huge})
    assert "larger than" in _short_error(r, 413)
    r = client.post("/api/games", content=b"{" + b" " * 2_000_000 + b"}")
    _short_error(r, 413)

    def chunks() -> object:  # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b" " * 10_000

    r = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    _short_error(r, 413)


def test_long_fields_are_refused_without_echo(client: TestClient) -> None:
    game = client.post("/api/games", json={"human": "both"}).json()
    cases = [
        client.post(f"/api/games/{game['id']}/moves", json={"move": "q9" * 5000}),
        client.post("/api/games", json={"moves": "f5" * 5000}),
        client.post("/api/games", json={"title": "t" * 5000}),
        client.post("/api/games", json={"opponent": "random:" + "x=1," * 500}),
    ]
    for r in cases:
        detail = _short_error(r, 422)
        assert "q9q9" not in detail and "f5f5" not in detail and "tttt" not in detail


def test_a_long_message_is_cut_to_one_line(client: TestClient) -> None:
    r = client.post("/api/games", json={"moves": "f5 d6\n" + "zz" * 400})
    assert len(_short_error(r, 400)) <= 200


def test_long_names_in_a_game_file_make_a_bounded_title(client: TestClient) -> None:
    ggf = f"(;GM[Othello]PB[{'b' * 10000}]PW[w]B[f5];)"
    r = client.post("/api/games/load", json={"text": ggf})
    assert r.status_code == 201, r.text
    assert len(r.json()["title"]) <= 200


def test_a_missing_optional_package_is_a_4xx_that_says_what_to_install(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def needs_torch(**_: object) -> agents.Agent:
        raise ModuleNotFoundError("No module named 'torch'", name="torch")

    monkeypatch.setitem(agents._REGISTRY, "policy", needs_torch)
    r = client.post("/api/games", json={"human": "black", "opponent": "policy"})
    assert "pip install torch==2.13.0" in _short_error(r, 400)


def test_answers_forbid_inline_script_and_framing(client: TestClient) -> None:
    for url in ("/", "/api/games", "/static/app.js"):
        r = client.get(url)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        assert "frame-ancestors 'none'" in csp and r.headers["x-content-type-options"] == "nosniff"
    refused = client.get("/api/games", headers={"Host": "evil.example"})
    assert "content-security-policy" in refused.headers


def test_an_allowed_spec_must_name_an_agent() -> None:
    from bitflip.agents import AgentSpecError
    from bitflip.web.policy import OpponentPolicy

    with pytest.raises(AgentSpecError, match="unknown agent 'nosuch'"):
        OpponentPolicy.allowing(["nosuch:x=1"])

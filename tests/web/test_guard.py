"""Attacks on a server that listens beyond localhost: without its access token, with a wrong
one, by another host name (DNS rebinding). Only the token, in the printed address, its cookie
or an Authorization header, lets a request through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bitflip.cli.play import access_token, served_url
from bitflip.web.app import create_app
from bitflip.web.guard import allowed_hosts

from .conftest import BASE

TOKEN = "s3cret-Token_42"
BODY = {"human": "both"}


@pytest.fixture
def served(db: Path) -> Iterator[TestClient]:
    """The app as ``bitflip play --host 0.0.0.0 --token TOKEN`` serves it."""
    app = create_app(db, opponent="random", host="0.0.0.0", token=TOKEN, allow_hosts=["box.lan"])
    with TestClient(app, base_url=BASE) as c:
        yield c


def _refused(r: object, status: int = 401) -> None:
    assert getattr(r, "status_code", None) == status, getattr(r, "text", r)
    assert "set-cookie" not in r.headers  # type: ignore[attr-defined]


def test_no_token_no_entry(served: TestClient) -> None:
    for path in ("/", "/api/agents", "/api/games", "/static/app.js", "/docs", "/openapi.json"):
        _refused(served.get(path))
    _refused(served.post("/api/games", json=BODY))
    assert "token" in served.get("/api/agents").json()["detail"]


def test_a_wrong_token_is_refused_wherever_it_is(served: TestClient) -> None:
    for wrong in ("", "s3cret", TOKEN + "x", TOKEN.upper()):
        _refused(served.get("/api/agents", params={"token": wrong}))
        _refused(served.get("/api/agents", headers={"Authorization": f"Bearer {wrong}"}))
        served.cookies.set("bitflip_token_80", wrong)
        _refused(served.get("/api/agents"))
        served.cookies.clear()
    _refused(served.get("/api/agents", params=[("token", TOKEN), ("token", "x")]))
    _refused(served.get("/api/agents", headers={"Cookie": "bitflip_token_80=\x00;;="}))
    _refused(served.get("/api/agents", params={"token": TOKEN + "\u20ac"}))
    _refused(served.get("/api/agents?token=%E2%82%AC%ff"))
    _refused(
        served.get(
            "/api/agents", headers={"Authorization": "Bearer \u00e9t\u00e9".encode("latin-1")}
        )
    )


def test_the_printed_address_sets_a_cookie_that_the_page_then_carries(
    served: TestClient,
) -> None:
    r = served.get("/", params={"token": TOKEN}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"  # the token leaves the URL
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"bitflip_token_80={TOKEN};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    # The client keeps the cookie, as the browser does: the page and the API answer now.
    assert served.get("/").status_code == 200
    assert served.get("/static/app.js").status_code == 200
    v = served.post("/api/games", json=BODY)
    assert v.status_code == 201, v.text
    assert served.get(f"/api/games/{v.json()['id']}").status_code == 200


def test_an_api_call_with_the_token_in_the_query_or_a_header(served: TestClient) -> None:
    r = served.get("/api/agents", params={"token": TOKEN})
    assert r.status_code == 200 and "set-cookie" in r.headers
    served.cookies.clear()
    r = served.post("/api/games", json=BODY, headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 201


def test_other_host_names_are_refused_even_with_the_token(served: TestClient) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for host in ("evil.example", "rebind.attacker.net:8765", "127.0.0.1.nip.io"):
        r = served.get("/api/agents", headers={**auth, "Host": host})
        _refused(r, 400)
    for host in ("localhost:8765", "box.lan", "127.0.0.1:80"):
        assert served.get("/api/agents", headers={**auth, "Host": host}).status_code == 200


def test_another_site_cannot_post_even_with_the_cookie(served: TestClient) -> None:
    served.get("/api/agents", params={"token": TOKEN})
    r = served.post("/api/games", json=BODY, headers={"Origin": "http://evil.example"})
    _refused(r, 403)


def test_every_interface_still_checks_the_host() -> None:
    hosts = allowed_hosts("0.0.0.0")
    assert "localhost" in hosts and "evil.example" not in hosts
    assert allowed_hosts("::", ["Proxy.Example"]) >= {"proxy.example", "::1"}
    assert allowed_hosts("192.168.1.5", ["box.lan"]) == {"192.168.1.5", "box.lan"}


def test_beyond_localhost_play_makes_a_token_and_prints_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    a, b = access_token("0.0.0.0", None, False), access_token("192.168.1.5", None, False)
    assert a and b and a != b and len(a) >= 20
    assert access_token("127.0.0.1", None, False) is None
    assert access_token("localhost", TOKEN, False) == TOKEN
    assert access_token("0.0.0.0", TOKEN, False) == TOKEN
    assert capsys.readouterr().err == ""
    assert access_token("0.0.0.0", None, True) is None
    assert "without an access token" in capsys.readouterr().err
    for bad in ("has space", "a/b", "é"):
        with pytest.raises(ValueError, match="--token"):
            access_token("0.0.0.0", bad, False)
    with pytest.raises(ValueError, match="contradict"):
        access_token("0.0.0.0", TOKEN, True)
    with pytest.raises(ValueError, match="letters, digits"):
        create_app(":memory:", host="0.0.0.0", token="a;b")
    assert served_url("192.168.1.5", 8765, TOKEN) == f"http://192.168.1.5:8765/?token={TOKEN}"
    assert served_url("::1", 8765, None) == "http://localhost:8765/"
    assert served_url("fd00::5", 80, "t") == "http://[fd00::5]:80/?token=t"


def test_play_with_a_token_serves_only_its_address(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(repo / "src"))
    cmd = [sys.executable, "-m", "bitflip", "play", "--no-browser", "--port", "0"]
    cmd += ["--db", str(tmp_path / "g.sqlite"), "--opponent", "greedy", "--token", TOKEN]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = line.split()[4]
        assert url.startswith("http://localhost:") and url.endswith(f"/?token={TOKEN}"), line
        base = url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + "api/agents", timeout=20)
        assert refused.value.code == 401
        with urllib.request.urlopen(base + f"api/agents?token={TOKEN}", timeout=20) as r:
            assert json.loads(r.read())["default"] == "greedy"
            assert f"={TOKEN};" in r.headers["set-cookie"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)

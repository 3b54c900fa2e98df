"""The browser tests' fixtures: the app served in a thread, chromium through Playwright, a page
per test (each test module serves its own app).

Skips with the reason when chromium or Playwright is missing; ``.ci/run`` installs both, so CI
runs these tests.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BITFLIP_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _need_browser() -> Any:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
    )
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        msg = f"chromium not found at {CHROMIUM} (apt-get install chromium; .ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(msg + " - CI must have it")
        pytest.skip(msg)
    return sync_api


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free localhost port."""
    _need_browser()
    import uvicorn

    from bitflip.web.app import create_app

    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    config = uvicorn.Config(
        create_app(db, opponent="random"),
        host="127.0.0.1",
        port=0,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.05)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    sync_api = _need_browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    # Playwright's wait_for_function evaluates strings in the page, which the app's CSP forbids;
    # test_names_from_a_loaded_game_file_stay_text runs the page under its real CSP.
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 860}, accept_downloads=True, bypass_csp=True
    )
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    ctx.close()
    assert not errors, f"errors in the page: {errors}"

"""Take the screenshots of the web app in docs/ (Playwright driving Debian's chromium).

    PYTHONPATH=src python docs/make_screenshots.py [--opponent SPEC]

Starts the app on a free port over a temporary SQLite file, plays a few positions and saves
docs/web-*.png. Hints and analysis shots need the engine (bitflip.engine) and are skipped
without it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from bitflip.web.app import create_app

DOCS = Path(__file__).resolve().parent
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Greedy (black) against minimax:depth=3 (white) for 40 moves: mistakes for the analysis.
LINE = "e6f4d3e7g4c5e8f5d6h3b5f3h4h5g6f6g5h6g3e3f2c4c3h2g2h7g7h1g1b4a4c7e2a3c6a5b6a6f7h8"
# Random play: black passes at move 23, white's h6 then wipes black out, 37 squares empty.
WIPEOUT = "d3c3c4c5b3d2b4a3c2c1d1f4b2a1b1e2f3f1e3e1g5g3pah6"


def post(base: str, path: str, body: dict[str, object], method: str = "POST") -> dict[str, object]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def open_game(page: Page, base: str, game: dict[str, object]) -> None:
    page.goto(f"{base}/#game={game['id']}")
    page.wait_for_function(f"window.bitflip.view && window.bitflip.view.id === '{game['id']}'")
    page.wait_for_timeout(300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", default=None)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "games.sqlite"
    server = uvicorn.Server(
        uvicorn.Config(create_app(db, opponent=args.opponent), port=0, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        # Playwright's waits evaluate strings in the page, which the app's CSP forbids.
        ctx = browser.new_context(viewport={"width": 1280, "height": 820}, bypass_csp=True)
        page = ctx.new_page()

        # 1. A game in progress against the default opponent with a clock: the last move
        # marked, the move list in columns, the opening named, the level picker.
        game = post(
            base, "/api/games", {"human": "black", "moves": LINE[:16], "minutes": 5, "increment": 2}
        )
        open_game(page, base, game)
        page.wait_for_function("window.bitflip.view.human_to_move")
        page.hover("#board rect[data-sq=b4]")
        page.screenshot(path=DOCS / "web-game.png")

        # 2. An illegal click: the reason, and every legal move flashing.
        page.click("#board rect[data-sq=h8]")
        page.wait_for_selector("#board circle.flash")
        page.wait_for_timeout(150)
        page.screenshot(path=DOCS / "web-illegal-click.png")
        page.wait_for_timeout(1500)

        # 3. Hints and analysis (the engine).
        game = post(base, "/api/games", {"human": "both", "moves": LINE})
        open_game(page, base, game)
        page.click("#btn-analyse")
        page.wait_for_function(
            "!window.bitflip.view.analysing && window.bitflip.view.analysis.length > 0",
            timeout=180_000,
        )
        page.click("#moves button[data-ply='30']")
        page.wait_for_function("window.bitflip.view.cursor === 30")
        page.click("#btn-hint")
        page.wait_for_selector("#hints-box:not([hidden])", timeout=60_000)
        page.set_viewport_size({"width": 1280, "height": 1040})
        page.wait_for_timeout(300)
        page.screenshot(path=DOCS / "web-hints-analysis.png")
        page.set_viewport_size({"width": 1280, "height": 820})

        # 4. A variation: another move at ply 6 keeps the game as played beside it.
        game = post(base, "/api/games", {"human": "both", "moves": LINE[:28], "title": "study"})
        open_game(page, base, game)
        page.click("#moves button[data-ply='6']")
        page.wait_for_function("window.bitflip.view.cursor === 6")
        v = page.evaluate("window.bitflip.view")
        other = [m for m in v["legal"] if m != v["moves"][6]]
        page.click(f"#board rect[data-sq={other[0]}]")
        page.wait_for_function("!window.bitflip.view.on_main_line")
        page.wait_for_timeout(400)
        page.screenshot(path=DOCS / "web-variation.png")

        # 5. The game library, and the board seen from white's side.
        page.click("#btn-games")
        page.wait_for_selector("#dlg-games[open]")
        page.screenshot(path=DOCS / "web-library.png")
        page.keyboard.press("Escape")
        page.click("#btn-flip")
        page.wait_for_timeout(200)
        page.screenshot(path=DOCS / "web-flipped.png")
        page.click("#btn-flip")

        # 6. Dialogs over a game in progress: new game, load, board editor.
        game = post(base, "/api/games", {"human": "black", "moves": LINE[:16]})
        open_game(page, base, game)
        page.click("#btn-new")
        page.screenshot(path=DOCS / "web-new-game.png")
        page.keyboard.press("Escape")
        page.click("#btn-editor")
        page.select_option("#form-editor select[name=size]", "8")
        for sq in ("c3", "c4"):
            page.click(f"#editor-board rect[data-sq={sq}]")
        page.screenshot(path=DOCS / "web-board-editor.png")
        page.keyboard.press("Escape")
        page.click("#btn-load")
        page.fill("#form-load textarea", "f5d6c3d3c4f4f6f3e6e7")
        page.screenshot(path=DOCS / "web-load.png")
        page.keyboard.press("Escape")
        # 7. A game that ends early: a pass in the move list (no number), and the banner counts
        # the empty squares for the winner.
        game = post(base, "/api/games", {"human": "both", "moves": WIPEOUT})
        open_game(page, base, game)
        page.screenshot(path=DOCS / "web-game-over.png")

        # 8. Watch mode to the end of a game: the result above the board.
        game = post(base, "/api/games", {"human": "none", "opponent": "greedy", "size": 6})
        post(base, f"/api/games/{game['id']}", {"delay": 0.1}, method="PATCH")
        open_game(page, base, game)
        page.wait_for_function("window.bitflip.view.over", timeout=60_000)
        page.wait_for_timeout(600)  # the last flip animation ends
        page.screenshot(path=DOCS / "web-result-6x6.png")

        browser.close()
    server.should_exit = True
    print("screenshots in", DOCS)


if __name__ == "__main__":
    main()

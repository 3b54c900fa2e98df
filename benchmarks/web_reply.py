"""The web app's engine reply time and the page's largest frame gap during a game.

Run from the repository root:
``PYTHONPATH=src python benchmarks/web_reply.py --games 5``.

Serves the app (default opponent, the real engine) on a free localhost port, then:

1. Reply time through the API: in ``--games`` games the person (black, random legal moves from
   ``--seed``) moves and the clock runs until the page's long poll sees the engine's reply;
   median, 90th percentile and max over all replies.
2. Frame gaps in the page (Playwright on Debian's chromium): a ``requestAnimationFrame`` loop
   records the time between frames while the page plays a whole game by clicking, and while it
   analyses that game; the largest gap says whether the page ever froze.

Prints a Markdown table; ``benchmarks/RESULTS-web.md`` keeps the recorded runs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn

from bitflip.agents import DEFAULT_OPPONENT
from bitflip.web.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
FRAME_LOOP = """() => {
  window.__gaps = [];
  let last = performance.now();
  const tick = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""


def call(base: str, method: str, path: str, body: Any = None) -> Any:
    req = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def serve() -> tuple[uvicorn.Server, str]:
    db = Path(tempfile.mkdtemp()) / "games.sqlite"
    server = uvicorn.Server(uvicorn.Config(create_app(db), port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"


def reply_times(base: str, games: int, seed: int) -> list[float]:
    """Seconds from the person's move to the engine's reply, every reply of every game."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        v = call(base, "POST", "/api/games", {"human": "black"})
        while not v["over"]:
            if not v["human_to_move"]:
                v = call(base, "GET", f"/api/games/{v['id']}?after={v['version']}&wait=20")
                continue
            plies = len(v["moves"])
            t0 = time.perf_counter()
            body = {"move": rng.choice(v["legal"]), "ply": v["cursor"]}
            v = call(base, "POST", f"/api/games/{v['id']}/moves", body)
            while not v["over"] and not v["human_to_move"]:
                v = call(base, "GET", f"/api/games/{v['id']}?after={v['version']}&wait=20")
            if len(v["moves"]) > plies + 1:  # the engine moved (not only a pass)
                out.append(time.perf_counter() - t0)
    return out


def frame_gaps(base: str, seed: int) -> dict[str, float]:
    """The largest gap between animation frames (ms) during a game and during its analysis."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    result = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        page.goto(base + "/")
        page.wait_for_selector("#board circle.disc")
        page.evaluate(FRAME_LOOP)
        while True:
            page.wait_for_function("window.bitflip.view.human_to_move || window.bitflip.view.over")
            v = page.evaluate("window.bitflip.view")
            if v["over"]:
                break
            page.click(f"#board rect[data-sq={rng.choice(v['legal'])}]")
            page.wait_for_function(f"window.bitflip.view.cursor > {v['cursor']}")
        gaps = page.evaluate("window.__gaps")
        result["game"] = max(gaps[1:])
        result["game frames"] = len(gaps)
        page.evaluate(FRAME_LOOP)
        page.click("#btn-analyse")
        page.wait_for_function("window.bitflip.view.analysing")
        page.wait_for_function("!window.bitflip.view.analysing")
        gaps = page.evaluate("window.__gaps")
        result["analysis"] = max(gaps[1:])
        result["analysis frames"] = len(gaps)
        browser.close()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-browser", action="store_true", help="reply times only")
    args = ap.parse_args()
    server, base = serve()
    try:
        times = reply_times(base, args.games, args.seed)
        q = statistics.quantiles(times, n=10)
        print(f"opponent {DEFAULT_OPPONENT}, {args.games} games, {len(times)} replies")
        print("| reply s | median | p90 | max |")
        print("|---|---|---|---|")
        print(f"| API | {statistics.median(times):.3f} | {q[-1]:.3f} | {max(times):.3f} |")
        if not args.no_browser:
            g = frame_gaps(base, args.seed)
            print()
            print("| largest frame gap ms | during a game | during its analysis |")
            print("|---|---|---|")
            print(f"| page | {g['game']:.0f} | {g['analysis']:.0f} |")
    finally:
        server.should_exit = True


if __name__ == "__main__":
    main()

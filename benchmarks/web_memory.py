"""The web server's memory and threads under a burst of new games, and after they go idle.

Run from the repository root:
``PYTHONPATH=src python benchmarks/web_memory.py --games 400``.

Starts ``bitflip play`` (default opponent: the real engine) as a process of its own on a free
localhost port with a fresh game file, then:

1. warm-up: one game in which the engine moves first, so the search is compiled and has run
   (compiled code stays for the life of the process: it is no per-game memory); the resident
   size (RSS) and thread count once it is idle are the *start*;
2. creates ``--games`` games through ``POST /api/games`` as fast as the server answers (or
   evenly over ``--over`` seconds), every other one with the engine to move (it thinks) and
   the rest with the person to move (it ponders); no page polls them;
   With ``--played N`` the server first plays N whole games against the engine (random legal
   moves for the person) and analyses each (0.3 s a move);
3. waits for the games to go idle (pondering stops, engines and worker threads are freed):
   the first moment RSS is within 100 MB of the start and the threads are back, and the state
   ``--idle-wait`` seconds after the burst (its bare games have left memory by then).

Prints a Markdown table (RSS in MB from ``/proc/PID/status``, threads, peak during the burst);
``benchmarks/RESULTS-web.md`` keeps the recorded runs. Linux only (reads ``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

TARGET_PEAK_MB = 600
TARGET_BACK_MB = 100


def status(pid: int) -> tuple[float, int]:
    """The process's resident size in MB and its thread count."""
    rss = threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
        elif line.startswith("Threads:"):
            threads = int(line.split()[1])
    return rss / 1024, threads


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "bitflip", "play", "--no-browser", "--port", "0"]
    proc = subprocess.Popen(
        [*cmd, "--db", str(db)], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if "serving on " in line:
            url = line.split("serving on ", 1)[1].split()[0]
            return proc, url.rstrip("/")
    proc.kill()
    raise RuntimeError("the server did not start")


def wait_idle(pid: int, start: tuple[float, int], seconds: float) -> tuple[float, float, int]:
    """Seconds until RSS is within TARGET_BACK_MB of the start and the threads are back
    (or ``seconds`` passed), with the RSS and threads then."""
    t0 = time.monotonic()
    while True:
        rss, threads = status(pid)
        waited = time.monotonic() - t0
        if (rss - start[0] <= TARGET_BACK_MB and threads <= start[1]) or waited >= seconds:
            return waited, rss, threads
        time.sleep(1.0)


class Peak:
    """The largest RSS and thread count of ``pid`` while the block runs (sampled 5 a second)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.rss, self.threads = status(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            rss, threads = status(self.pid)
            self.rss, self.threads = max(self.rss, rss), max(self.threads, threads)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def wait_for(base: str, view: dict[str, Any], ready: Any, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while not ready(view) and time.monotonic() < deadline:
        view = get(base, f"/api/games/{view['id']}?after={view['version']}&wait=5")
    return view


def play_and_analyse(base: str, games: int) -> None:
    """``games`` whole games of random moves against the engine, each analysed (0.3 s a move)."""
    rng = random.Random(1)
    for _ in range(games):
        v = post(base, "/api/games", {"human": "black"})
        while not v["over"]:
            v = wait_for(base, v, lambda v: v["over"] or v["human_to_move"])
            if v["over"]:
                break
            v = post(base, f"/api/games/{v['id']}/moves", {"move": rng.choice(v["legal"])})
        v = post(base, f"/api/games/{v['id']}/analyse", {"seconds_per_move": 0.3})
        wait_for(base, v, lambda v: not v["analysing"], 300)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games created in the burst")
    ap.add_argument(
        "--played",
        type=int,
        default=0,
        help="before the burst: whole games played against the engine, each then analysed",
    )
    ap.add_argument(
        "--idle-wait",
        type=float,
        default=90.0,
        help="seconds to watch the server after the burst (bare games leave memory after 60)",
    )
    ap.add_argument(
        "--over", type=float, default=0.0, help="spread the burst over this many seconds (0: fast)"
    )
    args = ap.parse_args()
    if args.games < 0 or args.played < 0 or args.games + args.played < 1:
        raise SystemExit("--games and --played are at least 0, and one of them at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "games.sqlite")
        try:
            pid = proc.pid
            at_launch = status(pid)
            warm = post(base, "/api/games", {"human": "black", "moves": "f5"})
            wait_for(base, warm, lambda v: len(v["moves"]) >= 2)
            deadline = time.monotonic() + 60
            while status(pid)[1] > at_launch[1] and time.monotonic() < deadline:
                time.sleep(0.5)
            start = status(pid)

            with Peak(pid) as played_peak:
                play_and_analyse(base, args.played)
            played = status(pid)
            with Peak(pid) as peak:
                t0 = time.monotonic()
                for i in range(args.games):
                    if args.over > 0:
                        time.sleep(max(0.0, t0 + i * args.over / args.games - time.monotonic()))
                    post(base, "/api/games", {"human": "white" if i % 2 == 0 else "black"})
                burst = time.monotonic() - t0
                after = status(pid)
                time.sleep(5.0)
            idle_s, idle_rss, idle_threads = wait_idle(pid, start, args.idle_wait)
            time.sleep(max(0.0, args.idle_wait - idle_s))
            settled = status(pid)
        finally:
            proc.terminate()
            proc.wait(10)

    print(f"{args.played} games played and analysed, {args.games} created in {burst:.1f} s")
    print()
    print("| moment | RSS MB | threads |")
    print("|---|---|---|")
    print(f"| server started | {at_launch[0]:.0f} | {at_launch[1]} |")
    print(f"| start (after warm-up game, idle) | {start[0]:.0f} | {start[1]} |")
    if args.played:
        print(
            f"| peak while playing and analysing | {played_peak.rss:.0f} | {played_peak.threads} |"
        )
        print(f"| after playing and analysing | {played[0]:.0f} | {played[1]} |")
    print(f"| right after the burst | {after[0]:.0f} | {after[1]} |")
    print(f"| peak during the burst (+5 s) | {peak.rss:.0f} | {peak.threads} |")
    print(f"| idle ({idle_s:.0f} s after the burst + 5 s) | {idle_rss:.0f} | {idle_threads} |")
    print(f"| {args.idle_wait:.0f} s after the burst + 5 s | {settled[0]:.0f} | {settled[1]} |")
    print()
    ok_peak = max(peak.rss, played_peak.rss) <= TARGET_PEAK_MB
    ok_back = idle_rss - start[0] <= TARGET_BACK_MB and idle_threads <= start[1]
    print(
        f"peak <= {TARGET_PEAK_MB} MB: {'yes' if ok_peak else 'NO'}; back within "
        f"{TARGET_BACK_MB} MB and threads back: {'yes' if ok_back else 'NO'}"
    )


if __name__ == "__main__":
    main()

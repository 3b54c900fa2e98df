"""bitflip from Python against its Python peers, each measure at three thread settings.

    PYTHONPATH=src python benchmarks/peers.py [--azg DIR] [--min-time S] [--only NAMES]

Peers, measured when importable and skipped with a note when not (none is a bitflip
dependency): rust-reversi (``pip install rust-reversi``), creversi-python (``pip install
creversi-python``) and alpha-zero-general (not on PyPI: clone it and pass its folder as
``--azg``; its ``stringRepresentation`` uses ``ndarray.tostring``, gone in NumPy 2.3, so it is
given ``tobytes`` here). Every measure runs in a fresh process three times: numba and torch
on one thread (``NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1``), their default threads, and the
default with a busy-loop process on every other core. ``--only`` picks measures by function
name (``bitflip_perft,net_mcts``), ``--modes`` the columns. A rate is the median of repeated
runs. Results are recorded in benchmarks/RESULTS-python-api.md.

What each measure does:
- perft(7) leaves/s from the start, convention A (a pass is a ply, an ended game one leaf);
  the last ply is counted, not played (``len(board.legal_moves)``, a popcount of the
  children's legal moves), except breadth first, which plays every ply of the tree.
- vector env: 4096 boards, one uniformly random legal move each per step (chosen by
  ``bitflip.core.arrays.random_moves`` for every implementation), board-steps/s.
- legal moves of a batch: 2**20 midgame positions, boards/s.
- MCTS, zero-cost network (uniform priors, value 0, preallocated): simulations/s of one game
  with one leaf per network call, and of 256 games batched (bitflip only: alpha-zero-general
  has no batched search).
- MCTS with a real network (``net_mcts``, needs torch): the shipped 8x8 net
  (``NetPolicyValue``, torch threads chosen per call), simulations/s of the ``mcts`` agent
  (one game, 8 leaves a call) and of 64 games batched (512 leaves a call).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Row = tuple[str, str, float | None, str]
"""(measure, implementation, rate, unit or note)."""


def _timed(fn: Callable[[], int], min_time: float) -> float:
    """Median rate (units/s) of ``fn`` (returns units done) over runs filling ``min_time``.

    The median, not the best: on a loaded machine the best run hides how slow most calls are.
    """
    fn()  # compile / warm up
    rates = []
    t_end = time.perf_counter() + min_time
    while len(rates) < 3 or time.perf_counter() < t_end:
        t0 = time.perf_counter()
        n = fn()
        rates.append(n / (time.perf_counter() - t0))
    return float(np.median(rates))


# --- perft ---------------------------------------------------------------------------------


def bitflip_perft(min_time: float) -> list[Row]:
    from bitflip import Board

    def push(b: Any, d: int) -> int:
        if d == 1:
            return max(len(b.legal_moves), 1)
        moves = list(b.legal_moves)
        if not moves:
            return 1
        n = 0
        for m in moves:
            b.push(m)
            n += push(b, d - 1)
            b.pop()
        return n

    rows: list[Row] = [("perft(7)", "bitflip Board.push/pop", _timed(lambda: push(Board(), 7),
                        min_time), "leaves/s")]  # fmt: skip
    if not hasattr(Board, "children"):
        return rows

    def kids(b: Any, d: int) -> int:
        if d == 1:
            return max(len(b.legal_moves), 1)
        cs = b.children()
        return sum(kids(c, d - 1) for c in cs) if cs else 1

    rows.append(("perft(7)", "bitflip Board.children()", _timed(lambda: kids(Board(), 7),
                 min_time), "leaves/s"))  # fmt: skip
    from bitflip.core import arrays
    from bitflip.core.arrays import successors, successors_many

    full = 0xFFFFFFFFFFFFFFFF

    def succ(p: int, o: int, d: int) -> int:
        cs = successors(p, o, full).tolist()
        if not cs:
            return 1
        if d == 2:
            return sum(max(legal.bit_count(), 1) for _, _, _, legal in cs)
        return sum(succ(cp, co, d - 1) for _, cp, co, _ in cs)

    p0, o0 = Board().side_bitboards()
    rows.append(("perft(7)", "bitflip core.arrays.successors", _timed(lambda: succ(p0, o0, 7),
                 min_time), "leaves/s"))  # fmt: skip
    if "successors_list" in dir(arrays):
        rows += successors_list_perft(arrays.successors_list, p0, o0, min_time)

    def breadth_first(d: int) -> int:
        # Every ply of the tree in one call; the last ply is played, not counted.
        p, o = np.array([p0], np.uint64), np.array([o0], np.uint64)
        for _ in range(d):
            parent, _, cp, co = successors_many(p, o, np.uint64(full))
            ended = np.bincount(parent, minlength=len(p)) == 0  # an ended game: one leaf
            p, o = np.concatenate([cp, p[ended]]), np.concatenate([co, o[ended]])
        return len(p)

    rows.append(("perft(7)", "bitflip core.arrays.successors_many, breadth first",
                 _timed(lambda: breadth_first(7), min_time), "leaves/s"))  # fmt: skip
    return rows


def successors_list_perft(kids: Any, p0: int, o0: int, min_time: float) -> list[Row]:
    """perft(7) by ``successors_list``, written like the others and as list comprehensions."""
    full = 0xFFFFFFFFFFFFFFFF

    def gen(p: int, o: int, d: int) -> int:
        cs = kids(p, o, full)
        if not cs:
            return 1
        if d == 2:
            return sum(max(legal.bit_count(), 1) for _, _, _, legal in cs)
        return sum(gen(cp, co, d - 1) for _, cp, co, _ in cs)

    def comp(p: int, o: int, d: int) -> int:
        cs = kids(p, o, full)
        if not cs:
            return 1
        if d == 2:
            return sum([c[3].bit_count() or 1 for c in cs])
        return sum([comp(c[1], c[2], d - 1) for c in cs])

    return [
        ("perft(7)", "bitflip core.arrays.successors_list", _timed(lambda: gen(p0, o0, 7),
         min_time), "leaves/s"),
        ("perft(7)", "bitflip core.arrays.successors_list, list comprehensions",
         _timed(lambda: comp(p0, o0, 7), min_time), "leaves/s"),
    ]  # fmt: skip


def rust_reversi_perft(min_time: float) -> list[Row]:
    try:
        import rust_reversi as rr
    except ImportError:
        return [("perft(7)", "rust-reversi", None, "not installed: pip install rust-reversi")]

    def clone(b: Any, d: int) -> int:
        moves = b.get_legal_moves_vec()
        if d == 1:
            return max(len(moves), 1)
        if not moves:
            if b.is_game_over():
                return 1
            c = b.clone()
            c.do_pass()
            return clone(c, d - 1)
        n = 0
        for m in moves:
            c = b.clone()
            c.do_move(m)
            n += clone(c, d - 1)
        return n

    def kids(b: Any, d: int) -> int:
        if d == 1:
            return max(b.get_legal_moves().bit_count(), 1)
        cs = b.get_child_boards()
        if not cs:
            if b.is_game_over():
                return 1
            c = b.clone()
            c.do_pass()
            return kids(c, d - 1)
        return sum(kids(c, d - 1) for c in cs)

    def comp(b: Any, d: int) -> int:
        # As successors_list's list comprehensions: the last ply's legal moves counted inline.
        cs = b.get_child_boards()
        if not cs:
            if b.is_game_over():
                return 1
            c = b.clone()
            c.do_pass()
            cs = [c]
        if d == 2:
            return sum([c.get_legal_moves().bit_count() or 1 for c in cs])
        return sum([comp(c, d - 1) for c in cs])

    return [
        ("perft(7)", "rust-reversi clone + do_move", _timed(lambda: clone(rr.Board(), 7),
         min_time), "leaves/s"),
        ("perft(7)", "rust-reversi get_child_boards", _timed(lambda: kids(rr.Board(), 7),
         min_time), "leaves/s"),
        ("perft(7)", "rust-reversi get_child_boards, list comprehensions",
         _timed(lambda: comp(rr.Board(), 7), min_time), "leaves/s"),
    ]  # fmt: skip


def creversi_perft(min_time: float) -> list[Row]:
    try:
        import creversi
    except ImportError:
        return [("perft(7)", "creversi-python", None, "not installed: pip install creversi-python")]

    def copy_move(b: Any, d: int) -> int:
        moves = list(b.legal_moves)
        if d == 1:
            return max(len(moves), 1)
        if b.is_game_over():
            return 1
        n = 0
        for m in moves:
            c = b.copy()
            c.move(m)
            n += copy_move(c, d - 1)
        return n

    rate = _timed(lambda: copy_move(creversi.Board(), 7), min_time)
    return [("perft(7)", "creversi-python copy + move", rate, "leaves/s")]


# --- batches -------------------------------------------------------------------------------


def _midgame(n: int) -> tuple[np.ndarray, np.ndarray]:
    from bitflip.envs.vector import VectorOthello, random_actions

    env = VectorOthello(n)
    env.reset()
    for i in range(24):
        env.step(random_actions(env.legal, i))
    return env.p.copy(), env.o.copy()


def legal_batch(min_time: float) -> list[Row]:
    from bitflip.core.arrays import legal_moves_many

    p, o = _midgame(1 << 20)
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    rows: list[Row] = [("legal moves of a batch", "bitflip core.arrays.legal_moves_many",
                        _timed(lambda: (legal_moves_many(p, o, full), len(p))[1], min_time),
                        "boards/s")]  # fmt: skip
    try:
        from creversi._bitboard_np import mobility_batch
    except ImportError:
        rows.append(("legal moves of a batch", "creversi-python", None, "not installed"))
        return rows
    out = np.empty_like(p)
    rate = _timed(lambda: (mobility_batch(p, o, out), len(p))[1], min_time)
    rows.append(("legal moves of a batch", "creversi-python mobility_batch", rate, "boards/s"))
    return rows


def vector_env(min_time: float, n: int = 4096, steps: int = 100) -> list[Row]:
    from bitflip.core.arrays import random_moves
    from bitflip.envs.vector import VectorOthello

    env = VectorOthello(n)
    env.reset()

    def run_bitflip() -> int:
        for i in range(steps):
            env.step(random_moves(env.legal, i))
        return n * steps

    rows: list[Row] = [("vector env, 4096 boards", "bitflip VectorOthello",
                        _timed(run_bitflip, min_time), "board-steps/s")]  # fmt: skip
    big = VectorOthello(1 << 20)  # large enough for core.parallel to consider threads
    big.reset()

    def run_big() -> int:
        for i in range(5):
            big.step(random_moves(big.legal, i))
        return big.n * 5

    rows.append(("vector env, 2^20 boards", "bitflip VectorOthello", _timed(run_big, min_time),
                 "board-steps/s"))  # fmt: skip
    try:
        from creversi.gym_reversi.envs import ReversiVecEnvFast
    except ImportError:
        rows.append(("vector env, 4096 boards", "creversi-python", None, "not installed"))
        return rows
    cenv = ReversiVecEnvFast(n)

    def run_creversi() -> int:
        for i in range(steps):
            cenv.step(random_moves(cenv.legal_moves_mask(), i))
        return n * steps

    rate = _timed(run_creversi, min_time)
    rows.append(("vector env, 4096 boards", "creversi-python ReversiVecEnvFast", rate,
                 "board-steps/s"))  # fmt: skip
    return rows


# --- MCTS ----------------------------------------------------------------------------------


class ZeroCost:
    """A policy-value function that costs nothing: uniform priors, value 0."""

    size = 8

    def __init__(self) -> None:
        self.pol = np.ones((4096, 65), np.float32)
        self.val = np.zeros(4096, np.float32)

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.pol[: len(p)], self.val[: len(p)]


def bitflip_mcts(min_time: float) -> list[Row]:
    from bitflip import Board
    from bitflip.search.mcts import BatchedMCTS, MCTSConfig

    b = Board()
    rows: list[Row] = []
    runs = ((1, 800, "one game, one leaf a call"), (256, 200, "256 games batched"))
    for games, sims, what in runs:
        mcts = BatchedMCTS(ZeroCost(), games, MCTSConfig(sims=sims))
        p, o = np.full(games, b.black, np.uint64), np.full(games, b.white, np.uint64)
        rate = _timed(lambda: int(mcts.search(p, o).visits.sum()), min_time)  # noqa: B023
        rows.append((f"MCTS {what}", "bitflip BatchedMCTS", rate, "sims/s"))
    return rows


def net_mcts(min_time: float) -> list[Row]:
    try:
        from bitflip.nn.agents import shipped_az_net
        from bitflip.nn.policy_value import NetPolicyValue
    except ImportError:
        return [("MCTS, 8x8 net", "bitflip", None, "torch not installed")]
    from bitflip import Board
    from bitflip.search.mcts import BatchedMCTS, MCTSConfig
    from bitflip.search.mcts.agent import MCTSAgent

    ev = NetPolicyValue.from_file(shipped_az_net(8), "cpu")
    agent = MCTSAgent(sims=200, policy_value=ev)
    rows: list[Row] = [("MCTS agent, 8x8 net, one game, 8 leaves a call", "bitflip mcts agent",
                        _timed(lambda: (agent.select_move(Board()), 200)[1], min_time),
                        "sims/s")]  # fmt: skip
    b, games = Board(), 64
    mcts = BatchedMCTS(ev, games, MCTSConfig(sims=32))
    p, o = np.full(games, b.black, np.uint64), np.full(games, b.white, np.uint64)
    rate = _timed(lambda: int(mcts.search(p, o).visits.sum()), min_time)
    rows.append(("MCTS, 8x8 net, 64 games batched", "bitflip BatchedMCTS", rate, "sims/s"))
    return rows


def azg_mcts(min_time: float, azg: str | None) -> list[Row]:
    what = "MCTS one game, one leaf a call"
    if not azg or not os.path.isdir(azg):
        return [(what, "alpha-zero-general", None, "not found: clone it, pass --azg DIR")]
    sys.path.insert(0, azg)
    from MCTS import MCTS  # type: ignore[import-not-found]
    from othello.OthelloGame import OthelloGame  # type: ignore[import-not-found]

    class Game(OthelloGame):  # type: ignore[misc]
        def stringRepresentation(self, board: np.ndarray) -> bytes:
            return board.tobytes()

    class Net:
        pi = np.ones(65) / 65

        def predict(self, board: np.ndarray) -> tuple[np.ndarray, float]:
            return self.pi, 0.0

    class Args:
        numMCTSSims = 200
        cpuct = 1.0

    game = Game(8)

    def run(net: Any) -> int:
        MCTS(game, net, Args()).getActionProb(game.getCanonicalForm(game.getInitBoard(), 1))
        return Args.numMCTSSims

    rows: list[Row] = [(what, "alpha-zero-general MCTS", _timed(lambda: run(Net()), min_time),
                        "sims/s")]  # fmt: skip
    try:
        from bitflip.nn.agents import shipped_az_net
        from bitflip.nn.policy_value import NetPolicyValue
    except ImportError:
        return rows
    ev = NetPolicyValue.from_file(shipped_az_net(8), "cpu")
    weights = (1 << np.arange(64, dtype=np.uint64)).astype(np.uint64)

    class RealNet:
        # bitflip's shipped 8x8 net behind alpha-zero-general's interface: its canonical board
        # (1 = side to move) as bitboards; square 8 * x + y is its action x * 8 + y, 64 a pass.
        def predict(self, board: np.ndarray) -> tuple[np.ndarray, float]:
            flat = board.reshape(64)
            p = np.array([weights[flat == 1].sum()], np.uint64)
            o = np.array([weights[flat == -1].sum()], np.uint64)
            pi, v = ev.evaluate(p, o)
            return np.asarray(pi[0][:65], np.float64), float(v[0])

    rows.append(("MCTS agent, 8x8 net, one game, one leaf a call", "alpha-zero-general MCTS",
                 _timed(lambda: run(RealNet()), min_time), "sims/s"))  # fmt: skip
    return rows


# --- driver --------------------------------------------------------------------------------


MEASURES = ("bitflip_perft", "rust_reversi_perft", "creversi_perft", "legal_batch",
            "vector_env", "bitflip_mcts", "azg_mcts", "net_mcts")  # fmt: skip


def measure_all(min_time: float, azg: str | None, only: list[str]) -> list[Row]:
    rows: list[Row] = []
    for name in only:
        fn = globals()[name]
        rows += fn(min_time, azg) if name == "azg_mcts" else fn(min_time)
    return rows


MODES = ("1 thread", "default threads", "default threads + busy cores")


def run_mode(mode: str, args: argparse.Namespace) -> list[Row]:
    env = dict(os.environ)
    for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS"):
        env.pop(var, None)
        if mode == "1 thread":
            env[var] = "1"
    busy = []
    if "busy" in mode:
        for _ in range((os.cpu_count() or 2) - 1):
            busy.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
    try:
        cmd = [sys.executable, __file__, "--child", "--min-time", str(args.min_time),
               "--only", args.only]  # fmt: skip
        if args.azg:
            cmd += ["--azg", args.azg]
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    return [tuple(r) for r in json.loads(out.strip().splitlines()[-1])]  # type: ignore[misc]


def fmt(rate: float | None) -> str:
    if rate is None:
        return "-"
    for div, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if rate >= div:
            return f"{rate / div:.3g}{suffix}"
    return f"{rate:.3g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--azg", default=os.environ.get("AZG_PATH"),
                    help="alpha-zero-general checkout (not on PyPI)")  # fmt: skip
    ap.add_argument("--min-time", type=float, default=1.0, help="seconds per measure and mode")
    ap.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated subset of " + str(MODES)
    )
    ap.add_argument("--only", default=",".join(MEASURES),
                    help="comma-separated subset of " + str(MEASURES))  # fmt: skip
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure_all(args.min_time, args.azg, args.only.split(","))))
        return
    results = {mode: run_mode(mode, args) for mode in args.modes.split(",")}
    first = next(iter(results.values()))
    load = os.getloadavg()
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: "
          f"{platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}; "
          f"load average before: {load[0]:.2f}")  # fmt: skip
    print()
    print("| measure | implementation | " + " | ".join(results) + " | unit |")
    print("|---|---|" + "---|" * len(results) + "---|")
    for i, (what, impl, _, unit) in enumerate(first):
        rates = [fmt(rows[i][2]) for rows in results.values()]
        print(f"| {what} | {impl} | " + " | ".join(rates) + f" | {unit} |")


if __name__ == "__main__":
    main()

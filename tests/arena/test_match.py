"""Games in worker processes: results, forfeits (crash, hang, time, illegal, dead worker), seeds."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bitflip.agents import register_agent
from bitflip.arena.match import GameTask, derive_seed, play_game
from bitflip.arena.workers import run_games
from bitflip.core.board import BLACK, WHITE, Board
from bitflip.core.geometry import PASS

from . import agents_for_tests as helpers

for _name in (
    "Crash",
    "Hang",
    "Slow",
    "Illegal",
    "Exit",
    "Weighted",
    "Closing",
    "SpawnHang",
    "WarmupHang",
):
    register_agent(f"test-{_name.lower()}", f"{helpers.__name__}:{_name}Agent")


def task(black: str, white: str, seed: int = 1, **kw: object) -> GameTask:
    key = f"{black}-{white}-{seed}"
    return GameTask(key=key, black=black, white=white, seed=seed, **kw)  # type: ignore[arg-type]


def test_a_game_in_process() -> None:
    opening = (37, 43)  # f5 d6
    r = play_game(task("random", "greedy", opening=opening))
    assert r.error is None and r.moves[:2] == [37, 43]
    board = Board()
    for m in r.moves:
        board.push(m)
    out = board.outcome()
    assert out is not None and (out.black, out.white) == (r.black_discs, r.white_discs)
    assert r.score == (1.0 if out.black > out.white else 0.0 if out.black < out.white else 0.5)
    assert r.margin == out.black - out.white and r.time_black > 0 and r.time_white > 0
    assert r.black_version and r.black_weights is None
    assert len(r.times) == len(r.moves) and r.times[:2] == [None, None]
    assert sum(r.times[2::2]) == pytest.approx(r.time_black)  # type: ignore[arg-type]
    assert r.transcript.startswith("f5d6") and ("pa" in r.transcript) == (PASS in r.moves)


def test_crash_and_illegal_in_process() -> None:
    r = play_game(task("test-crash", "random"))
    assert r.error_side == BLACK and r.score == 0.0 and r.margin is None
    assert r.error is not None
    assert r.error.startswith("crash on move 3: RuntimeError: deliberate crash at agents_for_tests")
    assert len(r.moves) == 2  # black's first move and white's reply
    r = play_game(task("random", "test-illegal"))
    assert r.error_side == WHITE and r.score == 1.0
    assert "illegal move d4 (27) on move 4" in r.error  # type: ignore[operator]
    r = play_game(task("random", "test-weighted"))
    assert (r.white_version, r.white_weights) == ("test-1", "abc123")
    r = play_game(task("random", "minimax:depth=-1"))
    assert r.error_side == WHITE and r.error.startswith("build failed: AgentSpecError")  # type: ignore[union-attr]


def test_misbehaving_agents_lose_and_the_tournament_goes_on() -> None:
    tasks = [
        task("test-hang", "random", time_per_move=0.5, grace=0.5),
        task("random", "test-crash"),
        task("test-slow:delay=0.3", "random", time_per_move=0.1, grace=5.0),
        task("random", "test-exit"),
        task("test-illegal", "random"),
        task("random", "greedy"),
        task("greedy", "test-hang", hang_timeout=1.0),
    ]
    seen: list[str] = []
    played = run_games(tasks, workers=2, on_result=lambda r: seen.append(r.task.key))
    by = {r.task.key: r for r in played}
    assert sorted(seen) == sorted(t.key for t in tasks) == sorted(by)
    hang = by["test-hang-random-1"]
    assert hang.error_side == BLACK and hang.score == 0.0
    assert hang.error is not None and hang.error.startswith("hang: no move after")
    assert "limit 0.5 s + grace 0.5 s" in hang.error
    assert len(hang.moves) == len(hang.times) == 2  # the moves before the hang are kept
    assert by["random-test-crash-1"].error_side == WHITE
    slow = by["test-slow:delay=0.3-random-1"]
    assert slow.error_side == BLACK and slow.error.startswith("time: move 3 took")  # type: ignore[union-attr]
    died = by["random-test-exit-1"]
    assert died.error_side == WHITE and died.error == "worker process died (exit code 7)"
    assert by["test-illegal-random-1"].error_side == BLACK
    normal = by["random-greedy-1"]
    assert normal.error is None and normal.margin is not None
    no_limit = by["greedy-test-hang-1"]
    assert no_limit.error_side == WHITE and "hang timeout 1 s" in no_limit.error  # type: ignore[operator]


def test_a_killed_agent_takes_its_child_processes_along(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    spec = f"test-spawnhang:pidfile={pidfile}"
    (r,) = run_games([task(spec, "random", time_per_move=0.5, grace=0.5)], workers=1)
    assert r.error is not None and r.error.startswith("hang:")
    pid = int(pidfile.read_text())
    for _ in range(50):  # the kill is immediate; the child may take a moment to be reaped
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        if Path(f"/proc/{pid}/stat").exists() and ") Z " in Path(f"/proc/{pid}/stat").read_text():
            break  # a zombie: dead, waiting for init to reap it
        time.sleep(0.1)
    else:
        pytest.fail(f"the agent's child process {pid} outlived its killed worker")


def test_a_hung_build_loses_that_game_and_the_agents_later_games_at_once() -> None:
    tasks = [task("test-warmuphang", "random", seed=s, build_timeout=1.0) for s in range(3)]
    tasks.append(task("random", "greedy", seed=9))
    results = {r.task.key: r for r in run_games(tasks, workers=1)}
    first = results["test-warmuphang-random-0"]
    assert first.error == "hang: building the agent took over 1 s; worker killed"
    for s in (1, 2):
        later = results[f"test-warmuphang-random-{s}"]
        assert later.error_side == BLACK and later.score == 0.0
        assert later.error == first.error + " (earlier game)"  # no second wait
    assert results["random-greedy-9"].error is None


def test_seeded_games_are_reproducible_whatever_the_scheduling() -> None:
    tasks = [task("random", "positional", seed=s) for s in range(4)]
    one = {r.task.key: r.moves for r in run_games(tasks, workers=1)}
    two = {r.task.key: r.moves for r in run_games(tasks, workers=2)}
    assert one == two
    assert len({tuple(m) for m in one.values()}) == 4  # different seeds, different games
    again = play_game(tasks[0])
    assert again.moves == one[tasks[0].key]


def test_agents_are_closed_after_the_game() -> None:
    before = helpers.ClosingAgent.closed
    play_game(task("test-closing", "random", seed=5))
    play_game(task("test-closing", "random", seed=6))
    # one warm-up copy (first use in this process) and one agent per game
    assert helpers.ClosingAgent.closed - before in (2, 3)


def test_derive_seed_is_stable() -> None:
    assert derive_seed(1, "a") == derive_seed(1, "a") != derive_seed(1, "b")
    assert 0 <= derive_seed("x") < 2**63
    assert task("a", "b", seed=9).agent_seed(BLACK) != task("a", "b", seed=9).agent_seed(WHITE)


def test_no_tasks() -> None:
    assert run_games([], workers=1) == []


def test_worker_returns_quietly_when_the_driver_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    # A killed or interrupted tournament must not make its workers print tracebacks.
    import multiprocessing as mp

    from bitflip.arena import workers

    monkeypatch.delattr(os, "setsid", raising=False)  # keep the test process's session
    monkeypatch.setattr(workers, "watch_driver", lambda driver: None)
    driver, worker = mp.Pipe()
    driver.send(task("random", "random"))
    driver.close()
    workers._worker_main(worker, {}, [], os.getpid())  # returns instead of raising BrokenPipeError

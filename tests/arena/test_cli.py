"""``bitflip arena``: a small tournament end to end, resuming, and one-line errors."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bitflip.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def test_small_tournament_with_db_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, rep = tmp_path / "r.sqlite", tmp_path / "report"
    args = ["arena", "random", "greedy", "positional", "--games", "2", "--openings", "random:4"]
    args += ["--workers", "2", "--db", str(db), "--report", str(rep), "--seed", "5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "round robin, 8x8, openings random:4: 6 games" in out
    assert "positional" in out and "(anchor)" in out
    assert (rep / "index.html").exists() and (rep / "elo.png").exists()
    assert main(args) == 0  # everything stored: nothing to play
    assert "resuming: 6 games already" in capsys.readouterr().err
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 6


def test_config_file_and_gauntlet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "arena.toml"
    cfg.write_text('[arena]\ngames = 2\nopenings = "random:2"\nsize = 6\nworkers = 1\n')
    assert (
        main(["arena", "random", "--vs", "greedy", "--config", str(cfg), "--anchor-elo", "1500"])
        == 0
    )
    out = capsys.readouterr().out
    assert "gauntlet vs greedy, 6x6" in out and "2 games" in out and "1500 (anchor)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "nosuch"], "unknown agent 'nosuch'"),
        (["random", "minimax:depth=zero"], "depth must be int, not 'zero'"),
        (["random", "greedy", "--openings", "/no/such/file.txt"], "no such opening file"),
        (["random", "greedy", "--games", "3"], "must be even"),
        (["random"], "at least two agents"),
        (["random", "greedy", "--anchor", "positional"], "is not one of the agents"),
        (["random", "greedy", "--balance", "deep"], "bad balance search"),
        (["random", "greedy", "--plugin", "no_such_module_x"], "plugin 'no_such_module_x'"),
        (["random", "greedy", "--db", "/no/such/dir/r.sqlite"], "no such directory"),
    ],
)
def test_errors_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bitflip arena: error:") and len(err.strip().splitlines()) == 1
    assert message in err


def test_bad_opening_file_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "ops.txt"
    f.write_text("f5d6\nf5d6zz\n")
    assert main(["arena", "random", "greedy", "--openings", str(f)]) == 2
    err = capsys.readouterr().err
    assert "ops.txt, line 2" in err and len(err.strip().splitlines()) == 1
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[arena]\nspeed = 3\n")
    assert main(["arena", "random", "greedy", "--config", str(cfg)]) == 2
    assert "unknown key 'speed'" in capsys.readouterr().err


@pytest.mark.slow
def test_killed_tournament_resumes(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, "-m", "bitflip.cli.main", "arena", "random", "greedy"]
    cmd += ["--games", "120", "--openings", "random:6", "--workers", "1", "--db", str(db)]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))

    def stored() -> int:
        if not db.exists():
            return 0
        try:
            with sqlite3.connect(db) as con:
                return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:
            return 0

    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while stored() < 10 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = stored()
    assert 10 <= before < 120, "the first run should be killed part way"
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"resuming: {before} games already" in done.stderr
    assert stored() == 120
    assert "120 games" in done.stdout


def test_shipped_config_is_valid() -> None:
    from bitflip.cli.arena import _settings
    from bitflip.cli.main import build_parser

    args = build_parser().parse_args(["arena", "--config", str(REPO / "configs" / "arena.toml")])
    s = _settings(args)
    assert s["specs"] == ["random", "greedy", "positional", "minimax:depth=2"]
    assert s["games"] == 20 and s["balance"] == "minimax:depth=6" and s["time_per_move"] is None


def test_ggf_output_matches_the_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bitflip.agents import register_agent
    from bitflip.arena.store import Store
    from bitflip.formats import ggf

    from . import agents_for_tests as helpers

    register_agent("test-crash", f"{helpers.__name__}:CrashAgent")
    db, out = tmp_path / "r.sqlite", tmp_path / "games.ggf"
    args = ["arena", "random", "test-crash", "--games", "2", "--openings", "random:2"]
    assert main([*args, "--workers", "1", "--db", str(db), "--ggf-out", str(out)]) == 0
    assert "forfeit by test-crash: crash on move" in capsys.readouterr().err
    records = ggf.read(out)
    with Store(db) as s:
        games = s.games()
    assert [r.moves for r in records] == [g.move_list() for g in games]
    assert all(r.extra["RE"].endswith(":r") and "crash" in r.extra["C"] for r in records)


def test_rate_a_stored_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.sqlite"
    base = ["arena", "--games", "2", "--openings", "random:2", "--workers", "1", "--db", str(db)]
    assert main([*base, "random", "greedy"]) == 0
    assert main([*base, "greedy", "positional"]) == 0
    capsys.readouterr()
    assert main(["arena", "--db", str(db), "--anchor", "positional"]) == 0
    out = capsys.readouterr().out
    assert "all games in" in out and "4 games" in out and "0 (anchor)" in out
    assert all(name in out for name in ("random", "greedy", "positional"))
    assert main(["arena", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no such results database" in capsys.readouterr().err


def test_one_line_error_through_python_m(tmp_path: Path) -> None:
    # Under 'python -m bitflip.cli.main' the module is __main__: errors must still be one line.
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[arena]\nspeed = 3\n")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    cmd = [sys.executable, "-m", "bitflip.cli.main", "arena", "random", "greedy"]
    done = subprocess.run([*cmd, "--config", str(cfg)], env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == f"bitflip arena: error: {cfg}: unknown key 'speed' in [arena]"


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc), the fork server and the workers included."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; it only waits to be reaped


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_arena_leaves_no_process_behind(tmp_path: Path, how: signal.Signals) -> None:
    """Workers in a hung game, and the engine processes their agents started, end with it."""
    plugin = tmp_path / "hangs.py"
    plugin.write_text(
        "from bitflip.agents import register_agent\n"
        "register_agent('test-spawnhang', 'tests.arena.agents_for_tests:SpawnHangAgent')\n"
    )
    pidfile = tmp_path / "engine.pid"
    cmd = [sys.executable, "-m", "bitflip", "arena", "random", f"test-spawnhang:pidfile={pidfile}"]
    cmd += ["--games", "2", "--openings", "random:6", "--workers", "2", "--plugin", str(plugin)]
    env = dict(os.environ, PYTHONPATH=f"{REPO / 'src'}{os.pathsep}{REPO}")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not pidfile.exists() and proc.poll() is None:
        assert time.monotonic() < deadline, "the hanging agent never started its engine"
        time.sleep(0.05)
    time.sleep(0.3)
    left = _descendants(proc.pid) | {int(pidfile.read_text())}
    assert len(left) >= 3  # the fork server, two workers, the engine...
    proc.send_signal(how)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in left) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in left if _alive(p)], "processes outlived the killed arena"

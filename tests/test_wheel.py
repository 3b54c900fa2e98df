"""A wheel built from the repository works where an editable install would hide its gaps.

The wheel is built, installed without its dependencies into a fresh virtual environment
outside the tree (the dependencies come from this environment through a path entry, whose own
``.pth`` files, such as the editable install's, are not processed), and the main commands run
from there: ``play`` serves the page and a move, ``hint``, ``solve`` and ``arena``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # a wheel build and a fresh venv: a minute


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The ``bin`` folder of a fresh venv holding the wheel built from the repository."""
    pytest.importorskip("setuptools")
    root = tmp_path_factory.mktemp("wheel")
    # Build from the files a clean checkout has: a leftover build/ folder would hide a file the
    # package data misses.
    source = root / "source"
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True, text=True, cwd=REPO,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, files):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    dist = root / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*build, "-w", str(dist), str(source)], check=True, cwd=root, timeout=300)
    (wheel,) = dist.glob("bitflip-*.whl")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    # numpy, numba, fastapi... from this environment, after the wheel's own files.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
         str(wheel)],
        check=True, cwd=root, timeout=300,
    )  # fmt: skip
    yield env_dir / "bin"


def _run(bin_dir: Path, *args: str, timeout: float = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    proc = subprocess.run(
        [str(bin_dir / "bitflip"), *args],
        capture_output=True, text=True, timeout=timeout, cwd=bin_dir.parent, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_wheel_is_what_runs(installed: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run(
        [str(installed / "python"), "-c", "import bitflip; print(bitflip.__file__)"],
        check=True, capture_output=True, text=True, cwd=installed.parent, env=env,
    ).stdout  # fmt: skip
    assert where.startswith(str(installed.parent)), where


def test_play_serves_the_page_and_a_move(installed: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [str(installed / "bitflip"), "play", "--no-browser", "--port", "0", "--opponent"]
    cmd += ["greedy", "--db", str(tmp_path / "games.sqlite")]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:  # it died: show why
            proc.wait(timeout=20)
            pytest.fail(proc.stderr.read() if proc.stderr else "play exited")
        assert line.startswith("bitflip is serving on http://localhost:"), line
        url = line.split()[4]
        for page in ("", "static/app.js", "static/style.css"):
            with urllib.request.urlopen(url + page, timeout=20) as r:
                assert r.status == 200 and r.read()

        def call(path: str, body: dict[str, object] | None = None) -> dict[str, object]:
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(
                url + path, data=data, headers={"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(req, timeout=20) as r:
                out: dict[str, object] = json.loads(r.read())
                return out

        game = call("api/games", {"opponent": "greedy"})
        view = call(f"api/games/{game['id']}/moves", {"move": "f5"})
        deadline = time.monotonic() + 60
        while len(view["moves"]) < 2 and time.monotonic() < deadline:  # type: ignore[arg-type]
            time.sleep(0.2)
            view = call(f"api/games/{game['id']}")
        assert len(view["moves"]) >= 2, view  # type: ignore[arg-type]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_hint_solve_and_arena(installed: Path, tmp_path: Path) -> None:
    hint = _run(installed, "hint", "f5d6c3", "--depth", "4", "-n", "2")
    assert "depth 4" in hint, hint
    obf = tmp_path / "one.obf"
    # Four empties, Black to move; the engine must prove its score.
    obf.write_text("OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOXXXXXXXXXXXXXXXXXXXXXXXXXXXX---- X;\n")
    solved = _run(installed, "solve", str(obf))
    assert "1 position" in solved or "positions" in solved, solved
    arena = _run(installed, "arena", "random", "greedy", "--games", "2", "--workers", "1")
    assert "greedy" in arena and "random" in arena, arena

"""The shell examples of the README and the docs work, as their Python examples do under doctest.

Every ``bitflip ...`` line in the code blocks of README.md and docs/**/*.md is taken as a user
would take it: optional parts in ``[...]`` dropped, ``# comments`` cut. Lines that still hold a
placeholder (``FILE``, ``SPEC``, ``a|b``) are synopses and are skipped. Every other line must
parse with the real command line, and every file or folder it names must exist (data paths
resolved the way the commands resolve them). The quick ones (hints, analysis, the bench, the
book) are run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bitflip.cli.main import build_parser

REPO = Path(__file__).resolve().parent.parent
QUICK = {"hint", "analyze", "bench", "book show", "perft"}
"""Subcommands run for real: seconds each. The rest train, solve or play for minutes."""
_PLACEHOLDER = re.compile(r"(?<![\w/.-])[A-Z]{2,}[A-Z0-9_-]*(?![\w/.-])|\.\.\.|\|")


DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
"""The README and every page of the docs site (the guides hold most of the commands)."""


def readme_commands() -> list[str]:
    text = "\n".join(f.read_text(encoding="utf-8") for f in DOC_FILES)
    out: list[str] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            line = line.split("  #")[0].split(" # ")[0].strip()
            if not line.startswith("bitflip "):
                continue
            for part in re.split(r" {3,}", line):  # synopsis tables hold two commands a line
                cmd = re.sub(r"\s*\[[^\[\]]*\]", "", part).strip()
                if cmd.startswith("bitflip ") and not _PLACEHOLDER.search(cmd) and cmd not in out:
                    out.append(cmd)
    return out


COMMANDS = readme_commands()


def _subcommand(argv: list[str]) -> str:
    return " ".join(argv[:2]) if argv[0] in ("book", "data", "train", "db", "nn") else argv[0]


def _named_paths(argv: list[str]) -> list[str]:
    """Arguments that name an existing input (outputs such as --out and --db are not)."""
    outputs = {"--out", "--db", "--report", "--plot", "--ggf-out", "--dest"}
    paths = []
    for i, arg in enumerate(argv):
        if i and argv[i - 1] in outputs:
            continue
        if "/" in arg and not arg.startswith("-") and ":" not in arg and "=" not in arg:
            paths.append(arg)
    return paths


def test_the_readme_has_runnable_examples() -> None:
    assert len(COMMANDS) >= 15
    assert any(_subcommand(shlex.split(c)[1:]) in QUICK for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_readme_command_parses_and_names_files_that_exist(
    command: str, shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bitflip.datadir import find

    argv = shlex.split(command)[1:]
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:
        pytest.fail(f"{command!r} does not parse (exit {exc.code})")
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("BITFLIP_DATA", str(shared_data))
    for path in _named_paths(argv):
        given = path.replace("../shared/data/", f"{shared_data}/")
        try:
            find(given)
        except FileNotFoundError as exc:
            pytest.fail(f"{command!r}: {exc}")


@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if _subcommand(shlex.split(c)[1:]) in QUICK]
)
def test_a_quick_readme_command_runs(command: str, shared_data: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), BITFLIP_DATA=str(shared_data))
    argv = [sys.executable, "-m", "bitflip", *shlex.split(command)[1:]]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command!r}: {done.stderr.strip()[-500:]}"
    assert done.stdout.strip(), f"{command!r} printed nothing"

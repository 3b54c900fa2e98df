"""The documentation site builds in strict mode, and its command-line page is the real parser.

``mkdocs build --strict`` fails on a broken link, a missing cross-reference or a docstring
warning from the API reference; the build reads the sources only (no imports of the package
beyond the command line, no network).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocstrings", reason="the docs extra: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO / "src"))
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    problems = [line for line in done.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert done.returncode == 0, "\n".join(problems) or done.stderr[-2000:]
    return out


def _every_parser(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                out += _every_parser(sub)
    return out


@pytest.mark.slow  # the build: about 15 s
def test_the_site_builds_in_strict_mode(site: Path) -> None:
    for page in ("index.html", "cli/index.html", "api/bitflip/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "bitflip" / "index.html").read_text(encoding="utf-8")
    import bitflip

    for name in (n for n in bitflip.__all__ if not n.startswith("_")):
        assert f'id="bitflip.{name}"' in api, f"bitflip.{name} is not in the API reference"


@pytest.mark.slow
def test_the_command_line_page_lists_every_subcommand_and_option(site: Path) -> None:
    from bitflip.cli.main import build_parser

    page = (site / "cli" / "index.html").read_text(encoding="utf-8")
    for parser in _every_parser(build_parser())[1:]:
        command = " ".join(["bitflip", *parser.prog.split()[1:]])
        assert f">{command}<" in page, f"{command} has no section"
        for action in parser._actions:
            for option in action.option_strings:
                assert option in page, f"{command} {option} is missing"


def test_doctest_fences_wrap_examples_only() -> None:
    sys.path.insert(0, str(REPO / "docs"))
    try:
        from griffe_doctests import fence_doctests
    finally:
        sys.path.remove(str(REPO / "docs"))
    text = "Text.\n\n>>> f([1])\n[None]\n\nMore.\n```py\n>>> kept\n```\n"
    assert fence_doctests(text) == (
        "Text.\n\n```pycon\n>>> f([1])\n[None]\n```\n\nMore.\n```py\n>>> kept\n```\n"
    )


INTERNAL = (
    "bitflip.cli.",  # the command line: its reference page is generated from the parser
    "bitflip.core.board",  # Board and friends: documented as `bitflip.*`, where users import them
    "bitflip.core.jit",
    "bitflip.eval.fileformat",
    "bitflip.eval.pattern_codegen",
    "bitflip.eval.pattern_indices",
    "bitflip.learn.az_selfplay",
    "bitflip.learn.figures",
    "bitflip.learn.linear_fit",
    "bitflip.learn.patterns_card",
    "bitflip.learn.supervised_data",
    "bitflip.learn.supervised_log",
    "bitflip.nn.device",
    "bitflip.nn.threads",
    "bitflip.search.",  # the engine's kernels: users reach them through Engine and Limit
    "bitflip.web.",  # the app's parts behind create_app
)
"""Modules (or prefixes) that are implementation, not API: the reference leaves them out."""


def test_every_public_module_is_in_the_api_reference() -> None:
    documented = set()
    for page in (REPO / "docs" / "api").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("::: "):
                documented.add(line[4:].strip())
    src = REPO / "src"
    missing = []
    for path in sorted((src / "bitflip").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if path.name == "__init__.py" or any(p.startswith("_") for p in parts):
            continue  # packages re-export their modules' names; private modules are no API
        name = ".".join(parts)
        if name not in documented and not name.startswith(INTERNAL):
            missing.append(name)
    assert not missing, f"add these to a page of docs/api/ (or to INTERNAL): {missing}"


def test_sphinx_roles_become_optional_cross_references() -> None:
    sys.path.insert(0, str(REPO / "docs"))
    try:
        from griffe_doctests import link_roles
    finally:
        sys.path.remove(str(REPO / "docs"))
    text = "See :class:`~bitflip.engine.Engine`, :mod:`.gumbel` and :func:`helper`."
    assert link_roles(text, "bitflip.search.mcts") == (
        'See <autoref identifier="bitflip.engine.Engine" optional><code>Engine</code></autoref>, '
        '<autoref identifier="bitflip.search.mcts.gumbel" optional><code>gumbel</code></autoref> '
        'and <autoref identifier="bitflip.search.mcts.helper" optional><code>helper</code>'
        "</autoref>."
    )

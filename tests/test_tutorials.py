"""The tutorials run: every example of docs/tutorials/*.md, as doctest, on the page's settings.

Each tutorial names what it needs (optional packages, the data sets); a missing one skips it
with the reason. The examples run from the repository's root, as the pages tell readers to,
and each page must end its walk with a number to check (a "**Check**" line).
"""

from __future__ import annotations

import doctest
import io
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = REPO / "docs" / "tutorials"
TUTORIALS: dict[str, tuple[tuple[str, ...], bool]] = {
    # page: (modules it imports beyond numpy and numba, whether it reads the data sets)
    "play-and-analyse.md": ((), False),
    "your-agent.md": (("fastapi", "httpx2"), False),  # httpx2: what TestClient uses
    "alphazero-6x6.md": (("torch",), False),
    "policy-from-wthor.md": (("torch",), True),
    "rl-environments.md": (("gymnasium", "pettingzoo"), False),
}
SECONDS = 300
"""A tutorial's examples on the suite's settings take 3-25 s once the numba kernels are compiled;
the first test of a run to search compiles them (a minute or more), whichever it is."""


def test_every_tutorial_page_is_run_and_has_a_number_to_check() -> None:
    pages = {p.name for p in PAGES.glob("*.md")} - {"index.md"}
    assert pages == set(TUTORIALS)
    for name in TUTORIALS:
        assert "**Check**" in (PAGES / name).read_text(encoding="utf-8"), name


SLOW = {"alphazero-6x6.md", "policy-from-wthor.md"}
"""Tutorials of 10 s or more on the suite's settings (training runs)."""


@pytest.mark.timeout(SECONDS)
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in TUTORIALS]
)
def test_a_tutorial_runs(
    name: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    modules, needs_data = TUTORIALS[name]
    for module in modules:
        pytest.importorskip(module, reason=f"{name} needs {module} (pip install -e '.[dev]')")
    if needs_data:
        monkeypatch.setenv("BITFLIP_DATA", str(request.getfixturevalue("shared_data")))
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the pages' mkdtemp() folders
    text = (PAGES / name).read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(PAGES / name), 0)
    assert test.examples, f"{name} has no examples to run"
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    try:
        result = runner.run(test, out=out.write)
    finally:
        test.globs.clear()
    assert result.failed == 0, out.getvalue()

"""The imports follow the layers of docs/architecture.md: every import in src/bitflip, at the top
of a module or inside a function, goes from a package to one it may use, and no two packages
import each other, directly or around a loop. What a module imports when it runs (torch above
all) is checked in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "bitflip"

_BASE = {"core", "bitflip"}
"""``bitflip`` is the package root: its small public API (re-exports of core)."""

MAY_IMPORT: dict[str, set[str]] = {
    "core": set(),
    "bitflip": {"core", "_codegen", "_kernel_cache"},
    "_codegen": set(),
    "_kernel_cache": set(),
    "_watchdog": set(),
    "_progress": set(),
    "_atomic": set(),
    "_npz": set(),
    "datadir": set(),
    "tomlconfig": set(),
    "jobs": {"core", "_watchdog"},
    "download": {"datadir"},
    "opening_names": _BASE | {"formats"},
    "formats": _BASE,
    "eval": _BASE | {"_atomic", "_npz"},
    "search": _BASE | {"eval", "_atomic", "_npz"},
    "agents": _BASE | {"eval", "search", "tomlconfig"},  # tomlconfig: specs' types, as configs
    "engine": _BASE | {"eval", "search", "agents", "formats"},
    "nn": _BASE | {"eval", "search", "agents", "formats", "tomlconfig", "_atomic"},
    "learn": _BASE
    | {"eval", "search", "agents", "formats", "engine", "nn", "tomlconfig", "datadir", "_watchdog"}
    | {"_progress", "_atomic", "_npz", "jobs", "arena"},  # arena: AlphaZero's gate is arena's SPRT
    "protocols": _BASE | {"formats", "search", "agents", "engine"},
    "arena": _BASE
    | {"eval", "search", "agents", "formats", "engine", "tomlconfig", "datadir", "_watchdog"}
    | {"jobs"},
    "envs": _BASE | {"agents"},
    "web": _BASE | {"formats", "search", "agents", "engine", "opening_names"},
    "cli": {"*"},
    "__main__": {"cli"},
}
"""What each package (or top-level module) of src/bitflip may import besides itself."""


def _unit(module: str) -> str | None:
    """The package or top-level module of ``bitflip.x.y`` (None outside bitflip)."""
    parts = module.split(".")
    if parts[0] != "bitflip":
        return None
    return "bitflip" if len(parts) == 1 else parts[1]


def _module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_edges(src: Path = SRC) -> dict[str, dict[str, list[str]]]:
    """``{unit: {imported unit: ["file:line", ...]}}`` over every import below ``src``."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(src.rglob("*.py")):
        module = _module_name(path, src)
        is_package = path.name == "__init__.py"
        unit = _unit(module) if "." in module else "bitflip"
        assert unit is not None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolve against this module's package
                    base = module.split(".")
                    base = base[: len(base) - node.level + (1 if is_package else 0)]
                    targets = [".".join(base + ([node.module] if node.module else []))]
                else:
                    targets = [node.module or ""]
            else:
                continue
            for target in targets:
                to = _unit(target)
                if to is not None and to != unit:
                    edges[unit][to].append(f"{path.relative_to(src)}:{node.lineno}")
    return edges


def wrong_imports(edges: dict[str, dict[str, list[str]]]) -> list[str]:
    return [
        f"{unit} imports {to} at {', '.join(places[:3])}"
        for unit, targets in sorted(edges.items())
        for to, places in sorted(targets.items())
        if "*" not in MAY_IMPORT.get(unit, set()) and to not in MAY_IMPORT.get(unit, set())
    ]


def find_cycle(edges: dict[str, dict[str, list[str]]]) -> list[str] | None:
    """A loop of packages importing each other, or None."""
    graph = {u: set(t) for u, t in edges.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        path.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return [*path[path.index(v) :], v]
            if v not in state and (cycle := visit(v)) is not None:
                return cycle
        path.pop()
        state[u] = 2
        return None

    for unit in sorted(graph):
        if unit not in state and (cycle := visit(unit)) is not None:
            return cycle
    return None


def test_every_package_has_a_rule() -> None:
    units = {_unit(_module_name(p)) if p.parent != SRC else None for p in SRC.rglob("*.py")}
    units |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    units.discard(None)
    assert units <= set(MAY_IMPORT), f"add a rule for {sorted(units - set(MAY_IMPORT))}"


def test_imports_go_down_the_layers() -> None:
    wrong = wrong_imports(import_edges())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_cycle_between_packages() -> None:
    cycle = find_cycle(import_edges())
    assert cycle is None, "packages import each other: " + " -> ".join(cycle or [])


def test_the_checker_finds_a_wrong_import_and_a_cycle(tmp_path: Path) -> None:
    src = tmp_path / "bitflip"
    for package, text in {
        "core": "",
        "search": "def f():\n    from bitflip.nn import net\n",
        "nn": "from ..search import tree\n",
    }.items():
        (src / package).mkdir(parents=True)
        (src / package / "__init__.py").write_text(text)
    edges = import_edges(src)
    assert wrong_imports(edges) == ["search imports nn at search/__init__.py:2"]
    assert find_cycle(edges) == ["nn", "search", "nn"]


NEVER_LOADED = [
    pytest.param(
        "bitflip, bitflip.agents, bitflip.engine, bitflip.learn.datasets, bitflip.cli.main",
        "bitflip.cli.main.build_parser()",
        ("torch",),
        id="core-and-cli-without-torch",
    ),
    pytest.param(
        "bitflip.cli.main",
        "bitflip.cli.main.build_parser()",
        (
            *("bitflip.engine", "bitflip.agents", "bitflip.eval", "bitflip.search.driver"),
            *("bitflip.arena", "bitflip.learn", "bitflip.nn", "bitflip.web", "fastapi", "torch"),
        ),
        id="cli-help-imports-only-the-light-layers",
    ),
    pytest.param(
        "bitflip.agents, bitflip.search.mcts, bitflip.search.mcts.agent",
        "bitflip.agents.make_agent('mcts:sims=4,size=4')",
        ("torch",),
        id="mcts-agent-without-a-net-without-torch",
    ),
    pytest.param(
        "bitflip.search.mcts, bitflip.search.mcts.agent, bitflip.search.mcts.games",
        "",
        ("bitflip.nn", "bitflip.learn"),
        id="search-without-nn-or-learn",
    ),
    pytest.param(
        "bitflip.nn.encode, bitflip.nn.models, bitflip.nn.policy_value",
        "",
        ("bitflip.learn",),
        id="nn-without-learn",
    ),
]
"""(modules imported, a statement run after, module prefixes that must not have been loaded)."""


@pytest.mark.parametrize(("modules", "then", "forbidden"), NEVER_LOADED)
def test_importing_loads_nothing_above_its_layer(
    modules: str, then: str, forbidden: tuple[str, ...]
) -> None:
    if modules.startswith("bitflip.nn"):
        pytest.importorskip("torch")
    code = (
        f"import sys, {modules}\n{then}\n"
        f"bad = [m for m in sys.modules if m.startswith({forbidden!r})]\n"
        "assert not bad, f'loaded {bad}'\n"
    )
    src = str(SRC.parent)
    subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": src}, check=True)

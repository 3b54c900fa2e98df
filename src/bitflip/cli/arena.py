"""``bitflip arena SPEC SPEC ...``: a round robin or gauntlet with ratings, stored and resumable."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bitflip.cli._numbers import COUNT, ELO, SECONDS, SECONDS_OR_ZERO, SEED, WORKERS
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.cli.errors import CommandError
from bitflip.core.board import BLACK
from bitflip.tomlconfig import read_toml

# Options a --config TOML file may set (its [arena] table), with their argparse defaults.
_DEFAULTS: dict[str, Any] = {
    "games": 20,
    "openings": "balanced",
    "balance": "minimax:depth=6",
    "time_per_move": None,
    "grace": 1.0,
    "hang_timeout": 600.0,
    "warmup_limit": 300.0,
    "size": 8,
    "workers": None,
    "db": None,
    "ggf_out": None,
    "report": None,
    "vs": None,
    "seed": 0,
    "backend": "local",
    "ray_address": None,
    "anchor": None,
    "anchor_elo": 0.0,
    "plugin": [],
}


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "arena")
    p.add_argument("specs", nargs="*", metavar="SPEC", help="agent specs, e.g. minimax:depth=2")
    p.add_argument("--config", type=Path, help="TOML file whose [arena] table sets defaults")
    p.add_argument("--games", type=COUNT, help="games per pair, even (default 20)")
    p.add_argument(
        "--openings",
        help="balanced[:K] (default; random K-move openings a search scores near 0), random:K, "
        "start, or a file with one transcript per line",
    )
    p.add_argument(
        "--balance",
        metavar="SEARCH",
        help="search judging balanced openings: minimax[:depth=N,threshold=X] (default "
        "minimax:depth=6, |score| <= 10 disc-square units) or engine[:depth=N,threshold=D] "
        "(discs)",
    )
    p.add_argument("--time-per-move", type=SECONDS, metavar="S", help="a slower move loses")
    p.add_argument(
        "--grace", type=SECONDS_OR_ZERO, metavar="S", help="seconds past the limit before a kill"
    )
    p.add_argument(
        "--hang-timeout", type=SECONDS, metavar="S", help="without a time limit: kill after S s"
    )
    p.add_argument(
        "--warmup-limit",
        type=SECONDS,
        metavar="S",
        help="seconds to build an agent and play its warm-up move (default 300); a slower "
        "build loses, and so does every later game of that agent",
    )
    p.add_argument("--size", type=int, choices=(6, 8), help="board size (default 8)")
    p.add_argument("--workers", type=WORKERS, help="parallel games (default: one per core)")
    p.add_argument("--db", type=Path, help="SQLite file of results; reruns resume from it")
    p.add_argument("--ggf-out", type=Path, metavar="FILE", help="write the games as GGF")
    p.add_argument("--report", type=Path, metavar="DIR", help="write an HTML report into DIR")
    p.add_argument("--vs", metavar="SPEC", help="gauntlet: every SPEC plays only this agent")
    p.add_argument("--seed", type=SEED, help="seed of openings and agents (default 0)")
    p.add_argument("--backend", choices=("local", "ray"), help="where games run (default local)")
    p.add_argument("--ray-address", help="Ray cluster to join (default: a local instance)")
    p.add_argument("--anchor", metavar="SPEC", help="agent fixed at --anchor-elo (default first)")
    p.add_argument("--anchor-elo", type=ELO, help="the anchor's rating (default 0)")
    p.add_argument(
        "--plugin",
        action="append",
        metavar="MODULE",
        help="module or .py file to import first (registers more agents); repeatable",
    )
    p.epilog = (
        "Without SPECs, --db FILE rates every game stored in FILE (with --report, --ggf-out)."
    )
    p.set_defaults(func=run)


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """Defaults, then the config file, then the command line."""
    values = dict(_DEFAULTS)
    if args.config is not None:
        try:
            table = read_toml(args.config).get("arena", {})
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        for key, value in table.items():
            if key not in values and key != "specs":
                raise CommandError(f"{args.config}: unknown key {key!r} in [arena]")
            values[key] = value
    for key in _DEFAULTS:
        v = getattr(args, key)
        if v is not None:
            values[key] = v
    values["specs"] = args.specs or values.get("specs") or []
    return values


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from bitflip.arena.match import GameResult
    from bitflip.arena.openings import BalanceSearch
    from bitflip.arena.store import Store
    from bitflip.arena.tournament import (
        TournamentConfig,
        canonical_spec,
        plan,
        run_tournament,
        validate,
    )

    s = _settings(args)
    if not s["specs"] and not s["vs"] and s["db"]:
        return _rate_stored(s)
    cfg = validate(
        TournamentConfig(
            specs=tuple(s["specs"]),
            games=int(s["games"]),
            vs=s["vs"],
            openings=str(s["openings"]),
            balance=BalanceSearch.parse(str(s["balance"])),
            time_per_move=s["time_per_move"],
            grace=float(s["grace"]),
            hang_timeout=s["hang_timeout"],
            build_timeout=float(s["warmup_limit"]),
            size=int(s["size"]),
            seed=int(s["seed"]),
            workers=s["workers"],
            plugins=tuple(s["plugin"]),
        )
    )
    anchor = canonical_spec(s["anchor"]) if s["anchor"] else None
    if anchor is not None and anchor not in cfg.players():
        raise ValueError(f"--anchor {anchor!r} is not one of the agents")
    db = Path(s["db"]) if s["db"] else None
    if db is not None and not db.parent.exists():
        raise OSError(f"no such directory for --db: {db.parent}")
    console = Console(stderr=True)
    if cfg.openings.startswith("balanced"):
        console.print(f"making {cfg.games // 2} balanced openings ({cfg.balance.kind} search)")
    tasks = plan(cfg)  # openings are made (or read) here, before any progress display
    with (
        Store(db if db is not None else ":memory:") as store,
        Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress,
    ):
        bar = progress.add_task("games", total=None)

        def on_start(todo: int, have: int) -> None:
            if have:
                console.print(f"resuming: {have} games already in {db}, {todo} to play")
            progress.update(bar, total=todo)

        def on_result(result: GameResult) -> None:
            progress.advance(bar)
            if result.error:
                t = result.task
                who = t.black if result.error_side == BLACK else t.white
                progress.console.print(
                    f"forfeit by {who}: {result.error}", markup=False, highlight=False
                )

        outcome = run_tournament(
            cfg,
            store,
            backend=str(s["backend"]),
            ray_address=s["ray_address"],
            on_start=on_start,
            on_result=on_result,
            tasks=tasks,
        )
    kind = f"gauntlet vs {cfg.vs}" if cfg.vs else "round robin"
    title = f"{kind}, {cfg.size}x{cfg.size}, openings {cfg.openings}"
    _output({**s, "anchor": anchor}, outcome.games, cfg.players(), title)
    return 0


def _output(s: dict[str, Any], games: list[Any], players: list[str], title: str) -> None:
    """The table on stdout, then the report and GGF files the settings ask for."""
    from rich.console import Console

    from bitflip.arena.report import print_summary, summarize, write_report

    anchor = s["anchor"]
    if anchor is not None and anchor not in players:
        raise ValueError(f"--anchor {anchor!r} is not one of the agents")
    summary = summarize(games, players, anchor=anchor, anchor_elo=float(s["anchor_elo"]))
    out = Console()
    if not out.is_terminal:
        out = Console(width=130)  # a file or pipe: do not squeeze the table into 80 columns
    print_summary(summary, out, title=title)
    err = Console(stderr=True)
    if s["report"]:
        page = write_report(summary, s["report"], title=title)
        err.print(f"report: {page}")
    if s["ggf_out"]:
        _write_ggf(games, Path(s["ggf_out"]))
        err.print(f"games: {s['ggf_out']}")


def _rate_stored(s: dict[str, Any]) -> int:
    """``bitflip arena --db FILE`` without agents: rate every game stored in FILE."""
    from bitflip.arena.store import Store
    from bitflip.arena.tournament import canonical_spec

    db = Path(s["db"])
    if not db.is_file():
        raise OSError(f"{db}: no such results database")
    with Store(db) as store:
        games = store.games()
    if not games:
        raise ValueError(f"{db}: no games stored yet")
    players = list(dict.fromkeys(p for g in games for p in (g.black, g.white)))
    if s["anchor"]:
        s = {**s, "anchor": canonical_spec(s["anchor"])}
    _output(s, games, players, f"all games in {db.name}")
    return 0


def _write_ggf(games: list[Any], path: Path) -> None:
    import importlib

    try:
        ggf = importlib.import_module("bitflip.formats.ggf")
    except ImportError:
        raise CommandError("--ggf-out needs bitflip.formats.ggf, missing in this install") from None
    ggf.write(path, [g.to_record() for g in games])

"""Tournament summaries: the terminal table (rich) and an HTML report with matplotlib charts."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bitflip.arena.ratings import HeadToHead, RatingTable, fit_elo, head_to_head
from bitflip.arena.store import StoredGame


@dataclass(frozen=True)
class PlayerLine:
    """One agent's row of the results table."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    """Fraction of the points taken."""
    margin: float | None
    """Mean disc difference in its favour over the games that were played out."""
    forfeits: int
    """Games this agent lost by crash, hang, time or illegal move."""
    seconds_per_game: float
    elo: float
    ci: float


@dataclass
class Summary:
    """Everything the table and the report show."""

    lines: list[PlayerLine]
    h2h: HeadToHead
    ratings: RatingTable
    errors: list[tuple[str, str, str]]
    """(game key, agent that forfeited, error) for every forfeit."""
    games: int


def summarize(
    games: Sequence[StoredGame],
    players: Sequence[str],
    *,
    anchor: str | None = None,
    anchor_elo: float = 0.0,
) -> Summary:
    """Tally games and fit ratings (anchor: the first player unless named)."""
    if not games:
        raise ValueError("no games to summarize")
    h2h = head_to_head([(g.black, g.white, g.score) for g in games], players)
    table = fit_elo(h2h, anchor=anchor or players[0], anchor_elo=anchor_elo)
    margins: dict[str, list[int]] = {p: [] for p in players}
    seconds: dict[str, list[float]] = {p: [] for p in players}
    forfeits = dict.fromkeys(players, 0)
    errors: list[tuple[str, str, str]] = []
    for g in games:
        seconds[g.black].append(g.time_black)
        seconds[g.white].append(g.time_white)
        if g.margin is not None:
            margins[g.black].append(g.margin)
            margins[g.white].append(-g.margin)
        if g.error:
            loser = g.black if g.error_side == "black" else g.white
            forfeits[loser] += 1
            errors.append((g.key, loser, g.error))
    lines = []
    for r in table.ratings:
        m = margins[r.name]
        lines.append(
            PlayerLine(
                name=r.name,
                games=r.games,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                score=r.score,
                margin=float(np.mean(m)) if m else None,
                forfeits=forfeits[r.name],
                seconds_per_game=float(np.mean(seconds[r.name])) if seconds[r.name] else 0.0,
                elo=r.elo,
                ci=r.ci,
            )
        )
    return Summary(lines, h2h, table, errors, len(games))


def _fmt_margin(m: float | None) -> str:
    return "-" if m is None else f"{m:+.1f}"


def _fmt_elo(line: PlayerLine, anchor: str) -> str:
    return f"{line.elo:.0f}" + (" (anchor)" if line.name == anchor else f" ± {line.ci:.0f}")


def print_summary(summary: Summary, console: Any = None, title: str = "Tournament") -> None:
    """Print the results table (and the head-to-head scores) with rich."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    t = Table(title=f"{title}: {summary.games} games")
    for col, just in [
        ("#", "right"),
        ("agent", "left"),
        ("games", "right"),
        ("W", "right"),
        ("D", "right"),
        ("L", "right"),
        ("score", "right"),
        ("discs", "right"),
        ("forfeits", "right"),
        ("s/game", "right"),
        ("Elo ± 95%", "right"),
    ]:
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    anchor = summary.ratings.anchor
    for i, ln in enumerate(summary.lines, 1):
        t.add_row(
            str(i),
            ln.name,
            str(ln.games),
            str(ln.wins),
            str(ln.draws),
            str(ln.losses),
            f"{100 * ln.score:.1f}%",
            _fmt_margin(ln.margin),
            str(ln.forfeits),
            f"{ln.seconds_per_game:.2f}",
            _fmt_elo(ln, anchor),
        )
    console.print(t)
    h = summary.h2h
    if 2 < len(h.names) <= 12:
        m = Table(title="Head to head: points of the row agent against the column agent")
        m.add_column("")
        for j in range(len(h.names)):
            m.add_column(str(j + 1), justify="right")
        order = [h.names.index(ln.name) for ln in summary.lines]
        pts, g = h.points, h.games
        for n, i in enumerate(order, 1):
            cells = ["" if i == j or g[i, j] == 0 else f"{pts[i, j]:g}/{g[i, j]}" for j in order]
            m.add_row(f"{n} {h.names[i]}", *cells)
        console.print(m)
    if summary.ratings.regularized:
        console.print(
            "[yellow]note:[/] an agent won or lost every game against a group, so one virtual "
            "draw per pair was added to keep the ratings finite"
        )
    if summary.errors:
        n = len(summary.errors)
        console.print(f"[red]{n} forfeit{'s' if n > 1 else ''}[/] (the first 5 shown):")
        for key, who, err in summary.errors[:5]:
            console.print(f"  {who} in game {key}: {err}", markup=False, highlight=False)


def _ladder_png(summary: Summary, path: Path) -> None:
    import matplotlib.pyplot as plt

    lines = summary.lines[::-1]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(lines) + 1.2))
    y = np.arange(len(lines))
    ax.errorbar(
        [ln.elo for ln in lines],
        y,
        xerr=[ln.ci for ln in lines],
        fmt="o",
        capsize=4,
        color="#1f5f3f",
    )
    ax.set_yticks(y, [ln.name for ln in lines])
    ax.set_xlabel(f"Elo (anchor {summary.ratings.anchor} = {summary.ratings.anchor_elo:g}), 95% CI")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _heatmap_png(summary: Summary, path: Path) -> None:
    import matplotlib.pyplot as plt

    h = summary.h2h
    order = [h.names.index(ln.name) for ln in summary.lines]
    rate = 100 * h.score_rate()[np.ix_(order, order)]
    names = [h.names[i] for i in order]
    k = len(names)
    fig, ax = plt.subplots(figsize=(1.0 * k + 2.5, 0.8 * k + 1.8))
    im = ax.imshow(np.ma.masked_invalid(rate), cmap="RdYlGn", vmin=0.0, vmax=100.0)
    ax.set_xticks(range(k), names, rotation=35, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if not math.isnan(rate[i, j]):
                ax.text(j, i, f"{rate[i, j]:.0f}", ha="center", va="center", fontsize=9)
    ax.set_title("score of row against column (%)")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(summary: Summary, directory: str | Path, title: str = "Tournament") -> Path:
    """Write ``index.html``, ``elo.png`` and ``heatmap.png`` into ``directory``.

    Returns:
        The path of the page.
    """
    import matplotlib

    matplotlib.use("Agg")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    _ladder_png(summary, out / "elo.png")
    _heatmap_png(summary, out / "heatmap.png")
    e = html.escape
    anchor = summary.ratings.anchor
    rows = "\n".join(
        f"<tr><td>{i}</td><td>{e(ln.name)}</td><td>{ln.games}</td><td>{ln.wins}</td>"
        f"<td>{ln.draws}</td><td>{ln.losses}</td><td>{100 * ln.score:.1f}%</td>"
        f"<td>{_fmt_margin(ln.margin)}</td><td>{ln.forfeits}</td>"
        f"<td>{ln.seconds_per_game:.2f}</td><td>{e(_fmt_elo(ln, anchor))}</td></tr>"
        for i, ln in enumerate(summary.lines, 1)
    )
    errors = "".join(
        f"<li>{e(who)} in game <code>{e(key)}</code>: {e(err)}</li>"
        for key, who, err in summary.errors
    )
    note = (
        "<p>An agent won or lost every game against a group, so one virtual draw per pair "
        "was added to keep the ratings finite.</p>"
        if summary.ratings.regularized
        else ""
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
td, th {{ padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }}
td:nth-child(2), th:nth-child(2) {{ text-align: left; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>{summary.games} games. Elo by maximum likelihood (Bradley-Terry, draws count half) with 95%
confidence intervals relative to the anchor <b>{e(anchor)}</b> = {summary.ratings.anchor_elo:g}.
"discs" is the mean final disc difference in the agent's favour over games played to the end.</p>
<table><tr><th>#</th><th>agent</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th>
<th>discs</th><th>forfeits</th><th>s/game</th><th>Elo ± 95%</th></tr>
{rows}
</table>
{note}
<h2>Elo ladder</h2><img src="elo.png" alt="Elo ladder with 95% intervals">
<h2>Head to head</h2><img src="heatmap.png" alt="win-rate heatmap">
<h2>Forfeits</h2>{"<ul>" + errors + "</ul>" if errors else "<p>None.</p>"}
</body></html>
"""
    page_path = out / "index.html"
    page_path.write_text(page, encoding="utf-8")
    return page_path

"""Strength of an AlphaZero net: the report's Table 1 (against random, greedy and minimax).

The net plays with batched MCTS in all games at once; the opponents are registry agents.
Colours alternate game by game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bitflip.agents import make_agent
from bitflip.learn.figures import pyplot, save_figure
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.mcts import MCTSConfig, make_mcts
from bitflip.search.mcts.games import MatchResult, play_match


@dataclass(frozen=True)
class TableRow:
    """The net's results against one opponent."""

    opponent: str
    result: MatchResult

    def __str__(self) -> str:
        r = self.result
        return f"{self.opponent:<20} {r.wins:>4} {r.draws:>5} {r.losses:>6}   {r.score:.3f}"


def table1(
    net: str | Path,
    opponents: list[str],
    games: int = 20,
    sims: int = 100,
    *,
    device: str = "auto",
    opening_plies: int = 0,
    seed: int = 0,
    root: str = "puct",
    gumbel_m: int = 16,
) -> list[TableRow]:
    """``games`` games (half with each colour) of the net against each opponent spec, the net
    searching with the PUCT or the Gumbel ``root`` (no noise; finished games valued as the
    net's run did)."""
    policy_value = NetPolicyValue.from_file(net, device)
    pairs = max(1, games // 2)
    cfg = MCTSConfig(sims=sims, leaves_per_game=1, root=root, gumbel_m=gumbel_m,
                     value_margin=policy_value.value_margin)  # fmt: skip
    mcts = make_mcts(policy_value, 2 * pairs, cfg)
    rows = []
    for i, spec in enumerate(opponents):
        agent = make_agent(spec, seed=seed + i)
        res = play_match(mcts, agent, pairs, opening_plies=opening_plies, seed=seed + i)
        rows.append(TableRow(spec, res))
    return rows


def format_table(rows: list[TableRow]) -> str:
    head = f"{'opponent':<20} {'wins':>4} {'draws':>5} {'losses':>6}   score"
    return "\n".join([head, *(str(r) for r in rows)])


def plot_gating(run_dir: str | Path, path: str | Path) -> Path:
    """Strength per iteration: each candidate's gating score and the accepted generations."""
    import json

    plt = pyplot()
    from bitflip._atomic import is_temporary

    gating = sorted(p for p in Path(run_dir, "gating").glob("it*.json") if not is_temporary(p))
    its, scores, accepted = [], [], []
    for g in gating:
        d = json.loads(g.read_text())
        if "score" not in d:
            continue
        its.append(int(g.stem[2:]))
        scores.append(float(d["score"]))
        accepted.append(bool(d["accepted"]))
    if not its:
        raise ValueError(f"{run_dir}: no gating records to plot (gating/it*.json)")
    gens = [sum(accepted[: i + 1]) for i in range(len(accepted))]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(its, scores, "o-", color="grey", label="candidate score vs best net")
    ax.scatter([i for i, a in zip(its, accepted, strict=True) if a],
               [s for s, a in zip(scores, accepted, strict=True) if a],
               color="green", zorder=3, label="accepted")  # fmt: skip
    ax.axhline(0.5, color="black", lw=0.5)
    ax.set_xlabel("iteration")
    ax.set_ylabel("gating score (points per game)")
    ax2 = ax.twinx()
    ax2.step(its, gens, where="post", color="tab:blue", label="generation")
    ax2.set_ylabel("accepted generation")
    ax.legend(loc="upper right", fontsize=8)
    return save_figure(fig, path, dpi=110)

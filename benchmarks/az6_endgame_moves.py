"""How often a 6x6 net's search keeps the exact value in the endgame, by tree value scale.

Endgame positions are sampled as in ``az6_value_accuracy.py`` (random plies, then the net's
policy; positions with ``--min``-``--max`` empties and two or more moves, kept with probability
``--keep``). In each one the net's PUCT search (``--sims``, as the ``mcts`` agent) chooses a
move once per ``--value-margin`` setting (how finished games in the tree are valued:
``(1 - x) * result + x * margin / 36``), and a full solve says whether the move is one of the
best; ``--solver 0 1`` does it with and without the search's score bounds (``MCTSConfig.solver``),
``--cpuct`` at several exploration constants and ``--leaves`` at several descents a round
(the agent's batch of leaves, spread by virtual loss).
The same positions for every setting, so the counts compare directly; with
``--positions-net`` the positions come from another net's policy, so that nets compare on the
same positions too.

    PYTHONPATH=src python benchmarks/az6_endgame_moves.py NET --value-margin 0 0.5 --games 40

Prints, per setting and band of empties, the moves that kept the exact value.
"""

from __future__ import annotations

import argparse

import numpy as np
from az6_value_accuracy import net_games

from bitflip.cli._numbers import positive_float, positive_int
from bitflip.core.board import Board
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.exact import solve_moves
from bitflip.search.mcts.agent import MCTSAgent

AGENT_CPUCT = float(MCTSAgent.__init__.__kwdefaults__["cpuct"])
"""The ``mcts`` agent's exploration constant, the default of ``--cpuct``."""
AGENT_LEAVES = int(MCTSAgent.__init__.__kwdefaults__["leaves"])
"""The ``mcts`` agent's descents a round, the default of ``--leaves``."""


def positions(pv: NetPolicyValue, args: argparse.Namespace) -> list[Board]:
    rng = np.random.default_rng(args.seed)
    out = []
    for b, _ in net_games(pv, args.games, args.random_plies, rng):
        wanted = args.min <= b.empties <= args.max and len(list(b.legal_moves)) > 1
        if wanted and rng.random() < args.keep:
            out.append(b.copy())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("net", help="a 6x6 AlphaZero net file")
    ap.add_argument("--value-margin", type=float, nargs="+", default=[0.0, 0.5])
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--solver", type=int, nargs="+", choices=[0, 1], default=[0],
                    help="score bounds off (0), on (1) or both")  # fmt: skip
    ap.add_argument("--cpuct", type=positive_float, nargs="+", default=[AGENT_CPUCT],
                    help=f"exploration constants (the agent's: {AGENT_CPUCT})")  # fmt: skip
    ap.add_argument("--leaves", type=positive_int, nargs="+", default=[AGENT_LEAVES],
                    help=f"descents a round (the agent's: {AGENT_LEAVES})")  # fmt: skip
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--min", type=int, default=2, help="fewest empties")
    ap.add_argument("--max", type=int, default=16, help="most empties")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--keep", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--positions-net", help="sample the positions with this net's policy (default: NET's)"
    )
    args = ap.parse_args()
    pv = NetPolicyValue.from_file(args.net, "cpu")
    sampler = NetPolicyValue.from_file(args.positions_net, "cpu") if args.positions_net else pv
    boards = positions(sampler, args)
    best = []
    for b in boards:
        p, o = b.side_bitboards()
        values = solve_moves(p, o, b.geometry.mask)
        best.append({m for m in b.legal_moves if values[m] == max(values)})
    bands = [(lo, min(lo + 3, args.max)) for lo in range(args.min, args.max + 1, 4)]
    print(f"{args.net}: {len(boards)} positions, {args.sims} simulations")
    settings = [
        (x, bool(s), c, n)
        for x in args.value_margin for s in args.solver for c in args.cpuct for n in args.leaves
    ]  # fmt: skip
    for x, solver, cpuct, leaves in settings:
        pv.value_margin = x
        agent = MCTSAgent(
            sims=args.sims, policy_value=pv, seed=0, solver=solver, cpuct=cpuct, leaves=leaves
        )
        kept = [agent.select_move(b) in ok for b, ok in zip(boards, best, strict=True)]
        empties = np.array([b.empties for b in boards])
        parts = []
        for lo, hi in bands:
            sel = [k for k, e in zip(kept, empties, strict=True) if lo <= e <= hi]
            parts.append(f"{lo}-{hi}: {sum(sel)}/{len(sel)}")
        setting = f"value_margin {x}, solver {int(solver)}, cpuct {cpuct}, leaves {leaves}"
        print(f"{setting}: kept {sum(kept)}/{len(kept)} ({', '.join(parts)})", flush=True)


if __name__ == "__main__":
    main()

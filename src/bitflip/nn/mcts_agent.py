"""The ``mcts`` agent spec: PUCT search with a network (``mcts:net=FILE,sims=N``) or rollouts.

Search defines the agent and the :class:`~bitflip.search.mcts.PolicyValueFn` it consumes; this
module, on the network side of the layers, loads the net and hands it to the search. torch is
imported only when a net is given, so ``mcts:sims=N`` works without it.
"""

from __future__ import annotations

from bitflip.agents import AgentSpecError
from bitflip.search.mcts.agent import MCTSAgent
from bitflip.search.mcts.search import PolicyValueFn


def mcts_agent(
    sims: int = 200,
    net: str | None = None,
    cpuct: float = 1.5,
    leaves: int = 8,
    rollouts: int = 1,
    device: str = "cpu",
    size: int = 8,
    seed: int | None = None,
    root: str = "puct",
    gumbel_m: int = 16,
    exact: int = 0,
    value_margin: float | None = None,
    fpu: float = 0.0,
    fpu_parent: bool = False,
    solver: bool = False,
) -> MCTSAgent:
    """The agent of spec ``mcts:...`` (registered in :mod:`bitflip.agents`).

    Args:
        sims: simulations per move.
        net: an AlphaZero network file (az-<hash>.pt), or ``builtin`` for the net shipped
            for ``size`` (8x8 or 6x6); without it, random rollouts evaluate.
        cpuct: PUCT exploration constant.
        leaves: descents per round (virtual loss); more leaves make bigger network batches.
        rollouts: random playouts per leaf when no net is given.
        device: torch device for the net ('auto', 'cpu', 'cuda').
        size: board size for rollouts and ``net=builtin`` (a net file knows its own).
        seed: seeds rollouts and tie-breaks.
        root: ``puct``, or ``gumbel`` for the Gumbel root (few simulations suffice).
        gumbel_m: root moves the Gumbel root samples.
        exact: at most this many empty squares, play the exact solver's best move instead of
            searching (0: never; small boards, e.g. ``exact=20`` on 6x6).
        value_margin: finished games in the tree are worth ``(1 - x) * result + x * margin /
            squares``; default: as the net's own run valued them (its lineage), 0 without one.
        fpu: the value of a move not yet visited; with ``fpu_parent``, how far below the net's
            value of the position it leaves.
        fpu_parent: unvisited moves are worth the position's net value minus ``fpu``.
        solver: prove score bounds from the finished games the tree reaches (solved positions
            take their exact value, moves proved worse are never played); no solver is called.
    """
    policy_value: PolicyValueFn | None = None
    if net is not None:
        from bitflip.nn.agents import shipped_az_net
        from bitflip.nn.policy_value import NetPolicyValue

        path = str(shipped_az_net(size)) if net == "builtin" else str(net)
        policy_value = NetPolicyValue.from_file(path, device)
        if value_margin is not None:
            if not 0.0 <= float(value_margin) <= 1.0:
                raise AgentSpecError(f"value_margin must be in [0, 1], not {value_margin}")
            policy_value.value_margin = float(value_margin)
    name = f"mcts:sims={sims}" + (f",net={net}" if net else "")
    name += f",root={root}" if root != "puct" else ""
    name += f",exact={exact}" if exact else ""
    name += f",value_margin={value_margin}" if value_margin is not None else ""
    # Every setting that changes play is in the name: arena results are kept by name.
    name += f",cpuct={cpuct}" if cpuct != 1.5 else ""
    name += f",leaves={leaves}" if leaves != 8 else ""
    name += f",fpu={fpu}" if fpu != 0.0 else ""
    name += ",fpu_parent=true" if fpu_parent else ""
    name += ",solver=true" if solver else ""
    return MCTSAgent(
        sims=sims, policy_value=policy_value, cpuct=cpuct, leaves=leaves, rollouts=rollouts,
        size=size, seed=seed, name=name, root=root, gumbel_m=gumbel_m, exact=exact, fpu=fpu,
        fpu_parent=fpu_parent, solver=solver,
    )  # fmt: skip

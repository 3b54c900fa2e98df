"""AlphaZero as three steps that talk only through directories, and a loop that runs them.

::

    RUN/accepted/   0000.json, 0001.json ... -> az-<hash>.pt   the best net of each generation
    RUN/shards/     it0003-002.npz                             self-play shards of iteration 3
    RUN/checkpoints/it0003.json -> az-<hash>.pt                the net trained in iteration 3
                                   (and the candidate: it, or its average with earlier ones)
    RUN/checkpoints/opt-it0003.pt                              its Adam state (train.keep_optimizer)
    RUN/gating/     it0003.json                                its match against the best net
    RUN/timing/     it0003.json                                seconds of each step (this session's)

Every file is written to a temporary name and renamed, so a step killed at any moment (kill -9)
leaves only whole files; run again, it skips what exists and redoes only the unfinished part.
Accepted nets are never rewritten or deleted. The directories and their records are
:class:`~bitflip.learn.az_rundir.RunDir`'s; the shards' format is :mod:`bitflip.learn.az_shards`'s.
"""

from __future__ import annotations

import json
import pickle
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from bitflip._atomic import atomic_path
from bitflip.learn import az_gate
from bitflip.learn.az_config import RunConfig
from bitflip.learn.az_rundir import RunDir, initial_net, write_json
from bitflip.learn.az_selfplay_step import selfplay_step as selfplay_step  # the first step
from bitflip.learn.az_shards import TrainingData, read_selfplay_shards
from bitflip.learn.timelimit import time_limit
from bitflip.nn.alphazero import AZNet, augment, encode
from bitflip.nn.checkpoint import load_az_net, save_model
from bitflip.nn.device import pick_device
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.mcts import MCTSConfig, make_mcts
from bitflip.search.mcts.games import MatchResult, play_match

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


# --- training ---------------------------------------------------------------------------------


def train_net(
    net: AZNet,
    data: TrainingData,
    cfg: RunConfig,
    device: torch.device,
    rng: np.random.Generator,
    log: Log = _quiet,
    opt: torch.optim.Optimizer | None = None,
) -> dict[str, float]:
    """Adam on value MSE + policy cross-entropy (illegal moves masked), plus the score head's
    MSE on the final margin / squares when ``train.score_weight`` > 0; the value target blends
    in the margin by ``train.value_margin``. ``opt``: an optimiser of ``net`` already on
    ``device`` to go on with (default: a fresh Adam). Returns the final losses."""
    tc, size = cfg.train, cfg.net.size
    net.to(device).train()
    if opt is None:
        opt = _new_optimizer(net, cfg)
    v_sum = p_sum = s_sum = 0.0
    count = 0
    last: dict[str, float] = {}
    for step in range(tc.steps):
        idx = rng.integers(0, len(data), min(tc.batch_size, len(data)))
        p, o, pi = data.player[idx], data.opponent[idx], data.policy[idx]
        if tc.augment:
            p, o, pi = augment(p, o, pi, size, rng)
        planes, legal = encode(p, o, size)
        x = torch.from_numpy(planes).to(device)
        m = torch.from_numpy(legal).to(device)
        target_pi = torch.from_numpy(pi).to(device)
        margin = torch.from_numpy(data.margin[idx] / (size * size)).to(device)
        z = torch.from_numpy(data.value[idx]).to(device)
        if tc.value_margin > 0:
            z = (1.0 - tc.value_margin) * z + tc.value_margin * margin
        logits, v, score = net.forward_score(x, m)
        logp = torch.where(m, F.log_softmax(logits, dim=1), torch.zeros_like(logits))
        p_loss = -(target_pi * logp).sum(dim=1).mean()
        v_loss = F.mse_loss(v, z)
        loss = p_loss + v_loss
        if score is not None and tc.score_weight > 0:
            s_loss = F.mse_loss(score, margin)
            loss = loss + tc.score_weight * s_loss
            s_sum += float(s_loss.detach())
        opt.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward untyped
        opt.step()
        v_sum += float(v_loss.detach())
        p_sum += float(p_loss.detach())
        count += 1
        if (step + 1) % 100 == 0 or step + 1 == tc.steps:
            v_avg, p_avg = v_sum / count, p_sum / count
            log(f"  step {step + 1}/{tc.steps}: value {v_avg:.4f} policy {p_avg:.4f}")
            last = {"value_loss": v_sum / count, "policy_loss": p_sum / count}
            if s_sum > 0:
                last["score_loss"] = s_sum / count
            v_sum = p_sum = s_sum = 0.0
            count = 0
    net.eval()
    return last


def _new_optimizer(net: AZNet, cfg: RunConfig) -> torch.optim.Optimizer:
    """A fresh Adam with the run's learning rate and weight decay."""
    return torch.optim.Adam(net.parameters(), lr=cfg.train.lr, weight_decay=cfg.train.weight_decay)


def _resumed_optimizer(
    net: AZNet, cfg: RunConfig, state: Path | None, device: torch.device, log: Log
) -> torch.optim.Optimizer:
    """A fresh Adam, or under ``train.keep_optimizer`` one carrying on from ``state`` (the
    iteration before's); the config's learning rate and weight decay apply either way."""
    opt = _new_optimizer(net, cfg)
    if not cfg.train.keep_optimizer or state is None or not state.exists():
        return opt
    try:
        opt.load_state_dict(torch.load(state, map_location=device, weights_only=True))
    except (OSError, RuntimeError, ValueError, KeyError, pickle.UnpicklingError) as e:
        # The net it belongs to is intact; only the moment estimates start again.
        log(f"  {state}: unreadable optimizer state ({e}); a fresh Adam instead")
        return _new_optimizer(net, cfg)
    for group in opt.param_groups:
        group["lr"], group["weight_decay"] = cfg.train.lr, cfg.train.weight_decay
    return opt


def train_step(cfg: RunConfig, run: RunDir, iteration: int, log: Log = _quiet) -> Path:
    """Train this iteration's net from the previous one (or the best net); returns the
    candidate to gate: that net, or under ``train.average`` its average with the nets of the
    iterations before."""
    done = run.candidate(iteration)
    if done is not None and done.exists():
        return done
    device = pick_device(cfg.device)
    parent = run.trained(iteration - 1) if iteration > 0 else None
    opt_state = None  # the optimiser goes on only with the net it trained
    if parent is None or not parent.exists():
        parent = run.best_net()
    else:
        opt_state = run.optimizer_state(iteration - 1)
    net = load_az_net(parent, device)
    opt = _resumed_optimizer(net, cfg, opt_state, device, log)
    first = max(0, iteration - cfg.train.window + 1)
    paths = run.shard_paths(range(first, iteration + 1))
    data = read_selfplay_shards(paths, cfg.net.size, cfg.train.backfill_exact)
    log(
        f"train it{iteration}: {len(data)} positions from {len(paths)} shards, parent {parent.name}"
    )
    rng = np.random.default_rng(cfg.seed * 7919 + iteration)
    torch.manual_seed(cfg.seed * 7919 + iteration)
    losses = train_net(net, data, cfg, device, rng, log, opt)
    lineage = {"iteration": iteration, "parent": parent.name, "positions": len(data),
               "shards": [p.name for p in paths], "config": asdict(cfg)}  # fmt: skip
    path = save_model(net, run.checkpoints, lineage=lineage, metrics=losses)
    if cfg.train.keep_optimizer:
        with atomic_path(run.optimizer_state(iteration)) as tmp:
            torch.save(opt.state_dict(), tmp)
    record: dict[str, object] = {"net": path.name, **losses}
    candidate = path
    if cfg.train.average > 1 and gated_iteration(cfg, iteration):
        candidate = _average_candidate(cfg, run, iteration, path, log)
        record["average"] = candidate.name
    write_json(run.checkpoints / f"it{iteration:04d}.json", record)  # the step's commit
    if opt_state is not None:
        opt_state.unlink(missing_ok=True)  # only the newest is needed
    return candidate


def _average_candidate(cfg: RunConfig, run: RunDir, iteration: int, newest: Path, log: Log) -> Path:
    """The weight average of ``newest`` and the nets trained in the ``train.average - 1``
    iterations before it (those the folder has; an iteration before them broke the chain when
    its net is missing). Batch-norm statistics are averaged as the weights are; counters are
    the newest net's."""
    members = [newest]
    for it in range(iteration - 1, max(-1, iteration - cfg.train.average), -1):
        earlier = run.trained(it)
        if earlier is None or not earlier.exists():
            break
        members.append(earlier)
    nets = [load_az_net(p) for p in members]
    avg = nets[0]
    states = [n.state_dict() for n in nets]
    mean = {k: (torch.stack([s[k] for s in states]).mean(0) if v.is_floating_point() else v)
            for k, v in states[0].items()}  # fmt: skip
    avg.load_state_dict(mean)
    log(f"train it{iteration}: candidate = average of the nets of {len(members)} iterations")
    lineage = {"iteration": iteration, "average_of": [p.name for p in members],
               "config": asdict(cfg)}  # fmt: skip
    return save_model(avg, run.checkpoints, lineage=lineage, metrics={})


# --- gating -----------------------------------------------------------------------------------


def accept(result: MatchResult, cfg: RunConfig) -> bool:
    """The verdict of the run's fixed-size gate rule on a whole match (not "sprt")."""
    return az_gate.accept(result, cfg.gate)


def search_config(cfg: RunConfig, sims: int = 0) -> MCTSConfig:
    """The run's search, with ``sims`` simulations when > 0 (the gate's)."""
    return cfg.mcts if sims <= 0 else replace(cfg.mcts, sims=sims)


def gate_openings(cfg: RunConfig, iteration: int) -> list[tuple[int, ...]]:
    """The openings of iteration ``iteration``'s gate match (:func:`az_gate.gate_openings`),
    drawn from the run's seed and the iteration, so a resumed gate replays the same games."""
    return az_gate.gate_openings(cfg.gate, cfg.net.size, seed=cfg.seed * 31 + iteration)


def gated_iteration(cfg: RunConfig, iteration: int) -> bool:
    """Whether the gate plays this iteration's candidate (every ``gate.every``-th one)."""
    return (iteration + 1) % cfg.gate.every == 0


def gate_step(cfg: RunConfig, run: RunDir, iteration: int, log: Log = _quiet) -> dict[str, object]:
    """Match the candidate against the best net (:mod:`bitflip.learn.az_gate`); accept it as a
    new generation if the gate rule says so. Iterations between ``gate.every``-th ones record
    that they were not gated."""
    done = run.gated(iteration)
    if done is not None:
        return done
    if not gated_iteration(cfg, iteration):
        skipped: dict[str, object] = {"accepted": False, "skipped": True, "every": cfg.gate.every}
        write_json(run.gating / f"it{iteration:04d}.json", skipped)
        log(f"gate it{iteration}: not gated (gate.every = {cfg.gate.every})")
        return skipped
    cand = run.candidate(iteration)
    if cand is None or not cand.exists():
        raise FileNotFoundError(f"no candidate for iteration {iteration} in {run.checkpoints}")
    gens = run.generations()
    best = run.best_net()
    already = any(json.loads(j.read_text()).get("iteration") == iteration for j in gens)
    if already:  # killed after accepting, before writing the gating record
        decision: dict[str, object] = {"candidate": cand.name, "accepted": True, "recovered": True}
        log(f"gate it{iteration}: {cand.name} accepted (recovered)")
    else:
        openings = gate_openings(cfg, iteration)
        mcfg = search_config(cfg, cfg.gate.sims)
        n = 2 * cfg.gate.pairs
        # Each net values finished games as its own run's search did (generation 0 may come
        # from another run: run.init_net).
        nets = [NetPolicyValue.from_file(path, cfg.device) for path in (cand, best)]
        a, b = (make_mcts(pv, n, replace(mcfg, value_margin=pv.value_margin)) for pv in nets)

        def play_round(k: int) -> MatchResult:
            # Round k's openings are its own slice of the match's distinct ones.
            pairs = cfg.gate.pairs
            seed = cfg.seed * 31 + iteration + 7_919 * k
            return play_match(a, b, pairs, openings=openings[k * pairs : (k + 1) * pairs],
                              seed=seed)  # fmt: skip

        verdict = az_gate.run_gate(play_round, cfg.gate, log)
        ok = verdict.accepted
        decision = {"candidate": cand.name, "best": best.name, "rule": cfg.gate.rule,
                    **verdict.record()}  # fmt: skip
        if ok:
            target = run.accepted / cand.name
            if not target.exists():
                with atomic_path(target) as tmp:
                    shutil.copyfile(cand, tmp)
            write_json(run.accepted / f"{len(gens):04d}.json",
                        {"net": cand.name, "iteration": iteration})  # fmt: skip
        log(f"gate it{iteration}: {cand.name} against {best.name}: {verdict.line()}")
    write_json(run.gating / f"it{iteration:04d}.json", decision)
    return decision


def run_loop(
    cfg: RunConfig,
    log: Log = _quiet,
    iterations: int | None = None,
    max_minutes: float | None = None,
) -> RunDir:
    """Self-play, train and gate in turn until ``cfg.iterations`` are done (resumes by itself).

    ``max_minutes`` is a limit the run keeps: at that time the step in progress is cut off
    (every step is kill-safe: shards and nets are written whole or not at all) and
    :class:`TimeLimitReached` is raised; the same call resumes where it stopped.
    """
    if max_minutes is not None:
        # torch imports its compiler at the first optimizer (over a second on a fresh machine);
        # a limit that cut that import would leave torch half imported, and the same call could
        # not resume. Make one before the clock starts, so the limit always cuts a step.
        torch.optim.Adam([torch.zeros(1, requires_grad=True)])
    with time_limit(None if max_minutes is None else 60 * max_minutes):
        return _run_loop(cfg, log, iterations)


def _run_loop(cfg: RunConfig, log: Log, iterations: int | None) -> RunDir:
    gate_openings(cfg, 0)  # too few distinct openings for the gate: stop before any work
    run = RunDir(cfg.dir)
    run.root.mkdir(parents=True, exist_ok=True)
    write_json(run.root / "config.json", asdict(cfg))
    initial_net(cfg, run)
    total = cfg.iterations if iterations is None else iterations
    for it in range(run.iterations_done(), total):
        t0 = time.time()
        selfplay_step(cfg, run, it, log)
        t1 = time.time()
        train_step(cfg, run, it, log)
        t2 = time.time()
        gate_step(cfg, run, it, log)
        t3 = time.time()
        log(f"iteration {it}: self-play {t1 - t0:.0f}s, train {t2 - t1:.0f}s, "
            f"gate {t3 - t2:.0f}s")  # fmt: skip
        write_json(run.root / "timing" / f"it{it:04d}.json",
                    {"selfplay": t1 - t0, "train": t2 - t1, "gate": t3 - t2})  # fmt: skip
    return run

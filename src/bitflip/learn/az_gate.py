"""Gating: does a candidate net replace the best one?

The default rule is a sequential test (``gate.rule = "sprt"``): the candidate plays the best
net in rounds of ``gate.pairs`` colour-swapped pairs, and after each round an SPRT over Elo
bounds (:func:`bitflip.arena.sprt.sprt_pentanomial`: H0, the candidate is ``elo0`` better; H1,
``elo1`` better) accepts it (H1), rejects it (H0) or plays on, up to ``gate.max_games``; a test
still undecided there rejects it (the best net stays). A fixed match scored against a
threshold (rules "score" and "report", alpha-zero-general's way) accepts and rejects nets at
random when the nets are close; the test plays until the evidence says which.

The openings of a whole gate match are drawn once (:func:`gate_openings`), distinct up to
symmetry as ``bitflip arena`` draws them, and round ``k`` plays its own slice of them: no game
of the match repeats another, so the test does not count one game twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bitflip.arena.openings import TooFewOpeningsError, random_openings
from bitflip.arena.sprt import SprtResult, sprt_pentanomial
from bitflip.learn.az_config import GateConfig
from bitflip.search.mcts.games import MatchResult

PlayRound = Callable[[int], MatchResult]
"""Plays round ``k`` (``gate.pairs`` pairs of games, candidate first) and returns its result."""


@dataclass(frozen=True)
class GateDecision:
    """What a gate match found: the games, the test (under rule "sprt") and the verdict."""

    result: MatchResult
    accepted: bool
    sprt: SprtResult | None = None
    reason: str = ""
    """Why: "H1" / "H0" (the test decided), "cap" (undecided at ``max_games``), or the rule."""

    def record(self) -> dict[str, object]:
        """The gating record's fields (``RUN/gating/itNNNN.json``)."""
        r = self.result
        out: dict[str, object] = {"wins": r.wins, "draws": r.draws, "losses": r.losses,
                                  "score": r.score, "accepted": self.accepted,
                                  "reason": self.reason}  # fmt: skip
        if r.pentanomial is not None:
            out["pentanomial"] = list(r.pentanomial)
        if self.sprt is not None:
            t = self.sprt
            out.update(llr=round(t.llr, 4), llr_bounds=[round(t.lower, 4), round(t.upper, 4)],
                       elo0=t.elo0, elo1=t.elo1)  # fmt: skip
        return out

    def line(self) -> str:
        """One log line: the games, the LLR against its bounds and the verdict."""
        r = self.result
        head = f"{r.wins}-{r.draws}-{r.losses} ({r.score:.3f})"
        verdict = "accepted" if self.accepted else "rejected"
        if self.sprt is None:
            return f"{head}: {verdict} by rule {self.reason}"
        t = self.sprt
        why = {"H1": f"H1, elo >= {t.elo1:g}", "H0": f"H0, elo <= {t.elo0:g}",
               "cap": "undecided at the cap"}[self.reason]  # fmt: skip
        return (f"{head} in {r.games} games: LLR {t.llr:+.2f} in [{t.lower:.2f}, {t.upper:.2f}]"
                f" -> {verdict} ({why})")  # fmt: skip


def gate_pairs(gate: GateConfig) -> int:
    """The most pairs a gate match plays: one round, or under "sprt" every round that fits in
    ``gate.max_games``."""
    if gate.rule != "sprt":
        return gate.pairs
    return gate.max_games // (2 * gate.pairs) * gate.pairs


def gate_openings(gate: GateConfig, size: int, seed: int) -> list[tuple[int, ...]]:
    """The openings of a whole gate match, one a pair: :func:`gate_pairs` distinct (up to
    symmetry) random openings of ``gate.opening_plies`` moves, drawn from ``seed``. Round ``k``
    plays openings ``k * pairs`` to ``(k + 1) * pairs - 1``; a draw of fewer openings is the
    start of a draw of more, so round 0 does not depend on ``max_games``.

    Raises:
        ValueError: fewer distinct openings exist than the match needs (one line, with the fix).
    """
    n = gate_pairs(gate)
    try:
        return [op.moves for op in random_openings(n, gate.opening_plies, size, seed)]
    except TooFewOpeningsError as exc:
        what, cap = (
            (f"gate.max_games = {gate.max_games}", "lower gate.max_games")
            if gate.rule == "sprt"
            else (f"gate.pairs = {gate.pairs}", "lower gate.pairs")
        )
        raise ValueError(
            f"{what} needs {n} distinct openings of gate.opening_plies = {gate.opening_plies} "
            f"random moves on {size}x{size}, and only {exc.found} were found (up to symmetry); "
            f"raise gate.opening_plies or {cap}"
        ) from None


def accept(result: MatchResult, gate: GateConfig) -> bool:
    """The verdict of a fixed-size rule ("always", "report", "score") on a whole match."""
    if gate.rule == "always":
        return True
    if gate.rule == "report":  # the report: >= 60% of the decisive games
        decisive = result.wins + result.losses
        return decisive > 0 and result.wins / decisive >= 0.6
    if gate.rule == "score":
        return result.score >= gate.threshold
    raise ValueError(f"gate.rule {gate.rule!r} is not a fixed-size rule")


def _add(a: MatchResult, b: MatchResult) -> MatchResult:
    pa = a.pentanomial or (0, 0, 0, 0, 0)
    pb = b.pentanomial or (0, 0, 0, 0, 0)
    penta = tuple(x + y for x, y in zip(pa, pb, strict=True))
    assert len(penta) == 5
    return MatchResult(a.wins + b.wins, a.draws + b.draws, a.losses + b.losses,
                       (penta[0], penta[1], penta[2], penta[3], penta[4]))  # fmt: skip


def run_gate(play_round: PlayRound, gate: GateConfig, log: Callable[[str], None]) -> GateDecision:
    """Play the gate match of ``gate.rule`` round by round and decide.

    Under "sprt" each round is followed by a log line with the LLR, and the match stops as soon
    as the test decides or the next round would pass ``gate.max_games``; the other rules play
    one round of ``gate.pairs`` pairs.
    """
    if gate.rule != "sprt":
        result = play_round(0)
        return GateDecision(result, accept(result, gate), reason=gate.rule)
    total = MatchResult(0, 0, 0, (0, 0, 0, 0, 0))
    k = 0
    while True:
        total = _add(total, play_round(k))
        k += 1
        assert total.pentanomial is not None
        test = sprt_pentanomial(total.pentanomial, gate.elo0, gate.elo1, gate.alpha, gate.beta)
        log(f"  gate round {k}: {total.wins}-{total.draws}-{total.losses}, LLR {test.llr:+.2f} "
            f"in [{test.lower:.2f}, {test.upper:.2f}]")  # fmt: skip
        if test.decision is not None:
            return GateDecision(total, test.decision == "H1", test, test.decision)
        if total.games + 2 * gate.pairs > gate.max_games:
            return GateDecision(total, False, test, "cap")

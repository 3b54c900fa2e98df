"""What a search is asked for and what it answers: shared by the engine and every front end."""

from __future__ import annotations

from dataclasses import dataclass, field

from bitflip.core.board import Move


@dataclass(frozen=True)
class Clocks:
    """The game clock: seconds left for the side to move and its opponent, and the increment."""

    mine: float
    theirs: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None


@dataclass(frozen=True)
class Limit:
    """When to stop: any limit reached ends the search (None: not limited by it)."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    """Seconds for this move: a hard deadline."""
    clocks: Clocks | None = None
    """Budget the move from the game clock (see :mod:`bitflip.search.timeman`)."""
    exact: bool = False
    """Solve to the end of the game: the exact final disc difference (depth is ignored)."""
    wld: bool = False
    """Solve to the end proving only win, draw or loss: faster than ``exact``, and the
    result's score is +1, 0 or -1."""
    level: int | None = None
    """Search as engine level N does: its midgame depth, exact solving from its endgame depth,
    its selectivity (see :mod:`bitflip.search.levels`; above 20 they keep growing). This is
    what Othello GUIs mean by NBoard's ``set depth N``, as Edax reads it."""

    def __post_init__(self) -> None:
        if self.exact and self.wld:
            raise ValueError("a Limit asks for an exact or a win/loss/draw solve, not both")


@dataclass(frozen=True)
class SearchInfo:
    """Progress reported to ``on_info`` callbacks while searching (one per finished iteration)."""

    depth: int
    score: float
    pv: list[Move]
    nodes: int
    time: float
    exact: bool = False
    selectivity: int | None = None
    """Multi-ProbCut confidence in percent; None when the search is not selective."""


@dataclass(frozen=True)
class SearchResult:
    """The answer of a search: best move, its score (discs, side to move's view), the PV."""

    move: Move
    score: float
    pv: list[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    exact: bool = False
    """True when the score is a proven endgame result."""
    wld: bool = False
    """True when the score says only win (+1), draw (0) or loss (-1): proven when ``exact`` is
    set too, else the likely result of a selective proof (``SearchPlan.selective_wld_empties``)."""
    book: bool = False
    """True when the move comes from the opening book (its score is the book's)."""


@dataclass(frozen=True)
class MoveScore:
    """One move's evaluation, as hints report it."""

    move: Move
    score: float
    depth: int
    exact: bool = False

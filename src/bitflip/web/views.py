"""A live game as the page shows it (:class:`bitflip.web.api.GameView`): pure, no changes."""

from __future__ import annotations

from bitflip.core.board import BLACK, WHITE, Board
from bitflip.core.geometry import PASS
from bitflip.formats.transcript import format_transcript
from bitflip.opening_names import opening_of
from bitflip.web import api
from bitflip.web.engine_bridge import disc_score
from bitflip.web.games import GameState, color_name
from bitflip.web.live_game import LiveGame


def mistake_kind(loss: float, comparable: bool = True) -> str:
    """How bad a move was by the discs it lost against the best move.

    Only scores of one kind measure a move (both exact, or both from one search depth):
    otherwise the difference is the search's, not the move's, and nothing is marked.
    """
    if not comparable:
        return ""
    if loss >= 8:
        return "blunder"
    if loss >= 4:
        return "mistake"
    if loss >= 2:
        return "inaccuracy"
    return ""


def _result(st: GameState, board: Board) -> api.Result | None:
    ending = st.ending()
    if ending is not None:
        winner = "white" if ending.loser == "black" else "black"
        why = "resigns" if ending.how == "resigned" else "ran out of time"
        text = f"{ending.loser.capitalize()} {why}: {winner} wins"
        return api.Result(
            winner=winner,  # type: ignore[arg-type]
            black=board.disc_count(BLACK),
            white=board.disc_count(WHITE),
            text=text,
        )
    outcome = board.outcome()
    if outcome is None:
        return None
    won = None if outcome.winner is None else color_name(outcome.winner)
    text = f"Draw {outcome}" if won is None else f"{won.capitalize()} wins {outcome}"
    return api.Result.model_validate(
        {"winner": won, "black": outcome.black, "white": outcome.white, "text": text}
    )


def _branches(st: GameState, name: object) -> list[api.Branch]:
    """The moves of the tree that leave the line, at the ply where they leave it."""
    assert callable(name)
    out = []
    tree = st.tree
    for ply in range(1, len(st.path)):
        kids = tree.children(st.path[ply - 1])
        for i, c in enumerate(kids):
            if c != st.path[ply]:
                out.append(api.Branch(ply=ply, node=c, move=str(name(tree.moves[c])), main=i == 0))
    return out


def _evals(st: GameState) -> list[api.EvalPoint]:
    ply_of = {node: ply for ply, node in enumerate(st.path)}
    # Rows stored before scores were clamped may hold an estimate past the board.
    evals = [
        api.EvalPoint(
            ply=ply_of[e.node],
            score=disc_score(e.score, e.exact, st.size),
            exact=e.exact,
            source=e.source,
        )
        for e in st.evals.values()
        if e.node in ply_of
    ]
    evals.sort(key=lambda e: e.ply)
    end = st.board(len(st.line))
    final = end.outcome()
    if final is not None:
        evals = [e for e in evals if e.ply != len(st.line)]
        evals.append(
            api.EvalPoint(ply=len(st.line), score=final.margin, exact=True, source="result")
        )
    return evals


def _analysis(st: GameState, name: object) -> list[api.MoveAnalysisOut]:
    assert callable(name)
    out = []
    for ply, node in enumerate(st.path[1:]):
        a = st.analysis.get(node)
        if a is None:
            continue
        out.append(
            api.MoveAnalysisOut(
                ply=ply,
                move=str(name(a.played)),
                score=disc_score(a.played_score, a.exact, st.size),
                best_move=str(name(a.best)),
                best_score=disc_score(a.best_score, a.exact, st.size),
                loss=a.loss,
                exact=a.exact,
                comparable=a.comparable,
                mistake=mistake_kind(a.loss, a.comparable),  # type: ignore[arg-type]
            )
        )
    return out


def _flipped(board: Board) -> list[str]:
    if not board.ply:
        return []
    flips = board.last_flips()
    g = board.geometry
    return [g.square_name(sq) for sq in g.squares if flips >> sq & 1]


def _clock(s: LiveGame, board: Board, now: float) -> api.ClockView | None:
    left = s.clocks_now(board, now)
    if left is None:
        return None
    running = color_name(board.turn) if s.clock_running(board) else None
    return api.ClockView(
        black=max(left[0], 0.0),
        white=max(left[1], 0.0),
        running=running,  # type: ignore[arg-type]
        increment=s.state.increment,
    )


def build_view(s: LiveGame, now: float) -> api.GameView:
    """The view of ``s`` (caller holds ``s.lock``)."""
    st = s.state
    board = st.board()
    g = board.geometry
    name = g.square_name
    over = st.is_over(board)
    prev = board.copy()
    if prev.ply:
        prev.pop()
    opening = opening_of(st.line[: st.cursor], Board(st.start)) if st.size == 8 else None
    return api.GameView(
        id=st.id,
        version=s.version,
        size=st.size,
        start=st.start,
        human=st.human,
        opponent=st.opponent,
        title=st.title,
        moves=[name(m) for m in st.line],
        nodes=list(st.path),
        cursor=st.cursor,
        node=st.node,
        branches=_branches(st, name),
        on_main_line=st.on_main_line(),
        cells=board.board_string(),
        turn=None if over else color_name(board.turn),  # type: ignore[arg-type]
        legal=[] if over else [name(m) for m in board.legal_moves if m != PASS],
        last_move=name(board.peek()) if board.ply and board.peek() != PASS else None,
        flipped=_flipped(board),
        prev_move=name(prev.peek()) if prev.ply and prev.peek() != PASS else None,
        prev_flipped=_flipped(prev),
        black=board.disc_count(BLACK),
        white=board.disc_count(WHITE),
        over=over,
        result=_result(st, board),
        human_to_move=st.human_to_move(board),
        thinking=s.think_epoch == s.epoch,
        search=s.search if s.think_epoch == s.epoch else None,
        pondering=s.ponder_epoch == s.epoch,
        paused=s.paused,
        delay=s.delay,
        can_undo=st.can_undo(),
        can_redo=st.can_redo(),
        notice=_notice(st, board),
        error=s.error,
        transcript=format_transcript(st.line, size=st.size),
        opening=None if opening is None else api.OpeningOut(name=opening.name, ply=opening.ply),
        clock=_clock(s, board, now),
        evals=_evals(st),
        analysis=_analysis(st, name),
        analysing=s.analysing,
    )


def _notice(st: GameState, board: Board) -> str:
    """Passes among the last two moves, announced in words."""
    notes = []
    b = st.board(max(0, st.cursor - 2))
    for m in st.line[max(0, st.cursor - 2) : st.cursor]:
        if m == PASS:
            notes.append(f"{color_name(b.turn).capitalize()} has no legal move and passes.")
        b.push(m)
    if board.is_game_over() and not notes:
        return ""
    return " ".join(notes)

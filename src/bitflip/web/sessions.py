"""Live games: each game's state, lock and opponent, and the threads that make opponents move.

Every request changes a game under its lock and returns at once; the opponent's move, pondering
and game analysis run in a thread pool. Two counters tell changes apart: ``epoch`` grows when the
position or line changes (a search started on an older epoch is thrown away), ``version`` grows
with any change a page should show (clients poll ``GET /api/games/{id}?after=version``).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from bitflip.agents import AgentSpecError
from bitflip.core.board import BLACK, WHITE, Board, IllegalMoveError, InvalidMoveError
from bitflip.core.geometry import PASS
from bitflip.search.limits import SearchInfo
from bitflip.web import api
from bitflip.web.engine_bridge import Analyst, EngineFactory, Opponent, is_pass_only, new_engine
from bitflip.web.games import GameError, GameState, PlyAnalysis, color_name, transcript
from bitflip.web.policy import OpponentPolicy
from bitflip.web.store import GameStore

log = logging.getLogger(__name__)

PONDER_SECONDS = 60.0
"""Longest the engine ponders on the person's time before it rests."""
MAX_LIVE = 32
"""Games kept in memory (each may hold engines and their tables); idle ones beyond are dropped
from memory, least recently used first. They stay in the store and come back on the next request."""


class UnknownGame(KeyError):
    """No game with that id, in memory or in the store."""

    def __str__(self) -> str:
        return f"no game with id {self.args[0]!r}"


class Conflict(GameError):
    """A request that does not fit the game's state now (wrong turn, game over, busy): HTTP 409."""


def _missing_package(spec: str, exc: ImportError) -> str:
    name = exc.name or "a package"
    if name.split(".")[0] == "torch":
        return (
            f"opponent {spec.split(':')[0]!r} needs PyTorch, which is not installed: "
            "pip install torch==2.13.0 -e '.[nn]'"
        )
    return f"opponent {spec.split(':')[0]!r} needs {name}, which is not installed"


def mistake_kind(loss: float) -> str:
    """How bad a move was by the discs it lost against the best move."""
    if loss >= 8:
        return "blunder"
    if loss >= 4:
        return "mistake"
    if loss >= 2:
        return "inaccuracy"
    return ""


@dataclass
class Session:
    """A game in memory with what is going on around it."""

    state: GameState
    opponent: Opponent | None = None
    analyst: Analyst | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    agent_lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = field(default_factory=lambda: time.time_ns() // 1_000_000)
    """Starts at the clock in ms, so versions keep growing across server restarts."""
    epoch: int = 0
    think_epoch: int | None = None
    ponder_epoch: int | None = None
    force_move: bool = False
    analysing: api.Progress | None = None
    search: api.SearchProgress | None = None
    error: str = ""


class GameManager:
    """All games of a server: create, look up, change, and run opponents in the background."""

    def __init__(
        self,
        store: GameStore,
        *,
        default_opponent: str,
        workers: int = 4,
        policy: OpponentPolicy | None = None,
        make_engine: EngineFactory = new_engine,
    ) -> None:
        self.store = store
        self.make_engine = make_engine
        self.default_opponent = default_opponent
        self.policy = policy or OpponentPolicy.allowing([default_opponent])
        """Which opponent specs requests may name (the default is always allowed)."""
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bitflip-web")
        self._closed = False

    # --- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        self._closed = True
        with self._lock:
            sessions = list(self._sessions.values())
        for s in sessions:
            if s.opponent is not None:
                s.opponent.stop()
            if s.analyst is not None:
                s.analyst.stop()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def create(self, req: api.NewGame) -> Session:
        moves: list[int] = []
        start = req.start
        size = Board(start).size if start else req.size
        if req.moves:
            from bitflip.web.records import read_transcript

            moves = read_transcript(req.moves, size, start).moves  # FormatError is a ValueError
        return self._add(
            GameState.new(
                uuid.uuid4().hex[:12],
                size=size,
                start=start,
                moves=moves,
                human=req.human,
                opponent=self._requested(req.opponent),
                seed=req.seed,
                title=req.title,
            )
        )

    def create_from_record(
        self, record: object, *, human: str, opponent: str | None, title: str = ""
    ) -> Session:
        from bitflip.formats.record import GameRecord

        assert isinstance(record, GameRecord)
        return self._add(
            GameState.new(
                uuid.uuid4().hex[:12],
                size=record.size,
                start=record.start,
                moves=record.moves,
                human=human,
                opponent=self._requested(opponent),
                # Player names from a game file can be long: the title keeps the API's bound.
                title=(title or " - ".join(n for n in (record.black, record.white) if n))[
                    : api.MAX_TITLE
                ],
            )
        )

    def _add(self, state: GameState) -> Session:
        session = Session(state)
        self._build_opponent(session)  # a bad spec fails here, before anything is stored
        with self._lock:
            self._sessions[state.id] = session
            self._evict()
        with session.lock:
            self.store.save(state)
            self._kick(session)
        return session

    def _requested(self, spec: str | None) -> str:
        """The opponent a request names, checked against the policy (None: the default)."""
        return self.default_opponent if spec is None else self.policy.check(spec)

    def _build_opponent(self, s: Session) -> None:
        if not self.policy.permits(s.state.opponent):
            # A stored game may name an opponent this server does not allow (stored by an older
            # version, or allowed by an earlier run): it gets the default instead.
            s.error = f"the stored opponent is not allowed here; playing {self.default_opponent}"
            s.state.opponent = self.default_opponent
        try:
            s.opponent = Opponent(
                s.state.opponent,
                size=s.state.size,
                seed=s.state.seed,
                make_engine=self.make_engine,
            )
        except AgentSpecError as exc:
            raise GameError(str(exc)) from None
        except ImportError as exc:
            raise GameError(_missing_package(s.state.opponent, exc)) from None
        s.analyst = Analyst(s.state.size, self.make_engine)

    def get(self, game_id: str) -> Session:
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None:
                self._sessions.move_to_end(game_id)
        if s is not None:
            return s
        state = self.store.load(game_id)
        if state is None:
            raise UnknownGame(game_id)
        s = Session(state)
        self._build_opponent(s)
        with self._lock:
            s = self._sessions.setdefault(game_id, s)
            self._evict()
        with s.lock:
            self._kick(s)
        return s

    def _evict(self) -> None:
        """Drop idle games beyond MAX_LIVE from memory (caller holds ``self._lock``)."""
        excess = len(self._sessions) - MAX_LIVE
        for gid, s in list(self._sessions.items()):
            if excess <= 0:
                break
            busy = s.think_epoch == s.epoch or s.analysing is not None or s.agent_lock.locked()
            if not busy:
                if s.opponent is not None:
                    s.opponent.stop()
                del self._sessions[gid]
                excess -= 1

    def delete(self, game_id: str) -> None:
        s = self.get(game_id)
        self._invalidate(s)
        with self._lock:
            self._sessions.pop(game_id, None)
        self.store.delete(game_id)

    # --- requests ----------------------------------------------------------------------------

    def play(self, game_id: str, move: str, ply: int | None = None) -> Session:
        s = self.get(game_id)
        with s.lock:
            st = s.state
            if ply is not None and ply != st.cursor:
                raise Conflict(
                    f"the move was meant for ply {ply} but the game is at ply {st.cursor}"
                )
            board = st.board()
            if board.is_game_over():
                raise Conflict("the game is over")
            if not st.is_human(board.turn):
                who = color_name(board.turn)
                raise Conflict(f"it is {who}'s turn, and {who} is played by {st.opponent}")
            try:
                m = board.parse_move(move)
            except InvalidMoveError as exc:
                raise GameError(str(exc).split(" (position")[0]) from None
            try:
                st.play(m)
            except IllegalMoveError as exc:
                raise GameError(str(exc).split(" (position")[0]) from None
            self._changed(s)
        return s

    def undo(self, game_id: str) -> Session:
        return self._move_cursor(game_id, lambda st: st.undo())

    def redo(self, game_id: str) -> Session:
        return self._move_cursor(game_id, lambda st: st.redo())

    def jump(self, game_id: str, ply: int) -> Session:
        return self._move_cursor(game_id, lambda st: st.jump(ply))

    def _move_cursor(self, game_id: str, change: object) -> Session:
        s = self.get(game_id)
        with s.lock:
            assert callable(change)
            change(s.state)
            self._changed(s)
        return s

    def configure(self, game_id: str, req: api.GameSettings) -> Session:
        """Change who the person plays or the opponent, keeping the game."""
        s = self.get(game_id)
        with s.lock:
            old = (s.state.human, s.state.opponent)
            if req.human is not None:
                s.state.human = req.human
            if req.opponent is not None:
                s.state.opponent = self.policy.check(req.opponent)
            try:
                self._invalidate(s)
                self._build_opponent(s)
            except GameError:
                s.state.human, s.state.opponent = old
                self._build_opponent(s)
                raise
            self._changed(s)
        return s

    def move_now(self, game_id: str) -> Session:
        """Make the opponent move now: stop its search, or start one where the line goes on."""
        s = self.get(game_id)
        with s.lock:
            board = s.state.board()
            if board.is_game_over():
                raise Conflict("the game is over")
            if s.think_epoch == s.epoch:
                assert s.opponent is not None
                s.opponent.stop()
                return s
            if s.state.human == "both" or s.state.is_human(board.turn):
                raise Conflict(f"it is {color_name(board.turn)}'s turn, which the person plays")
            s.force_move = True
            self._kick(s)
        return s

    def hints(self, game_id: str, seconds: float) -> api.Hints:
        """Every legal move's score in the position at the cursor (blocks for ``seconds``)."""
        s = self.get(game_id)
        with s.lock:
            if s.analysing is not None:
                raise Conflict("the game is being analysed; hints come when that is done")
            board = s.state.board()
            ply = s.state.cursor
            analyst = s.analyst
        assert analyst is not None
        scores = analyst.hints(board, seconds)
        name = board.geometry.square_name
        out = api.Hints(
            ply=ply,
            hints=[
                api.HintOut(move=name(h.move), score=h.score, depth=h.depth, exact=h.exact)
                for h in scores
            ],
        )
        if scores:
            with s.lock:
                if s.state.board(ply) == board and ply <= len(s.state.line):
                    best = scores[0]
                    s.state.set_eval(ply, best.score, best.exact, "hint")
                    self.store.save(s.state)
                    s.version += 1
        return out

    def analyse(self, game_id: str, seconds_per_move: float) -> Session:
        """Start analysing every move of the line in the background."""
        s = self.get(game_id)
        with s.lock:
            if s.analysing is not None:
                raise Conflict("the game is already being analysed")
            if not s.state.line:
                raise GameError("there is no move to analyse yet")
            board = s.state.board(len(s.state.line))
            line = list(s.state.line)
            s.analysing = api.Progress(done=0, total=len(line))
            s.version += 1
        self._pool.submit(self._analyse_task, s, board, line, seconds_per_move)
        return s

    # --- background work ---------------------------------------------------------------------

    def _changed(self, s: Session) -> None:
        """After the line or cursor changed: stop stale searches, store, let the opponent move."""
        self._invalidate(s)
        s.error = ""
        self.store.save(s.state)
        self._kick(s)

    def _invalidate(self, s: Session) -> None:
        s.epoch += 1
        s.version += 1
        s.force_move = False
        if s.opponent is not None and (s.think_epoch is not None or s.ponder_epoch is not None):
            s.opponent.stop()
        s.think_epoch = s.ponder_epoch = None
        s.search = None

    def _kick(self, s: Session) -> None:
        """Start what the position at the cursor calls for (caller holds ``s.lock``)."""
        if self._closed:
            return
        st = s.state
        board = st.board()
        if board.is_game_over():
            return
        at_end = st.cursor == len(st.line)
        if not st.is_human(board.turn):
            if (at_end or s.force_move) and s.think_epoch != s.epoch:
                s.think_epoch = s.epoch
                s.version += 1
                self._pool.submit(self._think_task, s, board, s.epoch)
            return
        if at_end and is_pass_only(board):
            st.play(PASS)  # the person has no move: pass for them (the page announces it)
            self._invalidate(s)
            self.store.save(st)
            self._kick(s)
            return
        if s.opponent is not None and s.opponent.can_ponder and s.state.human != "both":
            s.ponder_epoch = s.epoch
            self._pool.submit(self._ponder_task, s, board, s.epoch)

    def _think_task(self, s: Session, board: Board, epoch: int) -> None:
        name = board.geometry.square_name

        def on_info(info: SearchInfo) -> None:
            with s.lock:
                if s.epoch == epoch:
                    s.search = api.SearchProgress(
                        depth=info.depth,
                        score=info.score,
                        pv=[name(m) for m in info.pv[:12]],
                        nodes=info.nodes,
                        time=info.time,
                        exact=info.exact,
                    )
                    s.version += 1

        try:
            with s.agent_lock:
                if s.epoch != epoch:
                    return
                assert s.opponent is not None
                choice = s.opponent.choose(board, on_info)
        except Exception as exc:
            log.exception("opponent %s failed", s.state.opponent)
            with s.lock:
                if s.epoch == epoch:
                    s.think_epoch = None
                    s.error = f"the opponent {s.state.opponent} failed: {exc}"
                    s.version += 1
            return
        with s.lock:
            if s.epoch != epoch:
                return
            ply = s.state.cursor
            try:
                s.state.play(choice.move)
            except (IllegalMoveError, InvalidMoveError) as exc:
                s.think_epoch = None
                s.error = f"the opponent {s.state.opponent} played an illegal move: {exc}"
                s.version += 1
                return
            if choice.score is not None:
                s.state.set_eval(ply, choice.score, choice.exact, "move")
            self._changed(s)

    def _ponder_task(self, s: Session, board: Board, epoch: int) -> None:
        with s.agent_lock:
            if s.epoch != epoch or s.opponent is None:
                return
            try:
                s.opponent.ponder(board)
            except Exception:
                log.exception("pondering failed")
                return
        # An idle page must not keep a core busy: pondering ends after PONDER_SECONDS.
        timer = threading.Timer(PONDER_SECONDS, self._end_ponder, (s, epoch))
        timer.daemon = True
        timer.start()

    def _end_ponder(self, s: Session, epoch: int) -> None:
        with s.lock:
            if s.epoch != epoch or s.ponder_epoch != epoch:
                return
            s.ponder_epoch = None
            s.version += 1
            if s.opponent is not None:
                s.opponent.stop()

    def _analyse_task(self, s: Session, board: Board, line: list[int], seconds: float) -> None:
        def progress(done: int, total: int) -> None:
            with s.lock:
                s.analysing = api.Progress(done=done, total=total)
                s.version += 1

        try:
            assert s.analyst is not None
            rows = s.analyst.analyse(board, seconds, progress)
        except Exception as exc:
            log.exception("analysis failed")
            with s.lock:
                s.analysing = None
                s.error = f"analysis failed: {exc}"
                s.version += 1
            return
        with s.lock:
            s.analysing = None
            s.version += 1
            st = s.state
            # Keep the analysis of the part of the line that is still the same.
            same = 0
            while same < min(len(line), len(st.line)) and line[same] == st.line[same]:
                same += 1
            for row in rows:
                if row.ply >= same:
                    continue
                st.analysis[row.ply] = PlyAnalysis(
                    row.ply, row.move, row.score, row.best_move, row.best_score, row.loss, row.exact
                )
                st.set_eval(row.ply, row.best_score, row.exact, "analysis")
            self.store.save(st)

    # --- views -------------------------------------------------------------------------------

    def view(self, s: Session) -> api.GameView:
        with s.lock:
            return self._view(s)

    def _view(self, s: Session) -> api.GameView:
        st = s.state
        board = st.board()
        g = board.geometry
        name = g.square_name
        over = board.is_game_over()
        outcome = board.outcome()
        result = None
        if outcome is not None:
            winner = None if outcome.winner is None else color_name(outcome.winner)
            text = f"Draw {outcome}" if winner is None else f"{winner.capitalize()} wins {outcome}"
            result = api.Result.model_validate(
                {"winner": winner, "black": outcome.black, "white": outcome.white, "text": text}
            )
        flips = board.last_flips()
        flipped = [name(sq) for sq in g.squares if flips >> sq & 1]
        evals = [
            api.EvalPoint(ply=e.ply, score=e.score, exact=e.exact, source=e.source)
            for e in sorted(st.evals.values(), key=lambda e: e.ply)
        ]
        end = st.board(len(st.line))
        final = end.outcome()
        if final is not None:
            evals = [e for e in evals if e.ply != len(st.line)]
            evals.append(
                api.EvalPoint(ply=len(st.line), score=final.margin, exact=True, source="result")
            )
        analysis = [
            api.MoveAnalysisOut(
                ply=a.ply,
                move=name(a.move),
                score=a.score,
                best_move=name(a.best_move),
                best_score=a.best_score,
                loss=a.loss,
                exact=a.exact,
                mistake=mistake_kind(a.loss),  # type: ignore[arg-type]
            )
            for a in sorted(st.analysis.values(), key=lambda a: a.ply)
        ]
        return api.GameView(
            id=st.id,
            version=s.version,
            size=st.size,
            start=st.start,
            human=st.human,
            opponent=st.opponent,
            title=st.title,
            moves=[name(m) for m in st.line],
            cursor=st.cursor,
            cells=board.board_string(),
            turn=None if over else color_name(board.turn),  # type: ignore[arg-type]
            legal=[] if over else [name(m) for m in board.legal_moves if m != PASS],
            last_move=name(board.peek()) if board.ply else None,
            flipped=flipped,
            black=board.disc_count(BLACK),
            white=board.disc_count(WHITE),
            over=over,
            result=result,
            human_to_move=st.human_to_move(board),
            thinking=s.think_epoch == s.epoch,
            search=s.search if s.think_epoch == s.epoch else None,
            pondering=s.ponder_epoch == s.epoch,
            can_undo=st.can_undo(),
            can_redo=st.can_redo(),
            notice=_notice(st, board),
            error=s.error,
            transcript=transcript(st.line, st.size),
            evals=evals,
            analysis=analysis,
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

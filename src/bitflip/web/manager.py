"""Live games: create, look up, change, and run opponents in the background.

Every request changes a game under its lock and returns at once; the opponent's move, pondering
and game analysis run in a thread pool (:mod:`bitflip.web.tasks`). A reaper thread
(:mod:`bitflip.web.reaper`) stops pondering in games no page watches, makes flags fall on the
game clock, frees the engines of idle games and drops long-unwatched games from memory (stored
games come back from the store on the next request). Memory is bounded: at most
:data:`MAX_LIVE` games in memory, at most :data:`bitflip.web.reaper.MAX_ENGINES` of them holding
engines (tables), all engines sharing one copy of the evaluation's weights
(:func:`bitflip.web.engine_bridge.new_engine`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable

from bitflip.agents import AgentSpecError
from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError
from bitflip.formats.record import GameRecord
from bitflip.search.book import Book
from bitflip.web import api, records
from bitflip.web.engine_bridge import Analyst, EngineFactory, Opponent, new_engine
from bitflip.web.games import GameError, GameState, color_name
from bitflip.web.live_game import LiveGame
from bitflip.web.policy import OpponentPolicy, playable_sizes
from bitflip.web.reaper import Reaper
from bitflip.web.store import GameStore
from bitflip.web.tasks import BackgroundTasks
from bitflip.web.tree import ROOT
from bitflip.web.views import build_view, mistake_kind

log = logging.getLogger(__name__)

__all__ = ["Conflict", "GameManager", "UnknownGame", "mistake_kind"]

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


class GameManager:
    """All games of a server."""

    def __init__(
        self,
        store: GameStore,
        *,
        default_opponent: str,
        workers: int = 4,
        policy: OpponentPolicy | None = None,
        make_engine: EngineFactory = new_engine,
        book: Book | None = None,
        clock: Callable[[], float] = time.monotonic,
        reaper: bool = True,
    ) -> None:
        self.store = store
        self.make_engine = make_engine
        self.book = book
        """The opening book of engine opponents, read once for all games (see :class:`Opponent`)."""
        self.default_opponent = default_opponent
        self.policy = policy or OpponentPolicy.allowing([default_opponent])
        """Which opponent specs requests may name (the default is always allowed)."""
        self.clock = clock
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()
        self.tasks = BackgroundTasks(clock=clock, save=self._save, workers=workers)
        """The background work of the games: opponents' moves, pondering, analysis."""
        self.reaper = Reaper(self)
        """Housekeeping: idle pondering, flags, idle engines and games (see its module)."""
        if reaper:
            self.reaper.start()

    # --- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        self.reaper.stop()
        self.tasks.closed = True
        with self._lock:
            games = list(self._live.values())
        for s in games:
            if s.opponent is not None:
                s.opponent.stop()
            if s.analyst is not None:
                s.analyst.stop()
        self.tasks.close()

    def create(self, req: api.NewGame) -> LiveGame:
        moves: list[int] = []
        start = req.start
        size: int = req.size
        if start:
            size = Board(start).size  # a malformed OBF is a ValueError naming it
            if "size" in req.model_fields_set and size != req.size:
                raise GameError(
                    f"the start position is a {size}x{size} board ({size * size} squares) but "
                    f"size says {req.size}x{req.size}: leave size out or make them agree"
                )
        if req.moves:
            moves = records.read_transcript(
                req.moves, size, start
            ).moves  # FormatError is a ValueError
        return self._add(
            GameState.new(
                uuid.uuid4().hex[:12],
                size=size,
                start=start,
                moves=moves,
                human=req.human,
                opponent=self._requested(req.opponent, size),
                seed=req.seed,
                title=req.title,
                clock=None if req.minutes is None else 60.0 * req.minutes,
                increment=req.increment,
            )
        )

    def create_from_record(
        self, record: GameRecord, *, human: str, opponent: str | None, from_file: bool = True
    ) -> LiveGame:
        """A game of the record's moves; ``from_file``: it keeps what the file said beside them
        (names, place, date, tags, result), which a save writes back."""
        state = GameState.new(
            uuid.uuid4().hex[:12],
            size=record.size,
            start=record.start,
            moves=record.moves,
            human=human,
            opponent=self._requested(opponent, record.size),
            # Player names from a game file can be long: the title keeps the API's bound.
            title=records.title_of(record)[: api.MAX_TITLE],
        )
        if from_file:
            state.info = records.info_of(record, state.path)
        return self._add(state)

    def _add(self, state: GameState) -> LiveGame:
        game = LiveGame(state, last_seen=self.clock())
        game.reached(self.clock())
        if state.clock is not None:
            state.clocks[ROOT] = (state.clock, state.clock)
            state.clocks[state.node] = (state.clock, state.clock)
        self._build_opponent(game)  # a bad spec fails here, before anything is stored
        with self._lock:
            self._live[state.id] = game
            self._evict()
        with game.lock:
            self._save(game)
            self.tasks.kick(game)
        self.reaper.free_engines()
        return game

    def _requested(self, spec: str | None, size: int) -> str:
        """The opponent a request names (None: the default), if it is allowed and plays
        ``size`` boards."""
        spec = self.default_opponent if spec is None else self.policy.check(spec)
        sizes = playable_sizes(spec)
        if size not in sizes:
            boards = " and ".join(f"{n}x{n}" for n in sizes)
            raise GameError(
                f"opponent {spec!r} plays only {boards} boards, not {size}x{size}: "
                "choose another opponent or board size"
            )
        return spec

    def _build_opponent(self, s: LiveGame) -> None:
        if not self.policy.permits(s.state.opponent):
            # A stored game may name an opponent this server does not allow (stored by an older
            # version, or allowed by an earlier run): it gets the default instead.
            s.error = f"the stored opponent is not allowed here; playing {self.default_opponent}"
            s.state.opponent = self.default_opponent
        elif s.state.size not in playable_sizes(s.state.opponent):
            # Stored before sizes were checked: it would never move.
            s.error = f"the stored opponent cannot play this board; playing {self.default_opponent}"
            s.state.opponent = self.default_opponent
        try:
            s.opponent = Opponent(
                s.state.opponent,
                size=s.state.size,
                seed=s.state.seed,
                make_engine=self.make_engine,
                book=self.book,
            )
        except AgentSpecError as exc:
            raise GameError(str(exc)) from None
        except ImportError as exc:
            raise GameError(_missing_package(s.state.opponent, exc)) from None
        if s.analyst is None:
            s.analyst = Analyst(s.state.size, self.make_engine)

    def get(self, game_id: str) -> LiveGame:
        """The game (from memory or the store); marks it seen by a page."""
        now = self.clock()
        with self._lock:
            s = self._live.get(game_id)
            if s is not None:
                self._live.move_to_end(game_id)
        if s is not None:
            s.last_seen = now
            ponders = s.opponent is not None and s.opponent.can_ponder
            if ponders and s.ponder_epoch != s.epoch and s.rested_epoch != s.epoch:
                with s.lock:
                    if s.state.human_to_move():
                        self.tasks.kick(s)  # a page is back: pondering starts again
            return s
        state = self.store.load(game_id)
        if state is None:
            raise UnknownGame(game_id)
        s = LiveGame(state, stored=True, last_seen=now)
        s.reached(now)
        self._build_opponent(s)
        with self._lock:
            s = self._live.setdefault(game_id, s)
            self._evict()
        with s.lock:
            self.tasks.kick(s)
        return s

    def _evict(self) -> None:
        """Drop idle games beyond MAX_LIVE from memory (caller holds ``self._lock``)."""
        excess = len(self._live) - MAX_LIVE
        for gid, s in list(self._live.items()):
            if excess <= 0:
                break
            if not s.busy() and s.polls == 0:
                self._drop(gid, s)
                excess -= 1

    def _drop(self, gid: str, s: LiveGame) -> None:
        """Take ``s`` out of memory (caller holds ``self._lock``): nothing starts in it again,
        its searches stop and its engines go (a task holding one frees it when it ends)."""
        s.dropped = True
        s.ponder_epoch = None
        for agent in (s.opponent, s.analyst):
            if agent is not None:
                agent.stop()
        s.release_engines()
        del self._live[gid]

    def drop(self, s: LiveGame) -> bool:
        """Take ``s`` out of memory if it is still the live copy of its game (then True)."""
        with self._lock:
            if self._live.get(s.state.id) is not s:
                return False
            self._drop(s.state.id, s)
            return True

    def delete(self, game_id: str) -> None:
        s = self.get(game_id)
        with s.lock:
            self.tasks.invalidate(s)
            s.stored = True  # nothing may store it again
            with self._lock:
                self._live.pop(game_id, None)
            self.store.delete(game_id)
            s.dropped = True
        for agent in (s.opponent, s.analyst):
            if agent is not None:
                agent.stop()
        s.release_engines()

    def games(self) -> list[LiveGame]:
        with self._lock:
            return list(self._live.values())

    def reap(self) -> None:
        """One round of the reaper (:meth:`bitflip.web.reaper.Reaper.reap`)."""
        self.reaper.reap()

    # --- requests ----------------------------------------------------------------------------

    def play(self, game_id: str, move: str, ply: int | None = None) -> LiveGame:
        s = self.get(game_id)
        with s.lock:
            st = s.state
            if ply is not None and ply != st.cursor:
                raise Conflict(
                    f"the move was meant for ply {ply} but the game is at ply {st.cursor}"
                )
            board = st.board()
            if st.is_over(board):
                raise Conflict("the game is over")
            if not st.is_human(board.turn):
                who = color_name(board.turn)
                raise Conflict(f"it is {who}'s turn, and {who} is played by {st.opponent}")
            try:
                m = board.parse_move(move)
            except InvalidMoveError as exc:
                raise GameError(exc.detail) from None
            self._play(s, m, board)
        return s

    def _play(self, s: LiveGame, move: int, board: Board) -> None:
        """Play ``move`` at the cursor with its clock (caller holds ``s.lock``)."""
        clocks = s.clocks_after_move(board.turn, self.clock())
        try:
            s.state.play(move)
        except IllegalMoveError as exc:
            raise GameError(exc.detail) from None
        if clocks is not None:
            s.state.clocks[s.state.node] = clocks
        self.tasks.changed(s)

    def undo(self, game_id: str) -> LiveGame:
        return self._move_cursor(game_id, lambda st: st.undo())

    def redo(self, game_id: str) -> LiveGame:
        return self._move_cursor(game_id, lambda st: st.redo())

    def jump(self, game_id: str, ply: int | None, node: int | None = None) -> LiveGame:
        if node is not None:
            return self._move_cursor(game_id, lambda st: st.goto(node))
        if ply is None:
            raise GameError("say the ply or the node to show")
        return self._move_cursor(game_id, lambda st: st.jump(ply))

    def _move_cursor(self, game_id: str, change: Callable[[GameState], None]) -> LiveGame:
        s = self.get(game_id)
        with s.lock:
            change(s.state)
            self.tasks.changed(s)
        return s

    def resign(self, game_id: str) -> LiveGame:
        """The person resigns the game at the cursor (the side to move, when they play it)."""
        s = self.get(game_id)
        with s.lock:
            board = s.state.board()
            if s.state.is_over(board):
                raise Conflict("the game is over")
            if s.state.human == "none":
                raise Conflict("the engine plays both sides: there is no one to resign for")
            loser = board.turn
            if s.state.human != "both" and not s.state.is_human(loser):
                loser = loser.other
            s.state.end(loser, "resigned")
            self.tasks.changed(s)
        return s

    def configure(self, game_id: str, req: api.GameSettings) -> LiveGame:
        """Change who the person plays, the opponent, the title or the watch-mode pace."""
        s = self.get(game_id)
        with s.lock:
            st = s.state
            if req.title is not None:
                st.title = req.title
            if req.paused is not None:
                s.paused = req.paused
            if req.delay is not None:
                s.delay = req.delay
            if req.human is not None or req.opponent is not None:
                old = (st.human, st.opponent)
                if req.human is not None:
                    st.human = req.human
                if req.opponent is not None:
                    st.opponent = self._requested(req.opponent, st.size)
                try:
                    self.tasks.invalidate(s)
                    self._build_opponent(s)
                except GameError:
                    st.human, st.opponent = old
                    self._build_opponent(s)
                    raise
            s.stored = s.stored or req.title is not None
            self.tasks.changed(s)
        return s

    def move_now(self, game_id: str) -> LiveGame:
        """Make the opponent move now: stop its search, or start one where the line goes on
        (a different move from the line's starts a variation)."""
        s = self.get(game_id)
        with s.lock:
            board = s.state.board()
            if s.state.is_over(board):
                raise Conflict("the game is over")
            if s.think_epoch == s.epoch:
                assert s.opponent is not None
                s.opponent.stop()
                return s
            if s.state.human == "both" or s.state.is_human(board.turn):
                raise Conflict(f"it is {color_name(board.turn)}'s turn, which the person plays")
            s.force_move = True
            s.paused = False
            self.tasks.kick(s)
        return s

    def hints(self, game_id: str, seconds: float) -> api.Hints:
        """Every legal move's score in the position at the cursor (blocks for ``seconds``)."""
        s = self.get(game_id)
        with s.lock:
            if s.analysing is not None:
                raise Conflict("the game is being analysed; hints come when that is done")
            board = s.state.board()
            ply = s.state.cursor
            node = s.state.node
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
                best = scores[0]
                s.state.set_eval(node, best.score, best.exact, "hint")
                self._save(s)
                s.version += 1
        return out

    def analyse(self, game_id: str, seconds_per_move: float) -> LiveGame:
        """Start analysing every move of the line in the background."""
        s = self.get(game_id)
        with s.lock:
            if s.analysing is not None:
                raise Conflict("the game is already being analysed")
            if not s.state.line:
                raise GameError("there is no move to analyse yet")
            board = s.state.board(len(s.state.line))
            path = list(s.state.path)
            s.analysing = api.Progress(done=0, total=len(path) - 1)
            s.version += 1
        self.tasks.analyse(s, board, path, seconds_per_move)
        return s

    # --- views -------------------------------------------------------------------------------

    def view(self, s: LiveGame) -> api.GameView:
        with s.lock:
            return build_view(s, self.clock())

    # --- storing -----------------------------------------------------------------------------

    def _save(self, s: LiveGame) -> None:
        """Store the game once something happened in it (a bare new game is not stored)."""
        st = s.state
        if not s.stored:
            fresh = st.start == Board(size=st.size).obf() and len(st.tree) == 1 and not st.title
            if fresh:
                return
            s.stored = True
        with self._lock:
            gone = st.id not in self._live
        if not gone:
            self.store.save(st)

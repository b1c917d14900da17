"""Live games: the board, the machine sides, pondering, and searches
that can be abandoned.

A :class:`PlaySession` is one game in one tab. Its state changes only on the
event loop's thread; the searches run on the pool's threads (the core
releases the GIL). An abandoned search (new game, undo, tab closed) is
stopped by repeating ``Searcher.stop()`` until its thread returns, which the
core answers within milliseconds.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar

from genethello.cluster.web import play
from genethello.cluster.web.errors import BusyError, ConflictError, MemoryBoundError, NotFoundError
from genethello.cluster.web.search_pool import HINT, MOVE, PONDER, SearchPool, SearchSlot
from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher, SearchResult, disc_score
from genethello.core.engine.squares import BLACK, PASS, Colour, square_name
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.families.registry import Individual, evaluator_of
from genethello.core.frontend.ponder import Ponderer
from genethello.core.play.timecontrol import move_budget

#: Plies of the searches behind a hint (each move searched one ply less).
HINT_DEPTH = 6
#: Moves listed in a hint.
HINT_MOVES = 5
#: log2 of a machine's transposition-table buckets (2^18: 12 MiB).
TT_BITS = 18
#: Games kept at once; the longest idle goes first beyond that.
MAX_SESSIONS = 256
#: Seconds an idle game is kept.
IDLE_SECONDS = 6 * 3600.0
#: Seconds an abandoned search may take to return before we give up waiting.
STOP_WAIT_SECONDS = 2.0
#: Seconds of pondering at most: a tab left open does not keep a core busy.
PONDER_MAX_SECONDS = 120.0

_T = TypeVar("_T")


class _Discard:
    """A text stream that drops what the ponderer logs for a terminal."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class SharedEvaluators:
    """One evaluator per player and pattern table in this process, shared
    by every game that plays it: an evaluator is read-only data (a search
    copies its leaf and keeps its own incremental state), and a pattern-table
    network's takes about 360 MB. Dropped when the last game holding it
    closes."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, str | None], tuple[BaseEvaluator, int]] = {}
        self._lock = threading.Lock()

    def take(self, player: Individual, patterns: str | None) -> BaseEvaluator:
        """``player``'s evaluator, built on the first take; :meth:`give_back` once done."""
        key = (str(player), patterns)
        with self._lock:
            evaluator, count = self._held.get(key) or (evaluator_of(player, patterns), 0)
            self._held[key] = (evaluator, count + 1)
            return evaluator

    def give_back(self, player: Individual, patterns: str | None) -> None:
        key = (str(player), patterns)
        with self._lock:
            held = self._held.get(key)
            if held is not None and held[1] > 1:
                self._held[key] = (held[0], held[1] - 1)
            else:
                self._held.pop(key, None)

    def __len__(self) -> int:
        return len(self._held)


#: This process's shared evaluators (the server's games).
EVALUATORS = SharedEvaluators()


class MachineSide:
    """One colour the machine plays: its searcher (and table) on the shared
    evaluator, and its ponderer; :meth:`close` gives the evaluator back."""

    def __init__(self, chromosome: Individual, depth: int | None, patterns: str | None = None) -> None:
        self.chromosome = chromosome
        self.depth = depth
        self.patterns = patterns
        self.searcher = Searcher(EVALUATORS.take(chromosome, patterns), tt_bits=TT_BITS)
        self.ponderer = Ponderer(self.searcher, log=_Discard())
        self.ponder_slot: SearchSlot | None = None
        self._closed = False

    def close(self) -> None:
        """Give the evaluator back (once)."""
        if not self._closed:
            self._closed = True
            EVALUATORS.give_back(self.chromosome, self.patterns)


@dataclass
class _Job:
    """A search running on the pool for this game."""

    future: asyncio.Future[Any]       # whatever the search returns
    searchers: list[Searcher]
    cancel: threading.Event = field(default_factory=threading.Event)


def choose_move(machine: MachineSide, board: Board, budget: float | None,
                cancel: threading.Event) -> tuple[SearchResult | None, bool]:
    """The machine's move on ``board`` (runs on a pool thread): the pondered
    search when the person played the predicted move (it goes on within the
    move's budget, or to the full depth), else a fresh search.

    Returns:
        (result, pondered); result None when abandoned.
    """
    if machine.ponderer.active:
        outcome = machine.ponderer.claim(board, keep_searching=True, budget=budget)
        result = outcome.result if outcome is not None else None
        if (result is not None and result.move is not None and board.is_legal(result.move)
                and (machine.depth is None or result.exact or result.depth >= machine.depth)):
            return result, True
    if cancel.is_set():
        return None, False
    if machine.depth is None:
        return machine.searcher.search(board, seconds=budget, exact_empties=play.EXACT_EMPTIES), False
    return machine.searcher.search(board, depth=machine.depth, exact_empties=play.EXACT_EMPTIES), False


class ScoredMove(TypedDict):
    """A hint's move: its square's name, its score, whether solved."""

    move: str
    score: int | float
    exact: bool


def top_moves(searcher: Searcher, board: Board, depth: int, cancel: threading.Event) -> list[ScoredMove]:
    """Every legal move with its score for the side to move (runs on a pool
    thread): the position after each move searched ``depth - 1`` plies,
    solved when few squares are left. Scores are disc margins: exact
    integers when solved, else the evaluation (see ``disc_score``)."""
    scored: list[ScoredMove] = []
    mover = board.side_to_move
    for square in board.legal_moves():
        if cancel.is_set():
            return []
        score: int | float
        after = board.copy()
        after.play(square)
        if after.is_game_over():
            margin = after.final_score()
            score, exact = (margin if mover == BLACK else -margin), True
        else:
            result = searcher.search(after, depth=max(1, depth - 1), exact_empties=play.EXACT_EMPTIES)
            score, exact = disc_score(-result.value, result.exact, result.disc_units), result.exact
        scored.append({"move": square_name(square), "score": score, "exact": exact})
    scored.sort(key=lambda entry: -entry["score"])
    return scored


class PlaySession:
    """One game in one tab.

    Args:
        settings: who plays each colour, the clock.
        pool: the server's search pool.
        hint_chromosome: the evaluation behind hints when no machine plays.
    """

    def __init__(self, settings: play.WebGameSettings, pool: SearchPool, hint_chromosome: Individual,
                 patterns: str | None = None) -> None:
        self.id = secrets.token_urlsafe(12)
        self.patterns = patterns
        self.settings = settings
        self.pool = pool
        self.board = Board()
        self.clocks = play.Clocks(settings.seconds)
        # a machine side always names its individual (play.parse_side)
        self.machines = {c: MachineSide(side.chromosome, side.depth, patterns) for c in play.COLOURS
                         if (side := settings.side(c)).is_machine and side.chromosome is not None}
        chromosomes = [m.chromosome for m in self.machines.values()]
        self._hint_chromosome = chromosomes[0] if chromosomes else hint_chromosome
        self._hint_searcher: Searcher | None = None
        self.events: list[str] = ["New game: Black to move."]
        self.last_search: dict[str, object] | None = None
        self.thinking: Colour | None = None
        self.epoch = 0
        self.closed = False
        self._job: _Job | None = None
        self.touched = time.monotonic()
        if settings.seconds is not None:
            self.clocks.start(BLACK, time.monotonic())

    # ------------------------------------------------------------------ view
    def view(self) -> dict[str, object]:
        """Everything the page shows of the game."""
        now = time.monotonic()
        players: dict[Colour, dict[str, object]] = {}
        for colour in play.COLOURS:
            side = self.settings.side(colour)
            players[colour] = {"kind": side.kind, "name": side.name(), "text": side.text(), "depth": side.depth}
            machine = self.machines.get(colour)
            if machine is not None and machine.searcher.evaluator.pattern_version:
                players[colour]["patterns"] = machine.searcher.evaluator.pattern_version
        return {
            "id": self.id,
            "board": play.board_view(self.board),
            "transcript": play.transcript_lines(self.board),
            "events": self.events,
            "thinking": self.thinking,
            "clocks": self.clocks.view(now),
            "players": players,
            "seconds": self.settings.seconds,
            "last_search": self.last_search,
            "can_undo": self.settings.has_human and self._undo_possible(),
        }

    def _undo_possible(self) -> bool:
        try:
            play.plies_to_undo(self.board, self.settings)
        except ConflictError:
            return False
        return True

    def sgf(self) -> str:
        return play.game_sgf(self.board, self.settings)

    # ---------------------------------------------------------------- moves
    def _require_idle(self) -> None:
        if self.closed:
            raise ConflictError("this game was closed; start a new one")
        if self._job is not None:
            raise ConflictError("the machine is thinking; wait for its move")

    def human_move(self, text: object, ply: object = None) -> dict[str, object]:
        """A person's move (checked), then any forced pass.

        Raises:
            ConflictError: a machine is to move or thinking, the game is
                over, or ``ply`` says the page shows an older position.
            WebRequestError: not a square, or an illegal move.
        """
        self._require_idle()
        board = self.board
        if board.is_game_over():
            raise ConflictError("the game is over; start a new one")
        colour = board.side_to_move
        if self.settings.side(colour).is_machine:
            raise ConflictError(f"it is the machine's turn ({colour})")
        if ply is not None and ply != len(board.history):
            raise ConflictError("the board changed since the page drew it; reload the game")
        square = play.parse_move(board, text)
        now = time.monotonic()
        board.play(square)
        self.events = [f"{colour.capitalize()} plays {square_name(square)}."] + play.play_forced_passes(board)
        for machine in self.machines.values():
            if machine.ponderer.active:
                machine.ponderer.position_changed(board)
                if not machine.ponderer.active:
                    self._release_ponder(machine)
        self._start_clock(now)
        self.touched = now
        return self.view()

    def _start_clock(self, now: float) -> None:
        if self.settings.seconds is not None:
            self.clocks.start(None if self.board.is_game_over() else self.board.side_to_move, now)

    async def machine_move(self) -> dict[str, object]:
        """The machine to move searches (off the event loop) and plays.

        Raises:
            ConflictError: a person is to move, the game is over, a search
                runs already, or this one was abandoned on the way.
            BusyError: every core is busy with other searches.
        """
        self._require_idle()
        board = self.board
        if board.is_game_over():
            raise ConflictError("the game is over; start a new one")
        colour = board.side_to_move
        machine = self.machines.get(colour)
        if machine is None:
            raise ConflictError(f"it is the person's turn ({colour}), not a machine's")
        slot = machine.ponder_slot
        machine.ponder_slot = None
        if slot is None or not self.pool.promote(slot, MOVE):
            if machine.ponderer.active:
                machine.ponderer.cancel()
            slot = self.pool.acquire(MOVE, self.id)
        budget = None
        if self.settings.seconds is not None:
            budget = move_budget(self.clocks.left(colour, time.monotonic()), board.empties)
        epoch = self.epoch
        position = board.copy()
        (result, pondered), started = await self._run(
            slot, [machine.searcher], lambda cancel: choose_move(machine, position, budget, cancel))
        if epoch != self.epoch or result is None:
            raise ConflictError("the search was abandoned")
        now = time.monotonic()
        move = result.move
        if move is None or not board.is_legal(move):
            raise ConflictError(f"the engine found no legal move ({move!r}); start a new game")
        board.play(move)
        self.events = [f"{colour.capitalize()} plays {square_name(move) if move != PASS else 'pass'}."]
        self.events += play.play_forced_passes(board)
        self.last_search = {
            "colour": colour, "move": square_name(move), "depth": result.depth, "exact": result.exact,
            "score": disc_score(result.value, result.exact), "nodes": result.nodes,
            "seconds": round(now - started, 4), "pondered": pondered,
        }
        self._start_clock(now)
        self.touched = now
        self._maybe_ponder(machine, result)
        return self.view()

    async def _run(self, slot: SearchSlot, searchers: list[Searcher],
                   work: Callable[[threading.Event], _T]) -> tuple[_T, float]:
        """Run ``work(cancel)`` on the pool; the slot is given back when its
        thread returns (not before: an abandoned search still holds its
        core until it stops). Returns (work's result, start time)."""
        loop = asyncio.get_running_loop()
        cancel = threading.Event()
        started = time.monotonic()
        future = loop.run_in_executor(self.pool.executor, work, cancel)
        job = _Job(future, searchers, cancel)
        self._job = job
        self.thinking = self.board.side_to_move if searchers and slot.kind == MOVE else None

        def finished(_future: asyncio.Future[_T]) -> None:
            self.pool.release(slot)
            if self._job is job:
                self._job = None
                self.thinking = None

        future.add_done_callback(finished)
        return await asyncio.shield(future), started

    def _maybe_ponder(self, machine: MachineSide, result: SearchResult) -> None:
        """Think on the person's time about the reply the search predicts,
        if a core is free (pondering is the first thing dropped)."""
        board = self.board
        if board.is_game_over() or self.settings.side(board.side_to_move).is_machine:
            return
        pv = tuple(result.pv)
        predicted = pv[1] if len(pv) >= 2 and board.is_legal(pv[1]) else None
        if predicted is None:
            return
        after = board.copy()
        after.play(predicted)
        if after.is_game_over() or after.must_pass():
            return
        try:
            slot = self.pool.acquire(PONDER, self.id, preempt=lambda: self._drop_ponder(machine))
        except BusyError:   # no free core: no pondering
            return
        machine.ponder_slot = slot
        machine.ponderer.start(after, predicted, machine.depth or 60, play.EXACT_EMPTIES, origin=board)
        asyncio.get_running_loop().call_later(PONDER_MAX_SECONDS, self._ponder_timeout, machine, slot)

    def _ponder_timeout(self, machine: MachineSide, slot: SearchSlot) -> None:
        """Pondering ran its longest: stop it if it is still that one."""
        if machine.ponder_slot is slot:
            self.pool.release(slot)
            self._drop_ponder(machine)

    def _drop_ponder(self, machine: MachineSide) -> None:
        """Preempted by another game's search: stop pondering now."""
        machine.ponder_slot = None
        machine.ponderer.cancel()

    def _release_ponder(self, machine: MachineSide) -> None:
        self.pool.release(machine.ponder_slot)
        machine.ponder_slot = None

    async def hint(self) -> dict[str, object]:
        """The engine's top moves for the person to move, with scores."""
        self._require_idle()
        board = self.board
        if board.is_game_over() or self.settings.side(board.side_to_move).is_machine:
            raise ConflictError("a hint is for a person to move")
        if self._hint_searcher is None:
            self._hint_searcher = Searcher(EVALUATORS.take(self._hint_chromosome, self.patterns),
                                           tt_bits=16)
        searcher = self._hint_searcher
        slot = self.pool.acquire(HINT, self.id)
        epoch = self.epoch
        position = board.copy()
        moves, _started = await self._run(slot, [searcher],
                                          lambda cancel: top_moves(searcher, position, HINT_DEPTH, cancel))
        if epoch != self.epoch:
            raise ConflictError("the hint was abandoned")
        return {"moves": moves[:HINT_MOVES], "depth": HINT_DEPTH, "by": str(self._hint_chromosome),
                "ply": len(position.history)}

    # -------------------------------------------------------------- control
    async def abandon(self) -> None:
        """Stop any search of this game (within milliseconds) and all
        pondering; searches already under way end as 'abandoned'."""
        self.epoch += 1
        job = self._job
        if job is not None:
            job.cancel.set()
            deadline = time.monotonic() + STOP_WAIT_SECONDS
            while not job.future.done() and time.monotonic() < deadline:
                for searcher in job.searchers:
                    searcher.stop()
                await asyncio.sleep(0.002)
        for machine in self.machines.values():
            machine.ponderer.cancel()
            self._release_ponder(machine)

    async def undo(self) -> dict[str, object]:
        """Take back moves up to the person's last one (stopping any search)."""
        if self.closed:
            raise ConflictError("this game was closed; start a new one")
        count = play.plies_to_undo(self.board, self.settings)
        await self.abandon()
        for _ in range(count):
            self.board.undo()
        self.events = [f"Took back {count} move{'s' * (count != 1)}."]
        self.last_search = None
        self._start_clock(time.monotonic())
        self.touched = time.monotonic()
        return self.view()

    async def close(self) -> None:
        self.closed = True
        await self.abandon()
        self.clocks.stop(time.monotonic())
        for machine in self.machines.values():
            machine.close()
        if self._hint_searcher is not None:
            self._hint_searcher = None
            EVALUATORS.give_back(self._hint_chromosome, self.patterns)


def default_memory_bound() -> int:
    """The server's default memory bound: half this machine's memory, at
    most 8 GiB (making a game of the pattern-table network peaks about 400 MB)."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        physical = 16 << 30
    return min(8 << 30, physical // 2)


def resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc/self/statm``; 0 where
    there is none, which turns the bound off)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def peak_resident_bytes() -> int:
    """This process's peak resident memory so far (Linux ``VmHWM`` in
    ``/proc/self/status``; 0 where there is none)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return 0


class SessionStore:
    """The games in progress, by id; old idle ones are dropped. A new game
    is refused (:class:`MemoryBoundError`, HTTP 503) when the server's
    memory and the largest game made so far would pass ``memory_bound``:
    games are made one at a time on the event loop, so many parallel
    requests cannot pass the check together. A game's size is the most it
    took while being made, not what it kept: reading ``patterns-v2-net``'s
    file peaks about 400 MB above what its game keeps (115 MB), and the
    bound holds the peak (the kernel's VmHWM)."""

    def __init__(self, pool: SearchPool, patterns: str | None = None, memory_bound: int | None = None) -> None:
        """``patterns``: the pattern table version machine players use (None: the newest);
        ``memory_bound``: bytes (None: :func:`default_memory_bound`)."""
        self.pool = pool
        self.patterns = patterns
        self.memory_bound = default_memory_bound() if memory_bound is None else memory_bound
        self._games: dict[str, PlaySession] = {}
        self._largest_game = 0
        self._making = asyncio.Lock()

    def __len__(self) -> int:
        return len(self._games)

    async def create(self, settings_of: Callable[[], Awaitable[tuple[play.WebGameSettings, Individual]]]
                     ) -> PlaySession:
        """A new game of the settings and hint player ``settings_of`` reads
        (the request's players, resolved: a network's weights are the
        largest part of a game's memory). Games are made one at a time,
        each checked against the memory bound before and after.

        Raises:
            MemoryBoundError: the server's memory would pass its bound.
        """
        async with self._making:
            await self._expire()
            before = resident_bytes()
            if before and before + self._largest_game > self.memory_bound:
                raise self._refusal(before)
            peak_before = peak_resident_bytes()
            settings, hint_chromosome = await settings_of()
            game = PlaySession(settings, self.pool, hint_chromosome, self.patterns)
            after, peak = resident_bytes(), peak_resident_bytes()
            # a new peak while it was made is this game's transient size
            self._largest_game = max(self._largest_game, after - before,
                                     peak - before if peak > peak_before else 0)
            if after > self.memory_bound:
                await game.close()
                raise self._refusal(after)
            self._games[game.id] = game
            return game

    def _refusal(self, resident: int) -> MemoryBoundError:
        return MemoryBoundError(
            f"the server is at its memory bound ({resident >> 20:,} MB of {self.memory_bound >> 20:,} MB, "
            f"{len(self._games)} games in progress; serve --max-memory sets it): finish or close a game, "
            "then start a new one")

    def get(self, game_id: str) -> PlaySession:
        game = self._games.get(game_id)
        if game is None:
            raise NotFoundError(f"no game {game_id!r} (it ended or the server restarted); start a new game")
        return game

    async def close(self, game_id: str) -> None:
        game = self._games.pop(game_id, None)
        if game is not None:
            await game.close()

    async def close_all(self) -> None:
        for game_id in list(self._games):
            await self.close(game_id)

    async def _expire(self) -> None:
        now = time.monotonic()
        idle = sorted(self._games.values(), key=lambda g: g.touched)
        for game in idle:
            if now - game.touched > IDLE_SECONDS or len(self._games) >= MAX_SESSIONS:
                await self.close(game.id)

"""Oracles for the metamachine: GTP engines in subprocesses that answer GNU
Go's oracle commands (``top_moves_black``/``top_moves_white`` or
``top_moves``, ``estimate_score``).

* :func:`start_oracle` starts one oracle process. It is tied to this
  process: it runs in its own session (a Ctrl-C at the terminal reaches only
  the metamachine, which then closes it) and gets SIGKILL from the kernel
  (Linux ``PR_SET_PDEATHSIG``) if its parent dies without closing it.
* :class:`OraclePool` is the main oracle plus optional helpers, each scoring
  a share of the candidate moves in parallel. Helpers are kept in step with
  the game by replaying the state-changing commands the main oracle accepted
  (:class:`CommandLog`) before they are asked anything. A helper is another
  local subprocess (:class:`LocalHelper`) or a Ray actor that owns one
  (:class:`RayHelper`, ray imported only then).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from genethello.core.engine.squares import BLACK, Colour
from genethello.core.frontend.errors import UserError
from genethello.core.gtp.client import GtpProcess, ProtocolError, Response

# Commands that change an oracle's game state; a helper replays them.
STATE_COMMANDS = frozenset({"boardsize", "clear_board", "play", "undo", "loadsgf", "komi",
                            "time_settings", "set_game"})
# Of them, the ones that start over: the log restarts with them.
RESET_COMMANDS = frozenset({"boardsize", "clear_board", "loadsgf"})
# An oracle never times out by itself: the client waits as long as it waits.
NO_TIMEOUT = 7 * 24 * 3600.0
DECIDED = 4096.0    # weight of a decided (integer) disc margin over heuristic estimates

# Runs in the child before exec: own session, die with the parent.
_LAUNCHER = r"""
import ctypes, os, signal, sys
parent = int(sys.argv[1])
os.setsid()
try:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != parent:
    sys.exit(1)
try:
    os.execvp(sys.argv[2], sys.argv[2:])
except OSError as exc:
    sys.stderr.write(f"cannot start the oracle {sys.argv[2]!r}: {exc}\n")
    sys.exit(127)
"""


class OracleError(Exception):
    """The oracle failed: it died, broke the protocol, or lost the game state."""


def start_oracle(argv: Sequence[str], name: str | None = None, stderr: IO[Any] | None = None) -> GtpProcess:
    """Start ``argv`` as a GTP oracle tied to this process.

    Raises:
        ValueError: if the program cannot be found.
    """
    argv = list(argv)
    if not argv:
        raise UserError("no oracle command given (genethello metamachine -- ORACLE COMMAND...)")
    if shutil.which(argv[0]) is None:
        raise UserError(f"oracle command not found: {argv[0]}")
    wrapped = [sys.executable, "-S", "-c", _LAUNCHER, str(os.getpid())] + argv
    return GtpProcess(wrapped, name=name or os.path.basename(argv[0]), stderr=stderr, timeout=NO_TIMEOUT)


def oracle_commands(proc: GtpProcess) -> set[str]:
    """The commands the oracle lists.

    Raises:
        ValueError: if the oracle does not answer (it failed to start).
    """
    try:
        r = proc.send("list_commands", timeout=60)
    except ProtocolError as exc:
        raise UserError(f"the oracle did not answer list_commands: {exc}") from None
    return set(r.text.split()) if r.ok else set()


def missing_commands(commands: set[str]) -> list[str]:
    """What an oracle with ``commands`` lacks for the metamachine (empty: fit)."""
    missing = []
    if "top_moves" not in commands and not {"top_moves_black", "top_moves_white"} <= commands:
        missing.append("top_moves")
    for name in ("estimate_score", "play", "undo"):
        if name not in commands:
            missing.append(name)
    return missing


# ------------------------------------------------------------------ scoring
def parse_top_moves(text: str) -> list[tuple[str, str]]:
    """[(vertex, value)] of a ``top_moves`` answer ``d3 6.00 c4 5.00``."""
    words = text.split()
    return [(words[i], words[i + 1]) for i in range(0, len(words) - 1, 2)]


def parse_estimate(text: str) -> float | None:
    """Black's margin in an ``estimate_score`` answer (``B+5.5 (upper
    bound...)``, ``W+3``, ``0``) weighted so that decided scores outrank
    estimates: an integer margin (the genethello oracle's mark of a solved
    or decided position) counts DECIDED per disc. None if unreadable."""
    words = text.split()
    if not words:
        return None
    head = words[0]
    if head in ("0", "0.0", "Draw", "draw"):
        return 0.0
    if len(head) < 3 or head[0].upper() not in "BW" or head[1] != "+":
        return None
    try:
        value = float(head[2:])
    except ValueError:
        return None
    if "." not in head[2:]:
        value *= DECIDED
    return value if head[0].upper() == "B" else -value


@dataclass
class Trial:
    """One candidate move and what the oracle thought of it."""

    vertex: str
    prior: str                      # the top_moves value
    estimate: str | None = None  # the estimate_score answer after the move
    key: float | None = None     # the mover's score (None: not scored)
    by: str = ""                    # which oracle scored it


#: [(vertex, the oracle's estimate_score answer or None)]
Scores = list[tuple[str, str | None]]


def score_on(proc: GtpProcess, color: Colour, vertices: Sequence[str]) -> Scores:
    """Play each vertex for ``color`` on ``proc``, ask ``estimate_score``,
    undo; [(vertex, answer or None)]. The oracle's state is unchanged.

    Raises:
        OracleError: if an undo fails (the state would be lost) or the
            process fails.
    """
    out: Scores = []
    try:
        for vertex in vertices:
            r = proc.send(f"play {color} {vertex}")
            if not r.ok:
                out.append((vertex, None))
                continue
            est = proc.send("estimate_score")
            undo = proc.send("undo")
            if not undo.ok:
                raise OracleError(f"{proc.name}: undo failed after trying {vertex}: {undo.text}")
            out.append((vertex, est.text if est.ok else None))
    except ProtocolError as exc:
        raise OracleError(str(exc)) from None
    return out


class CommandLog:
    """The state-changing commands the main oracle accepted since the last
    reset; ``epoch`` counts resets."""

    def __init__(self) -> None:
        self.epoch = 0
        self.commands: list[str] = []

    def add(self, command: str) -> None:
        name = command.split(None, 1)[0] if command.strip() else ""
        if name in RESET_COMMANDS:
            self.epoch += 1
            self.commands = [command]
        elif name in STATE_COMMANDS:
            self.commands.append(command)


class _SyncState:
    def __init__(self) -> None:
        self.epoch = 0
        self.done = 0

    def pending(self, log: CommandLog) -> list[str]:
        if self.epoch != log.epoch:
            return list(log.commands)
        return log.commands[self.done:]

    def mark(self, log: CommandLog) -> None:
        self.epoch, self.done = log.epoch, len(log.commands)


def replay_on(proc: GtpProcess, commands: Sequence[str]) -> None:
    """Send the logged commands; any failure means the helper lost the game."""
    try:
        for command in commands:
            r = proc.send(command)
            if not r.ok:
                raise OracleError(f"{proc.name}: replaying {command!r} failed: {r.text}")
    except ProtocolError as exc:
        raise OracleError(str(exc)) from None


class LocalHelper:
    """A helper oracle in a local subprocess."""

    def __init__(self, argv: Sequence[str], index: int, stderr: IO[Any] | None = None) -> None:
        self.name = f"helper {index}"
        self.proc = start_oracle(argv, name=f"{os.path.basename(argv[0])}#{index}", stderr=stderr)
        self.sync = _SyncState()

    @property
    def pids(self) -> list[int]:
        return [self.proc.proc.pid]

    def score(self, log: CommandLog, color: Colour, vertices: Sequence[str]) -> Scores:
        replay_on(self.proc, self.sync.pending(log))
        self.sync.mark(log)
        return score_on(self.proc, color, vertices)

    def terminate(self) -> None:
        if self.proc.proc.poll() is None:
            self.proc.proc.terminate()

    def close(self) -> None:
        self.proc.close(timeout=5.0)


class RayHelper:
    """A helper oracle owned by a Ray actor (on any node of the cluster the
    caller joined before making it; the oracle command must run there too)."""

    _actor_class = None

    def __init__(self, argv: Sequence[str], index: int):
        import ray

        self._ray = ray
        if RayHelper._actor_class is None:
            RayHelper._actor_class = ray.remote(num_cpus=1, max_restarts=0)(_OracleActor)
        self.name = f"ray helper {index}"
        self.actor: Any = RayHelper._actor_class.remote(list(argv), index)
        self.sync = _SyncState()

    @property
    def pids(self) -> list[int]:
        return []       # on another machine, maybe

    def score(self, log: CommandLog, color: Colour, vertices: Sequence[str]) -> Scores:
        pending = self.sync.pending(log)
        try:
            out: Scores = self._ray.get(self.actor.score.remote(pending, color, list(vertices)))
        except Exception as exc:  # actor died, or its oracle did
            raise OracleError(f"{self.name}: {exc}") from None
        self.sync.mark(log)
        return out

    def terminate(self) -> None:
        with contextlib.suppress(Exception):
            self._ray.kill(self.actor)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._ray.get(self.actor.close.remote(), timeout=10)
        self.terminate()


class _OracleActor:
    """Ray actor body: one oracle subprocess on the actor's node."""

    def __init__(self, argv: Sequence[str], index: int) -> None:
        self.proc = start_oracle(argv, name=f"{os.path.basename(argv[0])}#{index}")

    def score(self, pending: Sequence[str], color: Colour, vertices: Sequence[str]) -> Scores:
        replay_on(self.proc, pending)
        return score_on(self.proc, color, vertices)

    def close(self) -> bool:
        self.proc.close(timeout=5.0)
        return True


class OraclePool:
    """The main oracle (every command goes to it) and ``helpers``.

    Args:
        argv: the oracle's command line.
        workers: helper oracles (0: the main oracle scores every candidate).
        make_helpers: builds the helpers from the oracle's command line
            instead of ``workers`` local subprocesses (the ``metamachine``
            command passes one that makes :class:`RayHelper` actors on a
            cluster it joined; core never starts Ray itself).
        stderr: where the oracles' stderr goes (None: discarded).
    """

    def __init__(self, argv: Sequence[str], workers: int = 0, stderr: IO[Any] | None = None,
                 make_helpers: Callable[[list[str]], list[Any]] | None = None) -> None:
        if workers < 0:
            raise UserError(f"--workers must be >= 0, got {workers}")
        self.argv = list(argv)
        self.main = start_oracle(self.argv, stderr=stderr)
        self.commands: set[str] = set()
        self.log = CommandLog()
        self.helpers: list[Any] = []
        self._lock = threading.Lock()
        try:
            self.commands = oracle_commands(self.main)
            missing = missing_commands(self.commands)
            if missing:
                raise UserError(
                    f"the oracle {self.main.name!r} lacks {', '.join(missing)}: the metamachine needs "
                    f"GNU Go's oracle commands top_moves (or top_moves_black/top_moves_white) and "
                    f"estimate_score, and play/undo to try the candidates")
            if make_helpers is not None:
                self.helpers = make_helpers(list(self.argv))
            else:
                self.helpers = [LocalHelper(self.argv, i + 1, stderr=stderr) for i in range(workers)]
        except BaseException:
            self.close(force=True)
            raise

    @property
    def pids(self) -> list[int]:
        pids = [self.main.proc.pid]
        for h in self.helpers:
            pids += h.pids
        return pids

    def send(self, command: str) -> Response:
        """Send one command to the main oracle; log it if it changed the
        state. Raises OracleError if the oracle is gone."""
        try:
            r = self.main.send(command)
        except ProtocolError as exc:
            raise OracleError(str(exc)) from None
        if r.ok:
            self.log.add(command)
        return r

    def top_moves_command(self, color: Colour, count: int) -> str:
        if f"top_moves_{color}" in self.commands:
            return f"top_moves_{color} {count}"
        return f"top_moves {count}"

    def score(self, color: Colour, trials: list[Trial]) -> None:
        """Fill in each trial's estimate and key (the mover's score).

        Without helpers the main oracle tries every candidate. With helpers
        every oracle takes the next untried candidate as soon as it is free
        (the main oracle, whose transposition table is warm from
        top_moves, usually takes more of them). Fixed-depth values do not
        depend on the table (it is only used at equal depth), so the
        parallel answer is the serial one."""
        results: dict[str, str | None] = {}
        scored_by: dict[str, str] = {}
        errors: list[tuple[Any, Exception]] = []
        if not self.helpers:
            results.update(score_on(self.main, color, [t.vertex for t in trials]))
        else:
            todo = [t.vertex for t in trials]
            todo.reverse()          # pop() takes them in the oracle's order

            def run(scorer: Any) -> None:
                try:
                    while True:
                        with self._lock:
                            if not todo:
                                return
                            vertex = todo.pop()
                        if scorer is None:
                            out = score_on(self.main, color, [vertex])
                        else:
                            out = scorer.score(self.log, color, [vertex])
                        with self._lock:
                            results.update(out)
                            scored_by[vertex] = "main" if scorer is None else scorer.name
                except Exception as exc:
                    with self._lock:
                        errors.append((scorer, exc))

            threads = [threading.Thread(target=run, args=(scorer,), daemon=True)
                       for scorer in [None] + list(self.helpers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(timeout=0.05)     # stays interruptible by signals
        for scorer, exc in errors:
            if scorer is None:
                raise exc if isinstance(exc, OracleError) else OracleError(str(exc))
            print(f"genethello metamachine: dropping {scorer.name}: {exc}", file=sys.stderr, flush=True)
            self.helpers.remove(scorer)
            try:
                scorer.terminate()
                scorer.close()
            except Exception:
                pass
        lost = [t for t in trials if t.vertex not in results]
        if lost:
            results.update(score_on(self.main, color, [t.vertex for t in lost]))
        sign = 1.0 if color == BLACK else -1.0
        for t in trials:
            t.estimate = results.get(t.vertex)
            t.by = scored_by.get(t.vertex, "main")
            value = parse_estimate(t.estimate) if t.estimate is not None else None
            t.key = None if value is None else sign * value

    def close(self, force: bool = False) -> None:
        """Close every oracle (quit; kill after a few seconds). ``force``:
        terminate them first (on a signal: no waiting for a search)."""
        if force:
            for h in self.helpers:
                h.terminate()
            if self.main.proc.poll() is None:
                self.main.proc.terminate()
        for closer in [lambda: self.main.close(timeout=5.0)] + [h.close for h in self.helpers]:
            with contextlib.suppress(Exception):
                closer()

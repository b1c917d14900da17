"""The ``match`` command: two chromosomes play each other, or a chromosome
plays an external GTP engine (``--gtp``), and A's score is printed with its
W/D/L and 95% interval.

Each game pair starts from its own random opening (no two reach the same
position: :func:`genethello.core.play.openings.distinct_openings`) and is played
once with each colour. At a fixed depth a game from a repeated opening is
the same game again, so a match that cannot find an opening per pair is
refused rather than reported with an interval its games do not support.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from genethello.core.cli.arguments import (
    MAX_PLIES,
    PLAYER_HELP,
    add_db_option,
    add_game_options,
    add_patterns_option,
    check_range,
    patterns_note,
)
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.cli.match_sprt import (
    add_sprt_options,
    header,
    max_games,
    play_sprt,
    sprt_from_args,
    sprt_openings,
)
from genethello.core.cli.match_sprt import summary as sprt_summary
from genethello.core.engine.board import Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.families.registry import Individual, evaluator_of
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.interrupts import interruptible
from genethello.core.frontend.user_files import check_user_output, open_user_output
from genethello.core.frontend.wording import counted, duration, game_line
from genethello.core.gtp.gtp_player import GtpPlayer
from genethello.core.play.openings import TooFewOpeningsError, distinct_openings
from genethello.core.play.players import ChromosomePlayer, Player, play
from genethello.core.play.scoring import Z95, MatchScore
from genethello.core.play.sprt import Sprt, SprtOutcome


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("match", help="two chromosomes (or one and a GTP engine) play each other with both colours",
                       description="Play GAMES games: one random opening per pair of games, no two alike, each "
                                   "played once with each colour. Prints a progress line (on a terminal) and A's "
                                   "score with its 95% interval; every game with --verbose or into --out FILE.")
    p.add_argument("a", help=f"player A: {PLAYER_HELP}")
    p.add_argument("b", nargs="?", help="player B, named as A (or --gtp)")
    p.add_argument("--gtp", metavar="COMMAND",
                   help="B is this GTP engine, e.g. 'gtp-rhino -l 3' (A searches to --depth)")
    add_game_options(p, "games, in pairs with both colours", "random plies of each pair's opening",
                     default_depth=True)
    add_db_option(p)
    p.add_argument("--verbose", action="store_true",
                   help="print every game (with --sprt: every pair) as it ends, in selfplay's format")
    p.add_argument("--out", type=Path, metavar="FILE",
                   help="also write every game (with --sprt: every pair) to FILE, one line each")
    p.add_argument("--force", action="store_true", help="replace an existing --out FILE")
    add_patterns_option(p)
    add_sprt_options(p)
    p.set_defaults(handler=takes_context(run_match))


def resolve_player(text: str, args: argparse.Namespace, context: CommandContext) -> Individual:
    """The player ``text`` names (``individual_names.resolve_individual``;
    with --db, looked up by the context's ``player_from_database``: core
    has no database)."""
    return context.individual(text, args.db)


def match_openings(args: argparse.Namespace) -> list[list[int]]:
    """One distinct opening per game pair.

    Raises:
        ValueError: in one line, when the random plies cannot give every
            pair an opening of its own.
    """
    check_range("--exact", args.exact, 0, MAX_PLIES)
    check_range("--random-plies", args.random_plies, 0, MAX_PLIES)
    pairs = (args.games + 1) // 2
    try:
        return distinct_openings(pairs, args.random_plies, args.seed)
    except TooFewOpeningsError:
        raise UserError(
            f"--games {args.games} needs {pairs} different openings and --random-plies {args.random_plies} "
            f"does not give that many: the games would repeat each other and their interval would claim "
            f"more than they show (use --random-plies {defaults.RANDOM_PLIES}, or --games 2)") from None


#: Exit statuses of a match stopped by a signal (128 + its number), as a shell reports them.
INTERRUPTED_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


class MatchStopped(Exception):
    """SIGTERM during a match: it stops like Ctrl-C (KeyboardInterrupt),
    the partial score printed, and exits 143."""


def games_to_tell(score: MatchScore) -> int | None:
    """About how many games would tell A from B at 95% if the observed
    score held: the interval's half-width shrinks as 1/sqrt(games), so the
    games that make it smaller than the score's distance from 50%. A score
    of 50% exactly (or no game) gives None: no difference to tell; the
    caller names the games a 55% score would take instead."""
    if score.games == 0:
        return None
    low, high = score.interval
    half = (high - low) / 2
    distance = abs(score.score - 0.5)
    if distance < 0.005:
        return None
    games = score.games * (half / distance) ** 2
    return max(score.games + 2, 2 * math.ceil(games / 2))


def verdict(score: MatchScore) -> str:
    """One line: 'A is stronger', 'B is stronger' or 'no difference at
    95%' with about the games that would tell (the interval's width at the
    observed score, scaled as 1/sqrt(games))."""
    low, high = score.interval
    if score.games and low > 0.5:
        return f"verdict: A is stronger (its 95% interval [{low:.1%}, {high:.1%}] lies above 50%)"
    if score.games and high < 0.5:
        return f"verdict: B is stronger (A's 95% interval [{low:.1%}, {high:.1%}] lies below 50%)"
    needed = games_to_tell(score)
    if needed is not None:
        return (f"verdict: no difference at 95% after {counted(score.games, 'game')} (the interval holds 50%); "
                f"if A's {score.score:.1%} held, about {needed:,} games would tell")
    if score.games == 0:
        return "verdict: no games, no difference to tell"
    needed = 2 * math.ceil((Z95 * 0.5 / 0.05) ** 2 / 2)     # a 55% score's interval clear of 50%
    return (f"verdict: no difference at 95% after {counted(score.games, 'game')} (A scores 50%); "
            f"a 55% score would take about {needed:,} games to tell")


def summary(score: MatchScore, openings: int) -> str:
    """'A scores 61.0% [56.1%, 65.7%] 95% (W/D/L 240/8/152), 200 openings with
    both colours': A's score with its 95% Wilson interval."""
    low, high = score.interval
    # An odd --games plays its last opening with one colour only.
    both = min(openings, score.games // 2)
    how = [f"{counted(both, 'opening')} with both colours"] if both else []
    if openings > both:
        how.append(f"{counted(openings - both, 'opening')} with one colour")
    return (f"A scores {score.score:.1%} [{low:.1%}, {high:.1%}] 95% "
            f"(W/D/L {score.wins}/{score.draws}/{score.losses}), {' and '.join(how)}")


GameOutcome = tuple[str, int, int, int]
"""One finished game: its moves ('f5d6...'), Black's and White's discs, and
Black's final margin."""


def match_game_line(number: int, a_black: bool, outcome: GameOutcome) -> str:
    """'game 3 (A white): f5d6... 28-36 (white wins by 8)': one finished
    game in selfplay's format, with A's colour."""
    moves, black, white, black_margin = outcome
    return game_line(number, moves, black, white, black_margin, f"A {'black' if a_black else 'white'}")


def play_match(play_one: Callable[[int, list[int], bool], GameOutcome], openings: list[list[int]], games: int,
               report: Callable[[str], None], progress: Callable[[int, MatchScore], None] = lambda _g, _s: None,
               ) -> MatchScore:
    """A's score over ``games`` games: pair ``i`` plays ``openings[i]`` with
    A black, then with A white (``play_one(game, opening, a_black)``); every
    game reported in one line, and the score so far after each."""
    score = MatchScore()
    for game in range(games):
        a_black = game % 2 == 0
        outcome = play_one(game, openings[game // 2], a_black)
        score = score.add(outcome[3] if a_black else -outcome[3])
        report(match_game_line(game + 1, a_black, outcome))
        progress(game + 1, score)
    return score


class MatchOutput:
    """Where a match's lines go: each game (or SPRT pair) to stdout with
    ``--verbose`` and to ``--out FILE``; a progress line that rewrites itself
    on stderr when it is a terminal; the result always to stdout."""

    def __init__(self, verbose: bool, out: Path | None, force: bool, total: int) -> None:
        if out is not None:
            check_user_output(out, "--out file", force)
        self.verbose = verbose
        self.total = total
        self.live = sys.stderr.isatty()
        self.out = out
        self.file: TextIO | None = None     # opened at the first game: a player refused leaves no file
        self._shown = False

    def line(self, text: str) -> None:
        """A game's or a pair's line."""
        if self.verbose:
            self.clear()
            print(text, flush=True)
        if self.out is not None:
            if self.file is None:
                self.file = open_user_output(self.out, "--out file", force=True)     # checked at the start
            self.file.write(text + "\n")

    def progress(self, games: int, score: MatchScore | None = None) -> None:
        """'game 37/200: A 20.5 - 16.5 B' (or 'game 37/2000' while an SPRT
        plays), rewritten in place on a terminal."""
        if self.live:
            points = f": A {score.points:g} - {score.games - score.points:g} B" if score is not None else ""
            print(f"\r\033[Kgame {games}/{self.total}{points}", end="", file=sys.stderr, flush=True)
            self._shown = True

    def clear(self) -> None:
        """Erase the progress line before anything else is printed."""
        if self._shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
            self._shown = False

    def close(self) -> None:
        self.clear()
        if self.file is not None:
            self.file.close()


def shown_as(typed: str, individual: Individual) -> str:
    """A player as the user typed it, with what it resolved to when that
    reads otherwise: 'all-2-league (all-2_0_ba11310ff4c9)', '156 (oe_fmc_...)'."""
    resolved = str(individual)
    return typed if typed == resolved else f"{typed} ({resolved})"


def chromosome_games(ea: Engine, eb: Engine) -> Callable[[int, list[int], bool], GameOutcome]:
    """Games between two chromosomes' engines (depth or clock)."""
    def play_one(game: int, opening: list[int], a_black: bool) -> GameOutcome:
        result = play_game(ea, eb, opening) if a_black else play_game(eb, ea, opening)
        return result.move_list(), result.black_discs, result.white_discs, result.score
    return play_one


def gtp_games(me: Player, engine: Player) -> Callable[[int, list[int], bool], GameOutcome]:
    """Games between a chromosome at a fixed depth and a GTP engine."""
    def play_one(game: int, opening: list[int], a_black: bool) -> GameOutcome:
        board = Board()
        black, white = (me, engine) if a_black else (engine, me)
        play(black, white, opening, game, board=board)
        discs = board.disc_count()
        return board.move_list(), discs[0], discs[1], board.final_score()
    return play_one


def run_match(args: argparse.Namespace, context: CommandContext) -> int:
    if args.gtp is not None and args.b is not None:
        raise UserError("give either B or --gtp, not both")
    if args.gtp is None and args.b is None:
        raise UserError("give B (a chromosome or database id) or --gtp COMMAND")
    if args.gtp is not None and args.time is not None:
        raise UserError("--gtp needs --depth, not --time (the engine keeps its own time)")
    if args.depth is None and args.time is None:
        args.depth = defaults.DEPTH        # README: depth 8 where a depth has a default
    if args.depth is not None:
        check_range("--depth", args.depth, 1, MAX_PLIES)
    sprt = sprt_from_args(args)
    openings = match_openings(args) if sprt is None else sprt_openings(args)
    a = resolve_player(args.a, args, context)
    total = args.games if sprt is None else max_games(args)
    output = MatchOutput(args.verbose, args.out, args.force, total)
    t0 = time.perf_counter()
    if sprt is not None:
        print(header(sprt, max_games(args)), flush=True)
    so_far = [MatchScore()]     # the score after the last finished game (an SPRT's: after its last pair)

    def counted_progress(games: int, score: MatchScore) -> None:
        so_far[0] = score
        output.progress(games, score)

    def play_all(play_one: Callable[[int, list[int], bool], GameOutcome]) -> tuple[MatchScore, SprtOutcome | None]:
        try:
            if sprt is None:
                return play_match(play_one, openings, args.games, output.line, counted_progress), None

            def play_counted(game: int, opening: list[int], a_black: bool) -> GameOutcome:
                result = play_one(game, opening, a_black)
                so_far[0] = so_far[0].add(result[3] if a_black else -result[3])
                output.progress(game + 1)
                return result
            outcome, score = play_sprt(play_counted, openings, sprt, output.line)
            return score, outcome
        finally:
            output.close()

    def stop_on_sigterm(_signum: int, _frame: object) -> None:
        raise MatchStopped

    previous = signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        with interruptible():       # Ctrl-C stops a match even one started with SIGINT ignored (cmd & in a script)
            return finish_match(args, context, a, output, play_all, t0, sprt, openings)
    except (KeyboardInterrupt, MatchStopped) as exc:
        status = INTERRUPTED_STATUS[signal.SIGTERM if isinstance(exc, MatchStopped) else signal.SIGINT]
        score = so_far[0]
        print(f"interrupted after {counted(score.games, 'game')} "
              f"({'SIGTERM' if status == 143 else 'Ctrl-C'}): A {score.points:g} - "
              f"{score.games - score.points:g} B", flush=True)
        if score.games:
            print(summary(score, (score.games + 1) // 2), flush=True)
            print(verdict(score), flush=True)
        return status
    finally:
        signal.signal(signal.SIGTERM, previous)


def finish_match(args: argparse.Namespace, context: CommandContext, a: Individual, output: MatchOutput,
                 play_all: Callable[[Callable[[int, list[int], bool], GameOutcome]],
                                    tuple[MatchScore, SprtOutcome | None]],
                 t0: float, sprt: Sprt | None, openings: list[list[int]]) -> int:
    """Play the match (``play_all``) and print its result and verdict."""
    if args.gtp is not None:
        me = ChromosomePlayer(a, args.depth, args.exact, patterns=args.patterns)
        a_note, b_text = patterns_note(me.searcher.evaluator), args.gtp
        engine = GtpPlayer(args.gtp)
        try:
            score, outcome = play_all(gtp_games(me, engine))
        finally:
            engine.close()
    else:
        b = resolve_player(args.b, args, context)
        limits = {"depth": args.depth, "time": args.time, "exact_empties": args.exact}
        ea = Engine(evaluator_of(a, args.patterns), **limits)
        eb = Engine(evaluator_of(b, args.patterns), **limits)
        a_note, b_text = patterns_note(ea.evaluator), f"{shown_as(args.b, b)}{patterns_note(eb.evaluator)}"
        score, outcome = play_all(chromosome_games(ea, eb))
    limit = f"depth {args.depth}" if args.depth is not None else f"{args.time:g} s a game"
    searched_by = "A" if args.gtp is not None else "both"
    print(f"A = {shown_as(args.a, a)}{a_note}\nB = {b_text}\n{searched_by}: {limit}, exact {args.exact}; "
          f"openings drawn without replacement from distinct-{args.random_plies} (seed {args.seed})\n"
          f"A {score.points:g} - {score.games - score.points:g} B "
          f"({counted(score.games, 'game')} in {duration(time.perf_counter() - t0)})")
    if sprt is None or outcome is None:
        print(summary(score, len(openings)))
        print(verdict(score))
    else:
        print(sprt_summary(sprt, outcome, score, max_games(args)))
    return 0

"""``match --sprt ELO0 ELO1``: play game pairs until the sequential test
(:mod:`genethello.core.play.sprt`, pentanomial, logistic Elo) accepts H0 or H1,
or ``--max-games`` is reached.

Each pair is one opening played with A black then A white; the pairs'
openings are distinct (:func:`genethello.core.play.openings.distinct_openings`),
drawn up front for ``--max-games`` so that a cap the openings cannot fill
is refused before any game is played.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator

from genethello.core.cli.arguments import number_type
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import signed
from genethello.core.play.openings import TooFewOpeningsError, distinct_openings
from genethello.core.play.scoring import MatchScore, points_from_margin
from genethello.core.play.sprt import Pentanomial, Sprt, SprtOutcome, elo_estimate, run_sprt

DEFAULT_MAX_GAMES = 2000
"""The cap on an SPRT's games when --max-games is not given: 1,000 pairs,
within the 1,773 openings of the default ``distinct-6``; a test between
bounds 10 Elo apart often needs that many."""

DEFAULT_ERROR_RATE = 0.05
"""--alpha and --beta when not given (Fishtest's and fastchess's default)."""

GameOutcome = tuple[str, int, int, int]
"""One finished game: its moves, Black's and White's discs, Black's margin
(as :data:`genethello.core.cli.match_command.GameOutcome`)."""


def finite_float(text: str) -> float:
    """argparse type: a finite number (an Elo bound)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def add_sprt_options(parser: argparse.ArgumentParser) -> None:
    """``--sprt ELO0 ELO1``, ``--alpha``, ``--beta`` and ``--max-games``."""
    group = parser.add_argument_group("sequential test (instead of a fixed number of games)")
    group.add_argument("--sprt", nargs=2, type=finite_float, metavar=("ELO0", "ELO1"),
                       help="play game pairs until H0 (A is ELO0 stronger) or H1 (ELO1 stronger) is accepted: "
                            "the pentanomial SPRT in logistic Elo, e.g. --sprt 0 20")
    group.add_argument("--alpha", type=float, metavar="A",
                       help=f"chance of accepting H1 when H0 holds (default: {DEFAULT_ERROR_RATE:g})")
    group.add_argument("--beta", type=float, metavar="B",
                       help=f"chance of accepting H0 when H1 holds (default: {DEFAULT_ERROR_RATE:g})")
    group.add_argument("--max-games", type=number_type(int, 2), metavar="N",
                       help=f"stop with neither hypothesis after N games, an even number (default: "
                            f"{DEFAULT_MAX_GAMES})")


def sprt_from_args(args: argparse.Namespace) -> Sprt | None:
    """The test the options ask for, or None without --sprt.

    Raises:
        ValueError: in one line, for bounds or error rates the test cannot
            take, an odd --max-games, --games beside --sprt, or the sprt
            options without --sprt.
    """
    if args.sprt is None:
        given = [name for name in ("alpha", "beta", "max_games") if getattr(args, name) is not None]
        if given:
            raise UserError(f"--{given[0].replace('_', '-')} goes with --sprt ELO0 ELO1")
        return None
    if args.games != defaults.GAMES:
        raise UserError("--games does not apply to --sprt, which plays pairs until the test decides: "
                         "cap it with --max-games")
    if args.max_games is not None and args.max_games % 2:
        raise UserError(f"--max-games must be even (games come in pairs, one opening with each colour), "
                         f"got {args.max_games}")
    alpha = DEFAULT_ERROR_RATE if args.alpha is None else args.alpha
    beta = DEFAULT_ERROR_RATE if args.beta is None else args.beta
    return Sprt(args.sprt[0], args.sprt[1], alpha, beta)


def max_games(args: argparse.Namespace) -> int:
    return DEFAULT_MAX_GAMES if args.max_games is None else int(args.max_games)


def sprt_openings(args: argparse.Namespace) -> list[list[int]]:
    """One distinct opening for each pair --max-games allows.

    Raises:
        ValueError: in one line, when the random plies do not give that many.
    """
    pairs = max_games(args) // 2
    try:
        return distinct_openings(pairs, args.random_plies, args.seed)
    except TooFewOpeningsError:
        raise UserError(
            f"--max-games {max_games(args)} needs {pairs} different openings and --random-plies "
            f"{args.random_plies} does not give that many (use --random-plies 7, or fewer --max-games)") from None


def header(sprt: Sprt, games: int) -> str:
    """The test in one line: hypotheses, error rates, LLR bounds, cap."""
    return (f"SPRT on game pairs (pentanomial), logistic Elo: H0 Elo {sprt.elo0:g}, H1 Elo {sprt.elo1:g}, "
            f"alpha {sprt.alpha:g}, beta {sprt.beta:g}: LLR bounds [{signed(sprt.lower)}, {signed(sprt.upper)}], "
            f"at most {games} games")


def pair_line(sprt: Sprt, counts: Pentanomial, llr: float, pair_points: float) -> str:
    """'pair 12 (24 games): A 1.5 of 2, LLR +1.23 [-2.94, +2.94], Elo +35.2
    [+10.1, +60.3], pairs 0/1/5/4/2'."""
    return (f"pair {counts.pairs} ({counts.games} games): A {pair_points:g} of 2, LLR {signed(llr)} "
            f"[{signed(sprt.lower)}, {signed(sprt.upper)}], Elo {elo_estimate(counts)}, pairs {counts}")


def verdict(sprt: Sprt, outcome: SprtOutcome, games: int) -> str:
    """'H1 accepted after 24 games (12 pairs): LLR +2.98 >= +2.94', or H0,
    or 'neither at --max-games N'."""
    played = f"{outcome.counts.games} games ({outcome.counts.pairs} pairs)"
    if outcome.decision == "H1":
        return f"H1 accepted after {played}: LLR {signed(outcome.llr)} >= {signed(sprt.upper)}"
    if outcome.decision == "H0":
        return f"H0 accepted after {played}: LLR {signed(outcome.llr)} <= {signed(sprt.lower)}"
    return (f"neither at --max-games {games}: LLR {signed(outcome.llr)} within "
            f"[{signed(sprt.lower)}, {signed(sprt.upper)}] after {played}")


def play_sprt(play_one: Callable[[int, list[int], bool], GameOutcome], openings: list[list[int]], sprt: Sprt,
              report: Callable[[str], None]) -> tuple[SprtOutcome, MatchScore]:
    """Pairs on ``openings`` (A black, then A white: ``play_one(game,
    opening, a_black)``) until the test decides or the openings run out,
    each pair reported in one line; the test's outcome and A's W/D/L."""
    score = MatchScore()
    last_points = 0.0

    def pairs() -> Iterator[float]:
        nonlocal score, last_points
        for pair, opening in enumerate(openings):
            last_points = 0.0
            for a_black in (True, False):
                black_margin = play_one(2 * pair + (0 if a_black else 1), opening, a_black)[3]
                margin = black_margin if a_black else -black_margin
                score = score.add(margin)
                last_points += points_from_margin(margin)
            yield last_points

    outcome = run_sprt(sprt, pairs(), len(openings),
                       lambda counts, llr: report(pair_line(sprt, counts, llr, last_points)))
    return outcome, score


def summary(sprt: Sprt, outcome: SprtOutcome, score: MatchScore, games: int) -> str:
    """The verdict, then A's Elo estimate and W/D/L."""
    return (f"{verdict(sprt, outcome, games)}\n"
            f"A's Elo advantage {elo_estimate(outcome.counts)} 95% (logistic, from the pairs), "
            f"W/D/L {score.wins}/{score.draws}/{score.losses}, pairs by A's points 0/0.5/1/1.5/2: {outcome.counts}")

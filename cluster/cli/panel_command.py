"""``genethello panel``: any player against a fixed strength panel, with one
rating on the panel's scale.

The player (named as ``match`` names it: a chromosome, a shipped network,
a network file, an id or network text in ``--db``) plays every panel
member the same openings of an opening set, each with both colours, all at
``--depth`` with ``--exact``; the named external engines play it here. Each
member's line shows its anchored rating, the player's score with its 95%
interval and the rating that score shows; the last lines give the player's
one rating against them all, with its interval
(:mod:`genethello.cluster.measures.panel` decides who plays and how the
anchors are read, :mod:`genethello.cluster.measures.anchored_rating` rates).
The games play in this process, or on Ray workers with ``--workers N`` or
``--address``; the result is the same.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from genethello.cluster.measures.anchored_rating import (
    AnchoredRating,
    AnchoredResult,
    anchored_rating,
    format_rating,
    performance,
)
from genethello.cluster.measures.panel import (
    ANCHORS_FILE,
    DEFAULT_MEMBERS,
    AnchorTable,
    PanelError,
    PanelMember,
    anchors_at,
    panel_members,
    panel_openings,
    panel_schedule,
    shipped_anchors,
    tally,
)
from genethello.core.cli.arguments import MAX_PLIES, PLAYER_HELP, add_db_option, check_range, positive_int
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.families.registry import Individual
from genethello.core.frontend.wording import counted
from genethello.core.play.openings import DEFAULT_SET
from genethello.core.play.scoring import MatchScore

DEFAULT_GAMES = 400
DEFAULT_DEPTH = 4
DEFAULT_EXACT = 8


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("panel", help="measure a player against a fixed strength panel, with one anchored rating",
                       description="PLAYER plays every member of a fixed panel (by default "
                                   f"{', '.join(DEFAULT_MEMBERS)}; external GTP engines only when named with "
                                   "--engine) the same openings with both colours, at one depth. Prints each "
                                   "score with its 95%% interval beside the member's anchored rating and the "
                                   "rating the score shows, then PLAYER's one rating on the panel's scale "
                                   "(Bradley-Terry, p_1_10 = 0). --workers N or --address plays on Ray.")
    p.add_argument("player", metavar="PLAYER", help=f"the player: {PLAYER_HELP}")
    p.add_argument("--depth", type=positive_int, default=DEFAULT_DEPTH, metavar="N",
                   help=f"plies per move, for PLAYER and the panel's players (default: {DEFAULT_DEPTH})")
    p.add_argument("--exact", type=int, default=DEFAULT_EXACT, metavar="E",
                   help=f"solve exactly at E or fewer empty squares (default: {DEFAULT_EXACT})")
    p.add_argument("--games", type=positive_int, default=DEFAULT_GAMES, metavar="K",
                   help=f"games against each member, even: K/2 openings with both colours (default: {DEFAULT_GAMES})")
    p.add_argument("--openings", default=DEFAULT_SET, metavar="SET",
                   help=f"opening set, drawn without replacement (default: {DEFAULT_SET})")
    p.add_argument("--seed", type=int, default=0, metavar="X", help="seed of the openings' draw (default: 0)")
    p.add_argument("--member", action="append", metavar="PLAYER",
                   help="a panel player instead of the built-in ones (repeat for several; named as PLAYER)")
    p.add_argument("--engine", action="append", default=[], metavar="COMMAND",
                   help="an external GTP engine to add to the panel, e.g. 'gtp-rhino -l 3' (repeatable; "
                        "played in this process)")
    add_db_option(p)
    p.add_argument("--workers", type=positive_int, metavar="N",
                   help="worker processes on Ray (default: none, the games play in this process)")
    p.add_argument("--address", metavar="ADDR", help="play on the Ray cluster at this address, HOST:PORT or auto")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(handler=takes_context(run_panel))


@dataclass(frozen=True)
class PanelLine:
    """One member's result."""

    member: PanelMember
    score: MatchScore
    anchor: str                       # '+85 ± 20', or '-' without an anchor
    shows: AnchoredRating | None      # the rating the score shows


def _check(args: argparse.Namespace) -> None:
    check_range("--depth", args.depth, 1, MAX_PLIES)
    check_range("--exact", args.exact, 0, MAX_PLIES)
    if args.games < 2 or args.games % 2:
        raise PanelError(f"--games {args.games}: must be even and at least 2 "
                         "(each opening is played with both colours)")
    if args.seed < 0:
        raise PanelError(f"--seed {args.seed}: must be >= 0")


def _check_engines(commands: list[str]) -> None:
    """Start and close each engine once, so that a missing program is one
    line before any game."""
    from genethello.core.gtp.gtp_player import GtpPlayer

    for command in commands:
        GtpPlayer(command).close()


def _same(a: Individual, b: Individual) -> bool:
    from genethello.core.families.registry import family_of

    return str(a) == str(b) and family_of(a).storage(a).payload == family_of(b).storage(b).payload


def play_panel(args: argparse.Namespace, candidate: Individual, members: list[PanelMember],
               individuals: list[Individual]) -> tuple[list[MatchScore], int]:
    """The candidate's score against each member (players on the executor,
    engines here) and the workers that played."""
    from genethello.cluster.cli.quiet_ray import executor_for
    from genethello.cluster.measures.panel_games import entrant, play_engine, play_players

    openings = panel_openings(args.openings, args.seed, args.games)
    players = [i for i, m in enumerate(members) if not m.engine]
    scores: dict[int, MatchScore] = {}
    schedule = panel_schedule(len(players), openings)
    executor = executor_for(args.workers or 1, args.address)
    workers = executor.workers
    if not args.quiet:
        print(f"genethello panel: {args.games * len(members)} games against {len(members)} players "
              f"on {workers} worker{'s' if workers != 1 else ''}", file=sys.stderr, flush=True)
    try:
        margins = play_players(executor, entrant(candidate, args.depth, args.exact),
                               [entrant(individuals[i], args.depth, args.exact) for i in players], schedule)
    finally:
        executor.close()
    assert margins is not None
    for place, score in zip(players, tally(len(players), schedule, margins), strict=True):
        scores[place] = score
    one = panel_schedule(1, openings)
    for i, member in enumerate(members):
        if member.engine:
            scores[i] = tally(1, one, play_engine(candidate, member.name, args.depth, args.exact, one))[0]
    return [scores[i] for i in range(len(members))], workers


def panel_lines(members: list[PanelMember], scores: list[MatchScore], table: AnchorTable | None
                ) -> tuple[list[PanelLine], AnchoredRating | None]:
    """Each member's line and the candidate's one rating (None without
    anchors for any member)."""
    lines = []
    results = []
    for member, score in zip(members, scores, strict=True):
        anchor = table.ratings.get(member.key) if table is not None else None
        if anchor is None:
            lines.append(PanelLine(member, score, "-", None))
            continue
        result = AnchoredResult(anchor.rating, score.games, score.points, anchor.stderr)
        results.append(result)
        shown = f"{anchor.rating:+.0f} ± {anchor.stderr:.0f}" if anchor.stderr else f"{anchor.rating:+.0f}"
        lines.append(PanelLine(member, score, shown,
                               performance(anchor.rating, score.games, score.points, anchor.stderr)))
    return lines, anchored_rating(results) if results else None


def format_lines(lines: list[PanelLine]) -> list[str]:
    """The table: member, its anchored rating, games, W/D/L, score [95%],
    the rating the score shows [95%]."""
    width = max(len("opponent"), *(len(line.member.key) for line in lines))
    out = [f"{'opponent':<{width}}  {'anchored':>10}  {'games':>5}  {'W/D/L':>11}  {'score [95%]':<21}  "
           f"shows [95%]"]
    for line in lines:
        low, high = line.score.interval
        score = f"{line.score.score:.1%} [{low:.1%}, {high:.1%}]"
        wdl = f"{line.score.wins}/{line.score.draws}/{line.score.losses}"
        shows = format_rating(line.shows) if line.shows is not None else "-"
        out.append(f"{line.member.key:<{width}}  {line.anchor:>10}  {line.score.games:>5}  {wdl:>11}  "
                   f"{score:<21}  {shows}")
    return out


def _stored_at() -> str:
    at = sorted({(t.depth, t.exact) for t in shipped_anchors()})
    return ", ".join(f"depth {d} exact {e}" for d, e in at) or "none"


def run_panel(args: argparse.Namespace, context: CommandContext) -> int:
    _check(args)
    candidate = context.individual(args.player, args.db)
    members = panel_members(args.member if args.member else DEFAULT_MEMBERS, args.engine)
    individuals = [context.individual(m.name, args.db) if not m.engine else candidate for m in members]
    itself = [m for m, i in zip(members, individuals, strict=True) if not m.engine and _same(i, candidate)]
    kept = [(m, i) for m, i in zip(members, individuals, strict=True) if m not in itself]
    if not kept:
        raise PanelError(f"{args.player} is the only panel member: nobody left to play")
    members, individuals = [m for m, _ in kept], [i for _, i in kept]
    _check_engines([m.name for m in members if m.engine])
    table = anchors_at(args.depth, args.exact)
    t0 = time.perf_counter()
    scores, workers = play_panel(args, candidate, members, individuals)
    seconds = time.perf_counter() - t0
    lines, rating = panel_lines(members, scores, table)
    shown = args.player if args.player == str(candidate) else f"{args.player} ({candidate})"
    openings = counted(args.games // 2, "opening")
    print(f"{shown} at depth {args.depth}, exact {args.exact}: {openings} of {args.openings} (seed {args.seed}) "
          "against each, with both colours")
    for line in format_lines(lines):
        print(line)
    for member in itself:
        anchor = table.ratings.get(member.key) if table is not None else None
        note = f" (its anchored rating {anchor.rating:+.0f} ± {anchor.stderr:.0f})" if anchor is not None else ""
        print(f"{member.key}: the player itself, left out{note}")
    if rating is None or table is None:
        print(f"rating: none, no anchored ratings for these players at depth {args.depth}, exact {args.exact} "
              f"(stored: {_stored_at()}; {ANCHORS_FILE.name})")
    else:
        unanchored = [line.member.key for line in lines if line.shows is None]
        left = f"; not rated against {', '.join(unanchored)} (no anchor)" if unanchored else ""
        print(f"rating {format_rating(rating)} 95%, {rating.games} games: Bradley-Terry on the panel's scale "
              f"(p_1_10 = 0), anchors measured at depth {table.depth}, exact {table.exact}{left}")
    print(f"played in {seconds:.1f} s on {workers} worker{'s' if workers != 1 else ''}")
    return 0

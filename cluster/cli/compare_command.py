"""``genethello compare``: the champions of several runs on one rating scale.

The champions (each run's hall top, or top ``--top K``; a run without a
hall gives its best by Elo) of the runs of one or more databases play a
round robin on the workers, each with its own run's settings, and one
Bradley–Terry fit rates them all, anchored at one of them
(:mod:`genethello.cluster.measures.compare` decides; this module reads, plays and
formats). The databases are only read, and closed before the first game;
the result goes to a file of its own, never overwritten without
``--force``. The result is a function of the inputs and the seed alone:
the file holds no time, host or worker count.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genethello.cluster.cli.run_commands import add_cluster_options, open_existing
from genethello.cluster.fitness.matches import Matches, MatchOutcome, Pairing, PlaySetting, Side
from genethello.cluster.measures.compare import (
    CompareInputError,
    ComparePairing,
    CompareRow,
    compare_openings,
    compare_rows,
    compare_schedule,
    compare_specs,
    player_settings,
    run_tags,
)
from genethello.core.engine.squares import join_move_list
from genethello.core.play.openings import DEFAULT_SET

if TYPE_CHECKING:
    from genethello.cluster.db import Database

#: Games each pair of players plays when --games is not given (50 openings,
#: both colours): a pair's difference to about ±70 Elo (95%); at 20 games a
#: field of quick.toml's champions spread over ±130 Elo by chance.
DEFAULT_GAMES_PER_PAIR = 100


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="rate the champions of several runs on one scale (a round robin)",
                       description="The hall-of-fame champions of several runs (of one or more databases, "
                                   "any chromosome family) play a round robin, each with its own run's "
                                   "settings (depth, exact endgame, algorithm, pattern table: in a game "
                                   "between runs of different depths each side searches at its own), "
                                   "and one Bradley-Terry fit rates them, relative to an anchor player. "
                                   "The databases are only read; the result is written to a file of its own. "
                                   "--workers 1 plays in this process, without Ray.")
    p.add_argument("--db", action="append", required=True, metavar="FILE",
                   help="a run database (repeat for several)")
    p.add_argument("--runs", nargs="+", metavar="NAME",
                   help="compare only the runs of these names (default: every run of each database "
                        "that has a finished generation)")
    p.add_argument("--top", type=int, default=1, metavar="N",
                   help="champions per run: the top N of its hall (by Elo without a hall) (default: 1)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES_PER_PAIR, metavar="N",
                   help=f"games per pair of players, even: N/2 openings, each with both colours "
                        f"(default: {DEFAULT_GAMES_PER_PAIR})")
    p.add_argument("--openings", default=DEFAULT_SET, metavar="SET",
                   help=f"opening set: distinct-N, every position N plies deep, one per symmetry class, "
                        f"drawn without replacement (default: {DEFAULT_SET})")
    p.add_argument("--seed", type=int, default=1, metavar="X", help="seed of the openings' draw (default: 1)")
    p.add_argument("--player", action="append", default=[], metavar="PLAYER",
                   help="a fixed player to add to the field (a chromosome text such as p_1_10, a shipped network "
                        "such as all-2-league, or a network file), searching with the first run's settings; "
                        "repeat for several; with --anchor PLAYER the runs are rated against it")
    p.add_argument("--anchor", metavar="PLAYER",
                   help="rate relative to this player (its label, e.g. quick#12, or its chromosome text); "
                        "(default: the first run's best)")
    p.add_argument("--depth", type=int, metavar="N",
                   help="plies per move for every player instead of its run's games.depth")
    p.add_argument("--exact", dest="exact_empties", type=int, metavar="E",
                   help="solve exactly at E empties for every player instead of its run's games.exact_empties")
    p.add_argument("--out", type=Path, metavar="FILE",
                   help="result file, JSON, never overwritten without --force (default: ./compare-<UTC time>.json)")
    p.add_argument("--force", action="store_true", help="overwrite an existing result file")
    p.add_argument("--json", action="store_true", help="print the result as JSON instead of a table")
    add_cluster_options(p)
    p.set_defaults(handler=run_compare)


@dataclass(frozen=True)
class ComparePlayer:
    """A player of the field: its label, where it comes from, how it plays."""

    label: str
    db: str
    run: str
    player_id: int | None     # None for a fixed player (--player)
    ranked_by: str
    entrant: Side


def _check_options(args: argparse.Namespace) -> None:
    """One line for each kind of bad option value (exit status 2)."""
    if args.top < 1:
        raise CompareInputError(f"--top {args.top}: must be at least 1 (champions per run)")
    if args.games < 2 or args.games % 2:
        raise CompareInputError(f"--games {args.games}: must be even and at least 2 "
                                "(each opening is played with both colours)")
    if args.workers is not None and args.workers < 1:
        raise CompareInputError(f"--workers {args.workers}: must be at least 1")
    if args.seed < 0:
        raise CompareInputError(f"--seed {args.seed}: must be >= 0")
    if args.depth is not None and not 1 <= args.depth <= 60:
        raise CompareInputError(f"--depth {args.depth}: must be in 1..60")
    if args.exact_empties is not None and not 0 <= args.exact_empties <= 30:
        raise CompareInputError(f"--exact {args.exact_empties}: must be in 0..30")
    if len({str(Path(db).expanduser().absolute()) for db in args.db}) != len(args.db):
        raise CompareInputError("--db: the same database is named twice")


def _out_path(args: argparse.Namespace) -> Path:
    """The result file, refused up front if it exists (without --force) or
    its folder does not."""
    out: Path = args.out or Path(f"compare-{datetime.now(UTC):%Y%m%d-%H%M%S}.json")
    if out.exists() and not args.force:
        raise CompareInputError(f"result file {out} exists already: pass --out FILE for another, "
                                "or --force to overwrite it")
    if not out.parent.is_dir():
        raise CompareInputError(f"result file {out}: folder {out.parent} does not exist")
    return out


def open_read_only(target: str) -> Database:
    """An existing run database, opened to be read only: one whose schema
    is older than this genethello's (which opening would upgrade, a write)
    is refused, with what to type to upgrade it."""
    from genethello.cluster.db import head_revision
    from genethello.cluster.db.database import check_database_file, sqlite_path

    path = sqlite_path(target)
    if path.is_file():
        revision = check_database_file(path, create=False, immutable=not os.access(path.parent, os.W_OK),
                                       writing=False)
        if revision is not None and revision != head_revision():
            raise CompareInputError(f"database {target} is at schema revision {revision!r}, older than this "
                                    f"genethello's {head_revision()!r}: compare only reads, so it does not "
                                    f"upgrade it; 'genethello status --db {target}' upgrades it first")
    return open_existing(target)


def read_field(args: argparse.Namespace) -> tuple[list[ComparePlayer], list[str]]:
    """The players of every selected run, database by database, run by run
    (by id), best first within a run, and why runs were skipped (without
    ``--runs``, those with no finished generation). Each database is closed
    once read."""
    from genethello.cluster.reads import NoFinishedGenerationError, list_runs, run_champions
    from genethello.core.evaluation.pattern_table import resolve_version

    wanted = list(dict.fromkeys(args.runs or ()))
    found: set[str] = set()
    selected = []
    skipped: list[str] = []
    for target in args.db:
        db = open_read_only(target)
        try:
            runs = [listing.run for listing in list_runs(db)]
            if wanted:
                runs = [run for run in runs if run.name in wanted]
            usable = []
            notes: list[str] = []
            for run in runs:
                found.add(run.name)
                try:
                    usable.append(run_champions(db, run, args.top))
                except NoFinishedGenerationError as exc:
                    if wanted:
                        raise
                    notes.append(str(exc))
            if not wanted and not usable:
                raise CompareInputError(f"{target} holds no run with a finished generation")
            skipped += notes
            selected += [(target, champions) for champions in usable]
        finally:
            db.dispose()
    missing = [name for name in wanted if name not in found]
    if missing:
        raise CompareInputError(f"--runs: no run named {missing[0]!r} in {', '.join(args.db)}")
    tags = run_tags([(target, champions.run.name) for target, champions in selected])
    players = []
    for (target, champions), tag in zip(selected, tags, strict=True):
        patterns = resolve_version(champions.pattern_version) if champions.pattern_version else ""
        settings = player_settings(champions.config, patterns, args.depth, args.exact_empties)
        for champion in champions.champions:
            players.append(ComparePlayer(f"{tag}#{champion.player_id}", target, champions.run.name,
                                         champion.player_id, champions.ranked_by,
                                         Side(champion.text, champion.payload, settings)))
    return players + fixed_players(args.player, players), skipped


#: The run column of a fixed player (--player), which belongs to no run.
FIXED = "(fixed)"


def fixed_players(names: list[str], field: list[ComparePlayer]) -> list[ComparePlayer]:
    """The players ``--player`` names (chromosome texts, shipped networks,
    network files: :func:`~genethello.core.families.individual_names.resolve_individual`),
    labelled by the name as given, each searching with the settings of the
    field's first player (its run's, or the common --depth/--exact)."""
    from genethello.core.families.individual_names import resolve_individual
    from genethello.core.families.registry import family_of

    if not names:
        return []
    if not field:
        raise CompareInputError("--player: a fixed player plays with the first run's settings, and no run was read")
    settings = field[0].entrant.setting
    labels = {p.label for p in field}
    players = []
    for name in names:
        if name in labels:
            raise CompareInputError(f"--player {name!r}: named twice, or a run's player already has that label")
        try:
            individual = resolve_individual(name)
        except ValueError as exc:
            raise CompareInputError(f"--player {name!r}: {exc}") from None
        payload = family_of(individual).storage(individual).payload
        players.append(ComparePlayer(name, "", FIXED, None, "named", Side(str(individual), payload, settings)))
        labels.add(name)
    return players


def _anchor(players: list[ComparePlayer], wanted: str | None) -> int:
    """The anchor's place in the field: the player labelled (or with the
    chromosome text) ``wanted``; the first player by default."""
    if wanted is None:
        return 0
    for i, player in enumerate(players):
        if player.label == wanted:
            return i
    by_text = [i for i, player in enumerate(players) if player.entrant.text == wanted]
    if len(by_text) == 1:
        return by_text[0]
    known = ", ".join(player.label for player in players)
    if by_text:
        raise CompareInputError(f"--anchor {wanted!r}: that chromosome is several players; name one of {known}")
    raise CompareInputError(f"--anchor {wanted!r} is not one of the players ({known})")


def _check_playable(players: list[ComparePlayer]) -> None:
    """Build each player's evaluator here once, so that a text or pattern
    table the workers could not use is refused in one line before any game."""
    from genethello.core.families.registry import evaluator_of, parse_individual

    for player in players:
        e = player.entrant
        evaluator_of(parse_individual(e.text, e.payload), e.setting.patterns or None)


def play(specs: list[Pairing], task: Matches, args: argparse.Namespace
         ) -> tuple[list[int], int, float]:
    """Black's margin of every game, in schedule order, the workers that
    played them and the seconds the games took (Ray's start not counted):
    in this process with ``--workers 1`` (no Ray), else on Ray (started
    here, or the cluster at ``--address``)."""
    from genethello.cluster.cli.quiet_ray import executor_for
    from genethello.cluster.work import batches_of

    executor = executor_for(args.workers, args.address)
    if not args.quiet:
        print(f"genethello compare: {len(specs)} games among {len(task.sides)} players "
              f"on {executor.workers} worker{'s' if executor.workers != 1 else ''}", file=sys.stderr, flush=True)
    margins: dict[int, int] = {}
    started = time.perf_counter()
    try:
        for outcomes in executor.run(task, batches_of(specs), lambda: False):
            for outcome in outcomes:
                assert isinstance(outcome, MatchOutcome)
                margins[outcome.index] = outcome.score
    finally:
        executor.close()
    return [margins[spec.index] for spec in specs], executor.workers, time.perf_counter() - started


def _settings_json(settings: PlaySetting) -> dict[str, Any]:
    return {"depth": settings.depth, "exact_empties": settings.exact_empties, "algorithm": settings.algorithm,
            "tt_bits": settings.tt_bits, "patterns": settings.patterns or None}


def result_document(args: argparse.Namespace, players: list[ComparePlayer], anchor: int,
                    openings: list[tuple[int, ...]], schedule: list[ComparePairing], margins: list[int],
                    rows: list[CompareRow]) -> dict[str, Any]:
    """The result as JSON: the inputs, the players, every game and the
    table; nothing that depends on the time or the workers."""
    return {
        "command": "compare",
        "databases": list(args.db),
        "runs": list(args.runs) if args.runs else None,
        "top": args.top,
        "games_per_pair": args.games,
        "openings": args.openings,
        "seed": args.seed,
        "depth": args.depth,
        "exact_empties": args.exact_empties,
        "anchor": players[anchor].label,
        "rating": "Bradley-Terry, Elo relative to the anchor = 0, ± one standard error of the difference",
        "opening_moves": [join_move_list(list(moves)) for moves in openings],
        "players": [{
            "label": p.label, "db": p.db, "run": p.run, "player_id": p.player_id, "ranked_by": p.ranked_by,
            "chromosome": p.entrant.text, "settings": _settings_json(p.entrant.setting),
        } for p in players],
        "table": [{
            "rank": r.rank, "player": players[r.player].label, "run": players[r.player].run,
            "db": players[r.player].db, "rating": r.rating, "stderr": r.stderr, "games": r.games,
            "wins": r.wins, "draws": r.draws, "losses": r.losses,
        } for r in rows],
        "games": [{
            "game": p.game_index, "black": players[p.black].label, "white": players[p.white].label,
            "opening": p.opening, "margin": margin,
        } for p, margin in zip(schedule, margins, strict=True)],
    }


def format_table(players: list[ComparePlayer], rows: list[CompareRow]) -> list[str]:
    """The table's lines: rank, player, run, db, rating ± error, games, W/D/L."""
    width = max(len("player"), *(len(p.label) for p in players))
    run_width = max(len("run"), *(len(p.run) for p in players))
    lines = [f"{'rank':>4}  {'player':<{width}}  {'run':<{run_width}}  {'rating':>12}  {'games':>5}  "
             f"{'W/D/L':>11}  db"]
    for r in rows:
        p = players[r.player]
        rating = f"{r.rating:+.0f} ± {r.stderr:.0f}"
        lines.append(f"{r.rank:>4}  {p.label:<{width}}  {p.run:<{run_width}}  {rating:>12}  {r.games:>5}  "
                     f"{f'{r.wins}/{r.draws}/{r.losses}':>11}  {p.db}")
    return lines


def run_compare(args: argparse.Namespace) -> int:
    _check_options(args)
    out = _out_path(args)
    openings = compare_openings(args.openings, args.seed, args.games)
    players, skipped = read_field(args)
    schedule = compare_schedule(len(players), args.games)
    anchor = _anchor(players, args.anchor)
    _check_playable(players)
    for note in skipped:
        print(f"genethello compare: skipped: {note}", file=sys.stderr)
    task = Matches(tuple(p.entrant for p in players))
    margins, workers, seconds = play(compare_specs(schedule, openings), task, args)
    rows = compare_rows(len(players), schedule, margins, anchor)
    document = result_document(args, players, anchor, openings, schedule, margins, rows)
    text = json.dumps(document, indent=2) + "\n"
    try:
        with open(out, "w" if args.force else "x", encoding="utf-8") as stream:
            stream.write(text)
    except FileExistsError:
        raise CompareInputError(f"result file {out} appeared while the games were played: not overwritten; "
                                "pass --out FILE for another, or --force") from None
    if args.json:
        sys.stdout.write(text)
        print(f"genethello compare: result written to {out}", file=sys.stderr)
        return 0
    common = [f"depth {args.depth}"] if args.depth is not None else []
    common += [f"exact at {args.exact_empties} empties"] if args.exact_empties is not None else []
    how = f"every player at {', '.join(common)}, else its own run's settings" if common else \
        "each player with its own run's settings"
    print(f"{len(schedule)} games ({args.games} a pair, openings {args.openings} seed {args.seed}, {how}); "
          f"Bradley-Terry Elo relative to {players[anchor].label} = 0, ± one standard error")
    for line in format_table(players, rows):
        print(line)
    print(f"played in {seconds:.1f} s on {workers} worker{'s' if workers != 1 else ''}; result written to {out}")
    return 0

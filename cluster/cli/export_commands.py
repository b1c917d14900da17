"""The ``export`` command: a run's stored games as SGF, GGF or move-list files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genethello.cluster.cli.run_commands import add_db_options, open_existing
from genethello.cluster.export.records import EXPORT_FORMATS, export_games
from genethello.cluster.family_traits import traits_of_family
from genethello.cluster.reads import find_run, keeps_game_records, run_family
from genethello.core.cli.arguments import stored_index, stored_int
from genethello.core.frontend.wording import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="write a run's games as SGF, GGF or move-list files")
    add_db_options(p)
    p.add_argument("--generation", type=stored_int, metavar="G", help="only this generation")
    p.add_argument("--game", type=stored_int, metavar="ID", help="only the game with this database id")
    p.add_argument("--pair", type=stored_index, metavar="P",
                   help="with --generation: only the game of this pair index (the PAIR of RUN-gG-pPAIR.sgf), "
                        "the same game in every run of one config and seed, whatever its workers did; a "
                        "database id is not")
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True,
                   help="sgf: one file a game (RUN-gG-pPAIR.sgf); ggf, moves: one file a generation "
                        "(RUN-gG.ggf, RUN-gG.txt), games in schedule order")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write (created if missing)")
    p.add_argument("--force", action="store_true",
                   help="replace files of the same names (without it an existing name refuses the whole "
                        "export); a symbolic link is replaced itself, its target is never written")
    p.set_defaults(handler=run_export)


def run_export(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    if not keeps_game_records(run):
        how = traits_of_family(run_family(run)).player_export.format(db=args.db)
        print(f"run {printable(run.name)}: a run whose fitness is kept as points stores no game moves (fitness "
              f"games are kept as points, hall and League games as results): nothing to export; write a player "
              f"with '{how}'")
        return 0
    summary = export_games(db, run, args.out, args.format, args.generation, args.game, force=args.force,
                           pair=args.pair)
    for _game_id, why in summary.unreadable:
        print(f"warning: {why}", file=sys.stderr)
    print(f"run {printable(run.name)}: {summary.message()} in {args.out}")
    return 0

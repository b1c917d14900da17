"""Commands that drive runs: evolve, resume, stop, runs, status."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from genethello.cluster import reads
from genethello.cluster.breeding.numerics import numeric_versions_json, version_mismatch
from genethello.cluster.cli.measure_words import measure_line
from genethello.cluster.config import RANGES, ClusterConfig, RunConfig
from genethello.cluster.db import Database, DatabaseNotFoundError
from genethello.cluster.db.database import sqlite_path
from genethello.cluster.family_traits import traits_of
from genethello.cluster.reads import find_run
from genethello.cluster.run.coordinator import Coordinator, create_run, stop_file
from genethello.cluster.run.engine_consent import decide_engines
from genethello.cluster.run.frozen_opponents import freeze_champions
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_json, load_config
from genethello.core.engine.build_info import core_hash
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import byte_size, printable

DEFAULT_DB = "genethello.db"


def add_db_options(parser: argparse.ArgumentParser, with_run: bool = True) -> None:
    parser.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                        help=f"database path or sqlite:/// URL (default: ./{DEFAULT_DB})")
    if with_run:
        parser.add_argument("--run", metavar="RUN", help="run name or id (default: the newest run)")


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", metavar="ADDR",
                        help="join the Ray cluster at this address, HOST:PORT or auto (default: start Ray here)")
    parser.add_argument("--workers", type=int, metavar="N", help="worker processes (default: every core)")
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def add_gtp_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--gtp COMMAND``, an external GTP engine, as ``match`` spells it;
    ``--gtp-engine``, its name before, still works (hidden from --help)."""
    parser.add_argument("--gtp", dest="gtp_engine", action="append", default=[], metavar="COMMAND", help=help_text)
    parser.add_argument("--gtp-engine", dest="gtp_engine", action="append", help=argparse.SUPPRESS)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("evolve", help="start a new evolution run")
    p.add_argument("--config", required=True, type=Path, metavar="FILE", help="run configuration (TOML)")
    p.add_argument("--name", help="run name (default: the config's name or file name)")
    add_db_options(p, with_run=False)
    add_cluster_options(p)
    add_gtp_option(p, "an external GTP engine for the yardstick, besides the config's (repeatable)")
    p.set_defaults(handler=run_evolve)

    p = sub.add_parser("resume", help="continue a stopped, converged or finished run")
    add_db_options(p)
    add_cluster_options(p)
    p.add_argument("--max-generations", type=int, metavar="N", help="extend the run to this many generations")
    add_gtp_option(p, "run this external GTP engine of the run's yardstick (the database alone never starts one; "
                      "repeatable)")
    p.add_argument("--drop-engine", action="append", default=[], metavar="COMMAND",
                   help="continue without this external engine of the run (recorded; repeatable)")
    p.add_argument("--allow-core-change", action="store_true",
                   help="go on although this genethello's core differs from the one that played the run "
                        "(its games may differ from then on; recorded in the run)")
    p.add_argument("--allow-numeric-change", action="store_true",
                   help="go on although this install's numpy or cmaes version differs from the run's "
                        "(CMA-ES may breed differently from then on; recorded in the run)")
    p.set_defaults(handler=run_resume)

    p = sub.add_parser("stop", help="ask a running evolution to stop cleanly")
    add_db_options(p)
    p.set_defaults(handler=run_stop)

    p = sub.add_parser("runs", help="list the runs in a database")
    add_db_options(p, with_run=False)
    p.set_defaults(handler=run_list)

    p = sub.add_parser("status", help="where a run stands")
    add_db_options(p)
    p.set_defaults(handler=run_status)


def open_existing(target: str, writable: bool = False) -> Database:
    """An existing run database; ``writable`` when the command writes to it.

    A missing (or empty) one is refused in words a user can act on: the
    path as seen from here, ``--db FILE``, and the database files in this
    folder (a newcomer's first run may have written one of another name)."""
    try:
        return Database.open(target, create=False, writable=writable)
    except DatabaseNotFoundError as exc:
        raise DatabaseNotFoundError(missing_database_message(target, str(exc))) from None


def missing_database_message(target: str, reason: str) -> str:
    """``reason`` (which names the absolute path) with the path shown
    relative to the current folder, and what to type instead."""
    path = sqlite_path(target)
    try:
        shown = f"./{path.relative_to(Path.cwd())}"
    except ValueError:
        shown = str(path)
    found = sorted(p.name for p in Path.cwd().glob("*.db") if p.is_file() and p != path)
    here = (f"database files here: {', '.join(found)}" if found
            else "no database files here; 'genethello evolve --config FILE' starts a run in one")
    return f"{reason.replace(str(path), shown)}: pass --db FILE ({here})"


def setup_log_file(db: Database) -> None:
    """Log to a file beside the database (the run's history of events)."""
    path = db.path.with_name(db.path.name + ".log")
    root = logging.getLogger("genethello")
    if not any(isinstance(h, logging.FileHandler) and Path(h.baseFilename) == path for h in root.handlers):
        handler = logging.FileHandler(path)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.INFO)


def drive(db: Database, run_id: int, args: argparse.Namespace, engines: Sequence[str],
          extend_to: int | None = None, drop_engines: Sequence[str] = (), accept_core: str | None = None,
          accept_numerics: str | None = None) -> int:
    """Play the run (Ray is started or joined only once the coordinator holds
    the run's lease), then print where it ended. ``engines``: the external
    GTP engines the user named for this invocation."""
    from genethello.cluster.cli.quiet_ray import ray_started_quietly, shut_ray_down
    from genethello.cluster.measures.yardstick import measure
    from genethello.cluster.run.executors import RayExecutor, start_ray

    setup_log_file(db)
    progress = Progress(enabled=not args.quiet)

    def make_executor(cluster: ClusterConfig) -> RayExecutor:
        with ray_started_quietly():
            workers = start_ray(args.address, args.workers, private=args.address is None)
        if not args.quiet:
            print(f"run {run_id} ({find_run(db, run_id).name}) on {workers} workers; database {db.path}",
                  flush=True)
        return RayExecutor(workers, cluster.task_seconds, cluster.max_in_flight_per_worker)

    coordinator = Coordinator(db, run_id, None, progress, yardstick=measure, make_executor=make_executor,
                              engines=engines)
    try:
        status = coordinator.run(extend_to=extend_to, drop_engines=drop_engines, accept_core=accept_core,
                                 accept_numerics=accept_numerics)
    except KeyboardInterrupt:
        # A second SIGINT/SIGTERM: out at once (the committed games are
        # intact). Ray's orderly shutdown would wait for its agents; a local
        # run's reaper ends them, a cluster notices its driver is gone.
        print("genethello: interrupted", file=sys.stderr, flush=True)
        logging.shutdown()
        os._exit(130)
    finally:
        shut_ray_down()
    print(f"run {find_run(db, run_id).name}: {status} at generation {find_run(db, run_id).generation}; "
          f"best {coordinator.best_text()}")
    said = measure_line(db, run_id, coordinator.config)
    if said:
        print(said)
    return 0


def check_workers(workers: int | None) -> None:
    """--workers, for evolve and resume alike: absent (every core) or >= 1."""
    if workers is not None and workers < 1:
        raise UserError(f"--workers must be >= 1, got {workers}")


def run_evolve(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    check_workers(args.workers)
    if args.gtp_engine:
        ys = config.yardstick
        config = replace(config, yardstick=replace(ys, gtp_engines=ys.gtp_engines + tuple(args.gtp_engine)))
        config = config_from_json(config.to_json())   # checked as if the file had named them
    db = Database.open(args.db, create=True)
    config = freeze_champions(db, config)     # champion:RUN -> player:ID, the row it is now
    run_id = create_run(db, config, args.name)
    # The config file and the options are the user's own instruction.
    return drive(db, run_id, args, engines=config.yardstick.gtp_engines)


def run_resume(args: argparse.Namespace) -> int:
    check_workers(args.workers)
    low, high = RANGES["stop.max_generations"]
    if args.max_generations is not None and not low <= args.max_generations <= high:
        raise UserError(f"--max-generations must be in {low}..{high:,}, got {args.max_generations}")
    db = open_existing(args.db, writable=True)
    run = find_run(db, args.run)
    if args.max_generations is not None and args.max_generations < run.generation:
        # Stored, it would read "generation 4 of 2": the run has played past it.
        raise UserError(f"--max-generations {args.max_generations}: run {run.name!r} is at generation "
                         f"{run.generation} already (give {run.generation} or more)")
    state = reads.run_state(db, run.id)     # a stored config that does not parse is one line, finished or not
    if run.status == "finished" and (args.max_generations is None or args.max_generations <= run.generation):
        # said before Ray starts (10 s for nothing otherwise)
        print(f"run {run.name}: finished at generation {run.generation}, its last; "
              f"'genethello resume --max-generations {run.generation + 10}' extends it by 10")
        db.dispose()
        return 0
    if args.gtp_engine and not traits_of(state.config.chromosome_type).yardstick_plays_players:
        raise UserError(f"--gtp: run {run.name!r} breeds networks, whose yardstick is the Othello League "
                         "measure alone; 'genethello match' plays its best against an engine")
    decision = decide_engines(run.name, state.config.yardstick.gtp_engines, state.dropped_engines,
                              args.gtp_engine, args.drop_engine)
    installed = core_hash()
    if state.core_hash != installed and not args.allow_core_change:
        raise UserError(f"run {run.name!r} was played by genethello core {state.core_hash[:12]}, this install "
                         f"has core {installed[:12]}: its games may differ from an uninterrupted run's; "
                         "--allow-core-change goes on and records the change")
    numerics = version_mismatch(state.numeric_versions)
    if numerics and not args.allow_numeric_change:
        raise UserError(f"run {run.name!r} was bred with other numeric libraries ({numerics}): its breeding "
                         "may differ from an uninterrupted run's; --allow-numeric-change goes on and records "
                         "the change")
    return drive(db, run.id, args, engines=decision.engines, extend_to=args.max_generations,
                 drop_engines=decision.newly_dropped,
                 accept_core=installed if state.core_hash != installed else None,
                 accept_numerics=numeric_versions_json() if numerics else None)


def run_stop(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    if run.status != "running":
        print(f"run {run.name} is not running (status {run.status})")
        return 0
    stop_file(db, run.id).write_text(f"stop requested at {time.time():.0f}\n")
    print(f"asked run {run.name} to stop; it finishes the games in flight and commits them")
    return 0


def best_so_far(db: Database, run: reads.RunInfo) -> str:
    """The run's best so far in a few words: 'TEXT (hall +43 ± 12)' once the
    hall rated it; else 'TEXT (Elo 1666)', or for a network run, whose
    members carry a performance rating from their fitness games, 'TEXT
    (rating 1677)'; '-' before any player."""
    top = reads.standings(db, run.id, top=1).rows      # by the hall once rated, else by Elo
    if not top:
        return "-"
    if top[0].hall is not None:
        hall = top[0].hall
        return f"{hall.text} (hall {hall.rating:+.0f} ± {hall.stderr:.0f})"
    best = top[0].player
    return f"{best.text} ({reads.rating_name(run)} {best.elo:.0f})"


def stored_size(run: reads.RunInfo) -> str:
    """The population size the run's stored config names, for the list of
    runs: '-' for the type's default, '?' where the stored config does not
    say (a database is data: it may hold anything there)."""
    population = run.config().get("population")
    size = population.get("size", 0) if isinstance(population, dict) else None
    if size == 0:
        return "-"
    return str(size) if isinstance(size, int) and not isinstance(size, bool) and 0 < size < 10**6 else "?"


def run_list(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    print(f"{'id':>3} {'name':<20} {'status':<10} {'gen':>4} {'type':<12} {'P':>4}  {'created':<16}  best so far")
    for listing in reads.list_runs(db):
        run = listing.run
        print(f"{run.id:>3} {printable(run.name):<20} {run.status:<10} {run.generation:>4} "
              f"{run.chromosome_type or '?':<12} {stored_size(run):>4}  "
              f"{run.created_at:%Y-%m-%d %H:%M}  {best_so_far(db, run)}")
    return 0


def database_bytes(path: str | os.PathLike[str]) -> int:
    """The bytes a database takes on disk: its file and its write-ahead log."""
    total = 0
    for name in (os.fspath(path), os.fspath(path) + "-wal"):
        with contextlib.suppress(OSError):       # no log: nothing to add
            total += os.stat(name).st_size
    return total


def run_status(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    gen = reads.current_generation(db, run.id)
    print(f"run {run.id} {printable(run.name)}: {run.status}, generation {run.generation} of "
          f"{run.max_generations} (type {run.chromosome_type or '?'}, seed {run.seed})")
    if gen is not None and gen.status == "playing" and run.status != "running":
        # the generation row stays 'playing' until resume finishes it: no one plays it now
        print(f"generation {gen.number}: not finished, {gen.games_done}/{gen.games_total} games "
              f"(genethello resume goes on with it)")
    elif gen is not None:
        print(f"generation {gen.number}: {gen.status}, {gen.games_done}/{gen.games_total} games")
    print(f"database: {byte_size(database_bytes(db.path))} ({db.path}, every run in it)")
    if run.lease_owner and run.lease_expires and run.lease_expires > time.time():
        print(f"driven by {run.lease_host} pid {run.lease_pid} (lease until {time.ctime(run.lease_expires)})")
    try:
        config: RunConfig | None = reads.run_state(db, run.id).config
    except UserError:           # status shows what it can read: resume and best name a bad stored config
        config = None
    top = reads.standings(db, run.id, top=1).rows      # by the hall once rated, else by Elo
    if top and top[0].hall is not None:
        hall = top[0].hall
        anchor = f", {reads.rating_anchor(config).text()}" if config is not None else ""
        print(f"best so far: {hall.text} hall {hall.rating:+.0f} ± {hall.stderr:.0f}{anchor} "
              f"({hall.games} hall games)")
    elif top and not reads.keeps_game_records(run):
        best = top[0].player    # fitness games are not stored one by one: no W/D/L
        print(f"best so far: {best.text} rating {best.elo:.1f} (its performance in its generation's fitness games)")
    elif top:
        best = top[0].player
        print(f"best so far: {best.text} Elo {best.elo:.1f} (W/D/L {best.wins}/{best.draws}/{best.losses})")
    said = measure_line(db, run.id, config) if config is not None else None
    if said:
        print(said)
    patterns = f", patterns {run.pattern_version}" if run.pattern_version else ""
    print(f"software {run.software_version}, core {run.core_hash[:12]}{patterns}")
    return 0

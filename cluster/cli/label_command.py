"""``genethello patterns label``: label positions for the pattern learner on Ray.

The many-positions side of ``patterns``: the plan, the workers and the
labels file (:mod:`genethello.cluster.run.labelling`); every label comes from
the core's solver or search (:mod:`genethello.core.pattern_learning.position_labels`). The
other ``patterns`` actions (learn, evaluate, show) stay on the core side.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from genethello.core.cli.arguments import non_negative_int, positive_int
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import read_user_file
from genethello.core.pattern_learning.position_labels import DEFAULT_EXACT_EMPTIES, DEFAULT_SEARCH_DEPTH

if TYPE_CHECKING:
    from genethello.cluster.run.labelling import LabelSpec, PlannedPosition
    from genethello.core.pattern_learning.label_file import LabelSettings


def register(psub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    q = psub.add_parser(
        "label", help="label positions with the core's exact margins and deep searches (on Ray; resumable)",
        description="Label positions from the training games of FILE (every --holdout-th line is left "
                    "out) and from self-play with exact final margins (at most --exact-empties empties) "
                    "or the value of a --search-depth search on a pattern table (more empties), on Ray "
                    "workers. The labels file is written in a fixed order: the same settings give the "
                    "same bytes, and running the same command again continues a stopped file.")
    q.add_argument("--games", type=Path, required=True, metavar="FILE",
                   help="move-list file, one finished game per line (.gz ok)")
    q.add_argument("--out", type=Path, required=True, metavar="FILE", help="labels file to write or continue")
    q.add_argument("--address", metavar="ADDR",
                   help="join the Ray cluster at this address, HOST:PORT or auto (default: start Ray here)")
    q.add_argument("--workers", type=positive_int, metavar="N", help="Ray workers to start here (default: every core)")
    q.add_argument("--seed", type=non_negative_int, default=1, metavar="X", help="seed of the draws (default: 1)")
    q.add_argument("--units", type=non_negative_int, metavar="N",
                   help="label the first N games of the plan (training and self-play) and stop; "
                        "a later run with a larger N extends the file (default: all training games)")
    q.add_argument("--exact-empties", type=non_negative_int, default=DEFAULT_EXACT_EMPTIES,
                   help=f"solve positions with at most this many empties (default: {DEFAULT_EXACT_EMPTIES})")
    q.add_argument("--search-depth", type=positive_int, default=DEFAULT_SEARCH_DEPTH,
                   help=f"search depth for the others (default: {DEFAULT_SEARCH_DEPTH})")
    q.add_argument("--patterns", metavar="VERSION",
                   help="pattern table of the searches and self-play (default: the newest installed)")
    q.add_argument("--exact-per-game", type=non_negative_int, default=2,
                   help="positions a game to solve (default: 2)")
    q.add_argument("--search-per-game", type=non_negative_int, default=1,
                   help="positions a game to search (default: 1)")
    q.add_argument("--selfplay-every", type=non_negative_int, default=4, metavar="K",
                   help="one self-play game after every K training games, 0: none (default: 4)")
    q.add_argument("--holdout", type=non_negative_int, default=10, metavar="K",
                   help="leave out lines numbered K, 2K, ..., the validation games (default: 10)")
    q.add_argument("--skip-bad", action="store_true", help="skip bad lines of the games file instead of failing")
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.set_defaults(handler=run_label)


#: The largest labels file continued (a line a position, about 100 bytes:
#: ten million positions).
MAX_LABEL_FILE_BYTES = 1 << 30


def _existing(path: Path, settings: LabelSettings) -> int:
    """How many complete lines ``path`` holds after checking its header
    against ``settings`` (0 for a new file); a torn last line is cut off."""
    from genethello.core.pattern_learning.label_file import LabelFileError, LabelSettings, parse_line

    if not path.exists():
        return 0
    data = read_user_file(path, "labels file", MAX_LABEL_FILE_BYTES)   # a FIFO or device: one line, never a hang
    if not data:
        return 0
    head, sep, body = data.partition(b"\n")
    if not sep:
        raise LabelFileError(f"{path}: not a labels file (no complete header line)")
    stored = LabelSettings.from_header(head.decode("utf-8", "replace") + "\n", str(path))
    if stored != settings:
        differ = [k for k, v in vars(settings).items() if getattr(stored, k) != v]
        raise LabelFileError(f"{path} was labelled with other settings ({', '.join(differ)} differ); "
                             "give the same options to continue it, or another --out")
    complete = body[:body.rfind(b"\n") + 1] if b"\n" in body else b""
    lines = complete.decode("utf-8", "replace").splitlines()
    for number, text in enumerate(lines, start=2):
        row = parse_line(text, f"{path}:{number}")
        if row.index != number - 2:
            raise LabelFileError(f"{path}:{number}: plan index {row.index}, expected {number - 2}")
    if len(complete) != len(body):                    # a line torn by a crash: drop it
        with open(path, "r+b") as f:
            f.truncate(len(head) + 1 + len(complete))
    return len(lines)


def run_label(args: argparse.Namespace) -> int:
    from genethello.cluster.cli.quiet_ray import ray_started_quietly
    from genethello.cluster.run.executors import RayExecutor, start_ray
    from genethello.cluster.run.labelling import LabelSpec, OrderedWriter, PositionLabels, label_plan, plan_size
    from genethello.core import pattern_learning as pl
    from genethello.core.evaluation.pattern_table import resolve_version, shared_table
    from genethello.core.pattern_learning.label_file import LabelSettings

    if args.exact_empties > 24:
        raise UserError(f"--exact-empties must be at most 24, got {args.exact_empties}")
    if args.search_depth > 20:
        raise UserError(f"--search-depth must be at most 20, got {args.search_depth}")
    games = pl.read_games(args.games, skip_bad=args.skip_bad)
    version = shared_table(resolve_version(args.patterns)).version
    settings = LabelSettings(args.games.name, games.sha256, args.holdout, args.seed, args.exact_empties,
                             args.search_depth, version, args.exact_per_game, args.search_per_game,
                             args.selfplay_every)
    done = _existing(args.out, settings)
    total = plan_size(games, settings, args.units)
    if done >= total:
        print(f"{args.out}: all {done} positions of the plan are labelled already")
        return 0
    with ray_started_quietly():   # a SIGTERM to the group reaches the driver only; it stops Ray
        workers = start_ray(args.address, args.workers, private=args.address is None)
    executor = RayExecutor(workers, task_seconds=2.0)
    plan = label_plan(games, settings, args.units)
    planned: dict[int, PlannedPosition] = {}
    skipped = 0

    def next_batch(size: int) -> list[LabelSpec]:
        nonlocal skipped
        batch: list[LabelSpec] = []
        for position in plan:
            if position.index < done:
                skipped += 1
                continue
            planned[position.index] = position
            batch.append(LabelSpec(position.index, position.mover, position.other))
            if len(batch) >= size:
                break
        return batch

    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=total, initial=done, unit="pos", desc=f"labelling on {workers} workers",
                   dynamic_ncols=True, smoothing=0.05, file=sys.stderr)
    new = args.out.exists() and args.out.stat().st_size > 0
    task = PositionLabels(settings.exact_empties, settings.search_depth, settings.patterns)
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.default_int_handler)   # stop cleanly, like Ctrl-C
    # Ctrl-C stops it even when it was started with SIGINT ignored (cmd & in a script)
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    stopped = False
    with open(args.out, "a", encoding="utf-8") as stream:
        if not new:
            stream.write(settings.header())
        writer = OrderedWriter(stream, done)
        try:
            for outcomes in executor.run(task, next_batch, lambda: False):
                for outcome in outcomes:
                    written = writer.add(planned.pop(outcome.index), outcome)
                    if bar is not None and written:
                        bar.update(written)
                stream.flush()
        except KeyboardInterrupt:
            stopped = True
        finally:
            stream.flush()
            os.fsync(stream.fileno())
            signal.signal(signal.SIGTERM, previous)
            signal.signal(signal.SIGINT, previous_int)
            if bar is not None:
                bar.close()
            executor.close()
    written = writer.next_index
    if stopped:
        print(f"stopped: {written} of {total} positions labelled in {args.out}; "
              "the same command continues it", file=sys.stderr)
        return 130
    print(f"{args.out}: {written} positions labelled ({settings.patterns} searches at depth "
          f"{settings.search_depth}, exact at <= {settings.exact_empties} empties)")
    return 0

"""The search-player experiment (issue 29): breeding methods at equal wall
time, each run's best so far measured at depth 4 against fixed opponents
at 10%, 50% and 100% of its budget. Prints a markdown table.

Each arm is a config (a file of config/ with keys overridden) run by
``genethello evolve --workers W`` for ``--budget`` seconds of wall time,
then stopped with SIGINT (a run stops cleanly and keeps what it stored).
The best so far at a fraction f of the budget is the best player of the
last generation that finished before f * budget (``generations.best_player_id``:
with a hall, the hall's top). It plays ``genethello match`` at depth 4,
exact 8, from distinct-6 openings (``--random-plies 6``, drawn without
replacement) against each opponent, one interval per cell.

Usage (the table in docs/networks.md):

    python benchmarks/experiment_search_players.py --budget 200 --seeds 1 2 --games 400 --keep /tmp/exp

Arms run two at a time (``--parallel``), one worker each, on this 2-core
machine; the budget is wall time, so a machine busy with other work gives
every arm less. Progress goes to stderr as it happens (each arm's start
and end, each measurement), the table to stdout.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

from genethello.cluster.config import BREEDING_KEY_SECTION

ROOT = Path(__file__).resolve().parents[1]
GENETHELLO = [sys.executable, "-m", "genethello.cluster.cli.main"]

#: config/search-player.toml's keys for learning from the pattern table (its comment says so).
PATTERN_START: dict[str, dict[str, Any]] = {
    "population": {"type": "patterns-v2-s30-w10", "size": 4},
    "breeding": {"learning_start": "patterns-v2-net", "learning_alpha": 0.02, "learning_batch": 400,
                 "learning_depth": 2, "learning_max_depth": 3}}

#: Issue 36 part 4: positions within 12 empties learn their exact score
#: (the setting experiment_targets.py found best from zero).
EXACT_TARGETS: dict[str, Any] = {"learning_exact_targets": 12}

#: Issue 36 part 5: PBT's ready criterion (3 slices of its own, a lead of one
#: standard error), floors under α, λ and ε with a tenth of explores drawn
#: afresh, and the best so far replaced only through the SPRT gate at depth 4.
PART_5: dict[str, dict[str, Any]] = {
    "breeding": {"ready_slices": 3, "ready_z": 1.0, "alpha_floor": 0.01, "lambda_floor": 0.2,
                 "epsilon_floor": 0.02, "resample_probability": 0.1},
    "hall": {"gate_pairs": 50, "gate_elo": 40.0}}

#: (label, base config, overrides) of each arm.
ARMS: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "cma-es 1-ply (all-2)": ("league.toml", {"yardstick": {"every": 0}}),
    "cma-es depth 2 (all-2)": ("league-depth2.toml", {"yardstick": {"every": 0}, "hall": {"every": 5}}),
    "pbt-td from zero (all-2-s8)": ("search-player.toml", {
        "population": {"type": "all-2-s8", "size": 8},
        "breeding": {"learning_start": "", "start_sigma": 0.05, "learning_batch": 25, "learning_alpha": 0.05,
                     "learning_games": 400, "learning_depth": 2, "learning_max_depth": 3}}),
    "td alone from zero (all-2-s8)": ("search-player.toml", {
        "population": {"type": "all-2-s8", "size": 8},
        "breeding": {"learning_start": "", "start_sigma": 0.05, "learning_batch": 25, "learning_alpha": 0.05,
                     "learning_games": 400, "learning_depth": 2, "learning_max_depth": 3, "exploit_fraction": 0.0}}),
    "pbt-td from zero (all-4+2x2-s8)": ("search-player.toml", {}),
    "td alone from zero (all-4+2x2-s8)": ("search-player.toml", {"breeding": {"exploit_fraction": 0.0}}),
    "pbt-td from patterns-v2-net": ("search-player.toml", PATTERN_START),
    "td alone from patterns-v2-net": ("search-player.toml", {
        "population": PATTERN_START["population"],
        "breeding": {**PATTERN_START["breeding"], "exploit_fraction": 0.0}}),
    # issue 36's parts, each alone on today's config and together (from zero, all-4+2x2-s8)
    "part 2: pool fitness": ("pool-player.toml", {}),
    "part 4: exact targets": ("search-player.toml", {"breeding": EXACT_TARGETS}),
    "part 5: ready, floors, gate": ("search-player.toml", PART_5),
    "parts 2+4+5": ("pool-player.toml", {"breeding": {**EXACT_TARGETS, **PART_5["breeding"]}, "hall": PART_5["hall"]}),
    "part 5 from patterns-v2-net": ("search-player.toml", {
        "population": PATTERN_START["population"],
        "breeding": {**PATTERN_START["breeding"], **PART_5["breeding"]}, "hall": PART_5["hall"]}),
}

OPPONENTS = ("fdmxcp_52_2:0:6:9:4:5", "p_1_10")
SCORE = re.compile(r"A scores ([0-9.]+)% \[([0-9.]+)%, ([0-9.]+)%\]")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


def write_config(base: str, overrides: dict[str, dict[str, Any]], seed: int, path: Path) -> None:
    """The arm's config: ``base`` with ``overrides`` merged in, each breeding
    key into the method's own section where the base has one
    (``[breeding.pbt-td]``: a key set twice is refused), the seed set and
    no stop but the budget."""
    data = tomllib.loads((ROOT / "config" / base).read_text())
    for section, values in overrides.items():
        table = data.setdefault(section, {})
        for key, value in values.items():
            method = BREEDING_KEY_SECTION.get(key) if section == "breeding" else None
            (table[method] if isinstance(table.get(method), dict) else table)[key] = value
    data["seed"] = seed
    data.setdefault("stop", {}).update(max_generations=100_000, converge_generations=0)   # the budget ends it
    path.write_text("\n".join(_toml_lines(data, "")) + "\n")


def _toml_lines(table: dict[str, Any], name: str) -> list[str]:
    """``table`` as TOML: its plain keys, then each sub-table as ``[name.key]``."""
    lines = [f"{k} = {_toml(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            full = f"{name}.{key}" if name else key
            lines += ["", f"[{full}]", *_toml_lines(value, full)]
    return lines


def slug(label: str, seed: int) -> str:
    """An arm's file name: its label in lower case and dashes, and the seed."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + f"-{seed}"


def run_arm(label: str, seed: int, budget: float, folder: Path, workers: int) -> Path:
    base, overrides = ARMS[label]
    name = slug(label, seed)
    config, db = folder / f"{name}.toml", folder / f"{name}.db"
    write_config(base, overrides, seed, config)
    note(f"{name}: evolving for {budget:g} s")
    began = time.monotonic()
    proc = subprocess.Popen([*GENETHELLO, "evolve", "--config", str(config), "--db", str(db), "--workers",
                             str(workers), "--quiet"], cwd=folder, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        proc.wait(budget)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        proc.wait(120)
    note(f"{name}: stopped after {time.monotonic() - began:.0f} s, {generations(db)} generations")
    return db


def note(text: str) -> None:
    """A progress line on stderr (the table alone goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def generations(db: Path) -> int:
    """The run's finished generations (0 for no database yet)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM generations WHERE finished_at IS NOT NULL").fetchone()[0])
    finally:
        conn.close()


def checkpoints(db: Path, budget: float, fractions: tuple[float, ...]) -> list[tuple[float, int, int | None]]:
    """(fraction, generation, best player id) at each fraction of the budget."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT number, finished_at, best_player_id FROM generations "
                            "WHERE finished_at IS NOT NULL AND best_player_id IS NOT NULL ORDER BY number").fetchall()
        started = conn.execute("SELECT min(started_at) FROM generations").fetchone()[0]
    finally:
        conn.close()
    start = datetime.fromisoformat(started)
    found = []
    for f in fractions:
        before = [r for r in rows if (datetime.fromisoformat(r[1]) - start).total_seconds() <= f * budget]
        last = before[-1] if before else (rows[0] if rows else (0, None, None))
        found.append((f, int(last[0]), last[2]))
    return found


def measure(db: Path, player: int, opponent: str, games: int, gtp: bool = False) -> str:
    note(f"{db.stem}: player {player} against {opponent}, {games} games at depth 4")
    argv = [*GENETHELLO, "match", str(player), *(["--gtp", opponent] if gtp else [opponent]), "--db", str(db),
            "--depth", "4", "--exact", "8", "--games", str(games), "--random-plies", "6", "--seed", "1"]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=db.parent)
    m = SCORE.search(out.stdout + out.stderr)
    if not m:
        return f"({(out.stderr or out.stdout).strip().splitlines()[-1:]})"
    return f"{float(m[1]):.1f}% [{float(m[2]):.1f}, {float(m[3]):.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=200, help="wall seconds per run (default 200)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", type=int, default=400, help="games per measurement (default 400)")
    parser.add_argument("--arms", nargs="+", default=list(ARMS), help="arms by label (default: all)")
    parser.add_argument("--parallel", type=int, default=2, help="runs at once (default 2)")
    parser.add_argument("--workers", type=int, default=1, help="workers per run (default 1)")
    parser.add_argument("--rhino", type=int, default=0, metavar="GAMES",
                        help="also play each final best against gtp-rhino -l 3 (GAMES games)")
    parser.add_argument("--keep", type=Path, help="keep the run databases in this folder")
    parser.add_argument("--measure-only", action="store_true",
                        help="measure the databases already in --keep (runs nothing)")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="search-players-"))
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(label, seed) for label in args.arms for seed in args.seeds]
    began = time.monotonic()
    if args.measure_only:
        dbs = [folder / f"{slug(label, seed)}.db" for label, seed in jobs]
    else:
        with ThreadPoolExecutor(args.parallel) as pool:
            dbs = list(pool.map(lambda job: run_arm(job[0], job[1], args.budget, folder, args.workers), jobs))
    print(f"# {len(jobs)} runs of {args.budget:g} s wall each, {args.parallel} at a time, "
          f"{args.workers} worker(s) each ({time.monotonic() - began:.0f} s); measured at depth 4, exact 8, "
          f"distinct-6 openings, {args.games} games a cell, 95% intervals; databases in {folder}")
    head = ["arm", "seed", "budget", "generation"] + [f"vs {o}" for o in OPPONENTS]
    if args.rhino:
        head.append("vs gtp-rhino -l 3")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for (label, seed), db in zip(jobs, dbs, strict=True):
        if not db.exists():
            print(f"| {label} | {seed} | - | no database |")
            continue
        points = checkpoints(db, args.budget, (0.1, 0.5, 1.0))
        for fraction, generation, player in points:
            if player is None:
                print(f"| {label} | {seed} | {fraction:.0%} | - | no best yet |")
                continue
            cells = [measure(db, player, o, args.games) for o in OPPONENTS]
            if args.rhino and fraction == 1.0:
                cells.append(measure(db, player, "gtp-rhino -l 3", args.rhino, gtp=True))
            elif args.rhino:
                cells.append("")
            print(f"| {label} | {seed} | {fraction:.0%} | {generation} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    main()

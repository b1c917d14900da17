"""What the runs page shows of a run database, as JSON.

The coordinator is the only writer; the server only reads, through the
read side every report uses (:mod:`genethello.cluster.reads`: short
read-only transactions of the WAL database, which never block the
coordinator's commits), so the page ranks and counts exactly as ``best``,
``history`` and ``status`` do. This module opens the database lazily (it
may not exist when the server starts: a run started later is found on the
next request) and turns the read side's values into the page's JSON.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from datetime import UTC, datetime
from typing import TypedDict

from genethello.cluster import reads
from genethello.cluster.breeding.lineage_words import learning_games
from genethello.cluster.config import RunConfig
from genethello.cluster.db import Database, DatabaseNotFoundError, RunDatabaseError, RunNotFoundError
from genethello.cluster.export.records import game_record
from genethello.cluster.family_traits import traits_of_family
from genethello.cluster.reads import LineageNode, RunInfo, Standing, player_record
from genethello.cluster.web.errors import NotFoundError
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.individual_names import shipped_networks
from genethello.core.frontend.errors import UserError
from genethello.core.play.network_league import league_fast_label
from genethello.core.records import GameRecord

#: Players listed for a run (the page's table and the Play menu).
TOP_PLAYERS = 10
#: Seconds of progress samples behind games/s.
RATE_WINDOW_SECONDS = 60.0
#: Generations of ancestors in the runs page's family tree of the best so far.
LINEAGE_DEPTH = 4
#: Stored games listed for one generation.
MAX_LISTED_GAMES = 500
#: Seconds a read waits on a lock (WAL reads never should; opening probes
#: the write lock once, and is retried on the next request if it times out).
OPEN_BUSY_SECONDS = 5.0

#: A JSON object of the page (what is read back of one has a TypedDict below).
JsonObject = dict[str, object]


class RunRow(TypedDict):
    """A run in the runs list."""

    id: int
    name: str
    status: str
    generation: int
    last_generation: int | None
    created: str | None
    updated: str | None
    type: str | None


class RunsPage(TypedDict):
    runs: list[RunRow]
    problem: str | None


class MenuRun(TypedDict):
    run: str
    run_id: int
    players: list[JsonObject]


class PlayerMenu(TypedDict):
    runs: list[MenuRun]
    shipped: list[JsonObject]
    problem: str | None


class Progress(TypedDict):
    """The generation in play."""

    generation: int
    status: str
    done: int
    total: int
    started: str | None
    finished: str | None


class ProgressFigures(Progress):
    """:class:`Progress` with games/s and the ETA in seconds."""

    rate: float | None
    eta: float | None


class Summary(TypedDict):
    """A run's page (see :meth:`RunReader.summary`)."""

    run: JsonObject
    chart: dict[str, list[float | None]]
    yardstick_opponents: dict[str, list[float | None]]
    genes: JsonObject
    family: str
    champion: JsonObject | None
    anchor: str                     # what the hall ratings are relative to (reads.rating_anchor)
    header: str | None              # the run's settings in one line (reads.run_line)
    measured: bool                  # whether the run measures its best on a yardstick
    learning: JsonObject | None     # a learning run's slices a generation (pbt-td), else None
    progress: Progress | None
    top: list[JsonObject]
    stored_games: int
    generations: list[JsonObject]


class RunReader:
    """Read-only access to the run database at ``target``.

    Args:
        target: the database path or sqlite:/// URL given to ``serve --db``
            (the only path the server ever opens).
    """

    def __init__(self, target: str) -> None:
        self.target = target
        self._db: Database | None = None
        self._opening = threading.Lock()
        self.problem: str | None = None

    def database(self) -> Database | None:
        """The open database, or None (``problem`` then says why)."""
        with self._opening:
            return self._open()

    def _open(self) -> Database | None:
        if self._db is None:
            try:
                self._db = Database.open(self.target, create=False, busy_timeout=OPEN_BUSY_SECONDS)
                self.problem = None
            except DatabaseNotFoundError:
                self.problem = f"no run database at {self.target} yet"
            except (RunDatabaseError, ValueError) as exc:
                self.problem = str(exc)
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.dispose()
            self._db = None

    def _run(self, run_id: int) -> tuple[Database, RunInfo]:
        db = self.database()
        if db is None:
            raise NotFoundError(self.problem or "no run database")
        try:
            return db, reads.find_run(db, run_id)
        except (RunDatabaseError, RunNotFoundError) as exc:   # RunNotFoundError is a ValueError
            raise NotFoundError(str(exc)) from None

    # ------------------------------------------------------------- queries
    def runs(self) -> RunsPage:
        """Every run, newest first, with its status and generation."""
        db = self.database()
        if db is None:
            return {"runs": [], "problem": self.problem}
        return {"runs": [{
            "id": r.run.id, "name": r.run.name, "status": r.run.status, "generation": r.run.generation,
            "last_generation": r.last_generation, "created": _iso(r.run.created_at),
            "updated": _iso(r.run.updated_at), "type": r.run.chromosome_type,
        } for r in reversed(reads.list_runs(db))], "problem": None}

    def change_key(self, run_id: int) -> tuple[object, ...]:
        """A few cheap numbers that change whenever the run's page would."""
        db = self.database()
        if db is None:
            return (None,)
        return reads.change_key(db, run_id)

    def top_players(self, run_id: int, count: int = TOP_PLAYERS) -> list[JsonObject]:
        """The run's best players as ``genethello best`` ranks them (by the
        hall of fame when the run has one, else by Elo), with their hall
        rating and latest Bradley-Terry rating and errors."""
        db = self.database()
        if db is None:
            return []
        try:
            run = reads.find_run(db, run_id)
        except (RunDatabaseError, RunNotFoundError):
            return []
        # a run whose fitness games return points only keeps no W/D/L
        kept = reads.keeps_game_records(run)
        return [dict(_standing(row), wdl_kept=kept) for row in reads.standings(db, run_id, top=count).rows]

    def summary(self, run_id: int) -> Summary:
        """The run's page: per-generation Elo and yardstick, what the run's
        family draws of the best over generations (GeneThello: ``genes``,
        its genes; any other family: ``champion``, the series of
        :func:`~genethello.cluster.reads.champion_chart`), the generation in
        play, the top players."""
        db, run = self._run(run_id)
        rows = reads.generation_rows(db, run.id)
        chart: dict[str, list[float | None]] = {
            "generation": [], "best_elo": [], "mean_elo": [], "best_so_far_elo": [], "yardstick": [],
            "yardstick_low": [], "yardstick_high": [], "hall": [], "hall_low": [], "hall_high": []}
        gene_names: list[str] = []
        gene_values: list[list[int] | None] = []
        opponents: dict[str, dict[int, float]] = {}
        parsed: dict[str, Chromosome | None] = {}      # the best so far repeats: each text parsed once
        for row in rows:
            chart["generation"].append(row.generation)
            chart["best_elo"].append(_round(row.best_elo))
            chart["mean_elo"].append(_round(row.mean_elo))
            chart["best_so_far_elo"].append(_round(row.best_so_far_elo))
            for key, value in (("yardstick", row.yardstick), ("yardstick_low", row.yardstick_low),
                               ("yardstick_high", row.yardstick_high)):
                chart[key].append(None if value is None else round(100 * value, 1))
            for o in row.yardstick_opponents:
                opponents.setdefault(o.opponent, {})[row.generation] = round(100 * o.score, 1)
            rating, err = row.hall_rating, row.hall_stderr
            chart["hall"].append(_round(rating))
            chart["hall_low"].append(None if rating is None or err is None else _round(rating - 1.96 * err))
            chart["hall_high"].append(None if rating is None or err is None else _round(rating + 1.96 * err))
            best = parsed[row.best] if row.best in parsed else parsed.setdefault(row.best or "", _parse(row.best))
            if best is not None:
                if not gene_names:
                    gene_names = best.type.gene_names()
                gene_values.append(list(best.genes))
            else:
                gene_values.append(None)
        family = reads.run_family(run)
        traits = traits_of_family(family)
        champion: JsonObject | None = None
        if not traits.charts_genes:
            drawn = reads.champion_chart(db, run, rows)
            champion = {"title": drawn.title, "left": drawn.left_label, "right": drawn.right_label,
                        "yardstick": f"{traits.measure_name}, {league_fast_label()}" if traits.measure_name else None,
                        "series": [{"label": sr.label, "values": list(sr.values), "axis": sr.axis}
                                   for sr in drawn.series]}
        try:
            config = reads.run_state(db, run.id).config
        except ValueError:      # a stored config that no longer parses: the page shows what it can
            config = None
        current = reads.current_generation(db, run.id)
        progress: Progress | None = None
        if current is not None:
            # a generation left 'playing' by a stopped run is played by no one: no rate, no ETA
            status = "stopped" if current.status == "playing" and run.status != "running" else current.status
            progress = {"generation": current.number, "status": status,
                        "done": current.games_done, "total": current.games_total,
                        "started": _iso(current.started_at), "finished": _iso(current.finished_at)}
        return {
            "run": {"id": run.id, "name": run.name, "status": run.status, "generation": run.generation,
                    "created": _iso(run.created_at), "updated": _iso(run.updated_at), "config": run.config()},
            "chart": chart,
            "yardstick_opponents": {name: [by_gen.get(row.generation) for row in rows]
                                    for name, by_gen in opponents.items()},
            "genes": {"names": gene_names, "values": gene_values},
            "family": family,
            "champion": champion,
            "anchor": reads.rating_anchor(config).text() if config else "Elo",
            "header": reads.run_line(config) if config else None,
            "measured": reads.has_measure(config) if config else True,
            "learning": _learning(config),
            "progress": progress,
            "top": self.top_players(run.id),
            "stored_games": reads.games_with_moves(db, run.id),
            "generations": [{"generation": row.generation, "status": row.status,
                             "games": f"{row.games_done}/{row.games_total}"} for row in rows],
        }

    def lineage(self, run_id: int, depth: int = LINEAGE_DEPTH) -> JsonObject:
        """The best so far's family tree (``depth`` generations of
        ancestors; None before any player) and which operators pay: per
        generation and in all, how many members each origin gave and how
        many reached the top of their round robin."""
        db, run = self._run(run_id)
        best = reads.best(db, run.id)
        tree = reads.lineage(db, best.player_id, depth) if best is not None else None
        stats = reads.operator_stats(db, run.id)
        kinds = [c.origin for c in stats.totals]
        return {
            "best": _node(tree) if tree is not None else None,
            "depth": depth,
            "operators": {
                "top_fraction": stats.top_fraction,
                "kinds": kinds,
                "generations": [{"generation": g.generation, "size": g.size, "top_size": g.top_size,
                                 "counts": {c.origin: [c.produced, c.top] for c in g.counts}}
                                for g in stats.generations],
                "totals": {c.origin: [c.produced, c.top] for c in stats.totals},
            },
        }

    def stored_games(self, run_id: int, generation: int) -> list[JsonObject]:
        """The games of one generation (whether their moves were kept)."""
        db, run = self._run(run_id)
        try:
            games = reads.select_games(db, run, generation=generation)
        except ValueError as exc:
            raise NotFoundError(str(exc)) from None
        return [{"id": g.id, "generation": g.generation, "pair": g.pair_index, "black": g.black,
                 "white": g.white, "score": g.score, "moves_kept": g.moves is not None}
                for g in games[:MAX_LISTED_GAMES]]

    def stored_game(self, run_id: int, game_id: int) -> GameRecord:
        """The record of one stored game (to replay).

        Raises:
            NotFoundError: no such game in the run, or its moves were dropped.
        """
        return self.stored_game_titled(run_id, game_id)[0]

    def stored_game_titled(self, run_id: int, game_id: int) -> tuple[GameRecord, str]:
        """The record of one stored game and its title as the runs page
        lists it: 'quick generation 10, #1 (game 4969)' (#: the pair's
        number in its generation, as the page's menu shows it).

        Raises:
            NotFoundError: no such game in the run, or its moves were dropped.
        """
        db, run = self._run(run_id)
        try:
            (game,) = reads.select_games(db, run, game_id=game_id)
            return game_record(run, game), f"{run.name} generation {game.generation}, #{game.pair_index + 1} " \
                                           f"(game {game.id})"
        except ValueError as exc:
            raise NotFoundError(str(exc)) from None

    def player_menu(self) -> PlayerMenu:
        """The Play page's machine menu: each run's top players, the newest
        run first (its first player is what ``genethello best`` ranks
        first), and the package's shipped networks by name."""
        listing = self.runs()
        menu: list[MenuRun] = []
        for run in listing["runs"][:5]:
            players = self.top_players(run["id"])
            if players:
                menu.append({"run": run["name"], "run_id": run["id"], "players": players})
        shipped: list[JsonObject] = [{"name": name} for name in shipped_networks()]
        return {"runs": menu, "shipped": shipped, "problem": listing["problem"]}

    def player(self, key: int | str) -> tuple[str, bytes | None]:
        """A player of the served database by id or text: its text and
        stored payload (a network's weights).

        Raises:
            ValueError: no database, or no such player.
        """
        db = self.database()
        if db is None:
            raise UserError(self.problem or f"no run database at {self.target}")
        return player_record(db, key)


class RateTracker:
    """Games per second of the generation in play, from samples of its
    games done over the last :data:`RATE_WINDOW_SECONDS`."""

    def __init__(self, window: float = RATE_WINDOW_SECONDS) -> None:
        self.window = window
        self._samples: deque[tuple[float, int, int]] = deque()

    def add(self, now: float, generation: int, done: int) -> None:
        if self._samples and self._samples[-1][1] != generation:
            self._samples.clear()
        self._samples.append((now, generation, done))
        while self._samples and now - self._samples[0][0] > self.window:
            self._samples.popleft()

    def rate(self) -> float | None:
        """Games per second, or None before two samples with games between."""
        if len(self._samples) < 2:
            return None
        (t0, _, d0), (t1, _, d1) = self._samples[0], self._samples[-1]
        if t1 <= t0 or d1 <= d0:
            return None
        return (d1 - d0) / (t1 - t0)


def progress_figures(progress: Progress | None, tracker: RateTracker,
                     now: float | None = None) -> ProgressFigures | None:
    """``progress`` with games/s and the ETA in seconds: from the tracker's
    samples, else from the generation's start time."""
    if progress is None:
        return None
    now = time.monotonic() if now is None else now
    tracker.add(now, progress["generation"], progress["done"])
    rate = tracker.rate()
    if rate is None and progress["started"] and progress["status"] == "playing" and progress["done"]:
        started = datetime.fromisoformat(progress["started"])
        elapsed = (datetime.now(UTC) - started).total_seconds()
        rate = progress["done"] / elapsed if elapsed > 0 else None
    remaining = max(0, progress["total"] - progress["done"])
    eta = remaining / rate if rate and progress["status"] == "playing" else None
    return ProgressFigures(**progress, rate=None if rate is None else round(rate, 2),
                           eta=None if eta is None else round(eta, 1))


def _learning(config: RunConfig | None) -> JsonObject | None:
    """What a learning run (pbt-td) does between two generations: one slice
    a member, each of ``learning_games`` self-play games. Learning games
    are not counted as the fitness games are (no row is stored until a
    generation's slices are all learned), so the page names them instead of
    counting them as games/s."""
    games = learning_games(config.breeding) if config is not None else 0
    if config is None or not games:
        return None
    slices = config.population_size
    return {"slices": slices, "games_per_slice": games, "games": slices * games}


def _standing(row: Standing) -> JsonObject:
    p = row.player
    return {
        "id": p.id, "chromosome": p.text, "elo": round(p.elo, 1) if p.member else None, "member": p.member,
        "wins": p.wins, "losses": p.losses,
        "draws": p.draws, "birth": p.birth, "death": p.death, "yardstick": p.yardstick,
        "bt_rating": _round(row.bt_rating), "bt_stderr": _round(row.bt_stderr),
        "hall_rating": _round(row.hall.rating) if row.hall else None,
        "hall_stderr": _round(row.hall.stderr) if row.hall else None,
    }


def _node(node: LineageNode) -> JsonObject:
    """A family tree as the page draws it: each node with its row's figures
    (a node missing from the top players' table is added to it on a click)."""
    return {
        "id": node.player_id, "chromosome": node.text, "run": node.run_name, "birth": node.birth,
        "generation": node.generation, "origin": node.origin, "how": node.describe(),
        "hall_rating": _round(node.hall_rating), "hall_stderr": _round(node.hall_stderr),
        "points": node.points, "games": node.games, "rating": _round(node.rating),
        "more": node.unexpanded, "parents": [_node(p) for p in node.parents],
    }


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _parse(text: str | None) -> Chromosome | None:
    try:
        return Chromosome.parse(text) if text and text != "-" else None
    except ValueError:
        return None

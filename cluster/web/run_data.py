"""What the runs page reads from a run database: read-only, short
transactions.

The coordinator is the only writer; the server only reads, each answer in
one short transaction of the WAL database, so it never blocks the
coordinator's commits. The database is opened lazily: it may not exist when
the server starts (a run started later is found on the next request).
The rankings are the ``best`` and ``history`` commands' own
(:func:`ranked_players`, :func:`generation_rows`).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from datetime import UTC, datetime

from sqlalchemy import func, select

from genethello.cluster.cli.report_commands import generation_rows, ranked_players
from genethello.cluster.coordinator import find_run
from genethello.cluster.db import Database, DatabaseNotFoundError, RunDatabaseError
from genethello.cluster.db.models import Game, Generation, RatingRecord, Run, YardstickResult
from genethello.cluster.export import game_record, select_games
from genethello.cluster.run_store import RunStore
from genethello.cluster.web.errors import NotFoundError
from genethello.core.chromosome import Chromosome
from genethello.core.records import GameRecord

#: Players listed for a run (the page's table and the Play menu).
TOP_PLAYERS = 10
#: Seconds of progress samples behind games/s.
RATE_WINDOW_SECONDS = 60.0
#: Stored games listed for one generation.
MAX_LISTED_GAMES = 500
#: Seconds a read waits on a lock (WAL reads never should; opening probes
#: the write lock once, and is retried on the next request if it times out).
OPEN_BUSY_SECONDS = 5.0


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

    def _run(self, run_id: int) -> Run:
        db = self.database()
        if db is None:
            raise NotFoundError(self.problem or "no run database")
        try:
            return find_run(db, run_id)
        except RunDatabaseError as exc:
            raise NotFoundError(str(exc)) from None

    # ------------------------------------------------------------- queries
    def runs(self) -> dict:
        """Every run, newest first, with its status and generation."""
        db = self.database()
        if db is None:
            return {"runs": [], "problem": self.problem}
        with db.session() as s:
            rows = s.scalars(select(Run).order_by(Run.id.desc())).all()
            done = dict(s.execute(select(Generation.run_id, func.max(Generation.number))
                                  .group_by(Generation.run_id)).all())
            return {"runs": [{
                "id": r.id, "name": r.name, "status": r.status, "generation": r.generation,
                "last_generation": done.get(r.id), "created": _iso(r.created_at), "updated": _iso(r.updated_at),
                "type": _config(r).get("population", {}).get("type"),
            } for r in rows], "problem": None}

    def change_key(self, run_id: int) -> tuple:
        """A few cheap numbers that change whenever the run's page would:
        status, generation, games committed, ratings and yardstick rows."""
        db = self.database()
        if db is None:
            return (None,)
        with db.session() as s:
            run = s.get(Run, run_id)
            if run is None:
                return (None,)
            games = s.scalar(select(func.count(Game.id)).where(Game.run_id == run_id))
            gens = s.execute(select(func.count(), func.max(Generation.number), func.sum(Generation.games_done))
                             .where(Generation.run_id == run_id)).one()
            status_rows = tuple(s.execute(select(Generation.number, Generation.status)
                                          .where(Generation.run_id == run_id)
                                          .order_by(Generation.number.desc()).limit(2)).all())
            yard = s.scalar(select(func.count()).select_from(YardstickResult)
                            .where(YardstickResult.run_id == run_id))
            return (run.status, run.generation, games, tuple(gens), status_rows, yard)

    def top_players(self, run_id: int, count: int = TOP_PLAYERS) -> list[dict]:
        """The run's best players as ``genethello best`` ranks them (by the
        hall of fame when the run has one, else by Elo), with their hall
        rating and latest Bradley-Terry rating and errors."""
        db = self.database()
        if db is None:
            return []
        hall = {e.player_id: e for e in RunStore(db, run_id).hall_ranked()}
        players = ranked_players(db, run_id, "hall" if hall else "elo")[:count]
        with db.session() as s:
            bt = {}
            for rec in s.scalars(select(RatingRecord).where(RatingRecord.run_id == run_id,
                                                            RatingRecord.player_id.in_([p.id for p in players]))
                                 .order_by(RatingRecord.generation)):
                bt[rec.player_id] = (rec.bt_rating, rec.bt_stderr)
        return [{
            "id": p.id, "chromosome": p.text, "elo": round(p.elo, 1), "wins": p.wins, "losses": p.losses,
            "draws": p.draws, "birth": p.birth, "death": p.death, "yardstick": p.yardstick,
            "bt_rating": _round(bt.get(p.id, (None, None))[0]), "bt_stderr": _round(bt.get(p.id, (None, None))[1]),
            "hall_rating": _round(hall[p.id].rating) if p.id in hall else None,
            "hall_stderr": _round(hall[p.id].stderr) if p.id in hall else None,
        } for p in players]

    def summary(self, run_id: int) -> dict:
        """The run's page: per-generation Elo and yardstick, the genes of the
        best over generations, the generation in play, the top players."""
        run = self._run(run_id)
        db = self.database()
        rows = generation_rows(db, run.id)
        chart = {"generation": [], "best_elo": [], "mean_elo": [], "best_so_far_elo": [], "yardstick": [],
                 "yardstick_low": [], "yardstick_high": [], "hall": [], "hall_low": [], "hall_high": []}
        genes: dict = {"names": [], "values": []}
        opponents: dict[str, dict[int, float]] = {}
        for row in rows:
            chart["generation"].append(row["generation"])
            chart["best_elo"].append(_round(row["best_elo"]))
            chart["mean_elo"].append(_round(row["mean_elo"]))
            chart["best_so_far_elo"].append(_round(row["best_so_far_elo"]))
            for key in ("yardstick", "yardstick_low", "yardstick_high"):
                chart[key].append(None if row[key] is None else round(100 * row[key], 1))
            for o in row["yardstick_opponents"]:
                opponents.setdefault(o["opponent"], {})[row["generation"]] = round(100 * o["score"], 1)
            rating, err = row["hall_rating"], row["hall_stderr"]
            chart["hall"].append(_round(rating))
            chart["hall_low"].append(None if rating is None else _round(rating - 1.96 * err))
            chart["hall_high"].append(None if rating is None else _round(rating + 1.96 * err))
            best = _parse(row["best"])
            if best is not None:
                if not genes["names"]:
                    genes["names"] = best.type.gene_names()
                genes["values"].append(list(best.genes))
            else:
                genes["values"].append(None)
        with db.session() as s:
            current = s.scalars(select(Generation).where(Generation.run_id == run.id)
                                .order_by(Generation.number.desc()).limit(1)).first()
            progress = None
            if current is not None:
                progress = {"generation": current.number, "status": current.status,
                            "done": current.games_done, "total": current.games_total,
                            "started": _iso(current.started_at), "finished": _iso(current.finished_at)}
            stored = s.scalar(select(func.count(Game.id)).where(Game.run_id == run.id, Game.moves.is_not(None)))
        return {
            "run": {"id": run.id, "name": run.name, "status": run.status, "generation": run.generation,
                    "created": _iso(run.created_at), "updated": _iso(run.updated_at), "config": _config(run)},
            "chart": chart,
            "yardstick_opponents": {name: [by_gen.get(g) for g in chart["generation"]]
                                    for name, by_gen in opponents.items()},
            "genes": genes,
            "progress": progress,
            "top": self.top_players(run.id),
            "stored_games": stored,
            "generations": [{k: row[k] for k in ("generation", "status", "games")} for row in rows],
        }

    def stored_games(self, run_id: int, generation: int) -> list[dict]:
        """The games of one generation (whether their moves were kept)."""
        run = self._run(run_id)
        try:
            games = select_games(self.database(), run, generation=generation)
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
        run = self._run(run_id)
        try:
            (game,) = select_games(self.database(), run, game_id=game_id)
            return game_record(run, game)
        except ValueError as exc:
            raise NotFoundError(str(exc)) from None

    def player_menu(self) -> dict:
        """The Play page's machine menu: each run's top players, the newest
        run first; its first player is what ``genethello best`` ranks first."""
        listing = self.runs()
        menu = []
        for run in listing["runs"][:5]:
            players = self.top_players(run["id"])
            if players:
                menu.append({"run": run["name"], "run_id": run["id"], "players": players})
        return {"runs": menu, "problem": listing["problem"]}


class RateTracker:
    """Games per second of the generation in play, from samples of its
    games done over the last :data:`RATE_WINDOW_SECONDS`."""

    def __init__(self, window: float = RATE_WINDOW_SECONDS) -> None:
        self.window = window
        self._samples: deque = deque()

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


def progress_figures(progress: dict | None, tracker: RateTracker, now: float | None = None) -> dict | None:
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
    return dict(progress, rate=None if rate is None else round(rate, 2), eta=None if eta is None else round(eta, 1))


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _config(run: Run) -> dict:
    try:
        config = json.loads(run.config_json)
    except ValueError:
        return {}
    return config if isinstance(config, dict) else {}


def _parse(text: str | None) -> Chromosome | None:
    try:
        return Chromosome.parse(text) if text and text != "-" else None
    except ValueError:
        return None

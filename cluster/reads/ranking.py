"""Players best first, and the hall of fame: every ranking of a run, in one place.

The best so far is the top of the hall of fame (:mod:`~genethello.cluster.measures.hall`)
once the run has one; without a hall (``hall.games_per_member = 0``, runs
from before 0003) it is the top by Elo, then the older birth, then the
chromosome text (:func:`~genethello.cluster.breeding.population.rank_key`), done in
SQL on the stored columns (``ORDER BY elo DESC, birth, text``): SQLite
compares the ASCII texts as Python does, and no chromosome is parsed. The
hall ranks by its latest rating, then the earlier entry, then the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from genethello.cluster.db import Database
from genethello.cluster.db.models import (
    Generation,
    HallGame,
    HallMember,
    HallRating,
    PlayerRow,
    PopulationSlot,
    RatingRecord,
    Run,
)
from genethello.cluster.db.played_chains import resolved_payload
from genethello.core.families.registry import Individual, parse_individual
from genethello.core.frontend.errors import UserError

#: The rankings ``best --by`` offers (hall: members only; yardstick: measured
#: players only). A ranking's name, not a fitness kind's: the hall ranking
#: orders by the hall of fame's ratings, whatever the run's fitness.
BY_HALL, BY_ELO, BY_YARDSTICK = "hall", "elo", "yardstick"
RANKINGS = (BY_HALL, BY_ELO, BY_YARDSTICK)

#: Best first: Elo, older birth, text (see the module docstring).
BEST_FIRST = (PlayerRow.elo.desc(), PlayerRow.birth, PlayerRow.text)


@dataclass(frozen=True)
class RankedPlayer:
    """A player as ranking reads it, with its stored payload (a network's
    weights; None for GeneThello)."""

    player_id: int
    text: str
    elo: float
    birth: int
    payload: bytes | None = None

    def chromosome(self) -> Individual:
        """The individual, of whichever family its text names."""
        return parse_individual(self.text, self.payload)


@dataclass(frozen=True)
class HallEntry:
    """A hall member, with its latest rating (None before the first fit)."""

    player_id: int
    text: str
    entered: int                    # the generation it entered at
    rating: float | None = None     # Elo relative to the first member
    stderr: float | None = None
    games: int = 0
    payload: bytes | None = None    # the stored payload (a network's weights; None for GeneThello)

    def chromosome(self) -> Individual:
        """The individual, of whichever family its text names."""
        return parse_individual(self.text, self.payload)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's row as reports show it."""

    id: int
    text: str
    elo: float
    wins: int
    losses: int
    draws: int
    birth: int
    death: int | None               # the last generation it was a member of
    yardstick: float | None         # its overall yardstick score (None: never measured)
    member: bool = True             # it sat in a population; False for a champion bred only to be measured
                                    # (CMA-ES's distribution mean), whose Elo and W/D/L are never played


@dataclass(frozen=True)
class Standing:
    """A ranked player with its hall rating (members only) and its latest
    Bradley-Terry rating in a round robin (None before its first)."""

    player: PlayerRecord
    hall: HallEntry | None
    bt_rating: float | None
    bt_stderr: float | None


@dataclass(frozen=True)
class Standings:
    """A run's players best first, as ``best`` and the web page list them."""

    by: str                         # one of RANKINGS
    rows: list[Standing]
    hall_rated: bool                # the run's hall has ratings (hall ranking is possible)
    hall_games: int                 # hall games the ratings are fitted on


_RECORD_COLUMNS = (PlayerRow.id, PlayerRow.text, PlayerRow.elo, PlayerRow.wins, PlayerRow.losses, PlayerRow.draws,
                   PlayerRow.birth, PlayerRow.death, PlayerRow.yardstick,
                   exists().where(PopulationSlot.player_id == PlayerRow.id).label("member"))
_RANKED_COLUMNS = (PlayerRow.id, PlayerRow.text, PlayerRow.elo, PlayerRow.birth, PlayerRow.payload)


def _ranked_player(s: Session, row: Any) -> RankedPlayer:
    """A row of :data:`_RANKED_COLUMNS` as a ranked player, its payload as
    readers take it (:func:`~genethello.cluster.db.played_chains.resolved_payload`)."""
    pid, text, elo, birth, payload = row
    return RankedPlayer(pid, text, elo, birth, resolved_payload(s, text, payload))


def _record(row: Any) -> PlayerRecord:
    """A row of :data:`_RECORD_COLUMNS` as a record."""
    pid, text, elo, wins, losses, draws, birth, death, yardstick, member = row
    return PlayerRecord(pid, text, elo, wins, losses, draws, birth, death, yardstick, bool(member))


# ------------------------------------------------------------ in a session
def _hall_ranked(s: Session, run_id: int, limit: int | None = None, generation: int | None = None
                 ) -> list[HallEntry]:
    if generation is None:
        generation = s.scalar(select(func.max(HallRating.generation)).where(HallRating.run_id == run_id))
        if generation is None:
            return []
    query = (select(HallRating.player_id, PlayerRow.text, HallMember.entered, HallRating.rating,
                    HallRating.stderr, HallRating.games, PlayerRow.payload)
             .join(PlayerRow, PlayerRow.id == HallRating.player_id)
             .join(HallMember, (HallMember.run_id == HallRating.run_id)
                   & (HallMember.player_id == HallRating.player_id))
             .where(HallRating.run_id == run_id, HallRating.generation == generation)
             .order_by(func.round(HallRating.rating, 9).desc(), HallMember.entered, PlayerRow.text))
    if limit is not None:
        query = query.limit(limit)
    return [HallEntry(pid, text, entered, rating, stderr, games, resolved_payload(s, text, payload))
            for pid, text, entered, rating, stderr, games, payload in s.execute(query).all()]


def _records(s: Session, run_id: int, by: str, hall: list[HallEntry], limit: int | None) -> list[PlayerRecord]:
    if by == BY_HALL:
        ids = [e.player_id for e in hall][:limit]
        found = {row[0]: _record(row) for row in s.execute(select(*_RECORD_COLUMNS)
                                                                 .where(PlayerRow.id.in_(ids))).all()}
        return [found[i] for i in ids]
    query = select(*_RECORD_COLUMNS).where(PlayerRow.run_id == run_id)
    if by == BY_YARDSTICK:
        query = query.where(PlayerRow.yardstick.is_not(None)).order_by(PlayerRow.yardstick.desc(), *BEST_FIRST)
    elif by == BY_ELO:
        query = query.order_by(*BEST_FIRST)
    else:
        raise UserError(f"unknown ranking {by!r}; known: {', '.join(RANKINGS)}")
    return [_record(row) for row in s.execute(query.limit(limit)).all()]


# ------------------------------------------------------------------ public
def standings(db: Database, run_id: int, by: str | None = None, top: int | None = None) -> Standings:
    """The run's best ``top`` players (all: None) ranked ``by`` the hall of
    fame's latest rating (members only), Elo, or yardstick (measured players
    only). The default is the hall once it is rated, else Elo: the order in
    which ``best`` lists them and the web page shows them.

    Raises:
        ValueError: for a ranking not in :data:`RANKINGS`.
    """
    with db.session() as s:
        hall = _hall_ranked(s, run_id)
        by = by or (BY_HALL if hall else BY_ELO)
        records = _records(s, run_id, by, hall, top)
        bt: dict[int, tuple[float | None, float | None]] = {}
        for pid, rating, stderr in s.execute(
                select(RatingRecord.player_id, RatingRecord.bt_rating, RatingRecord.bt_stderr)
                .where(RatingRecord.run_id == run_id, RatingRecord.player_id.in_([p.id for p in records]))
                .order_by(RatingRecord.generation)):
            bt[pid] = (rating, stderr)     # the latest generation's wins
        hall_games = s.scalar(select(func.count()).select_from(HallGame).where(HallGame.run_id == run_id)) or 0
    by_id = {e.player_id: e for e in hall}
    rows = [Standing(p, by_id.get(p.id), *bt.get(p.id, (None, None))) for p in records]
    return Standings(by, rows, bool(hall), hall_games)


def ranked(db: Database, run_id: int, limit: int, *, generation: int | None = None,
           other_runs_of_type: str | None = None) -> list[RankedPlayer]:
    """The best ``limit`` players by Elo, best first: of the whole run (the
    default), of one generation's population, or of every other run whose
    players have the given chromosome type."""
    query = select(*_RANKED_COLUMNS)
    if generation is not None:
        query = query.join(PopulationSlot, PopulationSlot.player_id == PlayerRow.id).where(
            PopulationSlot.run_id == run_id, PopulationSlot.generation == generation)
    elif other_runs_of_type is not None:
        query = query.where(PlayerRow.run_id != run_id, PlayerRow.ctype == other_runs_of_type)
    else:
        query = query.where(PlayerRow.run_id == run_id)
    with db.session() as s:
        return [_ranked_player(s, row) for row in s.execute(query.order_by(*BEST_FIRST).limit(limit)).all()]


def ranked_by_score(db: Database, run_id: int, generation: int) -> list[RankedPlayer]:
    """A generation's members by their points in its own round robin
    (wins + draws / 2; in a complete round robin the Bradley–Terry order),
    then the older birth, then the text. Elo plays no part."""
    points = (RatingRecord.wins + 0.5 * RatingRecord.draws).label("points")
    query = (select(*_RANKED_COLUMNS)
             .join(RatingRecord, RatingRecord.player_id == PlayerRow.id)
             .where(RatingRecord.run_id == run_id, RatingRecord.generation == generation)
             .order_by(points.desc(), PlayerRow.birth, PlayerRow.text))
    with db.session() as s:
        return [_ranked_player(s, row) for row in s.execute(query).all()]


def best(db: Database, run_id: int) -> RankedPlayer | None:
    """The run's best so far: once the hall is rated, the best so far its
    latest hall step stored (the hall's top; with ``hall.gate_pairs``, the
    top that last won its gate), else the top by Elo (None before any
    player exists)."""
    with db.session() as s:
        rated = s.scalar(select(func.max(HallRating.generation)).where(HallRating.run_id == run_id))
        stored = None if rated is None else s.scalar(select(Generation.best_player_id).where(
            Generation.run_id == run_id, Generation.number == rated))
        if stored is None and rated is not None:
            hall = _hall_ranked(s, run_id, 1, rated)
            stored = hall[0].player_id if hall else None
        query = select(*_RANKED_COLUMNS)
        query = (query.where(PlayerRow.id == stored) if stored is not None
                 else query.where(PlayerRow.run_id == run_id).order_by(*BEST_FIRST).limit(1))
        row = s.execute(query).first()
        return _ranked_player(s, row) if row is not None else None


def hall_members(db: Database, run_id: int) -> list[HallEntry]:
    """The hall in entry order (the first is the rating anchor)."""
    with db.session() as s:
        return [HallEntry(pid, text, entered, payload=resolved_payload(s, text, payload))
                for pid, text, entered, payload in s.execute(
            select(HallMember.player_id, PlayerRow.text, HallMember.entered, PlayerRow.payload)
            .join(PlayerRow, PlayerRow.id == HallMember.player_id)
            .where(HallMember.run_id == run_id)
            .order_by(HallMember.entered, PlayerRow.birth, PlayerRow.text)).all()]


def hall_ranked(db: Database, run_id: int, limit: int | None = None, generation: int | None = None
                ) -> list[HallEntry]:
    """The hall best first by its latest ratings (or those after
    ``generation``): rating, earlier entry, text. [] before any fit."""
    with db.session() as s:
        return _hall_ranked(s, run_id, limit, generation)


def other_halls(db: Database, run_id: int, ctype: str, per_run: int) -> list[Individual]:
    """The top ``per_run`` of each other run's hall whose players have this
    type, by run id (ratings of different halls share no scale)."""
    return [entry.chromosome() for entry in other_hall_entries(db, run_id, ctype, per_run)]


def other_hall_entries(db: Database, run_id: int, ctype: str, per_run: int) -> list[HallEntry]:
    """The hall entries of :func:`other_halls` (their player ids are the
    other runs' rows: where a re-entered member came from)."""
    found: list[HallEntry] = []
    with db.session() as s:
        for other in s.scalars(select(Run.id).where(Run.id != run_id).order_by(Run.id)).all():
            for entry in _hall_ranked(s, other, per_run):
                if entry.text.startswith(ctype + "_"):
                    found.append(entry)
    return found

"""The read side of the run database: every question asked of a run, one place.

``best``, ``history``, ``plot``, ``status``, ``runs``, ``export``, the web
page and the coordinator's own ranking questions all call these functions;
the CLI and the web only format what they return. Each function answers in
one short transaction (a read of the WAL database never blocks the
coordinator's commits) and returns frozen values, never ORM rows, so nothing
reaches back into a session once the answer is given. The only writer stays
the coordinator, through :class:`~genethello.cluster.run.run_store.RunStore`.

One module per kind of question:

* :mod:`.anchor` - what a run's hall ratings are relative to, at what depth;
* :mod:`.runs` - which runs there are and where each stands;
* :mod:`.ranking` - players best first (by hall, Elo or yardstick), the hall;
* :mod:`.history` - one row a generation, with the yardstick's intervals;
* :mod:`.games` - stored games, for export and replay;
* :mod:`.family_charts` - what a run's family charts of its best so far;
* :mod:`.champions` - a run's champions and settings, for ``compare``;
* :mod:`.lineage` - a player's family tree, and which operators pay.
"""

from genethello.cluster.reads.anchor import FIRST_CHAMPION, RatingAnchor, has_measure, rating_anchor, run_line
from genethello.cluster.reads.champions import (
    Champion,
    NoFinishedGenerationError,
    RunChampions,
    finished_generations,
    run_champions,
)
from genethello.cluster.reads.family_charts import ChampionChart, ChampionSeries, champion_chart, run_family
from genethello.cluster.reads.fitness_keeping import keeps_game_records, rating_name
from genethello.cluster.reads.games import StoredGame, select_games
from genethello.cluster.reads.history import GenerationRow, YardstickRow, generation_rows, latest_measure
from genethello.cluster.reads.lineage import (
    TOP_FRACTION,
    GenerationOperators,
    LineageNode,
    OperatorCount,
    OperatorStats,
    find_player,
    lineage,
    operator_stats,
    origins_of,
)
from genethello.cluster.reads.ranking import (
    BY_HALL,
    RANKINGS,
    HallEntry,
    PlayerRecord,
    RankedPlayer,
    Standing,
    Standings,
    best,
    hall_members,
    hall_ranked,
    other_hall_entries,
    other_halls,
    ranked,
    ranked_by_score,
    standings,
)
from genethello.cluster.reads.runs import (
    GenerationProgress,
    RunInfo,
    RunListing,
    RunState,
    change_key,
    current_generation,
    find_run,
    games_with_moves,
    list_runs,
    player_record,
    player_text,
    run_state,
)

__all__ = [
    "FIRST_CHAMPION", "RatingAnchor", "has_measure", "rating_anchor", "run_line",
    "BY_HALL", "RANKINGS", "Champion", "ChampionChart", "ChampionSeries", "NoFinishedGenerationError", "RunChampions",
    "champion_chart", "finished_generations", "keeps_game_records", "rating_name", "run_champions", "run_family",
    "TOP_FRACTION", "GenerationOperators", "LineageNode", "OperatorCount", "OperatorStats", "find_player", "lineage",
    "operator_stats", "origins_of",
    "GenerationProgress", "GenerationRow", "HallEntry", "PlayerRecord", "RankedPlayer", "RunInfo",
    "RunListing", "RunState", "Standing", "Standings", "StoredGame", "YardstickRow", "best", "change_key",
    "current_generation", "find_run", "games_with_moves", "generation_rows", "latest_measure", "hall_members",
    "hall_ranked",
    "list_runs", "other_hall_entries", "other_halls", "player_record", "player_text", "ranked", "ranked_by_score",
    "run_state", "select_games", "standings",
]
